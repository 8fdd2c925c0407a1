/**
 * The operator's `GET /admin/v1/verify` (docs/operating.md "Checking the ledger"): per asset, all
 * balances sum to deposits minus withdrawals; every balance equals the sum of its flow rows; with
 * `?replay=1`, a fresh replay of the journal reaches the current state hash. The asset VRF is listed
 * for this file so that its figures are exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../support/clients.js';
import { MAIN_TO_SUB, Operator } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

interface VerifyReport {
  ok: boolean;
  checkedAt: number;
  details: Partial<Record<'asset' | 'accountId' | 'total' | 'deposits' | 'withdrawals' | 'balance' | 'flows' | 'mismatch', string>>[];
  replay?: { ok: boolean; stateHash: string; replayHash: string };
}

describe('operator verify', () => {
  let t: TestServer;
  let op: Operator;
  let aliceAccountId: string;

  beforeAll(async () => {
    // The last test breaks the ledger by tampering with the core's memory, which only an inline core
    // shares with the test (for the worker's verify, see test/unit/exchange/core-thread.test.ts).
    t = await startTestServer({ BOURSE_CORE_THREAD: 'inline' });
    op = new Operator(t);
    await op.ok('POST', '/assets', { asset: 'VRF', precision: 6, chains: ['VRF'], withdrawFee: '0.25', minWithdraw: '1' });
    const alice = await op.user();
    const bob = await op.user();
    aliceAccountId = alice.accountId;
    await op.subAccount(alice.userId);
    await op.deposit(alice.accountId, 'VRF', '10');
    await op.deposit(bob.accountId, 'VRF', '2.5');
    const client = await op.keyOf(alice.userId);
    const calls = [
      client.signed('POST', '/openapi/v1/transfer', { ...MAIN_TO_SUB, tokenId: 'VRF', amount: '1' }),
      client.signed('POST', '/openapi/v1/user/transfer', { targetUserId: bob.userId, clientOrderId: 'u-1', tokenId: 'VRF', amount: '0.5', businessType: 3 }),
      client.signed('POST', '/openapi/v1/withdraw', { tokenId: 'VRF', clientOrderId: 'w-1', address: 'vrf1abc', withdrawQuantity: '4' }),
      client.signed('POST', '/openapi/v1/withdraw', { tokenId: 'VRF', clientOrderId: 'w-2', address: 'vrf1abc', withdrawQuantity: '1' }),
    ];
    const answers = await Promise.all(calls);
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    await op.ok('POST', `/withdrawals/${(answers[2].body as { orderId: string }).orderId}/approve`, { txId: 'vrf-tx' });
    await op.ok('POST', `/withdrawals/${(answers[3].body as { orderId: string }).orderId}/reject`, {});
  });
  afterAll(async () => t.stop());

  it('when deposits, transfers and settled withdrawals have run, then verify is ok with every asset by name and exact VRF figures', async () => {
    const before = Date.now();
    const report = await op.ok<VerifyReport>('GET', '/verify');
    expect(report.ok).toBe(true);
    expect(report.checkedAt).toBeGreaterThanOrEqual(before);
    expect(report.replay).toBeUndefined();
    expect(report.details.map((d) => d.asset)).toEqual(['BTC', 'ETH', 'EUR', 'MXN', 'USD', 'USDT', 'VRF']);
    expect(report.details.every((d) => d.accountId === undefined && d.mismatch === undefined)).toBe(true);
    // 12.5 deposited, 4 withdrawn; the 0.25 fee stays inside, on the FEE account.
    expect(report.details.find((d) => d.asset === 'VRF')).toEqual({ asset: 'VRF', total: '8.5', deposits: '12.5', withdrawals: '4' });
  });

  it('when asked with ?replay=1, then a fresh replay of the journal reaches the same state hash', async () => {
    const report = await op.ok<VerifyReport>('GET', '/verify?replay=1');
    expect(report.ok).toBe(true);
    expect(report.replay?.ok).toBe(true);
    expect(report.replay?.stateHash).toMatch(/^[0-9a-f]{64}$/);
    expect(report.replay?.replayHash).toBe(report.replay?.stateHash);
  });

  it('when a balance drifts from its flows behind the ledger, then verify reports the account, the asset total and the replay as broken', async () => {
    // Tampering with memory is the only way to break the ledger from outside; it proves verify can fail.
    const ledger = t.server.exchange.core.ledger;
    const balance = ledger.account(Number(aliceAccountId)).balances.get('VRF');
    if (balance === undefined) throw new Error('alice holds no VRF');
    balance.free += 1n;
    try {
      const report = await op.ok<VerifyReport>('GET', '/verify?replay=1');
      expect(report.ok).toBe(false);
      expect(report.details.find((d) => d.asset === 'VRF' && d.accountId === undefined)).toEqual({
        asset: 'VRF',
        total: '8.500001',
        deposits: '12.5',
        withdrawals: '4',
        mismatch: '0.000001',
      });
      expect(report.details.find((d) => d.accountId !== undefined)).toEqual({
        accountId: aliceAccountId,
        asset: 'VRF',
        balance: '4.250001',
        flows: '4.25',
        mismatch: '0.000001',
      });
      expect(report.replay?.ok).toBe(false);
      expect(report.replay?.replayHash).not.toBe(report.replay?.stateHash);
    } finally {
      balance.free -= 1n;
    }
    expect((await op.ok<VerifyReport>('GET', '/verify')).ok).toBe(true);
  });

  it('when the bearer token is missing or wrong, then 401 -1002 or -2015', async () => {
    const missing = await request(`${t.url}/admin/v1/verify`);
    const unauthorized = { code: -1002, msg: 'You are not authorized to execute this request.' };
    expect({ status: missing.status, body: missing.body }).toEqual({ status: 401, body: unauthorized });
    const wrong = await request(`${t.url}/admin/v1/verify`, { headers: { Authorization: 'Bearer not-the-token' } });
    expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 401, body: { code: -2015, msg: 'Invalid admin token.' } });
  });
});
