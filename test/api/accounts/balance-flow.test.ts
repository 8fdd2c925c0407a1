/**
 * A31 balance flow (docs/spot-api.md "Sub-accounts and transfers", docs/spot-api.md "Accounts and balances", docs/spot-api.md "Balance flow"): one row per change of free + locked, with its flow
 * type, signed change and the total after it; paging by fromFlowId (ids below) and endFlowId
 * (ids above), limit default 50 max 100, filters by token, flow type and time. A main key may read
 * any account of its user; a sub key reads its own. Trades run on a symbol listed for this file
 * (FLWUSDT), so nothing else can trade into them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flows, type Flow } from '../../support/account-reads.js';
import { refused } from '../../support/answers.js';
import { clockPast } from '../../support/clock.js';
import { Operator, type Member } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

const FLOW = '/openapi/v1/balance_flow';

const brief = (rows: Flow[]): string[][] => rows.map((r) => [r.tokenId, r.flowType, r.change, r.total]);

describe('A31 balance flow', () => {
  let t: TestServer;
  let op: Operator;

  const order = async (who: Member, params: Record<string, string>): Promise<void> => {
    const answer = await who.client.signed('POST', '/openapi/v1/order', { symbol: 'FLWUSDT', type: 'LIMIT', timeInForce: 'GTC', ...params });
    expect(answer.status, answer.text).toBe(200);
  };

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    await op.listUsdtMarket({ asset: 'FLW', precision: 8, chains: ['FLW'], withdrawFee: '0.1', minWithdraw: '1' });
  });
  afterAll(async () => t.stop());

  it('when a deposit arrives, then one DEPOSIT row carries the documented fields and nothing else', async () => {
    const alice = await op.member();
    const before = Date.now();
    await op.deposit(alice.accountId, 'USDT', '379.62405993');
    const after = Date.now();
    const [row, ...rest] = await flows(alice.client);
    expect(rest).toEqual([]);
    expect(row).toEqual({
      id: row.id,
      accountId: alice.accountId,
      token: 'USDT',
      tokenId: 'USDT',
      tokenName: 'USDT',
      flowTypeValue: 4,
      flowType: 'DEPOSIT',
      flowName: 'Deposit',
      change: '379.62405993',
      total: '379.62405993',
      created: row.created,
    });
    expect(row.id).toMatch(/^[1-9][0-9]*$/);
    expect(Number(row.created)).toBeGreaterThanOrEqual(before);
    expect(Number(row.created)).toBeLessThanOrEqual(after);
  });

  it('when two users trade, then each gets TRADE rows in both assets and a FEE row in the asset received', async () => {
    const seller = await op.member({ FLW: '5' });
    const buyer = await op.member({ USDT: '100' });
    await order(seller, { side: 'SELL', price: '10', quantity: '2' });
    await order(buyer, { side: 'BUY', price: '10', quantity: '2' });
    expect(brief(await flows(buyer.client, { tokenId: 'FLW' }))).toEqual([
      ['FLW', 'TRADE', '2', '2'],
      ['FLW', 'FEE', '-0.002', '1.998'],
    ]);
    expect(brief(await flows(buyer.client, { tokenId: 'USDT' }))).toEqual([
      ['USDT', 'DEPOSIT', '100', '100'],
      ['USDT', 'TRADE', '-20', '80'],
    ]);
    expect(brief(await flows(seller.client, { tokenId: 'FLW' }))).toEqual([
      ['FLW', 'DEPOSIT', '5', '5'],
      ['FLW', 'TRADE', '-2', '3'],
    ]);
    expect(brief(await flows(seller.client, { tokenId: 'usdt' }))).toEqual([
      ['USDT', 'TRADE', '20', '20'],
      ['USDT', 'FEE', '-0.02', '19.98'],
    ]);
    const [trade, fee] = await flows(buyer.client, { tokenId: 'FLW' });
    expect([trade.flowTypeValue, trade.flowName, fee.flowTypeValue, fee.flowName]).toEqual([1, 'Trade', 2, 'Fee']);
  });

  it('when a withdrawal is approved, then WITHDRAW (33) and WITHDRAWAL_FEE (35) rows come; a pending lock writes none', async () => {
    const alice = await op.member({ FLW: '10' });
    const withdrawal = { tokenId: 'FLW', clientOrderId: 'w-1', address: 'flw1abc', withdrawQuantity: '4' };
    const answer = await alice.client.signed('POST', '/openapi/v1/withdraw', withdrawal);
    expect(answer.status, answer.text).toBe(200);
    expect(brief(await flows(alice.client))).toEqual([['FLW', 'DEPOSIT', '10', '10']]);
    await op.ok('POST', `/withdrawals/${(answer.body as { orderId: string }).orderId}/approve`, {});
    const rows = await flows(alice.client);
    expect(brief(rows)).toEqual([
      ['FLW', 'DEPOSIT', '10', '10'],
      ['FLW', 'WITHDRAW', '-4', '6'],
      ['FLW', 'WITHDRAWAL_FEE', '-0.1', '5.9'],
    ]);
    expect(rows.slice(1).map((r) => [r.flowTypeValue, r.flowName])).toEqual([
      [33, 'Withdraw'],
      [35, 'Withdrawal fee'],
    ]);
  });

  describe('paging and filters', () => {
    let alice: Member;
    let ids: string[];

    beforeAll(async () => {
      alice = await op.member();
      // 110 deposits of 1 USDT: row k (0-based) has total k + 1 whatever order they commit in.
      await Promise.all(Array.from({ length: 110 }, () => op.deposit(alice.accountId, 'USDT', '1')));
      const rows: Flow[] = [];
      for (let fromFlowId: string | undefined; rows.length < 110; ) {
        const page = await flows(alice.client, { limit: 100, ...(fromFlowId === undefined ? {} : { fromFlowId }) });
        rows.unshift(...page);
        fromFlowId = page[0].id;
      }
      ids = rows.map((r) => r.id);
      expect(rows.map((r) => r.total)).toEqual(Array.from({ length: 110 }, (_, k) => String(k + 1)));
    });

    it('when no limit is sent (or 0), then the newest 50 come, oldest first', async () => {
      expect((await flows(alice.client)).map((r) => r.id)).toEqual(ids.slice(60));
      expect((await flows(alice.client, { limit: 0 })).map((r) => r.id)).toEqual(ids.slice(60));
    });

    it('when limit is over 100, then it is clamped to 100', async () => {
      expect((await flows(alice.client, { limit: 1000 })).map((r) => r.id)).toEqual(ids.slice(10));
    });

    it('when fromFlowId is sent, then the newest `limit` rows below it come', async () => {
      expect((await flows(alice.client, { fromFlowId: ids[80], limit: 10 })).map((r) => r.id)).toEqual(ids.slice(70, 80));
      expect((await flows(alice.client, { fromFlowId: ids[3] })).map((r) => r.id)).toEqual(ids.slice(0, 3));
    });

    it('when only endFlowId is sent, then the first `limit` rows above it come', async () => {
      expect((await flows(alice.client, { endFlowId: ids[5], limit: 3 })).map((r) => r.id)).toEqual(ids.slice(6, 9));
    });

    it('when both are sent, then the rows strictly between come', async () => {
      expect((await flows(alice.client, { fromFlowId: ids[30], endFlowId: ids[20] })).map((r) => r.id)).toEqual(ids.slice(21, 30));
    });

    it('when filtered by flowType, then only that type comes; an unknown type is -1130', async () => {
      expect((await flows(alice.client, { flowType: 51 }))).toEqual([]);
      expect((await flows(alice.client, { flowType: 4, limit: 2 })).map((r) => r.id)).toEqual(ids.slice(108));
      refused(await alice.client.signed('GET', FLOW, { flowType: 5 }), -1130, "Data sent for paramter 'flowType' is not valid.");
    });

    it('when filtered by tokenId, then only that asset comes; an unknown asset is -1130', async () => {
      expect(await flows(alice.client, { tokenId: 'BTC' })).toEqual([]);
      refused(await alice.client.signed('GET', FLOW, { tokenId: 'DOGE' }), -1130, "Data sent for paramter 'tokenId' is not valid.");
    });

    it('when read by POST or at /openapi/v1/balanceFlow or /openapi/account/v1/balance_flow, then the same rows come', async () => {
      const expected = await flows(alice.client, { limit: 5 });
      for (const [method, path] of [
        ['POST', FLOW],
        ['GET', '/openapi/v1/balanceFlow'],
        ['POST', '/openapi/v1/balanceFlow'],
        ['GET', '/openapi/account/v1/balance_flow'],
        ['POST', '/openapi/balance_flow/'],
      ]) {
        const answer = await alice.client.signed(method, path, { limit: 5 }, { place: method === 'POST' ? 'body' : 'query' });
        expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 200, body: expected });
      }
    });
  });

  it('when bounded by startTime and endTime, then rows are selected on created; startTime > endTime is -1128', async () => {
    const alice = await op.member({ ETH: '1' });
    const [first] = await flows(alice.client);
    await clockPast(Number(first.created));
    await op.deposit(alice.accountId, 'ETH', '2');
    const [, second] = await flows(alice.client);
    expect(brief(await flows(alice.client, { endTime: first.created }))).toEqual([['ETH', 'DEPOSIT', '1', '1']]);
    expect(brief(await flows(alice.client, { startTime: second.created }))).toEqual([['ETH', 'DEPOSIT', '2', '3']]);
    expect(await flows(alice.client, { startTime: Number(second.created) + 1 })).toEqual([]);
    refused(await alice.client.signed('GET', FLOW, { startTime: 2, endTime: 1 }), -1128, 'Combination of optional parameters invalid.');
  });

  describe('which account', () => {
    it("when a main key names accountIndex 1, then the sub-account's rows come; without it, the main account's", async () => {
      const alice = await op.member({ USDT: '100' });
      const sub = await op.subAccount(alice.userId);
      await op.deposit(sub.accountId, 'USDT', '7');
      expect((await flows(alice.client, { accountType: 1, accountIndex: 1 })).map((r) => [r.accountId, r.change])).toEqual([[sub.accountId, '7']]);
      expect((await flows(alice.client)).map((r) => [r.accountId, r.change])).toEqual([[alice.accountId, '100']]);
      expect((await flows(alice.client, { accountIndex: 0 })).map((r) => [r.accountId, r.change])).toEqual([[alice.accountId, '100']]);
    });

    it('when a sub key reads, then it gets its own rows whatever accountType and accountIndex say', async () => {
      const alice = await op.member({ USDT: '100' });
      const sub = await op.subAccount(alice.userId);
      await op.deposit(sub.accountId, 'USDT', '7');
      const subClient = await op.keyOf(alice.userId, { accountIndex: 1 });
      for (const params of [{}, { accountIndex: 0 }, { accountType: 2, accountIndex: 5 }] as Record<string, number>[]) {
        expect((await flows(subClient, params)).map((r) => [r.accountId, r.change])).toEqual([[sub.accountId, '7']]);
      }
    });

    it.each([
      ['accountType 2', -1171, { accountType: 2 }, 'Account does not exist.'],
      ['accountType 3', -1171, { accountType: 3 }, 'Account does not exist.'],
      ['an index the user does not have', -1171, { accountIndex: 1 }, 'Account does not exist.'],
      ['accountType 4', -1130, { accountType: 4 }, "Data sent for paramter 'accountType' is not valid."],
    ])('when a main key names %s, then %i', async (_what, code, params, msg) => {
      const alice = await op.member();
      refused(await alice.client.signed('GET', FLOW, params), code, msg);
    });

    it('when the key lacks BALANCE_FLOW, then -2015', async () => {
      const alice = await op.member({}, { permissions: ['USER_DATA', 'ACCOUNT_TRANSFER'] });
      refused(await alice.client.signed('POST', FLOW), -2015, 'Invalid API-key, IP, or permissions for action.');
    });
  });
});
