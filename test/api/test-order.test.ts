import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpAnswer } from '../support/clients.js';
import { Operator, type Member } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

type Params = Record<string, string | number>;

const TEST_ORDER = '/openapi/v1/order/test';

describe('A12 test new order', () => {
  let t: TestServer;
  let op: Operator;

  const test = (trader: Member, params: Params): Promise<HttpAnswer> => trader.client.signed('POST', TEST_ORDER, params);
  const place = (trader: Member, params: Params): Promise<HttpAnswer> => trader.client.signed('POST', '/openapi/v1/order', params);
  /** Everything A12 must leave alone: balances, open orders, history. */
  const snapshot = async (trader: Member): Promise<unknown[]> => {
    const account = (await trader.client.signed('GET', '/openapi/v1/account')).body as { balances: unknown; updateTime: string };
    const open = (await trader.client.signed('GET', '/openapi/v1/openOrders')).body;
    const history = (await trader.client.signed('GET', '/openapi/v1/historyOrders')).body;
    const trades = (await trader.client.signed('GET', '/openapi/v1/myTrades')).body;
    return [account.balances, account.updateTime, open, history, trades];
  };

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
  });
  afterAll(async () => t.stop());

  it('when a valid order is tested, then 200 {} and nothing changes: no order, lock, id or client id', async () => {
    const trader = await op.member({ USDT: '1000' });
    const before = await snapshot(trader);
    const answer = await test(trader, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100', newClientOrderId: 'probe' });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('{}');
    expect(await snapshot(trader)).toEqual(before);
    const real = await place(trader, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100', newClientOrderId: 'probe' });
    expect(real.status).toBe(200);
    expect(real.body).toMatchObject({ clientOrderId: 'probe', status: 'NEW' });
  });

  it('when a tested order would cross a resting order, then nothing trades', async () => {
    const maker = await op.member({ ETH: '1' });
    const taker = await op.member({ USDT: '10000' });
    const resting = (await place(maker, { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '1', price: '2000' })).body as { orderId: string };
    const makerBefore = await snapshot(maker);
    const takerBefore = await snapshot(taker);
    expect((await test(taker, { symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', quantity: '2000' })).text).toBe('{}');
    expect((await test(taker, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '2000' })).text).toBe('{}');
    expect(await snapshot(maker)).toEqual(makerBefore);
    expect(await snapshot(taker)).toEqual(takerBefore);
    const order = await maker.client.signed('GET', '/openapi/v1/order', { orderId: resting.orderId });
    expect(order.body).toMatchObject({ status: 'NEW', executedQty: '0' });
  });

  it.each<[string, Params, number]>([
    ['a parameter is missing', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1' }, -1102],
    ['the symbol is unknown', { symbol: 'XYZUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' }, -1121],
    ['the price is off tick', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100.001' }, -1134],
    ['the balance is short', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '1000.01' }, -1131],
    ['a MARKET order meets an empty side', { symbol: 'BTCMXN', side: 'BUY', type: 'MARKET', quantity: '100' }, -1112],
    ['stopPrice is set', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100', stopPrice: '1' }, -1106],
  ])('when %s, then the check A11 would make answers it (%i)', async (_what, params, code) => {
    const trader = await op.member({ USDT: '1000' });
    const answer = await test(trader, params);
    expect(answer.status).toBe(400);
    expect((answer.body as { code: number }).code).toBe(code);
  });

  it('when the client order id is already used, then -1141 (checked against current state)', async () => {
    const trader = await op.member({ USDT: '1000' });
    await place(trader, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '10', newClientOrderId: 'taken' });
    const answer = await test(trader, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '10', newClientOrderId: 'taken' });
    expect(answer.body).toEqual({ code: -1141, msg: 'Duplicate clientOrderId' });
  });

  it('when a LIMIT_MAKER would take, then -1158', async () => {
    const trader = await op.member({ USDT: '1000', EUR: '1000' });
    await place(trader, { symbol: 'USDTEUR', side: 'SELL', type: 'LIMIT', quantity: '100', price: '0.95' });
    const answer = await test(trader, { symbol: 'USDTEUR', side: 'BUY', type: 'LIMIT_MAKER', quantity: '100', price: '0.95' });
    expect(answer.body).toEqual({ code: -1158, msg: 'Order would immediately match and take.' });
  });

  it('when the symbol is halted, then -1151', async () => {
    const trader = await op.member({ BTC: '1' });
    await op.ok('PATCH', '/symbols/ETHBTC', { status: 'HALT' });
    try {
      const answer = await test(trader, { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.05' });
      expect(answer.body).toEqual({ code: -1151, msg: 'Symbol is not open for trading.' });
    } finally {
      await op.ok('PATCH', '/symbols/ETHBTC', { status: 'TRADING' });
    }
  });

  it('when the timestamp is outside recvWindow, then -1021; recvWindow 0 is -1130', async () => {
    const trader = await op.member({ USDT: '1000' });
    const params = { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' };
    const old = await trader.client.signed('POST', TEST_ORDER, { ...params, timestamp: Date.now() - 10_000 }, { noTimestamp: true });
    expect(old.body).toEqual({ code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' });
    const zero = await test(trader, { ...params, recvWindow: 0 });
    expect(zero.body).toEqual({ code: -1130, msg: "Data sent for paramter 'recvWindow' is not valid." });
  });

  it('when the key lacks TRADE, then -2015', async () => {
    const trader = await op.member({ USDT: '1000' }, { permissions: ['USER_DATA'] });
    const answer = await test(trader, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' });
    expect(answer.body).toEqual({ code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
  });

  it('when more test orders are sent than the ORDERS limit allows, then none is counted', async () => {
    const trader = await op.member({ USDT: '1000' });
    await op.tradingConfig({ ordersPerSecond: 2 });
    try {
      const params = { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' };
      const answers = await Promise.all([1, 2, 3, 4, 5].map(() => test(trader, params)));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      expect(answers.map((a) => a.headers.get('x-bh-order-count-1s'))).toEqual([null, null, null, null, null]);
      const real = await place(trader, params);
      expect(real.status).toBe(200);
      expect(real.headers.get('x-bh-order-count-1d')).toBe('1');
    } finally {
      await op.tradingConfig({ ordersPerSecond: 20 });
    }
  });
});
