import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, placeLimit, startFrozenMarket, type FrozenMarket } from '../support/frozen-market.js';
import type { MarketProbe } from '../support/ws-market-client.js';

/**
 * The v2 market stream (docs/websocket.md "v2 market stream") against a real server, spoken as the
 * official BHEX Python SDK's `BrokerWssV2` speaks it: one socket per subscription on
 * `/openapi/quote/ws/v2`, `{"topic","event":"sub","params":{"binary":false,"symbol":…}}`. `Date`
 * is faked so every command is stamped, and every push sent, at a known time: pushes are exact.
 */

const PATH = '/openapi/quote/ws/v2';
const NOW = Date.parse('2024-01-15T09:00:30.000Z');
const BAR_1M = Date.parse('2024-01-15T09:00:00.000Z');

/** What `BrokerWssV2.subscribe_to_<topic>` sends (kline adds `klineType`). */
const sdkRequest = (topic: string, extra: Record<string, unknown> = {}) => ({ topic, event: 'sub', params: { binary: false, symbol: 'ETHUSDT', ...extra } });
const ack = (request: { topic: string; event: string; params: object }) => ({ ...request, code: '0', msg: 'Success' });
const push = (topic: string, data: object, extra: Record<string, unknown> = {}) => ({ topic, params: { binary: false, symbol: 'ETHUSDT', ...extra }, data });

let market: FrozenMarket;

beforeAll(async () => {
  market = await startFrozenMarket(NOW);
});

afterAll(() => market.stop());

const probe = (): Promise<MarketProbe> => market.probe(PATH);

/** The `data` of the first push (read in order) that `done` holds for. */
async function nextUntil<D>(p: MarketProbe, done: (data: D) => boolean): Promise<D> {
  for (;;) {
    const { data } = (await p.next()) as { data: D };
    if (done(data)) return data;
  }
}

describe('the v2 market stream as the BHEX Python SDK uses it', () => {
  it('when BrokerWssV2 subscribes to each topic and orders trade, then each is acknowledged, shows the current state and pushes one object per change', async () => {
    const trades = await probe();
    const realtimes = await probe();
    const kline = await probe();
    const depth = await probe();
    const ticker = await probe();

    // An ack each; then the current state, except for trades (past ones would read as new).
    expect(await trades.ask(sdkRequest('trade'))).toEqual(ack(sdkRequest('trade')));
    expect(await realtimes.ask(sdkRequest('realtimes'))).toEqual(ack(sdkRequest('realtimes')));
    const quiet = { t: String(NOW), s: 'ETHUSDT', o: '0', h: '0', l: '0', c: '0', v: '0', qv: '0', m: '0' };
    expect(await realtimes.next()).toEqual(push('realtimes', quiet, { realtimeInterval: '24h' }));
    const klineRequest = sdkRequest('kline', { klineType: '1m' });
    expect(await kline.ask(klineRequest)).toEqual(ack(klineRequest));
    expect(await depth.ask(sdkRequest('depth'))).toEqual(ack(sdkRequest('depth')));
    expect(await depth.next()).toEqual(push('depth', { s: 'ETHUSDT', t: NOW, v: '0', b: [], a: [] }));
    expect(await ticker.ask(sdkRequest('bookTicker'))).toEqual(ack(sdkRequest('bookTicker')));
    const emptyTicker = { symbol: 'ETHUSDT', bidPrice: '0', bidQty: '0', askPrice: '0', askQty: '0', time: NOW };
    expect(await ticker.next()).toEqual(push('bookTicker', emptyTicker));

    await placeLimit(market.user, 'SELL', '2000', '1');
    expect(await depth.next()).toEqual(push('depth', { s: 'ETHUSDT', t: NOW, v: '1', b: [], a: [['2000', '1']] }));
    expect(await ticker.next()).toEqual(push('bookTicker', { ...emptyTicker, askPrice: '2000', askQty: '1' }));

    await placeLimit(market.merchant, 'BUY', '2000', '0.4');
    expect(await trades.next()).toEqual(push('trade', { v: '1', t: NOW, p: '2000', q: '0.4', m: true }));
    expect(await depth.next()).toEqual(push('depth', { s: 'ETHUSDT', t: NOW, v: '2', b: [], a: [['2000', '0.6']] }));
    expect(await ticker.next()).toEqual(push('bookTicker', { ...emptyTicker, askPrice: '2000', askQty: '0.6' }));
    expect(await kline.next()).toEqual(
      push('kline', { t: BAR_1M, s: 'ETHUSDT', sn: 'ETHUSDT', o: '2000', h: '2000', l: '2000', c: '2000', v: '0.4' }, { klineType: '1m' }),
    );
    expect(await realtimes.next()).toEqual(push('realtimes', { ...quiet, o: '2000', h: '2000', l: '2000', c: '2000', v: '0.4', qv: '800' }, { realtimeInterval: '24h' }));

    // One order, two trades: v1 sends one frame of both, v2 one push per trade, in order.
    await placeLimit(market.user, 'SELL', '2001', '0.1');
    await placeLimit(market.merchant, 'BUY', '2001', '0.7');
    expect(await trades.next()).toEqual(push('trade', { v: '2', t: NOW, p: '2000', q: '0.6', m: true }));
    expect(await trades.next()).toEqual(push('trade', { v: '3', t: NOW, p: '2001', q: '0.1', m: true }));
    // The throttled topics may or may not have shown the book between the two orders; they end empty.
    expect(await nextUntil(depth, (data: { a: unknown[] }) => data.a.length === 0)).toEqual({ s: 'ETHUSDT', t: NOW, v: '5', b: [], a: [] });
    expect(await nextUntil(ticker, (data: { askPrice: string }) => data.askPrice === '0')).toEqual(emptyTicker);
    expect(await kline.next()).toMatchObject({ data: { h: '2001', c: '2001', v: '1.1' } });
    expect(await realtimes.next()).toMatchObject({ data: { h: '2001', c: '2001', v: '1.1', qv: '2200.1', m: '0.0005' } });

    // Nothing else is pending: each socket's pong comes next.
    for (const p of [trades, realtimes, kline, depth, ticker]) expect(await p.ask('ping')).toEqual({ pong: NOW });
  });

  it('when a depth subscription asks for more than 100 levels, then pushes carry at most 100 a side', async () => {
    const p = await probe();
    const request = { id: 'deep', topic: 'depth', event: 'sub', params: { binary: false, symbol: 'BTCUSDT', limit: 500 } };
    expect(await p.ask(request)).toEqual({ id: 'deep', ...ack(request) });
    for (let i = 0; i < 101; i++) ok(await market.user.signed('POST', '/openapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: String(1000 + i), quantity: '0.001' }));
    // Read until the best bid is the last one placed: by then 101 levels rest, 100 are shown.
    const book = await nextUntil(p, (data: { b: [string, string][] }) => data.b[0]?.[0] === '1100');
    expect(book.b).toHaveLength(100);
    expect(book.b[99]).toEqual(['1001', '0.001']);
  });

  it('when a subscription asks for binary, then its pushes are gzip-compressed binary frames of the same JSON', async () => {
    const p = await probe();
    const request = { topic: 'bookTicker', event: 'sub', params: { binary: true, symbol: 'ETHUSDT' } };
    expect(await p.ask(request)).toEqual(ack(request));
    expect(await p.nextMessage()).toEqual({
      binary: true,
      body: { topic: 'bookTicker', params: { binary: true, symbol: 'ETHUSDT' }, data: { symbol: 'ETHUSDT', bidPrice: '0', bidQty: '0', askPrice: '0', askQty: '0', time: NOW } },
    });
  });
});

describe('v2 requests that are refused, repeated, cancelled or pinged', () => {
  it.each([
    [{ id: 1, topic: 'diffDepth', event: 'sub', params: { symbol: 'ETHUSDT' } }, { id: 1, code: '-10004', desc: 'Invalid topic!' }],
    [{ id: 2, topic: 'kline', event: 'sub', params: { symbol: 'ETHUSDT' } }, { id: 2, code: '-10009', desc: 'Invalid period!' }],
    [{ id: 3, topic: 'realtimes', event: 'sub', params: { symbol: 'ETHUSDT', realtimeInterval: '2d' } }, { id: 3, code: '-10009', desc: 'Invalid period!' }],
    [{ id: 4, topic: 'trade', event: 'sub', params: { symbol: 'ETHUSDT,BTCUSDT' } }, { id: 4, code: '-100010', desc: 'Invalid Symbols!' }],
    [{ id: 5, topic: 'trade', event: 'sub', params: { symbol: 'DOGEUSDT' } }, { id: 5, code: '-100010', desc: 'Invalid Symbols!' }],
    [{ id: 6, topic: 'trade', event: 'sub', params: {} }, { id: 6, code: '-100010', desc: 'Invalid Symbols!' }],
    [{ id: 7, topic: 'trade', params: { symbol: 'ETHUSDT' } }, { id: 7, code: '-10003', desc: 'Event required!' }],
    ['{"topic":', { code: '-10001', desc: 'Invalid JSON!' }],
  ])('when the request is %j, then the answer is %j', async (request, answer) => {
    const p = await probe();
    expect(await p.ask(request)).toEqual(answer);
  });

  it.each(['1d', '1d+8'])('when realtimes asks for the %s window, then its pushes name it and cover the day so far', async (realtimeInterval) => {
    const p = await probe();
    const request = sdkRequest('realtimes', { realtimeInterval });
    expect(await p.ask(request)).toEqual(ack(request));
    // Every trade of this server was at NOW: the day windows hold them all, as the 24 h one does.
    expect(await p.next()).toEqual(
      push('realtimes', { t: String(NOW), s: 'ETHUSDT', o: '2000', h: '2001', l: '2000', c: '2001', v: '1.1', qv: '2200.1', m: '0.0005' }, { realtimeInterval }),
    );
  });

  it('when a client pings, then the pong carries the server time', async () => {
    const p = await probe();
    expect(await p.ask('ping')).toEqual({ pong: NOW });
    expect(await p.ask({ ping: 7 })).toEqual({ pong: NOW });
  });

  it('when a subscription is repeated, then it is acknowledged again without a second state; when cancelled, acknowledged and its pushes stop', async () => {
    const p = await probe();
    const request = { id: 'r', topic: 'realtimes', event: 'sub', params: { binary: false, symbol: 'ETHUSDT' } };
    expect(await p.ask(request)).toEqual({ id: 'r', ...ack(request) });
    expect(await p.next()).toMatchObject({ topic: 'realtimes', data: { c: '2001' } });
    expect(await p.ask(request)).toEqual({ id: 'r', ...ack(request) });
    const cancel = { ...request, event: 'cancel' };
    expect(await p.ask(cancel)).toEqual({ id: 'r', ...ack(cancel) });
    // A trade changes the ticker; a cancelled subscription's push would precede this pong.
    await placeLimit(market.user, 'SELL', '2002', '0.1');
    await placeLimit(market.merchant, 'BUY', '2002', '0.1');
    const watcher = await probe();
    expect(await watcher.ask(request)).toEqual({ id: 'r', ...ack(request) });
    expect(await watcher.next()).toMatchObject({ data: { c: '2002' } });
    expect(await p.ask('ping')).toEqual({ pong: NOW });
  });
});
