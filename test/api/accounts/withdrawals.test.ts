/**
 * A23 withdraw, A24 withdrawal list, A25 withdrawal detail (docs/spot-api.md "Deposits and withdrawals") and the operator's approve
 * and reject (docs/spot-api.md "Deposits and withdrawals"), over real HTTP. Demo catalogue: USDT fee 1, minimum 10 (chains TRC20 first);
 * BTC fee 0.0005, minimum 0.001.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance as a19Balance } from '../../support/account-reads.js';
import { ok, refused } from '../../support/answers.js';
import type { HttpAnswer } from '../../support/clients.js';
import { Operator, type Member } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

interface WithdrawalRecord {
  time: string;
  orderId: string;
  clientOrderId: string;
  status: number;
  statusCode: string;
  txid: string;
  walletHandleTime: string;
}
interface Balance {
  asset: string;
  free: string;
  locked: string;
}

const WITHDRAW = '/openapi/v1/withdraw';

describe('A23 withdraw, A24 withdrawal list, A25 withdrawal detail', () => {
  let t: TestServer;
  let op: Operator;

  const withdraw = (who: Member, params: Record<string, string>): Promise<HttpAnswer> => who.client.signed('POST', WITHDRAW, params);
  const withdrawOk = async (who: Member, params: Record<string, string>): Promise<string> => ok<{ orderId: string }>(await withdraw(who, params)).orderId;
  /** Free and locked of one asset, without the total. */
  const balance = async (who: Member, asset: string): Promise<Balance> => {
    const { free, locked } = await a19Balance(who.client, asset);
    return { asset, free, locked };
  };
  const detail = async (who: Member, params: Record<string, string>): Promise<WithdrawalRecord> =>
    ok<WithdrawalRecord>(await who.client.signed('GET', '/openapi/v1/withdraw/detail', params));
  const list = async (who: Member, params: Record<string, string | number> = {}): Promise<WithdrawalRecord[]> =>
    ok<WithdrawalRecord[]>(await who.client.signed('GET', '/openapi/v1/withdrawalOrders', params));

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
  });
  afterAll(async () => t.stop());

  describe('A23', () => {
    it('when a withdrawal is requested, then it answers the documented body and locks quantity plus fee', async () => {
      const alice = await op.member({ USDT: '500' });
      const answer = await withdraw(alice, { tokenId: 'USDT', clientOrderId: 'w-1', address: 'TXYZabc', withdrawQuantity: '100', chainType: 'TRC20' });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: 0, success: true, needBrokerAudit: true, orderId: expect.stringMatching(/^[1-9][0-9]*$/) as string });
      expect(await balance(alice, 'USDT')).toEqual({ asset: 'USDT', free: '399', locked: '101' });
    });

    it('when the same clientOrderId comes again with the same values, then the first reply comes back and nothing more is locked', async () => {
      const alice = await op.member({ USDT: '500' });
      const params = { tokenId: 'USDT', clientOrderId: 'retry-me', address: 'TXYZabc', withdrawQuantity: '100', chainType: 'TRC20' };
      const first = await withdraw(alice, params);
      // Values compare as values (docs/spot-api.md "Methods and parameters"): "100.0" is "100"; the default chain is the one sent first.
      const again = await withdraw(alice, { ...params, withdrawQuantity: '100.0', tokenId: 'usdt' });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(await balance(alice, 'USDT')).toEqual({ asset: 'USDT', free: '399', locked: '101' });
      expect(await list(alice)).toHaveLength(1);
    });

    it.each([
      ['another quantity', { withdrawQuantity: '101' }],
      ['another address', { address: 'TOTHER' }],
      ['another chain', { chainType: 'ERC20' }],
      ['another addressExt', { addressExt: 'memo-2' }],
    ])('when the same clientOrderId comes with %s, then -1174 and nothing changes', async (_what, change) => {
      const alice = await op.member({ USDT: '500' });
      const params = { tokenId: 'USDT', clientOrderId: 'once', address: 'TXYZabc', withdrawQuantity: '100', chainType: 'TRC20' };
      await withdrawOk(alice, params);
      refused(await withdraw(alice, { ...params, ...change }), -1174, 'Repeated submit request.');
      expect(await balance(alice, 'USDT')).toEqual({ asset: 'USDT', free: '399', locked: '101' });
    });

    it('when a refused withdrawal is retried with the same clientOrderId after funding, then it is accepted: a refusal leaves no trace', async () => {
      const alice = await op.member({ USDT: '10' });
      const params = { tokenId: 'USDT', clientOrderId: 'w-late', address: 'TXYZabc', withdrawQuantity: '10' };
      refused(await withdraw(alice, params), -1131, 'Balance insufficient');
      await op.deposit(alice.accountId, 'USDT', '1');
      await withdrawOk(alice, params);
      expect(await balance(alice, 'USDT')).toEqual({ asset: 'USDT', free: '0', locked: '11' });
    });

    it('when quantity plus fee is exactly the free balance, then it is accepted; one atom more is -1131', async () => {
      const alice = await op.member({ BTC: '1' });
      const oneAtomTooMany = { tokenId: 'BTC', clientOrderId: 'w-a', address: 'bc1qxyz', withdrawQuantity: '0.99950001' };
      refused(await withdraw(alice, oneAtomTooMany), -1131, 'Balance insufficient');
      await withdrawOk(alice, { tokenId: 'BTC', clientOrderId: 'w-b', address: 'bc1qxyz', withdrawQuantity: '0.9995' });
      expect(await balance(alice, 'BTC')).toEqual({ asset: 'BTC', free: '0', locked: '1' });
    });

    it.each([
      ['a fiat asset', -1130, { tokenId: 'MXN' }, "Data sent for paramter 'tokenId' is not valid."],
      ['an unknown asset', -1130, { tokenId: 'DOGE' }, "Data sent for paramter 'tokenId' is not valid."],
      ['a quantity under minWithdraw', -1130, { withdrawQuantity: '9.99999999' }, "Data sent for paramter 'withdrawQuantity' is not valid."],
      ['a quantity beyond the asset precision', -1130, { withdrawQuantity: '10.000000001' }, "Data sent for paramter 'withdrawQuantity' is not valid."],
      ['a zero quantity', -1130, { withdrawQuantity: '0' }, "Data sent for paramter 'withdrawQuantity' is not valid."],
      ['a chain the asset does not have', -1130, { chainType: 'BTC' }, "Data sent for paramter 'chainType' is not valid."],
      ['no tokenId', -1102, { tokenId: '' }, "Mandatory parameter 'tokenId' was not sent, was empty/null, or malformed."],
      ['no clientOrderId', -1102, { clientOrderId: '' }, "Mandatory parameter 'clientOrderId' was not sent, was empty/null, or malformed."],
      ['no address', -1102, { address: '' }, "Mandatory parameter 'address' was not sent, was empty/null, or malformed."],
      ['no withdrawQuantity', -1102, { withdrawQuantity: '' }, "Mandatory parameter 'withdrawQuantity' was not sent, was empty/null, or malformed."],
      ['more than the free balance', -1131, { withdrawQuantity: '500' }, 'Balance insufficient'],
    ])('when requested with %s, then it is refused with %i and nothing is locked', async (_what, code, change, msg) => {
      const alice = await op.member({ USDT: '500' });
      const params: Record<string, string> = { tokenId: 'USDT', clientOrderId: 'w-x', address: 'TXYZabc', withdrawQuantity: '10', ...change };
      for (const [name, value] of Object.entries(params)) if (value === '') delete params[name];
      refused(await withdraw(alice, params), code, msg);
      expect(await balance(alice, 'USDT')).toEqual({ asset: 'USDT', free: '500', locked: '0' });
      expect(await list(alice)).toEqual([]);
    });

    it('when the key lacks the WITHDRAW permission, then -2015 and A19 says canWithdraw false', async () => {
      const alice = await op.member({ USDT: '500' }, { permissions: ['USER_DATA', 'TRADE'] });
      refused(
        await withdraw(alice, { tokenId: 'USDT', clientOrderId: 'w-1', address: 'TXYZabc', withdrawQuantity: '10' }),
        -2015,
        'Invalid API-key, IP, or permissions for action.',
      );
      const account = await alice.client.signed('GET', '/openapi/v1/account');
      expect((account.body as { canWithdraw: boolean }).canWithdraw).toBe(false);
    });
  });

  describe('A24 and A25', () => {
    it('when a withdrawal waits, then A25 by orderId and by clientOrderId and A24 show the full auditing record', async () => {
      const alice = await op.member({ USDT: '500' });
      const before = Date.now();
      const orderId = await withdrawOk(alice, {
        tokenId: 'USDT',
        clientOrderId: 'w-1',
        address: 'TXYZabc',
        addressExt: 'memo',
        withdrawQuantity: '100.50',
        chainType: 'ERC20',
      });
      const after = Date.now();
      const record = await detail(alice, { orderId });
      expect(record).toEqual({
        time: record.time,
        orderId,
        clientOrderId: 'w-1',
        accountId: alice.accountId,
        tokenId: 'USDT',
        tokenName: 'USDT',
        chainType: 'ERC20',
        address: 'TXYZabc',
        addressExt: 'memo',
        quantity: '100.5',
        arriveQuantity: '100.5',
        statusCode: 'BROKER_AUDITING_STATUS',
        status: 1,
        txid: '',
        txidUrl: '',
        walletHandleTime: '0',
        feeTokenId: 'USDT',
        feeTokenName: 'USDT',
        fee: '1',
        requiredConfirmNum: 0,
        confirmNum: 0,
        kernelId: '',
        isInternalTransfer: false,
      });
      expect(Number(record.time)).toBeGreaterThanOrEqual(before);
      expect(Number(record.time)).toBeLessThanOrEqual(after);
      expect(await detail(alice, { clientOrderId: 'w-1' })).toEqual(record);
      expect(await list(alice)).toEqual([record]);
    });

    it('when the operator approves with a txId, then the record is status 6 with that txid and a settlement time', async () => {
      const alice = await op.member({ USDT: '500' });
      const orderId = await withdrawOk(alice, { tokenId: 'USDT', clientOrderId: 'w-1', address: 'TXYZabc', withdrawQuantity: '100' });
      const before = Date.now();
      await op.ok('POST', `/withdrawals/${orderId}/approve`, { txId: 'chain-tx-42' });
      const after = Date.now();
      const record = await detail(alice, { orderId });
      expect({ status: record.status, statusCode: record.statusCode, txid: record.txid }).toEqual({
        status: 6,
        statusCode: 'WITHDRAWAL_SUCCESS_STATUS',
        txid: 'chain-tx-42',
      });
      expect(Number(record.walletHandleTime)).toBeGreaterThanOrEqual(before);
      expect(Number(record.walletHandleTime)).toBeLessThanOrEqual(after);
      expect(await balance(alice, 'USDT')).toEqual({ asset: 'USDT', free: '399', locked: '0' });
    });

    it('when the operator approves without a txId, then the txid is 64 random hex digits', async () => {
      const alice = await op.member({ BTC: '1' });
      const orderId = await withdrawOk(alice, { tokenId: 'BTC', clientOrderId: 'w-1', address: 'bc1qxyz', withdrawQuantity: '0.5' });
      await op.ok('POST', `/withdrawals/${orderId}/approve`, {});
      expect((await detail(alice, { orderId })).txid).toMatch(/^[0-9a-f]{64}$/);
    });

    it('when the operator rejects, then the record is status 2, funds are unlocked, and a second settlement is -1130', async () => {
      const alice = await op.member({ USDT: '500' });
      const orderId = await withdrawOk(alice, { tokenId: 'USDT', clientOrderId: 'w-1', address: 'TXYZabc', withdrawQuantity: '100' });
      await op.ok('POST', `/withdrawals/${orderId}/reject`, { reason: 'address on a sanctions list' });
      const record = await detail(alice, { clientOrderId: 'w-1' });
      expect({ status: record.status, statusCode: record.statusCode, txid: record.txid }).toEqual({ status: 2, statusCode: 'BROKER_REJECT_STATUS', txid: '' });
      expect(record.walletHandleTime).not.toBe('0');
      expect(await balance(alice, 'USDT')).toEqual({ asset: 'USDT', free: '500', locked: '0' });
      for (const action of ['approve', 'reject']) {
        const again = await op.admin.send('POST', `/withdrawals/${orderId}/${action}`, {});
        refused(again, -1130, "Data sent for paramter 'status' is not valid.");
      }
    });

    it('when several withdrawals exist, then A24 pages like A21 and filters by token', async () => {
      const alice = await op.member({ USDT: '500', BTC: '1' });
      const ids: string[] = [];
      for (const [tokenId, quantity] of [
        ['USDT', '10'],
        ['BTC', '0.001'],
        ['USDT', '11'],
        ['USDT', '12'],
      ]) {
        ids.push(await withdrawOk(alice, { tokenId, clientOrderId: `w-${ids.length}`, address: 'ADDRxyz', withdrawQuantity: quantity }));
      }
      expect((await list(alice)).map((r) => r.orderId)).toEqual(ids);
      expect((await list(alice, { limit: 2 })).map((r) => r.orderId)).toEqual(ids.slice(2));
      expect((await list(alice, { fromId: ids[0], limit: 2 })).map((r) => r.orderId)).toEqual(ids.slice(1, 3));
      expect((await list(alice, { token: 'USDT' })).map((r) => r.clientOrderId)).toEqual(['w-0', 'w-2', 'w-3']);
      expect((await list(alice, { tokenId: 'btc' })).map((r) => r.clientOrderId)).toEqual(['w-1']);
      const post = await alice.client.signed('POST', '/openapi/account/v1/withdrawalOrders', { token: 'BTC' }, { place: 'body' });
      expect((post.body as WithdrawalRecord[]).map((r) => r.clientOrderId)).toEqual(['w-1']);
    });

    it("when A25 names no id, an unknown one, or another account's withdrawal, then -1102 or -2013", async () => {
      const alice = await op.member({ USDT: '500' });
      const bob = await op.member();
      const orderId = await withdrawOk(alice, { tokenId: 'USDT', clientOrderId: 'w-1', address: 'TXYZabc', withdrawQuantity: '10' });
      refused(
        await alice.client.signed('GET', '/openapi/v1/withdraw/detail', {}),
        -1102,
        "Param 'orderId' or 'clientOrderId' must be sent, but both were empty/null!",
      );
      // `0` is an absent id (docs/spot-api.md "Methods and parameters").
      refused(
        await alice.client.signed('GET', '/openapi/v1/withdraw/detail', { orderId: '0' }),
        -1102,
        "Param 'orderId' or 'clientOrderId' must be sent, but both were empty/null!",
      );
      refused(await alice.client.signed('GET', '/openapi/v1/withdraw/detail', { orderId: '999999' }), -2013, 'Order does not exist.');
      refused(await alice.client.signed('GET', '/openapi/v1/withdraw/detail', { clientOrderId: 'w-2' }), -2013, 'Order does not exist.');
      refused(await bob.client.signed('GET', '/openapi/v1/withdraw/detail', { orderId }), -2013, 'Order does not exist.');
      refused(await bob.client.signed('POST', '/openapi/v1/withdraw/detail', { clientOrderId: 'w-1' }), -2013, 'Order does not exist.');
      expect(await list(bob)).toEqual([]);
    });
  });
});
