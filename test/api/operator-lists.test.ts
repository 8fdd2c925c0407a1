import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type SpotClient } from '../support/clients.js';
import { Operator } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface ErrorBody {
  code: number;
  msg: string;
}

describe('operator API lists (O23–O27) and one user per e-mail', () => {
  let t: TestServer;
  let op: Operator;

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
  });
  afterAll(async () => t.stop());

  const withdraw = async (client: SpotClient, clientOrderId: string, quantity: string): Promise<string> => {
    const answer = await client.signed('POST', '/openapi/v1/withdraw', { tokenId: 'USDT', chainType: 'TRC20', address: 'TXYZabc123', withdrawQuantity: quantity, clientOrderId });
    expect(answer.status).toBe(200);
    return (answer.body as { orderId: string }).orderId;
  };

  it('when the lists are read without a token, then 401', async () => {
    for (const path of ['/users', '/users/1/balances', '/symbols', '/assets', '/withdrawals']) {
      expect((await request(`${t.url}/admin/v1${path}`)).status).toBe(401);
    }
  });

  it('when users are listed, then each shows with its accounts, ids as strings, system users left out', async () => {
    const user = await op.ok<{ userId: string; accountId: string }>('POST', '/users', { email: 'list@example.com', type: 'merchant' });
    const sub = await op.subAccount(user.userId, 'savings');
    const users = await op.ok<Record<string, unknown>[]>('GET', '/users');
    expect(users.find((u) => u.userId === user.userId)).toEqual({
      userId: user.userId,
      email: 'list@example.com',
      type: 'merchant',
      accounts: [
        { accountId: user.accountId, accountIndex: 0, name: '' },
        { accountId: sub.accountId, accountIndex: 1, name: 'savings' },
      ],
    });
    expect(users.every((u) => u.type !== 'system')).toBe(true);
  });

  it("when a user's balances are read, then the non-zero ones show per account as decimal strings", async () => {
    const user = await op.user();
    const sub = await op.subAccount(user.userId);
    await op.deposit(user.accountId, 'USDT', '12.5');
    await op.deposit(sub.accountId, 'BTC', '0.25');
    expect(await op.ok('GET', `/users/${user.userId}/balances`)).toEqual([
      { accountId: user.accountId, accountIndex: 0, asset: 'USDT', free: '12.5', locked: '0', total: '12.5' },
      { accountId: sub.accountId, accountIndex: 1, asset: 'BTC', free: '0.25', locked: '0', total: '0.25' },
    ]);
    expect(await op.ok('GET', `/users/${(await op.user()).userId}/balances`)).toEqual([]);
  });

  it('when the balances of an unknown or system user are read, then 404', async () => {
    expect((await op.admin.send('GET', '/users/999999/balances')).status).toBe(404);
    expect((await op.admin.send('GET', '/users/1/balances')).status).toBe(404);
    expect((await op.admin.send('GET', '/users/abc/balances')).status).toBe(404);
  });

  it('when symbols and assets are listed, then the test catalogue shows with filters as strings', async () => {
    const symbols = await op.ok<Record<string, unknown>[]>('GET', '/symbols');
    expect(symbols.find((s) => s.symbol === 'ETHUSDT')).toMatchObject({ status: 'TRADING', baseAsset: 'ETH', quoteAsset: 'USDT', tickSize: expect.any(String), minNotional: expect.any(String) });
    await op.ok('PATCH', '/symbols/ETHUSDT', { status: 'HALT' });
    expect((await op.ok<Record<string, unknown>[]>('GET', '/symbols')).find((s) => s.symbol === 'ETHUSDT')).toMatchObject({ status: 'HALT' });
    await op.ok('PATCH', '/symbols/ETHUSDT', { status: 'TRADING' });
    const assets = await op.ok<Record<string, unknown>[]>('GET', '/assets');
    expect(assets.find((a) => a.asset === 'USDT')).toMatchObject({ precision: expect.any(Number), withdrawFee: '1', chains: expect.arrayContaining(['TRC20']) });
    expect(assets.map((a) => a.asset)).toEqual([...assets.map((a) => a.asset as string)].sort());
  });

  it('when withdrawals are listed, then pending ones show newest first with the ids approve takes', async () => {
    const owner = await op.member({ USDT: '1000' });
    const first = await withdraw(owner.client, 'l-1', '100');
    const second = await withdraw(owner.client, 'l-2', '50');
    await op.ok('POST', `/withdrawals/${first}/approve`, { txId: '0xfeed' });
    const pending = await op.ok<Record<string, unknown>[]>('GET', '/withdrawals?status=PENDING');
    expect(pending.find((w) => w.withdrawalId === second)).toMatchObject({
      withdrawalId: second,
      accountId: owner.accountId,
      userId: owner.userId,
      status: 'PENDING',
      asset: 'USDT',
      amount: '50',
      fee: '1',
      time: expect.any(Number),
    });
    expect(pending.every((w) => w.status === 'PENDING')).toBe(true);
    expect(pending.some((w) => w.withdrawalId === first)).toBe(false);
    const all = await op.ok<Record<string, unknown>[]>('GET', '/withdrawals');
    const ids = all.map((w) => Number(w.withdrawalId));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.find((w) => w.withdrawalId === first)).toMatchObject({ status: 'SENT', txId: '0xfeed' });
    expect(await op.ok('GET', '/withdrawals?status=sent&limit=1')).toHaveLength(1);
    for (const query of ['status=DONE', 'limit=0', 'limit=1001', 'limit=x']) {
      const answer = await op.admin.send('GET', `/withdrawals?${query}`);
      expect(answer.status).toBe(400);
      expect((answer.body as ErrorBody).code).toBe(-1130);
    }
  });

  it('when a second user has the same e-mail (whatever its case), then it is refused with -1130 naming email', async () => {
    const first = await op.ok<{ userId: string }>('POST', '/users', { email: 'Dup@Example.com' });
    const before = (await op.ok<unknown[]>('GET', '/users')).length;
    for (const email of ['Dup@Example.com', 'dup@example.com', ' DUP@EXAMPLE.COM ']) {
      const answer = await op.admin.send('POST', '/users', { email, type: 'merchant' });
      expect(answer.status).toBe(400);
      expect((answer.body as ErrorBody).code).toBe(-1130);
      expect((answer.body as ErrorBody).msg).toContain("'email'");
      expect((answer.body as ErrorBody).msg).toContain(`user ${first.userId}`);
    }
    expect((await op.ok<unknown[]>('GET', '/users')).length).toBe(before);
    // Without an e-mail there is nothing to clash: any number of such users.
    await op.ok('POST', '/users', {});
    await op.ok('POST', '/users', { email: '' });
    await op.ok('POST', '/users', { email: 'other@example.com' });
  });
});
