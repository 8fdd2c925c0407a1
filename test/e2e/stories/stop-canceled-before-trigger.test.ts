/**
 * Story: a stop canceled before its trigger. CNX last traded at 100; Gus guards a breakout with a
 * STOP_LOSS_LIMIT BUY of 1 CNX, stop 105, limit 106, which locks 106 USDT. He changes his mind and
 * cancels it by its client order id: the funds come back and history shows it CANCELED. A later
 * trade at 106 crosses the stop price and fires nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdings } from '../../support/account-reads.js';
import { ok, refused } from '../../support/answers.js';
import {
  depthOf,
  expectSilentSoFar,
  listAlgoMarket,
  nextPush,
  ORDER,
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

describe('story: a stop canceled before its trigger', () => {
  let t: TestServer;
  let op: Operator;
  let gus: Member;
  let stream: WsProbe;
  let symbol: string;
  let guard: NewOrderReply;
  let canceled: OrderRecord;

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    await setAlgoOrders(op, true);
    symbol = await listAlgoMarket(op, 'CNX');
    await tradeAt(op, symbol, 'CNX', '100', '1');
    gus = await op.member({ USDT: '500' });
    stream = await userStream(t, gus.client);
  });
  afterAll(async () => {
    await stream.close();
    await t.stop();
  });

  it('1. Gus places the stop: 106 USDT locked, listed open but not working', async () => {
    guard = await placed(gus, { symbol, side: 'BUY', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', quantity: '1', price: '106', stopPrice: '105', newClientOrderId: 'gus-guard' });
    expect(await holdings(gus.client, ['USDT'])).toEqual({ USDT: '394/106' });
    const open = ok<OrderRecord[]>(await gus.client.signed('GET', '/openapi/v1/openOrders', { symbol }));
    expect(open.map((o) => [o.clientOrderId, o.status, o.isWorking, o.stopPrice])).toEqual([['gus-guard', 'NEW', false, '105']]);
    await nextPush(stream);
  });

  it('2. he cancels it by clientOrderId: CANCELED, funds unlocked, history shows it', async () => {
    const answer = ok<OrderRecord & { transactTime: string }>(await gus.client.signed('DELETE', ORDER, { clientOrderId: 'gus-guard' }));
    const { transactTime, ...record } = answer;
    canceled = record;
    expect(record).toMatchObject({ orderId: guard.orderId, status: 'CANCELED', isWorking: false, executedQty: '0', stopPrice: '105', type: 'STOP_LOSS_LIMIT', updateTime: transactTime });
    expect(await holdings(gus.client, ['USDT'])).toEqual({ USDT: '500/0' });
    expect(ok(await gus.client.signed('GET', '/openapi/v1/openOrders', { symbol }))).toEqual([]);
    expect(ok(await gus.client.signed('GET', '/openapi/v1/historyOrders', { symbol }))).toEqual([record]);
    expect(await nextPush(stream)).toEqual([
      reportOf(record, transactTime),
      { e: 'outboundAccountInfo', E: transactTime, T: true, W: true, D: true, B: [{ a: 'USDT', f: '500', l: '0' }] },
    ]);
    refused(await gus.client.signed('DELETE', ORDER, { clientOrderId: 'gus-guard' }), -1142, 'Order has been canceled');
  });

  it('3. a trade at 106 crosses the stop price and fires nothing', async () => {
    await tradeAt(op, symbol, 'CNX', '106', '1');
    expect(await queried(gus, guard.orderId)).toEqual(canceled);
    expect(ok(await gus.client.signed('GET', '/openapi/v1/myTrades', { symbol }))).toEqual([]);
    expect(await depthOf(gus.client, symbol)).toEqual({ bids: [], asks: [] });
    expect(await holdings(gus.client, ['CNX', 'USDT'])).toEqual({ CNX: '0/0', USDT: '500/0' });
    await expectSilentSoFar(op, gus, stream);
  });
});
