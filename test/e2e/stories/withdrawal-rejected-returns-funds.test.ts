/**
 * Story: a withdrawal is rejected and the funds come back. Over real HTTP: Erin has 50 USDT and
 * asks to withdraw 30 (fee 1, demo catalogue); while it waits, the 31 locked cannot be spent
 * elsewhere; the operator rejects it, which unlocks everything and writes no flow row; the record
 * shows the rejection; the same funds then leave through a withdrawal the operator approves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flows, totalFreeLocked } from '../../support/account-reads.js';
import { ok, refused } from '../../support/answers.js';
import type { SpotClient } from '../../support/clients.js';
import { Operator } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

interface WithdrawalRecord {
  orderId: string;
  status: number;
  statusCode: string;
  txid: string;
  walletHandleTime: string;
}

describe('story: withdrawal rejected returns funds', () => {
  let t: TestServer;
  let op: Operator;
  let erin: SpotClient;
  let firstId: string;

  const usdt = (): Promise<string> => totalFreeLocked(erin, 'USDT');
  const flowRows = async (): Promise<string[][]> => (await flows(erin, { tokenId: 'USDT' })).map((f) => [f.flowType, f.change, f.total]);
  const verifyOk = async (): Promise<boolean> => (await op.ok<{ ok: boolean }>('GET', '/verify')).ok;

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    // Erin's main key; step 2 tries to move the locked funds to her sub-account.
    erin = (await op.family({ USDT: '50' })).main;
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
    const settled = await op.ok<{ withdrawalId: string; status: number }>('POST', `/withdrawals/${firstId}/reject`, { reason: 'address failed screening' });
    const after = Date.now();
    expect([settled.withdrawalId, settled.status]).toEqual([firstId, 2]);
    const record = ok<WithdrawalRecord>(await erin.signed('GET', '/openapi/v1/withdraw/detail', { orderId: firstId }));
    expect([record.status, record.statusCode, record.txid]).toEqual([2, 'BROKER_REJECT_STATUS', '']);
    expect(Number(record.walletHandleTime)).toBeGreaterThanOrEqual(before);
    expect(Number(record.walletHandleTime)).toBeLessThanOrEqual(after);
    expect(await usdt()).toBe('50/50/0');
    expect(await flowRows()).toEqual([['DEPOSIT', '50', '50']]);
    expect(await verifyOk()).toBe(true);
  });

  it('4. a rejected withdrawal cannot be approved afterwards', async () => {
    const answer = await op.admin.send('POST', `/withdrawals/${firstId}/approve`, { txId: 'late' });
    refused(answer, -1130, "Data sent for paramter 'status' is not valid.");
    expect(await usdt()).toBe('50/50/0');
  });

  it('5. the returned funds are spendable: a withdrawal of 49 plus the fee of 1 takes all 50, and the operator approves it', async () => {
    const secondId = ok<{ orderId: string }>(
      await erin.signed('POST', '/openapi/v1/withdraw', { tokenId: 'USDT', clientOrderId: 'erin-3', address: '0xErinWallet', withdrawQuantity: '49' }),
    ).orderId;
    expect(await usdt()).toBe('50/0/50');
    await op.ok('POST', `/withdrawals/${secondId}/approve`, { txId: '0xabc' });
    expect(await usdt()).toBe('0/0/0');
    expect(await flowRows()).toEqual([
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
