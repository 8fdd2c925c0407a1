/**
 * Story: a transfer of more than the free balance. Over real HTTP: Frank has 100 USDT, 60 of it
 * locked by a resting buy order; every way of moving more than the free 40 (A30 to his sub-account,
 * A32 to another user, A23 withdrawal) is refused with -1131 and changes nothing, not even a flow
 * row; exactly 40 moves; the sub key cannot send back more than it holds; canceling the order frees
 * the rest. SOLUSDT is listed for this story, with no seller, so the order only rests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flows, totalFreeLocked } from '../../support/account-reads.js';
import { ok } from '../../support/answers.js';
import type { HttpAnswer, SpotClient } from '../../support/clients.js';
import { MAIN_TO_SUB, Operator, type UserRef } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

const INSUFFICIENT = { status: 400, body: { code: -1131, msg: 'Balance insufficient' } };

const outcome = (answer: HttpAnswer): { status: number; body: unknown } => ({ status: answer.status, body: answer.body });

describe('story: transfer more than the free balance', () => {
  let t: TestServer;
  let op: Operator;
  let grace: UserRef;
  let main: SpotClient;
  let sub: SpotClient;
  let orderId: string;

  const usdt = (client: SpotClient): Promise<string> => totalFreeLocked(client, 'USDT');
  const flowRows = async (client: SpotClient, params: Record<string, number> = {}): Promise<string[][]> =>
    (await flows(client, { tokenId: 'USDT', ...params })).map((f) => [f.flowType, f.change, f.total]);

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    await op.listUsdtMarket({ asset: 'SOL', precision: 8, chains: ['SOL'] });
    ({ main, sub } = await op.family({ USDT: '100' }));
    grace = await op.user();
  });
  afterAll(async () => t.stop());

  it('1. a resting buy of 1 SOL at 60 locks 60 USDT: 40 stay free', async () => {
    orderId = ok<{ orderId: string; status: string }>(
      await main.signed('POST', '/openapi/v1/order', { symbol: 'SOLUSDT', side: 'BUY', type: 'LIMIT', price: '60', quantity: '1' }),
    ).orderId;
    expect(await usdt(main)).toBe('100/40/60');
  });

  it('2. moving more than the free 40, by A30, A32 or A23, is refused with -1131 and nothing changes', async () => {
    expect(outcome(await main.signed('POST', '/openapi/v1/transfer', { ...MAIN_TO_SUB, tokenId: 'USDT', amount: '50' }))).toEqual(INSUFFICIENT);
    expect(outcome(await main.signed('POST', '/openapi/v1/transfer', { ...MAIN_TO_SUB, tokenId: 'USDT', amount: '40.00000001' }))).toEqual(INSUFFICIENT);
    const gift = { targetUserId: grace.userId, clientOrderId: 'g-1', tokenId: 'USDT', amount: '40.00000001', businessType: 3 };
    expect(outcome(await main.signed('POST', '/openapi/v1/user/transfer', gift))).toEqual(INSUFFICIENT);
    // 39.5 plus the withdrawal fee of 1 is more than 40.
    expect(
      outcome(await main.signed('POST', '/openapi/v1/withdraw', { tokenId: 'USDT', clientOrderId: 'w-1', address: 'TFrankWallet', withdrawQuantity: '39.5' })),
    ).toEqual(INSUFFICIENT);
    expect(await usdt(main)).toBe('100/40/60');
    expect(await usdt(sub)).toBe('0/0/0');
    expect(await flowRows(main)).toEqual([['DEPOSIT', '100', '100']]);
    expect(await flowRows(main, { accountIndex: 1 })).toEqual([]);
    expect(ok(await main.signed('GET', '/openapi/v1/withdrawalOrders'))).toEqual([]);
  });

  it('3. exactly the free 40 moves to the sub-account', async () => {
    expect(ok(await main.signed('POST', '/openapi/v1/transfer', { ...MAIN_TO_SUB, tokenId: 'USDT', amount: '40' }))).toEqual({ success: true });
    expect(await usdt(main)).toBe('60/0/60');
    expect(await usdt(sub)).toBe('40/40/0');
  });

  it('4. the sub key cannot send back more than it holds, and can send back all of it', async () => {
    expect(outcome(await sub.signed('POST', '/openapi/v1/transfer', { tokenId: 'USDT', amount: '40.01' }))).toEqual(INSUFFICIENT);
    expect(await usdt(sub)).toBe('40/40/0');
    expect(ok(await sub.signed('POST', '/openapi/v1/transfer', { tokenId: 'USDT', amount: '40' }))).toEqual({ success: true });
    expect(await usdt(sub)).toBe('0/0/0');
    expect(await usdt(main)).toBe('100/40/60');
  });

  it('5. canceling the order frees the 60; the flow shows only what moved, and verify holds', async () => {
    expect(ok<{ status: string }>(await main.signed('DELETE', '/openapi/v1/order', { orderId })).status).toBe('CANCELED');
    expect(await usdt(main)).toBe('100/100/0');
    expect(await flowRows(main)).toEqual([
      ['DEPOSIT', '100', '100'],
      ['USER_ACCOUNT_TRANSFER', '-40', '60'],
      ['USER_ACCOUNT_TRANSFER', '40', '100'],
    ]);
    expect(await flowRows(main, { accountIndex: 1 })).toEqual([
      ['USER_ACCOUNT_TRANSFER', '40', '40'],
      ['USER_ACCOUNT_TRANSFER', '-40', '0'],
    ]);
    expect((await op.ok<{ ok: boolean }>('GET', '/verify')).ok).toBe(true);
  });
});
