/**
 * Story: an iceberg refilled three times while a taker walks it. Iris offers 0.4 ICX at 50 showing
 * 0.1 at a time; Otto then offers 0.05 at 50. Tom buys at 50 three times: each part Iris's order
 * shows fills, and the next one joins the back of the level, so Otto's later order fills before
 * Iris's second part. The depth shows only the visible part at each moment, Tom's fills come in
 * parts, and Iris has one order record for the whole 0.4.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdings } from '../../support/account-reads.js';
import { ok } from '../../support/answers.js';
import { depthOf, listAlgoMarket, placed, queried, setAlgoOrders, type NewOrderReply, type OrderRecord } from '../../support/algo-orders.js';
import { Operator, type Member } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

interface Trade {
  id: string;
  orderId: string;
  matchOrderId: string;
  qty: string;
}

describe('story: an iceberg refilled three times while a taker walks it', () => {
  let t: TestServer;
  let op: Operator;
  let iris: Member;
  let tom: Member;
  let symbol: string;
  let iceberg: NewOrderReply;
  let otto: NewOrderReply;

  /** Tom buys `quantity` at 50: [maker, qty] of each fill in matching order, the maker named. */
  const tomBuys = async (quantity: string): Promise<string[][]> => {
    const order = await placed(tom, { symbol, side: 'BUY', type: 'LIMIT', quantity, price: '50' });
    expect(order).toMatchObject({ status: 'FILLED', executedQty: quantity });
    const trades = ok<Trade[]>(await tom.client.signed('GET', '/openapi/v1/myTrades', { symbol, orderId: order.orderId }));
    const name = (orderId: string): string => (orderId === iceberg.orderId ? 'iris' : orderId === otto.orderId ? 'otto' : orderId);
    expect(trades.map((x) => x.qty).reverse()).toEqual(order.fills.map((f) => f.qty));
    return trades.reverse().map((x) => [name(x.matchOrderId), x.qty]);
  };

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    await setAlgoOrders(op, true);
    symbol = await listAlgoMarket(op, 'ICX');
    iris = await op.member({ ICX: '1' });
    tom = await op.member({ USDT: '1000' });
  });
  afterAll(async () => t.stop());

  it('1. Iris places the iceberg: 0.4 locked, the depth shows 0.1', async () => {
    iceberg = await placed(iris, { symbol, side: 'SELL', type: 'LIMIT', quantity: '0.4', price: '50', icebergQty: '0.1' });
    expect(iceberg).toMatchObject({ status: 'NEW', isWorking: true, origQty: '0.4', icebergQty: '0.1', stopPrice: '0' });
    expect(await holdings(iris.client, ['ICX'])).toEqual({ ICX: '0.6/0.4' });
    expect(await depthOf(iris.client, symbol)).toEqual({ bids: [], asks: [['50', '0.1']] });
  });

  it("2. Otto offers 0.05 at 50 after it: the level shows both visible quantities", async () => {
    otto = await placed(await op.member({ ICX: '1' }), { symbol, side: 'SELL', type: 'LIMIT', quantity: '0.05', price: '50' });
    expect(await depthOf(iris.client, symbol)).toEqual({ bids: [], asks: [['50', '0.15']] });
  });

  it("3. Tom buys 0.2: Iris's first part, then Otto (the refill went to the back), then Iris's second part", async () => {
    expect(await tomBuys('0.2')).toEqual([
      ['iris', '0.1'],
      ['otto', '0.05'],
      ['iris', '0.05'],
    ]);
    expect(await depthOf(iris.client, symbol)).toEqual({ bids: [], asks: [['50', '0.05']] });
    expect(await queried(iris, iceberg.orderId)).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '0.15', isWorking: true });
  });

  it('4. Tom buys 0.1: the rest of the second part, then the third part is refilled and half taken', async () => {
    expect(await tomBuys('0.1')).toEqual([
      ['iris', '0.05'],
      ['iris', '0.05'],
    ]);
    expect(await depthOf(iris.client, symbol)).toEqual({ bids: [], asks: [['50', '0.05']] });
  });

  it('5. Tom buys 0.15: the rest of the third part and the whole fourth; the level is empty', async () => {
    expect(await tomBuys('0.15')).toEqual([
      ['iris', '0.05'],
      ['iris', '0.1'],
    ]);
    expect(await depthOf(iris.client, symbol)).toEqual({ bids: [], asks: [] });
  });

  it('6. Iris has one order record, FILLED, for six trades; her balances are settled', async () => {
    const history = ok<OrderRecord[]>(await iris.client.signed('GET', '/openapi/v1/historyOrders', { symbol }));
    expect(history.map((o) => [o.orderId, o.status, o.origQty, o.executedQty, o.cummulativeQuoteQty, o.icebergQty, o.isWorking])).toEqual([
      [iceberg.orderId, 'FILLED', '0.4', '0.4', '20', '0.1', false],
    ]);
    const trades = ok<Trade[]>(await iris.client.signed('GET', '/openapi/v1/myTrades', { symbol }));
    expect(trades.map((x) => [x.orderId, x.qty]).reverse()).toEqual(['0.1', '0.05', '0.05', '0.05', '0.05', '0.1'].map((qty) => [iceberg.orderId, qty]));
    // Maker fees 0.001 in USDT: 0.005 on each 0.1 part, 0.0025 on each 0.05.
    expect(await holdings(iris.client, ['ICX', 'USDT'])).toEqual({ ICX: '0.6/0', USDT: '19.98/0' });
  });
});
