/**
 * A21 deposit list and A22 deposit address (docs/spot-api.md "Deposits and withdrawals"), over real HTTP against a fresh server.
 * Deposits arrive only through the operator (docs/spot-api.md "Deposits and withdrawals"), so every test credits them with
 * `POST /admin/v1/deposits` and then reads them back as the account's key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositAddress } from '../../support/account-reads.js';
import { ok, refused } from '../../support/answers.js';
import { clockPast } from '../../support/clock.js';
import { Operator, type Member } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

interface DepositRecord {
  time: string;
  orderId: string;
  accountId: string;
  token: string;
  address: string;
  quantity: string;
  txid: string;
}

describe('A21 deposit list and A22 deposit address', () => {
  let t: TestServer;
  let op: Operator;

  const list = async (who: Member, params: Record<string, string | number> = {}): Promise<DepositRecord[]> =>
    ok<DepositRecord[]>(await who.client.signed('GET', '/openapi/v1/depositOrders', params));

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
  });
  afterAll(async () => t.stop());

  describe('A21', () => {
    it('when the operator credits a crypto deposit, then A21 lists the full record with the first chain address and the txId', async () => {
      const alice = await op.member();
      const before = Date.now();
      const depositId = await op.deposit(alice.accountId, 'USDT', '1000.50', 'chain-tx-1');
      const after = Date.now();
      const [record, ...rest] = await list(alice);
      expect(rest).toEqual([]);
      expect(record).toEqual({
        time: record.time,
        orderId: depositId,
        accountId: alice.accountId,
        token: 'USDT',
        tokenId: 'USDT',
        tokenName: 'USDT',
        address: depositAddress(alice.accountId, 'USDT', 'TRC20'),
        addressTag: '',
        fromAddress: '',
        fromAddressTag: '',
        quantity: '1000.5',
        status: 2,
        statusCode: 'DEPOSIT_CAN_WITHDRAW',
        requiredConfirmNum: 0,
        confirmNum: 0,
        txid: 'chain-tx-1',
        txidUrl: '',
      });
      expect(record.time).toMatch(/^[0-9]+$/);
      expect(Number(record.time)).toBeGreaterThanOrEqual(before);
      expect(Number(record.time)).toBeLessThanOrEqual(after);
    });

    it('when a fiat deposit has no txId, then its address is "" and its txid is 64 random hex digits', async () => {
      const alice = await op.member();
      await op.deposit(alice.accountId, 'MXN', '2500');
      const [record] = await list(alice);
      expect(record.address).toBe('');
      expect(record.quantity).toBe('2500');
      expect(record.txid).toMatch(/^[0-9a-f]{64}$/);
    });

    it('when the account has several deposits, then the newest `limit` come oldest first, and fromId gives the first `limit` above it', async () => {
      const alice = await op.member();
      const ids: string[] = [];
      for (const amount of ['1', '2', '3', '4', '5']) ids.push(await op.deposit(alice.accountId, 'BTC', amount));
      expect((await list(alice)).map((r) => r.orderId)).toEqual(ids);
      expect((await list(alice, { limit: 2 })).map((r) => r.quantity)).toEqual(['4', '5']);
      expect((await list(alice, { fromId: ids[1], limit: 2 })).map((r) => r.quantity)).toEqual(['3', '4']);
      // `0` is absent for optional ids and limits (docs/spot-api.md "Methods and parameters"): the Java SDK sends them.
      expect((await list(alice, { fromId: 0, limit: 0 })).map((r) => r.orderId)).toEqual(ids);
    });

    it('when filtered by token (or its alias tokenId, any case), then only that asset is listed', async () => {
      const alice = await op.member();
      await op.deposit(alice.accountId, 'BTC', '0.5');
      await op.deposit(alice.accountId, 'ETH', '3');
      await op.deposit(alice.accountId, 'BTC', '0.25');
      expect((await list(alice, { token: 'BTC' })).map((r) => r.quantity)).toEqual(['0.5', '0.25']);
      expect((await list(alice, { tokenId: 'eth' })).map((r) => [r.token, r.quantity])).toEqual([['ETH', '3']]);
      refused(await alice.client.signed('GET', '/openapi/v1/depositOrders', { token: 'DOGE' }), -1130, "Data sent for paramter 'token' is not valid.");
    });

    it('when bounded by startTime and endTime, then only deposits in [startTime, endTime] come; startTime > endTime is -1128', async () => {
      const alice = await op.member();
      await op.deposit(alice.accountId, 'USDT', '10');
      const [first] = await list(alice);
      await clockPast(Number(first.time));
      await op.deposit(alice.accountId, 'USDT', '20');
      const all = await list(alice);
      expect(all.map((r) => r.quantity)).toEqual(['10', '20']);
      expect((await list(alice, { endTime: first.time })).map((r) => r.quantity)).toEqual(['10']);
      expect((await list(alice, { startTime: all[1].time })).map((r) => r.quantity)).toEqual(['20']);
      refused(
        await alice.client.signed('GET', '/openapi/v1/depositOrders', { startTime: 2, endTime: 1 }),
        -1128,
        'Combination of optional parameters invalid.',
      );
    });

    it('when read by POST, under the /openapi and /openapi/account/v1 aliases or with a trailing slash, then the same list comes', async () => {
      const alice = await op.member();
      await op.deposit(alice.accountId, 'ETH', '1.25');
      const expected = await list(alice);
      for (const [method, path] of [
        ['POST', '/openapi/v1/depositOrders'],
        ['GET', '/openapi/depositOrders'],
        ['POST', '/openapi/account/v1/depositOrders'],
        ['GET', '/openapi/v1/depositOrders/'],
      ]) {
        const answer = await alice.client.signed(method, path, {}, { place: method === 'POST' ? 'body' : 'query' });
        expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 200, body: expected });
      }
    });

    it("when another user or a sub-account of the same user reads A21, then it never sees this account's deposits", async () => {
      const alice = await op.member();
      const bob = await op.member();
      await op.deposit(alice.accountId, 'USDT', '77');
      await op.subAccount(alice.userId);
      const sub = await op.keyOf(alice.userId, { accountIndex: 1 });
      expect(await list(bob)).toEqual([]);
      const subAnswer = await sub.signed('GET', '/openapi/v1/depositOrders');
      expect(subAnswer.body).toEqual([]);
    });
  });

  describe('A22', () => {
    it('when asked for USDT without chainType, then the first chain (TRC20) answers with the documented body', async () => {
      const alice = await op.member();
      const answer = await alice.client.signed('GET', '/openapi/v1/depositAddress', { tokenId: 'USDT' });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        allowDeposit: true,
        address: depositAddress(alice.accountId, 'USDT', 'TRC20'),
        addressExt: '',
        minQuantity: '0',
        needAddressTag: false,
        requiredConfirmNum: 0,
        canWithdrawConfirmNum: 0,
        tokenType: 'TRX_TOKEN',
      });
    });

    it.each([
      ['USDT', 'ERC20', 'ERC20_TOKEN'],
      ['USDT', 'bep20', 'BEP20_TOKEN'],
      ['USDT', 'POL', 'POL_TOKEN'],
      ['btc', 'BTC', 'BTC'],
      ['ETH', 'eth', 'ETH'],
    ])('when asked for %s on chain %s, then the address is bourse:<chain>:sha256 and tokenType is %s', async (tokenId, chainType, tokenType) => {
      const alice = await op.member();
      const answer = await alice.client.signed('GET', '/openapi/v1/depositAddress', { tokenId, chainType });
      const body = answer.body as { address: string; tokenType: string };
      expect({ address: body.address, tokenType: body.tokenType }).toEqual({
        address: depositAddress(alice.accountId, tokenId.toUpperCase(), chainType.toUpperCase()),
        tokenType,
      });
    });

    it('when asked twice, by GET and by POST, then the address is the same; a sub-account key gets its own account\'s address', async () => {
      const alice = await op.member();
      const first = await alice.client.signed('GET', '/openapi/v1/depositAddress', { tokenId: 'BTC' });
      const second = await alice.client.signed('POST', '/openapi/v1/depositAddress', { tokenId: 'BTC' }, { place: 'body' });
      expect(second.body).toEqual(first.body);
      const { accountId } = await op.subAccount(alice.userId);
      const sub = await op.keyOf(alice.userId, { accountIndex: 1 });
      const subAnswer = await sub.signed('GET', '/openapi/account/v1/depositAddress', { tokenId: 'BTC' });
      expect((subAnswer.body as { address: string }).address).toBe(depositAddress(accountId, 'BTC', 'BTC'));
      expect((subAnswer.body as { address: string }).address).not.toBe((first.body as { address: string }).address);
    });

    it.each([
      ['tokenId missing', -1102, {}, "Mandatory parameter 'tokenId' was not sent, was empty/null, or malformed."],
      ['a fiat asset', -1130, { tokenId: 'MXN' }, "Data sent for paramter 'tokenId' is not valid."],
      ['an unknown asset', -1130, { tokenId: 'DOGE' }, "Data sent for paramter 'tokenId' is not valid."],
      ['a chain the asset does not have', -1130, { tokenId: 'USDT', chainType: 'BTC' }, "Data sent for paramter 'chainType' is not valid."],
      ['an unknown chain', -1130, { tokenId: 'BTC', chainType: 'LIGHTNING' }, "Data sent for paramter 'chainType' is not valid."],
    ])('when asked with %s, then it is refused with %i', async (_what, code, params, msg) => {
      const alice = await op.member();
      refused(await alice.client.signed('GET', '/openapi/v1/depositAddress', params), code, msg);
    });
  });
});
