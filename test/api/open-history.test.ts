import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpAnswer } from '../support/clients.js';
import { Operator, type Member } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

type Params = Record<string, string | number>;
interface OrderBody {
  orderId: string;
  symbol: string;
  side: string;
  status: string;
  time: string;
}

const ORDER = '/openapi/v1/order';
const OPEN = '/openapi/v1/openOrders';
const HISTORY = '/openapi/v1/historyOrders';

const ids = (answer: HttpAnswer): string[] => (answer.body as OrderBody[]).map((o) => o.orderId);

describe('open orders, batch cancel and history (A15–A18)', () => {
  let t: TestServer;
  let op: Operator;

  const newTrader = (): Promise<Member> => op.member({ USDT: '100000', ETH: '100', BTC: '10' });
  const place = async (trader: Member, params: Params): Promise<OrderBody> => {
    const answer = await trader.client.signed('POST', ORDER, { type: 'LIMIT', quantity: '1', ...params });
    expect(answer.status).toBe(200);
    return answer.body as OrderBody;
  };

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    await op.tradingConfig({ ordersPerSecond: 100000 });
  });
  afterAll(async () => t.stop());

  describe('A17 open orders', () => {
    let trader: Member;
    /** In placement (= id) order: 5 ETHUSDT buys, 2 BTCUSDT buys, 1 ETHUSDT sell. */
    let placed: OrderBody[];

    beforeAll(async () => {
      trader = await newTrader();
      placed = [];
      for (const price of ['10', '11', '12', '13', '14']) placed.push(await place(trader, { symbol: 'ETHUSDT', side: 'BUY', price }));
      for (const price of ['100', '101']) placed.push(await place(trader, { symbol: 'BTCUSDT', side: 'BUY', price, quantity: '0.01' }));
      placed.push(await place(trader, { symbol: 'ETHUSDT', side: 'SELL', price: '5000' }));
    });

    it('when no filter is sent, then every open order of the account comes, oldest first', async () => {
      const answer = await trader.client.signed('GET', OPEN);
      expect(answer.status).toBe(200);
      expect(ids(answer)).toEqual(placed.map((o) => o.orderId));
    });

    it('when another account has open orders, then they are not listed', async () => {
      const other = await newTrader();
      await place(other, { symbol: 'ETHUSDT', side: 'BUY', price: '15' });
      expect(ids(await trader.client.signed('GET', OPEN))).toEqual(placed.map((o) => o.orderId));
    });

    it('when symbol is sent, then only that symbol is listed', async () => {
      expect(ids(await trader.client.signed('GET', OPEN, { symbol: 'BTCUSDT' }))).toEqual([placed[5].orderId, placed[6].orderId]);
    });

    it('when side is sent, then only that side is listed', async () => {
      expect(ids(await trader.client.signed('GET', OPEN, { symbol: 'ETHUSDT', side: 'sell' }))).toEqual([placed[7].orderId]);
    });

    it('when limit is 3, then the newest 3 come, oldest first', async () => {
      expect(ids(await trader.client.signed('GET', OPEN, { limit: 3 }))).toEqual(placed.slice(5).map((o) => o.orderId));
    });

    it('when orderId is sent, then only orders with smaller ids come', async () => {
      expect(ids(await trader.client.signed('GET', OPEN, { orderId: placed[3].orderId }))).toEqual(placed.slice(0, 3).map((o) => o.orderId));
    });

    it('when orderId and limit are combined, then the newest `limit` below the id come, oldest first', async () => {
      expect(ids(await trader.client.signed('GET', OPEN, { orderId: placed[5].orderId, limit: 2 }))).toEqual([placed[3].orderId, placed[4].orderId]);
    });

    it.each([1001, 2147483647])('when limit is %i (over the maximum), then it is clamped and everything comes', async (limit) => {
      const answer = await trader.client.signed('GET', OPEN, { limit });
      expect(answer.status).toBe(200);
      expect(ids(answer)).toEqual(placed.map((o) => o.orderId));
    });

    it('when orderId and limit are 0 (Java SDK), then they are absent', async () => {
      expect(ids(await trader.client.signed('GET', OPEN, { orderId: 0, limit: 0 }))).toEqual(placed.map((o) => o.orderId));
    });

    it('when the symbol is unknown, then -1121', async () => {
      expect((await trader.client.signed('GET', OPEN, { symbol: 'NOPEUSDT' })).body).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    });

    it('when an order fills partly, then it stays listed as PARTIALLY_FILLED; a filled one leaves', async () => {
      const seller = await newTrader();
      // Takes the other account's bid at 15, all of 14 and half of 13.
      await seller.client.signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '2.5', price: '13' });
      const open = (await trader.client.signed('GET', OPEN, { symbol: 'ETHUSDT', side: 'BUY' })).body as OrderBody[];
      expect(open.map((o) => [o.orderId, o.status])).toEqual([
        [placed[0].orderId, 'NEW'],
        [placed[1].orderId, 'NEW'],
        [placed[2].orderId, 'NEW'],
        [placed[3].orderId, 'PARTIALLY_FILLED'],
      ]);
    });
  });

  describe('A15 batch cancel and A16 cancel open orders', () => {
    it('when batchCancel names a symbol and side, then only those open orders are canceled', async () => {
      const trader = await newTrader();
      const buy1 = await place(trader, { symbol: 'ETHUSDT', side: 'BUY', price: '10' });
      const sell = await place(trader, { symbol: 'ETHUSDT', side: 'SELL', price: '9000' });
      const btc = await place(trader, { symbol: 'BTCUSDT', side: 'BUY', price: '100', quantity: '0.01' });
      const buy2 = await place(trader, { symbol: 'ETHUSDT', side: 'BUY', price: '11' });
      const answer = await trader.client.signed('DELETE', '/openapi/v1/order/batchCancel', { symbol: 'ETHUSDT', side: 'BUY' });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ success: true });
      expect(ids(await trader.client.signed('GET', OPEN))).toEqual([sell.orderId, btc.orderId]);
      expect(ids(await trader.client.signed('GET', HISTORY))).toEqual([buy1.orderId, buy2.orderId]);
    });

    it('when batchCancel has no filter, then every open order of the account is canceled; another account keeps its own', async () => {
      const trader = await newTrader();
      const other = await newTrader();
      const kept = await place(other, { symbol: 'ETHUSDT', side: 'BUY', price: '10' });
      await place(trader, { symbol: 'ETHUSDT', side: 'BUY', price: '10' });
      await place(trader, { symbol: 'BTCUSDT', side: 'SELL', price: '90000', quantity: '0.01' });
      expect((await trader.client.signed('DELETE', '/openapi/v1/order/batchCancel')).body).toEqual({ success: true });
      expect(ids(await trader.client.signed('GET', OPEN))).toEqual([]);
      expect(ids(await other.client.signed('GET', OPEN))).toEqual([kept.orderId]);
    });

    it('when batchCancel finds nothing to cancel, then it still answers success', async () => {
      const trader = await newTrader();
      expect((await trader.client.signed('DELETE', '/openapi/v1/order/batchCancel', { symbol: 'ETHBTC' })).body).toEqual({ success: true });
    });

    it('when DELETE openOrders names a symbol, then its open orders are canceled and returned oldest first', async () => {
      const trader = await newTrader();
      const first = await place(trader, { symbol: 'ETHUSDT', side: 'BUY', price: '10' });
      const btc = await place(trader, { symbol: 'BTCUSDT', side: 'BUY', price: '100', quantity: '0.01' });
      const second = await place(trader, { symbol: 'ETHUSDT', side: 'SELL', price: '9000' });
      const answer = await trader.client.signed('DELETE', OPEN, { symbol: 'ETHUSDT' });
      expect(answer.status).toBe(200);
      const rows = answer.body as (OrderBody & { isWorking: boolean })[];
      expect(rows.map((o) => [o.orderId, o.status, o.isWorking])).toEqual([
        [first.orderId, 'CANCELED', false],
        [second.orderId, 'CANCELED', false],
      ]);
      expect(ids(await trader.client.signed('GET', OPEN))).toEqual([btc.orderId]);
    });

    it('when DELETE openOrders has nothing open on the symbol, then it answers []', async () => {
      const trader = await newTrader();
      const answer = await trader.client.signed('DELETE', OPEN, { symbol: 'ETHBTC' });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual([]);
    });

    it('when DELETE openOrders has no symbol, then -1102 (it never lists or cancels everything)', async () => {
      const trader = await newTrader();
      const kept = await place(trader, { symbol: 'ETHUSDT', side: 'BUY', price: '10' });
      const answer = await trader.client.signed('DELETE', OPEN);
      expect(answer.body).toEqual({ code: -1102, msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed." });
      expect(ids(await trader.client.signed('GET', OPEN))).toEqual([kept.orderId]);
    });
  });

  describe('A18 history orders', () => {
    let trader: Member;
    /** Final orders in id order: canceled ETHUSDT buys, one filled, one IOC-canceled BTCUSDT sell. */
    let finals: OrderBody[];
    let stillOpen: OrderBody;

    beforeAll(async () => {
      trader = await newTrader();
      const maker = await newTrader();
      finals = [];
      for (const price of ['10', '11', '12']) {
        const order = await place(trader, { symbol: 'ETHUSDT', side: 'BUY', price });
        await trader.client.signed('DELETE', ORDER, { orderId: order.orderId });
        finals.push(order);
      }
      stillOpen = await place(trader, { symbol: 'ETHUSDT', side: 'BUY', price: '13' });
      await place(maker, { symbol: 'ETHUSDT', side: 'SELL', price: '2000', quantity: '1' });
      finals.push(await place(trader, { symbol: 'ETHUSDT', side: 'BUY', price: '2000' }));
      finals.push(await place(trader, { symbol: 'BTCUSDT', side: 'SELL', price: '90000', quantity: '0.01', timeInForce: 'IOC' }));
    });

    it('when no filter is sent, then every final order comes oldest first, open ones never', async () => {
      const answer = await trader.client.signed('GET', HISTORY);
      expect(answer.status).toBe(200);
      const rows = answer.body as OrderBody[];
      expect(rows.map((o) => [o.orderId, o.status])).toEqual([
        [finals[0].orderId, 'CANCELED'],
        [finals[1].orderId, 'CANCELED'],
        [finals[2].orderId, 'CANCELED'],
        [finals[3].orderId, 'FILLED'],
        [finals[4].orderId, 'CANCELED'],
      ]);
      expect(rows.map((o) => o.orderId)).not.toContain(stillOpen.orderId);
    });

    it('when read by POST (GET read routes also answer POST), then the same list comes', async () => {
      expect(ids(await trader.client.signed('POST', HISTORY))).toEqual(finals.map((o) => o.orderId));
    });

    it('when limit is 2, then the newest 2 come, oldest first', async () => {
      expect(ids(await trader.client.signed('GET', HISTORY, { limit: 2 }))).toEqual([finals[3].orderId, finals[4].orderId]);
    });

    it('when orderId is sent, then only smaller ids come', async () => {
      expect(ids(await trader.client.signed('GET', HISTORY, { orderId: finals[2].orderId }))).toEqual([finals[0].orderId, finals[1].orderId]);
    });

    it('when symbol and side are sent, then only those come', async () => {
      expect(ids(await trader.client.signed('GET', HISTORY, { symbol: 'BTCUSDT' }))).toEqual([finals[4].orderId]);
      expect(ids(await trader.client.signed('GET', HISTORY, { side: 'BUY' }))).toEqual(finals.slice(0, 4).map((o) => o.orderId));
    });

    it('when startTime and endTime are sent, then they bound time inclusively', async () => {
      const startTime = Number(finals[1].time);
      const endTime = Number(finals[3].time);
      const expected = finals.filter((o) => Number(o.time) >= startTime && Number(o.time) <= endTime).map((o) => o.orderId);
      expect(expected).toEqual(expect.arrayContaining([finals[1].orderId, finals[2].orderId, finals[3].orderId]));
      expect(ids(await trader.client.signed('GET', HISTORY, { startTime, endTime }))).toEqual(expected);
    });

    it('when startTime is after every order, then the list is empty', async () => {
      const answer = await trader.client.signed('GET', HISTORY, { startTime: Number(finals[4].time) + 1 });
      expect(answer.body).toEqual([]);
    });

    it('when startTime is after endTime, then -1128', async () => {
      const answer = await trader.client.signed('GET', HISTORY, { startTime: 2000, endTime: 1000 });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: -1128, msg: 'Combination of optional parameters invalid.' });
    });

    it('when startTime, endTime and limit are 0 (Java SDK), then they are absent', async () => {
      expect(ids(await trader.client.signed('GET', HISTORY, { startTime: 0, endTime: 0, limit: 0 }))).toEqual(finals.map((o) => o.orderId));
    });

    it('when limit is over 1000, then it is clamped', async () => {
      const answer = await trader.client.signed('GET', HISTORY, { limit: 5000 });
      expect(answer.status).toBe(200);
      expect(ids(answer)).toEqual(finals.map((o) => o.orderId));
    });
  });
});
