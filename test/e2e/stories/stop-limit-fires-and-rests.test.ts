/**
 * Story: a stop-loss limit sell fires and rests. SLX last traded at 100; Sam places a
 * STOP_LOSS_LIMIT SELL of 1 SLX, stop 95, limit 94: it waits out of the book with its lock. A trade
 * at 95 fires it; the bid that traded is gone, so it rests at 94 as a working order, and Sam's
 * stream tells the story: placement NEW w false, trigger NEW w true, both with P and F.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdings } from '../../support/account-reads.js';
import { ok } from '../../support/answers.js';
import {
  depthOf,
  listAlgoMarket,
  nextPush,
  placed,
  queried,
  reportOf,
  setAlgoOrders,
  tradeAt,
  userStream,
  type NewOrderReply,
  type OrderRecord,
} from '../../support/algo-orders.js';
import { Operator, type Member } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import type { WsProbe } from '../../support/ws-client.js';

describe('story: a stop-loss limit sell fires and rests', () => {
  let t: TestServer;
  let op: Operator;
  let sam: Member;
  let stream: WsProbe;
  let symbol: string;
  let stop: NewOrderReply;
  let atPlacement: OrderRecord;

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    await setAlgoOrders(op, true);
    symbol = await listAlgoMarket(op, 'SLX');
    await tradeAt(op, symbol, 'SLX', '100', '1');
    sam = await op.member({ SLX: '3' });
    stream = await userStream(t, sam.client);
  });
  afterAll(async () => {
    await stream.close();
    await t.stop();
  });

  it('1. Sam places the stop: NEW, not working, its lock taken, not in the depth', async () => {
    stop = await placed(sam, { symbol, side: 'SELL', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', quantity: '1', price: '94', stopPrice: '95', newClientOrderId: 'sam-stop' });
    const { transactTime: _at, fills: _fills, ...record } = stop;
    atPlacement = record;
    expect(await queried(sam, stop.orderId)).toMatchObject({ status: 'NEW', isWorking: false, type: 'STOP_LOSS_LIMIT', price: '94', stopPrice: '95', icebergQty: '0' });
    expect(await holdings(sam.client, ['SLX'])).toEqual({ SLX: '2/1' });
    expect(await depthOf(sam.client, symbol)).toEqual({ bids: [], asks: [] });
    expect(await nextPush(stream)).toEqual([
      { ...reportOf(record, stop.time), X: 'NEW', w: false, P: '95', F: '0' },
      { e: 'outboundAccountInfo', E: stop.time, T: true, W: true, D: true, B: [{ a: 'SLX', f: '2', l: '1' }] },
    ]);
  });

  it('2. a trade at 96 does not reach the stop', async () => {
    await tradeAt(op, symbol, 'SLX', '96', '0.5');
    expect(await queried(sam, stop.orderId)).toMatchObject({ status: 'NEW', isWorking: false, updateTime: stop.time });
  });

  it('3. a trade at 95 fires it: working at 94, in the depth, and the trigger reported NEW with w true', async () => {
    await tradeAt(op, symbol, 'SLX', '95', '0.5');
    const fired = await queried(sam, stop.orderId);
    expect(fired).toEqual({ ...atPlacement, isWorking: true, updateTime: fired.updateTime });
    expect(Number(fired.updateTime)).toBeGreaterThan(Number(stop.time));
    expect(await depthOf(sam.client, symbol)).toEqual({ bids: [], asks: [['94', '1']] });
    expect(ok(await sam.client.signed('GET', '/openapi/v1/openOrders', { symbol }))).toEqual([fired]);
    // The lock was taken at placement: the trigger changes no balance, so the push is the report alone.
    expect(await nextPush(stream)).toEqual([{ ...reportOf(fired, fired.updateTime), X: 'NEW', w: true, P: '95', F: '0' }]);
    expect(await holdings(sam.client, ['SLX'])).toEqual({ SLX: '2/1' });
  });

  it('4. the fired order trades as a resting LIMIT: a buyer at 94 fills it as maker', async () => {
    const buyer = await op.member({ USDT: '1000' });
    const taking = await placed(buyer, { symbol, side: 'BUY', type: 'LIMIT', quantity: '1', price: '94' });
    expect(taking.fills.map((f) => [f.price, f.qty])).toEqual([['94', '1']]);
    expect(await queried(sam, stop.orderId)).toMatchObject({ status: 'FILLED', executedQty: '1', cummulativeQuoteQty: '94', isWorking: false });
    const [report] = await nextPush(stream);
    expect(report).toMatchObject({ e: 'executionReport', X: 'FILLED', m: true, l: '1', L: '94', P: '95', F: '0', w: false });
    expect(await holdings(sam.client, ['SLX', 'USDT'])).toEqual({ SLX: '2/0', USDT: '93.906/0' });
  });
});
