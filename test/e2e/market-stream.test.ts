import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startFrozenMarket, type FrozenMarket } from '../support/frozen-market.js';
import type { MarketProbe } from '../support/ws-market-client.js';

/**
 * The public market streams (W2, docs/websocket.md "Market stream") against a real server, as the BHEX SDKs use them.
 * `Date` is faked so every command is stamped, and every frame sent, at NOW: frames are exact.
 */

const NOW = Date.parse('2024-01-15T09:00:30.000Z');
const BAR_1M = Date.parse('2024-01-15T09:00:00.000Z');
const PATH = '/openapi/quote/ws/v1';

const frame = (topic: string, data: unknown[], f: boolean, params: Record<string, unknown> = { binary: 'false' }) => ({
  symbol: 'ETHUSDT',
  symbolName: 'ETHUSDT',
  topic,
  params,
  data,
  f,
  sendTime: NOW,
});

let market: FrozenMarket;

beforeAll(async () => {
  market = await startFrozenMarket(NOW);
});

afterAll(() => market.stop());

const probe = (path = PATH): Promise<MarketProbe> => market.probe(path);

describe('market streams as a trade happens', () => {
  it('when clients subscribe and orders trade, then each topic sends its snapshot and then its updates', async () => {
    // The Java SDK appends its request to the path; the suffix is ignored.
    const trades = await probe(`${PATH}/sub/trade/ETHUSDT`);
    const depth = await probe();
    const ticker = await probe();
    const kline = await probe();
    const realtimes = await probe();

    expect(await trades.ask({ id: 't1', symbol: '301.ETHUSDT', topic: 'trade', event: 'sub', params: { binary: 'false' } })).toEqual({ id: 't1', ...frame('trade', [], true) });
    expect(await depth.ask({ symbol: 'ETHUSDT', topic: 'depth', event: 'sub', params: { binary: 'false', limit: '5' } })).toEqual(
      frame('depth', [{ e: 301, s: 'ETHUSDT', t: NOW, v: '0', b: [], a: [] }], true, { binary: 'false', limit: '5' }),
    );
    const emptyTicker = { s: 'ETHUSDT', b: '0', bq: '0', a: '0', aq: '0', t: NOW };
    expect(await ticker.ask({ symbol: 'ETHUSDT', topic: 'bookTicker', event: 'sub' })).toEqual(frame('bookTicker', [emptyTicker], true));
    expect(await kline.ask({ symbol: 'ETHUSDT', topic: 'kline_1m', event: 'sub', params: { binary: false } })).toEqual(
      frame('kline', [], true, { binary: false, klineType: '1m' }),
    );
    const realtimesParams = { binary: 'false', realtimeInterval: '24h' };
    const quiet = { t: String(NOW), s: 'ETHUSDT', sn: 'ETHUSDT', c: '0', h: '0', l: '0', o: '0', v: '0', qv: '0', m: '0', e: 301 };
    expect(await realtimes.ask({ symbol: 'ETHUSDT', topic: 'realtimes', event: 'sub', params: { binary: 'false' } })).toEqual(
      frame('realtimes', [quiet], true, realtimesParams),
    );

    ok(await market.user.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', price: '2000', quantity: '1' }));
    expect(await depth.next()).toEqual(frame('depth', [{ e: 301, s: 'ETHUSDT', t: NOW, v: '1', b: [], a: [['2000', '1']] }], false, { binary: 'false', limit: '5' }));
    expect(await ticker.next()).toEqual(frame('bookTicker', [{ ...emptyTicker, a: '2000', aq: '1' }], false));

    ok(await market.merchant.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', price: '2000', quantity: '0.4' }));
    const tradeItem = { v: '1', t: NOW, p: '2000', q: '0.4', m: true };
    expect(await trades.next()).toEqual({ id: 't1', ...frame('trade', [tradeItem], false) });
    expect(await depth.next()).toEqual(frame('depth', [{ e: 301, s: 'ETHUSDT', t: NOW, v: '2', b: [], a: [['2000', '0.6']] }], false, { binary: 'false', limit: '5' }));
    expect(await ticker.next()).toEqual(frame('bookTicker', [{ ...emptyTicker, a: '2000', aq: '0.6' }], false));
    expect(await kline.next()).toEqual(
      frame('kline', [{ t: BAR_1M, s: 'ETHUSDT', sn: 'ETHUSDT', o: '2000', h: '2000', l: '2000', c: '2000', v: '0.4' }], false, { binary: false, klineType: '1m' }),
    );
    expect(await realtimes.next()).toEqual(
      frame('realtimes', [{ ...quiet, c: '2000', h: '2000', l: '2000', o: '2000', v: '0.4', qv: '800' }], false, realtimesParams),
    );

    // The depth `v` is A5's lastUpdateId at the same moment; the REST trade is the streamed one.
    expect(ok(await market.user.get('/openapi/quote/v1/depth', { symbol: 'ETHUSDT' })).body).toMatchObject({ lastUpdateId: 2 });
    expect(ok(await market.user.get('/openapi/quote/v1/trades', { symbol: 'ETHUSDT' })).body).toEqual([{ id: '1', price: '2000', qty: '0.4', time: NOW, isBuyerMaker: false }]);

    // A late subscriber's snapshot holds the trade; nothing else is pending anywhere.
    const late = await probe();
    expect(await late.ask({ symbol: 'ETHUSDT', topic: 'trade', event: 'sub' })).toEqual(frame('trade', [tradeItem], true));
    expect([trades, depth, ticker, kline, realtimes].map((p) => p.pending)).toEqual([0, 0, 0, 0, 0]);
  });

  it('when a subscription asks for binary frames, then they are gzip-compressed JSON in binary frames', async () => {
    const p = await probe('/openapi/ws/quote/v1');
    p.send({ id: 'b', symbol: 'ETHUSDT', topic: 'bookTicker', event: 'sub', params: { binary: 'true' } });
    expect(await p.nextMessage()).toEqual({
      binary: true,
      body: { id: 'b', ...frame('bookTicker', [{ s: 'ETHUSDT', b: '0', bq: '0', a: '2000', aq: '0.6', t: NOW }], true, { binary: 'true' }) },
    });
  });
});

describe('market stream requests that are refused, cancelled or pinged', () => {
  it.each([
    [{ id: '1', symbol: 'ETHUSDT', topic: 'nope', event: 'sub' }, { id: '1', code: '-10004', desc: 'Invalid topic!' }],
    [{ id: '2', symbol: 'ETHUSDT', topic: 'kline_7m', event: 'sub' }, { id: '2', code: '-10009', desc: 'Invalid period!' }],
    [{ id: '3', symbol: 'ETHUSDT,DOGEUSDT', topic: 'trade', event: 'sub' }, { id: '3', code: '-100010', desc: 'Invalid Symbols!' }],
    [{ id: '4', symbol: 'ETHUSDT', topic: 'trade', event: 'subscribe' }, { id: '4', code: '-10002', desc: 'Invalid event!' }],
    [{ id: '5', symbol: 'ETHUSDT', topic: 'trade' }, { id: '5', code: '-10003', desc: 'Event required!' }],
    [{ id: '6', symbol: 'ETHUSDT', event: 'sub' }, { id: '6', code: '-10005', desc: 'Topic required!' }],
    ['{"event":"sub",', { code: '-10001', desc: 'Invalid JSON!' }],
    ['', { code: '-10000', desc: 'Invalid request!' }],
  ])('when the request is %j, then the answer is %j', async (request, answer) => {
    const p = await probe('/ws/quote/v1');
    expect(await p.ask(request)).toEqual(answer);
    await p.close();
  });

  it('when a client pings, then the pong carries its number', async () => {
    const p = await probe();
    expect(await p.ask({ ping: 1705309230000 })).toEqual({ pong: 1705309230000 });
    expect(await p.ask('ping')).toEqual({ pong: NOW });
  });

  it('when a client sends cancel_all, then it is answered and its subscriptions end', async () => {
    const p = await probe();
    expect(await p.ask({ symbol: 'ETHUSDT,BTCUSDT', topic: 'trade', event: 'sub' })).toMatchObject({ symbol: 'ETHUSDT', f: true });
    expect(await p.next()).toMatchObject({ symbol: 'BTCUSDT', f: true });
    expect(await p.ask({ id: '42', event: 'cancel_all' })).toEqual({ id: '42', event: 'cancel_all', code: '0', msg: 'Success' });
    ok(await market.merchant.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', price: '2000', quantity: '0.1' }));
    // Had the trade subscription survived, its frame would precede this pong.
    expect(await p.ask({ ping: 7 })).toEqual({ pong: 7 });
  });
});
