import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockPast } from '../support/clock.js';
import { Operator, type Member } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface AccountBody {
  updateTime: string;
  balances: Balance[];
}
interface Balance {
  asset: string;
  total: string;
  free: string;
  locked: string;
}

const ACCOUNT = '/openapi/v1/account';
const ASSETS = ['BTC', 'ETH', 'EUR', 'MXN', 'USD', 'USDT'];

/** A19 balances: every demo asset by name, zero unless `held` gives its [total, free, locked]. */
function balances(held: Record<string, [string, string, string]> = {}): Record<string, string>[] {
  return ASSETS.map((asset) => {
    const [total, free, locked] = held[asset] ?? ['0', '0', '0'];
    return { asset, assetId: asset, assetName: asset, total, free, locked };
  });
}

describe('A19 account information', () => {
  let t: TestServer;
  let op: Operator;

  const account = async (trader: Member): Promise<AccountBody> => {
    const answer = await trader.client.signed('GET', ACCOUNT);
    expect(answer.status).toBe(200);
    return answer.body as AccountBody;
  };

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
  });
  afterAll(async () => t.stop());

  it('when the account never changed, then every asset is listed by name at zero and updateTime is "0"', async () => {
    const trader = await op.member();
    expect(await account(trader)).toEqual({
      canTrade: true,
      canWithdraw: true,
      canDeposit: true,
      updateTime: '0',
      accountId: trader.accountId,
      makerFeeRate: '0.001',
      takerFeeRate: '0.001',
      balances: balances(),
    });
  });

  it('when a deposit arrives, then its asset shows it free, the others stay at zero, and updateTime is the deposit time', async () => {
    const before = Date.now();
    const trader = await op.member({ USDT: '1000.50' });
    const after = Date.now();
    const body = await account(trader);
    expect(body.balances).toEqual(balances({ USDT: ['1000.5', '1000.5', '0'] }));
    expect(Number(body.updateTime)).toBeGreaterThanOrEqual(before);
    expect(Number(body.updateTime)).toBeLessThanOrEqual(after);
  });

  it('when an order rests, then its lock moves from free to locked and total stays', async () => {
    const trader = await op.member({ USDT: '1000', ETH: '2' });
    await trader.client.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '150.25' });
    await trader.client.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '1.25', price: '9000' });
    expect((await account(trader)).balances).toEqual(
      balances({ ETH: ['2', '0.75', '1.25'], USDT: ['1000', '924.875', '75.125'] }),
    );
  });

  it('when an order only locks and its cancel only unlocks, then each moves updateTime to its own time', async () => {
    const trader = await op.member({ USDT: '1000' });
    const deposited = Number((await account(trader)).updateTime);
    // Each step at a later clock millisecond than the last, so that the times tell them apart.
    await clockPast(deposited);
    const placed = await trader.client.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' });
    const orderTime = (placed.body as { transactTime: string }).transactTime;
    expect(Number(orderTime)).toBeGreaterThan(deposited);
    expect((await account(trader)).updateTime).toBe(orderTime);
    await clockPast(Number(orderTime));
    const canceled = await trader.client.signed('DELETE', '/openapi/v1/order', { orderId: (placed.body as { orderId: string }).orderId });
    expect((await account(trader)).updateTime).toBe((canceled.body as { updateTime: string }).updateTime);
    expect(Number((canceled.body as { updateTime: string }).updateTime)).toBeGreaterThan(Number(orderTime));
  });

  it('when orders are canceled, then the locks return to free', async () => {
    const trader = await op.member({ USDT: '1000' });
    await trader.client.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' });
    await trader.client.signed('DELETE', '/openapi/v1/openOrders', { symbol: 'ETHUSDT' });
    expect((await account(trader)).balances).toEqual(balances({ USDT: ['1000', '1000', '0'] }));
  });

  it('when a trade happens, then both sides show the exchanged amounts net of the fee in the received asset', async () => {
    const maker = await op.member({ ETH: '1' });
    const taker = await op.member({ USDT: '1500' });
    await maker.client.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '1', price: '2000' });
    // Limit 2100 locks 1050; the fill at 2000 spends 1000 and frees the 50 difference at once.
    await taker.client.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '2100' });
    expect((await account(taker)).balances).toEqual(balances({ ETH: ['0.4995', '0.4995', '0'], USDT: ['500', '500', '0'] }));
    expect((await account(maker)).balances).toEqual(balances({ ETH: ['0.5', '0', '0.5'], USDT: ['999', '999', '0'] }));
  });

  it('when the key lacks TRADE and WITHDRAW, then canTrade and canWithdraw are false', async () => {
    const trader = await op.member({}, { permissions: ['USER_DATA'] });
    expect(await account(trader)).toMatchObject({ canTrade: false, canWithdraw: false, canDeposit: true });
  });

  it('when the key has TRADE but not WITHDRAW, then canTrade is true and canWithdraw false', async () => {
    const trader = await op.member({}, { permissions: ['USER_DATA', 'TRADE'] });
    expect(await account(trader)).toMatchObject({ canTrade: true, canWithdraw: false });
  });

  it('when read by POST or under an alias path, then the same body comes', async () => {
    const trader = await op.member({ BTC: '0.00000001' });
    const expected = await account(trader);
    for (const [method, path] of [
      ['POST', ACCOUNT],
      ['GET', '/openapi/account'],
      ['GET', '/openapi/account/v1/account'],
      ['GET', `${ACCOUNT}/`],
    ]) {
      const answer = await trader.client.signed(method, path);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(expected);
    }
    expect(expected.balances).toEqual(balances({ BTC: ['0.00000001', '0.00000001', '0'] }));
  });

  it('when a sub-account key reads A19, then it sees the sub-account, not the main account', async () => {
    const trader = await op.member({ USDT: '10' });
    const sub = await op.subAccount(trader.userId);
    await op.deposit(sub.accountId, 'BTC', '0.3');
    const body = (await (await op.keyOf(trader.userId, { accountIndex: sub.accountIndex })).signed('GET', ACCOUNT)).body;
    expect(body).toMatchObject({ accountId: sub.accountId, balances: balances({ BTC: ['0.3', '0.3', '0'] }) });
  });
});
