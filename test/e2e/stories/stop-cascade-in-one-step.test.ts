/**
 * Story: two stops cascade in one engine step. CSX last traded at 100; Cal has two STOP_LOSS SELLs
 * of 1 CSX, A at 99 and B at 97; Bo bids 0.6 at 99, 1 at 97 and 2 at 96. Tia sells 0.1 at 99: that
 * trade fires A, whose market sell trades down to 97 and fires B, which sells down to 96. All of it
 * is Tia's one command: Cal's stream gets one push with both triggers and all four fills.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdings } from '../../support/account-reads.js';
import { ok } from '../../support/answers.js';
import {
  depthOf,
  expectSilentSoFar,
  listAlgoMarket,
  nextPush,
  placed,
  queried,
  setAlgoOrders,
  tradeAt,
  userStream,
  type NewOrderReply,
} from '../../support/algo-orders.js';
import { Operator, type Member } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import type { WsProbe } from '../../support/ws-client.js';

describe('story: two stops cascade in one step', () => {
  let t: TestServer;
  let op: Operator;
  let cal: Member;
  let stream: WsProbe;
  let symbol: string;
  let stopA: NewOrderReply;
  let stopB: NewOrderReply;
  let tia: NewOrderReply;

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    await setAlgoOrders(op, true);
    symbol = await listAlgoMarket(op, 'CSX');
    await tradeAt(op, symbol, 'CSX', '100', '1');
    cal = await op.member({ CSX: '2' });
    stream = await userStream(t, cal.client);
  });
  afterAll(async () => {
    await stream.close();
    await t.stop();
  });

  it('1. Cal places stop A at 99 and stop B at 97; Bo bids at 99, 97 and 96; nothing fires', async () => {
    stopA = await placed(cal, { symbol, side: 'SELL', type: 'STOP_LOSS', quantity: '1', stopPrice: '99', newClientOrderId: 'cal-a' });
    stopB = await placed(cal, { symbol, side: 'SELL', type: 'STOP_LOSS', quantity: '1', stopPrice: '97', newClientOrderId: 'cal-b' });
    await nextPush(stream);
    await nextPush(stream);
    const bo = await op.member({ USDT: '1000' });
    for (const [quantity, price] of [['0.6', '99'], ['1', '97'], ['2', '96']]) await placed(bo, { symbol, side: 'BUY', type: 'LIMIT', quantity, price });
    expect(await depthOf(cal.client, symbol)).toEqual({ bids: [['99', '0.6'], ['97', '1'], ['96', '2']], asks: [] });
    expect(await holdings(cal.client, ['CSX'])).toEqual({ CSX: '0/2' });
  });

  it("2. Tia's sell at 99 fires A, whose trades fire B, in the same step", async () => {
    const tiaMember = await op.member({ CSX: '0.1' });
    tia = await placed(tiaMember, { symbol, side: 'SELL', type: 'LIMIT', quantity: '0.1', price: '99' });
    expect(tia).toMatchObject({ status: 'FILLED', fills: [{ price: '99', qty: '0.1' }] });
    const a = await queried(cal, stopA.orderId);
    const b = await queried(cal, stopB.orderId);
    expect([a.status, a.executedQty, a.cummulativeQuoteQty, a.updateTime]).toEqual(['FILLED', '1', '98', tia.transactTime]);
    expect([b.status, b.executedQty, b.cummulativeQuoteQty, b.updateTime]).toEqual(['FILLED', '1', '96.5', tia.transactTime]);
    const trades = ok<{ price: string; qty: string; time: number }[]>(await cal.client.get('/openapi/quote/v1/trades', { symbol, limit: 5 }));
    expect(trades.map((x) => [x.price, x.qty, String(x.time)])).toEqual(
      [['99', '0.1'], ['99', '0.5'], ['97', '0.5'], ['97', '0.5'], ['96', '0.5']].map((trade) => [...trade, tia.transactTime]),
    );
    expect(await depthOf(cal.client, symbol)).toEqual({ bids: [['96', '1.5']], asks: [] });
  });

  it("3. Cal's stream has both triggers and all four fills in one push, in firing order, then nothing more", async () => {
    const push = await nextPush(stream);
    const label = (id: unknown): string => (id === stopA.orderId ? 'A' : id === stopB.orderId ? 'B' : `order ${String(id)}`);
    const summary = (f: Record<string, unknown>): unknown[] =>
      f.e === 'executionReport' ? [f.e, label(f.i), f.X, f.l, f.L, f.w] : f.e === 'ticketInfo' ? [f.e, label(f.o), f.q, f.p] : [f.e];
    expect(push.map(summary)).toEqual([
      ['executionReport', 'A', 'NEW', '0', '0', true],
      ['executionReport', 'A', 'PARTIALLY_FILLED', '0.5', '99', true],
      ['executionReport', 'A', 'FILLED', '0.5', '97', false],
      ['executionReport', 'B', 'NEW', '0', '0', true],
      ['executionReport', 'B', 'PARTIALLY_FILLED', '0.5', '97', true],
      ['executionReport', 'B', 'FILLED', '0.5', '96', false],
      ['ticketInfo', 'A', '0.5', '99'],
      ['ticketInfo', 'A', '0.5', '97'],
      ['ticketInfo', 'B', '0.5', '97'],
      ['ticketInfo', 'B', '0.5', '96'],
      ['outboundAccountInfo'],
    ]);
    expect(push.every((f) => f.E === tia.transactTime)).toBe(true);
    expect(push[10].B).toEqual([
      { a: 'CSX', f: '0', l: '0' },
      { a: 'USDT', f: '194.3055', l: '0' },
    ]);
    await expectSilentSoFar(op, cal, stream);
  });
});
