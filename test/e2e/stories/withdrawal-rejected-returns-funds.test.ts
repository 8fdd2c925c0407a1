/**
 * Story: a withdrawal is rejected and the funds come back. Over real HTTP: Erin has 50 USDT and
 * asks to withdraw 30 (fee 1, demo catalogue); while it waits, the 31 locked cannot be spent
 * elsewhere; the operator rejects it, which unlocks everything and writes no flow row; the record
 * shows the rejection; the same funds then leave through a withdrawal the operator approves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, SpotClient, type HttpAnswer } from '../../support/clients.js';
import { startTestServer, type TestServer } from '../../support/server.js';

interface Flow {
  flowType: string;
  change: string;
  total: string;
}
interface WithdrawalRecord {
  orderId: string;
  status: number;
  statusCode: string;
  txid: string;
  walletHandleTime: string;
}

function ok<T>(answer: HttpAnswer): T {
  expect(answer.status, answer.text).toBe(200);
  return answer.body as T;
}

function refused(answer: HttpAnswer, code: number, msg: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { code, msg } });
}

describe('story: withdrawal rejected returns funds', () => {
  let t: TestServer;
  let admin: AdminClient;
  let erin: SpotClient;
  let firstId: string;

  const adminOk = async <T>(method: string, path: string, body?: unknown): Promise<T> => ok<T>(await admin.send(method, path, body));
  const usdt = async (): Promise<string> => {
    const body = ok<{ balances: { asset: string; total: string; free: string; locked: string }[] }>(await erin.signed('GET', '/openapi/v1/account'));
    const b = body.balances.find((x) => x.asset === 'USDT');
    return `${b?.total}/${b?.free}/${b?.locked}`;
  };
  const flows = async (): Promise<string[][]> =>
    ok<Flow[]>(await erin.signed('GET', '/openapi/v1/balance_flow', { tokenId: 'USDT' })).map((f) => [f.flowType, f.change, f.total]);
  const verifyOk = async (): Promise<boolean> => (await adminOk<{ ok: boolean }>('GET', '/verify')).ok;

  beforeAll(async () => {
    t = await startTestServer();
    admin = new AdminClient(t.url, t.adminToken);
    const user = await adminOk<{ userId: string; accountId: string }>('POST', '/users', {});
    await adminOk('POST', `/users/${user.userId}/sub-accounts`, {});
    await adminOk('POST', '/deposits', { accountId: user.accountId, asset: 'USDT', amount: '50' });
    const key = await adminOk<{ apiKey: string; secretKey: string }>('POST', `/users/${user.userId}/api-keys`, {});
    erin = new SpotClient(t.url, key.apiKey, key.secretKey);
  });
  afterAll(async () => t.stop());

  it('1. Erin asks to withdraw 30 USDT on ERC20: 31 is locked, the record waits for audit', async () => {
    firstId = ok<{ orderId: string }>(
      await erin.signed('POST', '/openapi/v1/withdraw', {
        tokenId: 'USDT',
        clientOrderId: 'erin-1',
        address: '0xErinWallet',
        withdrawQuantity: '30',
        chainType: 'ERC20',
      }),
    ).orderId;
    expect(await usdt()).toBe('50/19/31');
    const [record] = ok<WithdrawalRecord[]>(await erin.signed('GET', '/openapi/v1/withdrawalOrders'));
    expect([record.orderId, record.status, record.statusCode, record.walletHandleTime]).toEqual([firstId, 1, 'BROKER_AUDITING_STATUS', '0']);
  });

  it('2. while it waits, the locked funds cannot be withdrawn again or transferred', async () => {
    refused(
      await erin.signed('POST', '/openapi/v1/withdraw', { tokenId: 'USDT', clientOrderId: 'erin-2', address: '0xErinWallet', withdrawQuantity: '19' }),
      -1131,
      'Balance insufficient',
    );
    refused(
      await erin.signed('POST', '/openapi/v1/transfer', {
        fromAccountType: 1,
        fromAccountIndex: 0,
        toAccountType: 1,
        toAccountIndex: 1,
        tokenId: 'USDT',
        amount: '19.00000001',
      }),
      -1131,
      'Balance insufficient',
    );
    expect(await usdt()).toBe('50/19/31');
  });

  it('3. the operator rejects it: status 2, all 50 free again, and no flow row was ever written for it', async () => {
    const before = Date.now();
    const settled = await adminOk<{ withdrawalId: string; status: number }>('POST', `/withdrawals/${firstId}/reject`, { reason: 'address failed screening' });
    const after = Date.now();
    expect([settled.withdrawalId, settled.status]).toEqual([firstId, 2]);
    const record = ok<WithdrawalRecord>(await erin.signed('GET', '/openapi/v1/withdraw/detail', { orderId: firstId }));
    expect([record.status, record.statusCode, record.txid]).toEqual([2, 'BROKER_REJECT_STATUS', '']);
    expect(Number(record.walletHandleTime)).toBeGreaterThanOrEqual(before);
    expect(Number(record.walletHandleTime)).toBeLessThanOrEqual(after);
    expect(await usdt()).toBe('50/50/0');
    expect(await flows()).toEqual([['DEPOSIT', '50', '50']]);
    expect(await verifyOk()).toBe(true);
  });

  it('4. a rejected withdrawal cannot be approved afterwards', async () => {
    const answer = await admin.send('POST', `/withdrawals/${firstId}/approve`, { txId: 'late' });
    refused(answer, -1130, "Data sent for paramter 'status' is not valid.");
    expect(await usdt()).toBe('50/50/0');
  });

  it('5. the returned funds are spendable: a withdrawal of 49 plus the fee of 1 takes all 50, and the operator approves it', async () => {
    const secondId = ok<{ orderId: string }>(
      await erin.signed('POST', '/openapi/v1/withdraw', { tokenId: 'USDT', clientOrderId: 'erin-3', address: '0xErinWallet', withdrawQuantity: '49' }),
    ).orderId;
    expect(await usdt()).toBe('50/0/50');
    await adminOk('POST', `/withdrawals/${secondId}/approve`, { txId: '0xabc' });
    expect(await usdt()).toBe('0/0/0');
    expect(await flows()).toEqual([
      ['DEPOSIT', '50', '50'],
      ['WITHDRAW', '-49', '1'],
      ['WITHDRAWAL_FEE', '-1', '0'],
    ]);
    const statuses = ok<WithdrawalRecord[]>(await erin.signed('GET', '/openapi/v1/withdrawalOrders')).map((w) => [w.orderId, w.status]);
    expect(statuses).toEqual([
      [firstId, 2],
      [secondId, 6],
    ]);
    expect(await verifyOk()).toBe(true);
  });
});
