/**
 * Story: a transfer of more than the free balance. Over real HTTP: Frank has 100 USDT, 60 of it
 * locked by a resting buy order; every way of moving more than the free 40 (A30 to his sub-account,
 * A32 to another user, A23 withdrawal) is refused with -1131 and changes nothing, not even a flow
 * row; exactly 40 moves; the sub key cannot send back more than it holds; canceling the order frees
 * the rest. SOLUSDT is listed for this story, with no seller, so the order only rests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, SpotClient, type HttpAnswer } from '../../support/clients.js';
import { startTestServer, type TestServer } from '../../support/server.js';

interface Flow {
  accountId: string;
  flowType: string;
  change: string;
  total: string;
}

const MAIN_TO_SUB = { fromAccountType: 1, fromAccountIndex: 0, toAccountType: 1, toAccountIndex: 1 };
const INSUFFICIENT = { status: 400, body: { code: -1131, msg: 'Balance insufficient' } };

function ok<T>(answer: HttpAnswer): T {
  expect(answer.status, answer.text).toBe(200);
  return answer.body as T;
}

const outcome = (answer: HttpAnswer): { status: number; body: unknown } => ({ status: answer.status, body: answer.body });

describe('story: transfer more than the free balance', () => {
  let t: TestServer;
  let admin: AdminClient;
  let frank: { userId: string; accountId: string };
  let grace: { userId: string; accountId: string };
  let main: SpotClient;
  let sub: SpotClient;
  let orderId: string;

  const adminOk = async <T>(method: string, path: string, body?: unknown): Promise<T> => ok<T>(await admin.send(method, path, body));
  const keyOf = async (userId: string, accountIndex = 0): Promise<SpotClient> => {
    const key = await adminOk<{ apiKey: string; secretKey: string }>('POST', `/users/${userId}/api-keys`, { accountIndex });
    return new SpotClient(t.url, key.apiKey, key.secretKey);
  };
  const usdt = async (client: SpotClient): Promise<string> => {
    const body = ok<{ balances: { asset: string; total: string; free: string; locked: string }[] }>(await client.signed('GET', '/openapi/v1/account'));
    const b = body.balances.find((x) => x.asset === 'USDT');
    return `${b?.total}/${b?.free}/${b?.locked}`;
  };
  const flows = async (client: SpotClient, params: Record<string, number> = {}): Promise<string[][]> =>
    ok<Flow[]>(await client.signed('GET', '/openapi/v1/balance_flow', { tokenId: 'USDT', ...params })).map((f) => [f.flowType, f.change, f.total]);

  beforeAll(async () => {
    t = await startTestServer();
    admin = new AdminClient(t.url, t.adminToken);
    await adminOk('POST', '/assets', { asset: 'SOL', precision: 8, chains: ['SOL'] });
    await adminOk('POST', '/symbols', { symbol: 'SOLUSDT', baseAsset: 'SOL', quoteAsset: 'USDT', tickSize: '0.01', stepSize: '0.01', minNotional: '1' });
    frank = await adminOk('POST', '/users', {});
    grace = await adminOk('POST', '/users', {});
    await adminOk('POST', `/users/${frank.userId}/sub-accounts`, {});
    await adminOk('POST', '/deposits', { accountId: frank.accountId, asset: 'USDT', amount: '100' });
    main = await keyOf(frank.userId);
    sub = await keyOf(frank.userId, 1);
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
    expect(await flows(main)).toEqual([['DEPOSIT', '100', '100']]);
    expect(await flows(main, { accountIndex: 1 })).toEqual([]);
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
    expect(await flows(main)).toEqual([
      ['DEPOSIT', '100', '100'],
      ['USER_ACCOUNT_TRANSFER', '-40', '60'],
      ['USER_ACCOUNT_TRANSFER', '40', '100'],
    ]);
    expect(await flows(main, { accountIndex: 1 })).toEqual([
      ['USER_ACCOUNT_TRANSFER', '40', '40'],
      ['USER_ACCOUNT_TRANSFER', '-40', '0'],
    ]);
    expect((await adminOk<{ ok: boolean }>('GET', '/verify')).ok).toBe(true);
  });
});
