/**
 * Story: the operator turns the algoOrders option off while orders rest. OFX last traded at 100;
 * Olga has a STOP_LOSS SELL at 95, a TAKE_PROFIT_LIMIT SELL at 110 and an iceberg offer of 0.3 at
 * 120 showing 0.1. Once the option is off, new stop and iceberg orders are refused as on the
 * platform, but Olga's stay: the take-profit can be canceled, the stop fires on a trade at 95, and
 * the iceberg keeps refilling while Tom buys from it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdings } from '../../support/account-reads.js';
import { ok, refused } from '../../support/answers.js';
import { depthOf, listAlgoMarket, ORDER, place, placed, queried, setAlgoOrders, tradeAt, type NewOrderReply, type OrderRecord } from '../../support/algo-orders.js';
import { Operator, type Member } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

describe('story: the algoOrders option turned off with orders resting', () => {
  let t: TestServer;
  let op: Operator;
  let olga: Member;
  let symbol: string;
  let stop: NewOrderReply;
  let takeProfit: NewOrderReply;
  let iceberg: NewOrderReply;

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    await setAlgoOrders(op, true);
    symbol = await listAlgoMarket(op, 'OFX');
    await tradeAt(op, symbol, 'OFX', '100', '1');
    olga = await op.member({ OFX: '3' });
  });
  afterAll(async () => t.stop());

  it('1. with the option on, Olga places a stop, a take-profit and an iceberg', async () => {
    stop = await placed(olga, { symbol, side: 'SELL', type: 'STOP_LOSS', quantity: '1', stopPrice: '95' });
    takeProfit = await placed(olga, { symbol, side: 'SELL', type: 'TAKE_PROFIT_LIMIT', timeInForce: 'GTC', quantity: '1', price: '110', stopPrice: '110' });
    iceberg = await placed(olga, { symbol, side: 'SELL', type: 'LIMIT', quantity: '0.3', price: '120', icebergQty: '0.1' });
    expect(await holdings(olga.client, ['OFX'])).toEqual({ OFX: '0.7/2.3' });
  });

  it('2. the operator turns the option off: new stop and iceberg orders are refused, the resting ones stay', async () => {
    await setAlgoOrders(op, false);
    refused(await place(olga, { symbol, side: 'SELL', type: 'STOP_LOSS', quantity: '0.1', stopPrice: '90' }), -1116, 'Order type not available.');
    refused(
      await place(olga, { symbol, side: 'BUY', type: 'TAKE_PROFIT_LIMIT', quantity: '0.1', price: '90', stopPrice: '90' }),
      -1116,
      'Order type not available.',
    );
    refused(await place(olga, { symbol, side: 'SELL', type: 'LIMIT', quantity: '0.3', price: '130', icebergQty: '0.1' }), -1106, "Parameter 'icebergQty' sent when not required.");
    const open = ok<OrderRecord[]>(await olga.client.signed('GET', '/openapi/v1/openOrders', { symbol }));
    expect(open.map((o) => [o.orderId, o.isWorking])).toEqual([
      [stop.orderId, false],
      [takeProfit.orderId, false],
      [iceberg.orderId, true],
    ]);
    expect(await depthOf(olga.client, symbol)).toEqual({ bids: [], asks: [['120', '0.1']] });
  });

  it('3. the take-profit can still be canceled: its lock comes back', async () => {
    expect(ok(await olga.client.signed('DELETE', ORDER, { orderId: takeProfit.orderId }))).toMatchObject({ status: 'CANCELED', stopPrice: '110' });
    expect(await holdings(olga.client, ['OFX'])).toEqual({ OFX: '1.7/1.3' });
  });

  it('4. a trade at 95 still fires the stop: it sells its 1 OFX to the rest of the bid', async () => {
    const bea = await op.member({ USDT: '1000' });
    await placed(bea, { symbol, side: 'BUY', type: 'LIMIT', quantity: '1.5', price: '95' });
    const flo = await op.member({ OFX: '0.5' });
    expect((await placed(flo, { symbol, side: 'SELL', type: 'LIMIT', quantity: '0.5', price: '95' })).fills.map((f) => [f.price, f.qty])).toEqual([['95', '0.5']]);
    expect(await queried(olga, stop.orderId)).toMatchObject({ status: 'FILLED', executedQty: '1', cummulativeQuoteQty: '95', isWorking: false });
    expect(await depthOf(olga.client, symbol)).toEqual({ bids: [], asks: [['120', '0.1']] });
    expect(await holdings(olga.client, ['OFX', 'USDT'])).toEqual({ OFX: '1.7/0.3', USDT: '94.905/0' });
  });

  it('5. the iceberg keeps refilling: Tom takes two parts and the third shows', async () => {
    const tom = await op.member({ USDT: '1000' });
    const taking = await placed(tom, { symbol, side: 'BUY', type: 'LIMIT', quantity: '0.2', price: '120' });
    expect(taking.fills.map((f) => [f.price, f.qty])).toEqual([
      ['120', '0.1'],
      ['120', '0.1'],
    ]);
    expect(await depthOf(olga.client, symbol)).toEqual({ bids: [], asks: [['120', '0.1']] });
    expect(await queried(olga, iceberg.orderId)).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '0.2', icebergQty: '0.1', isWorking: true });
  });
});
