import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, RateLimiter } from '../../../../src/api/auth/rate-limiter.js';
import { createMarketStreams, MAX_MARKET_SOCKETS_PER_IP, type MarketStreamOptions, type MarketStreams } from '../../../../src/api/ws/market-stream.js';
import { attachUpgradeRouter } from '../../../../src/api/ws/upgrade-router.js';
import { BourseError } from '../../../../src/core/errors.js';
import { MarketData } from '../../../../src/market/market-data.js';
import { CoreHarness, T0, createCoreHarness, limit } from '../../../support/core-harness.js';
import { refusedHandshake } from '../../../support/ws-client.js';
import { MarketProbe } from '../../../support/ws-market-client.js';
import { countSocketWrites } from '../../../support/socket-writes.js';

const NOW = T0 + 30_000;
const IP = '127.0.0.1';

interface Served {
  streams: MarketStreams;
  limiter: RateLimiter;
  h: CoreHarness;
  market: MarketData;
  url: string;
  stop(): Promise<void>;
}

/** Market streams behind the real upgrade router on a plain HTTP server, over the demo symbols. */
async function serve(options: MarketStreamOptions = {}): Promise<Served> {
  const h = createCoreHarness();
  const market = new MarketData();
  const limiter = new RateLimiter({ ...DEFAULT_RATE_LIMITS, banStrikes: 1 }, () => NOW);
  const streams = createMarketStreams({ exchange: { core: h.core, market }, limiter, clock: () => NOW, logger: pino({ level: 'silent' }) }, options);
  const server = createServer((_request, response) => response.writeHead(404).end());
  attachUpgradeRouter(
    server,
    [streams],
    (ip) => {
      const ban = limiter.banStatus(ip);
      return ban === undefined ? undefined : { error: new BourseError('IP_BANNED', [ban.bannedUntil]), headers: { 'Retry-After': String(ban.retryAfterSec) } };
    },
    (request) => (request.socket.remoteAddress ?? '').replace(/^::ffff:/, ''),
  );
  await new Promise<void>((resolve) => server.listen(0, IP, resolve));
  const url = `ws://${IP}:${(server.address() as AddressInfo).port}`;
  return {
    streams,
    limiter,
    h,
    market,
    url,
    async stop() {
      await streams.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Counts the writes of every market socket's connection from here on (one per `_write` or `_writev`: what reaches the kernel). */
function countWrites(streams: MarketStreams): { writes: number } {
  const counter = { writes: 0 };
  const handle = streams.handle.bind(streams);
  streams.handle = (request, socket, head, ip, refuse) => {
    countSocketWrites(socket, counter);
    handle(request, socket, head, ip, refuse);
  };
  return counter;
}

/** One ETHUSDT trade of 0.4 at 2000 (a resting sell of 1, then a buy), committed: the market data and the streams hear of it. */
function tradeEth(s: Served): void {
  const seller = s.h.funded({ ETH: '1' });
  const buyer = s.h.funded({ USDT: '10000' });
  s.h.place(limit(seller, 'ETHUSDT', 'SELL', '2000', '1'));
  s.h.now = T0 + 1000;
  s.h.place(limit(buyer, 'ETHUSDT', 'BUY', '2000', '0.4'));
  s.market.onTrades(s.h.lastRows.trades);
  s.streams.onCommit({ rows: s.h.lastRows });
}

describe('market stream paths', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve();
  });
  afterAll(async () => s.stop());

  it.each([
    ['/openapi/quote/ws/v1', true],
    ['/openapi/quote/ws/v1/', true],
    ['/openapi/quote/ws/v1/sub/trade/BTCUSDT', true],
    ['/openapi/ws/quote/v1', true],
    ['/ws/quote/v1', true],
    ['/openapi/quote/ws/v1x', false],
    ['/openapi/ws/0123456789abcdef', false],
    ['/openapi/quote/ws/v2', true],
    ['/openapi/quote/ws/v2/', true],
    ['/openapi/quote/ws/v2x', false],
    ['/openapi/quote/ws/v3', false],
  ])('when the path is %s, then matches is %s', (path, expected) => {
    expect(s.streams.matches(path)).toBe(expected);
  });
});

describe('a market socket', () => {
  let s: Served;
  beforeEach(async () => {
    s = await serve();
  });
  afterEach(async () => s.stop());

  it('when a client pings, then it gets its number back, or server ms for a bare ping', async () => {
    const probe = await MarketProbe.open(`${s.url}/openapi/quote/ws/v1`);
    expect(await probe.ask({ ping: 1700000000123 })).toEqual({ pong: 1700000000123 });
    expect(await probe.ask('ping')).toEqual({ pong: NOW });
    await probe.close();
  });

  it('when a request is refused, then an error frame answers it and nothing is subscribed', async () => {
    const probe = await MarketProbe.open(`${s.url}/ws/quote/v1`);
    expect(await probe.ask({ id: '2', event: 'sub', topic: 'nope', symbol: 'ETHUSDT' })).toEqual({ id: '2', code: '-10004', desc: 'Invalid topic!' });
    expect(await probe.ask({ id: '3', event: 'sub', topic: 'trade', symbol: 'ETHUSDT,NOPE' })).toEqual({ id: '3', code: '-100010', desc: 'Invalid Symbols!' });
    expect(await probe.ask('not json')).toEqual({ code: '-10001', desc: 'Invalid JSON!' });
    expect(await probe.ask('')).toEqual({ code: '-10000', desc: 'Invalid request!' });
    // The trade a subscription to ETHUSDT would have seen does not arrive: the ack of cancel_all is next.
    const seller = s.h.funded({ ETH: '1' });
    const buyer = s.h.funded({ USDT: '10000' });
    s.h.place(limit(seller, 'ETHUSDT', 'SELL', '2000', '1'));
    s.h.place(limit(buyer, 'ETHUSDT', 'BUY', '2000', '1'));
    s.market.onTrades(s.h.lastRows.trades);
    s.streams.onCommit({ rows: s.h.lastRows });
    expect(await probe.ask({ id: 9, event: 'cancel_all' })).toEqual({ id: 9, event: 'cancel_all', code: '0', msg: 'Success' });
    await probe.close();
  });

  it('when a path has a suffix and a trade commits, then the trade frame follows the snapshot', async () => {
    const probe = await MarketProbe.open(`${s.url}/openapi/quote/ws/v1/anything/after`);
    expect(await probe.ask({ event: 'sub', topic: 'trade', symbol: '301.ETHUSDT' })).toMatchObject({ symbol: 'ETHUSDT', topic: 'trade', data: [], f: true });
    tradeEth(s);
    expect(await probe.next()).toEqual({
      symbol: 'ETHUSDT',
      symbolName: 'ETHUSDT',
      topic: 'trade',
      params: { binary: 'false' },
      data: [{ v: '1', t: T0 + 1000, p: '2000', q: '0.4', m: true }],
      f: false,
      sendTime: NOW,
    });
    await probe.close();
  });

  it('when trades commit in two batches within the window, then they come in one frame in commit order, and a socket subscribing in between sees them in its snapshot only', async () => {
    // A window far longer than the test: only the late subscription sends the queued trades.
    await s.stop();
    s = await serve({ tradeWindowMs: 60_000 });
    const early = await MarketProbe.open(`${s.url}/openapi/quote/ws/v1`);
    expect(await early.ask({ event: 'sub', topic: 'trade', symbol: 'ETHUSDT' })).toMatchObject({ data: [], f: true });
    const seller = s.h.funded({ ETH: '1' });
    const buyer = s.h.funded({ USDT: '10000' });
    s.h.place(limit(seller, 'ETHUSDT', 'SELL', '2000', '1'));
    for (const quantity of ['0.1', '0.2']) {
      s.h.place(limit(buyer, 'ETHUSDT', 'BUY', '2000', quantity));
      s.market.onTrades(s.h.lastRows.trades);
      s.streams.onCommit({ rows: s.h.lastRows });
    }
    expect(await early.ask({ ping: 1 })).toEqual({ pong: 1 });
    const late = await MarketProbe.open(`${s.url}/openapi/quote/ws/v1`);
    const snapshot = (await late.ask({ event: 'sub', topic: 'trade', symbol: 'ETHUSDT' })) as { data: { q: string }[] };
    expect(snapshot.data.map((t) => t.q)).toEqual(['0.1', '0.2']);
    const frame = (await early.next()) as { data: { v: string; q: string }[]; f: boolean };
    expect([frame.f, frame.data.map((t) => [t.v, t.q])]).toEqual([false, [['1', '0.1'], ['2', '0.2']]]);
    // The late socket's next frame is the answer to its ping: the queued trades were not sent to it again.
    expect(await late.ask({ ping: 2 })).toEqual({ pong: 2 });
    await early.close();
    await late.close();
  });

  it('when the depth timer finds a trade queued, then a socket on trade, depth and diffDepth gets depth, diffDepth and trade as three messages in one write', async () => {
    // A window far longer than the test: only the depth round sends the queued trade.
    await s.stop();
    s = await serve({ tradeWindowMs: 60_000 });
    const counter = countWrites(s.streams);
    const probe = await MarketProbe.open(`${s.url}/openapi/quote/ws/v1`);
    for (const topic of ['trade', 'depth', 'diffDepth']) {
      expect(await probe.ask({ id: topic, event: 'sub', topic, symbol: 'ETHUSDT' })).toMatchObject({ id: topic, topic, f: true });
    }
    tradeEth(s);
    counter.writes = 0;
    const frames = [await probe.next(), await probe.next(), await probe.next()];
    const envelope = (topic: string) => ({ id: topic, symbol: 'ETHUSDT', symbolName: 'ETHUSDT', topic, params: { binary: 'false' } });
    expect(frames).toEqual([
      { ...envelope('depth'), data: [{ e: 301, s: 'ETHUSDT', t: NOW, v: '2', b: [], a: [['2000', '0.6']] }], f: false, sendTime: NOW },
      { ...envelope('diffDepth'), data: [{ e: 301, s: 'ETHUSDT', t: NOW, v: '2', b: [], a: [['2000', '0.6']] }], f: false, sendTime: NOW },
      { ...envelope('trade'), data: [{ v: '1', t: T0 + 1000, p: '2000', q: '0.4', m: true }], f: false, sendTime: NOW },
    ]);
    expect(counter.writes).toBe(1);
    // Nothing else was queued: the next message answers a ping.
    expect(await probe.ask({ ping: 1 })).toEqual({ pong: 1 });
    await probe.close();
  });

  it('when params.binary is true, then frames are gzip-compressed binary frames of the same JSON', async () => {
    const probe = await MarketProbe.open(`${s.url}/openapi/ws/quote/v1`);
    probe.send({ event: 'sub', topic: 'bookTicker', symbol: 'BTCUSDT', params: { binary: 'true' } });
    expect(await probe.nextMessage()).toEqual({
      binary: true,
      body: {
        symbol: 'BTCUSDT',
        symbolName: 'BTCUSDT',
        topic: 'bookTicker',
        params: { binary: 'true' },
        data: [{ s: 'BTCUSDT', b: '0', bq: '0', a: '0', aq: '0', t: NOW }],
        f: true,
        sendTime: NOW,
      },
    });
    await probe.close();
  });

  it('when the book changes, then the depth timer sends the new book without being asked', async () => {
    const probe = await MarketProbe.open(`${s.url}/openapi/quote/ws/v1`);
    expect(await probe.ask({ event: 'sub', topic: 'depth', symbol: 'ETHUSDT' })).toMatchObject({ data: [{ v: '0', b: [], a: [] }], f: true });
    const seller = s.h.funded({ ETH: '1' });
    s.h.place(limit(seller, 'ETHUSDT', 'SELL', '2000', '1'));
    expect(await probe.next()).toMatchObject({ data: [{ e: 301, s: 'ETHUSDT', t: NOW, v: '1', b: [], a: [['2000', '1']] }], f: false });
    await probe.close();
  });

  it('when a client sends a 51st message within 10 s, then the socket is closed with 1008', async () => {
    const probe = await MarketProbe.open(`${s.url}/openapi/quote/ws/v1`);
    for (let i = 0; i < 51; i++) probe.send({ ping: i });
    for (let i = 0; i < 50; i++) expect(await probe.next()).toEqual({ pong: i });
    expect(await probe.closed).toEqual({ code: 1008, reason: 'too many messages' });
  });

  it('when the server closes, then open sockets get 1001 and new handshakes are dropped', async () => {
    const probe = await MarketProbe.open(`${s.url}/openapi/quote/ws/v1`);
    await s.streams.close();
    expect(await probe.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    await expect(MarketProbe.open(`${s.url}/openapi/quote/ws/v1`)).rejects.toThrow();
  });
});

describe('market socket limits', () => {
  it('when a client is silent for the idle time, then its socket closes with 1000 idle', async () => {
    const s = await serve({ idleMs: 150 });
    const probe = await MarketProbe.open(`${s.url}/openapi/quote/ws/v1`);
    expect(await probe.closed).toEqual({ code: 1000, reason: 'idle' });
    await s.stop();
  });

  it('when an IP holds 50 market sockets, then the 51st handshake gets 429 -1003 and a strike; a closed one frees a place', async () => {
    const s = await serve();
    const probes = await Promise.all(Array.from({ length: MAX_MARKET_SOCKETS_PER_IP }, () => MarketProbe.open(`${s.url}/openapi/quote/ws/v1`)));
    const refused = await refusedHandshake(`${s.url}/openapi/quote/ws/v1`);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toEqual({ code: -1003, msg: 'Too many requests; current limit is 50 requests per IP. (open market streams)' });
    // The limiter bans at the first strike here: the strike was recorded.
    expect(s.limiter.banStatus(IP)).toBeDefined();
    s.limiter.liftBan(IP);
    await probes[0].close();
    const again = await MarketProbe.open(`${s.url}/openapi/quote/ws/v1`);
    await Promise.all([again, ...probes.slice(1)].map((p) => p.close()));
    await s.stop();
  });
});

describe('the v2 path', () => {
  it('when a v2 socket stays quiet past the idle time, then the server pings it every interval and keeps it, while a v1 socket closes idle', async () => {
    const s = await serve({ idleMs: 150, v2PingIntervalMs: 50 });
    const v1 = await MarketProbe.open(`${s.url}/openapi/quote/ws/v1`);
    const v2 = await MarketProbe.open(`${s.url}/openapi/quote/ws/v2`);
    expect(await v1.closed).toEqual({ code: 1000, reason: 'idle' });
    // The pings queued so far, then one sent after v1's idle close: v2 is still open.
    while (v2.pending > 0) expect(await v2.next()).toEqual({ ping: NOW });
    expect(await v2.next()).toEqual({ ping: NOW });
    expect(v2.ws.readyState).toBe(v2.ws.OPEN);
    await v2.close();
    await s.stop();
  });

  it('when an IP holds 50 market sockets of both paths, then a 51st on either is refused', async () => {
    const s = await serve();
    const half = MAX_MARKET_SOCKETS_PER_IP / 2;
    const probes = await Promise.all(
      Array.from({ length: MAX_MARKET_SOCKETS_PER_IP }, (_, i) => MarketProbe.open(`${s.url}/openapi/quote/ws/${i < half ? 'v1' : 'v2'}`)),
    );
    expect((await refusedHandshake(`${s.url}/openapi/quote/ws/v2`)).status).toBe(429);
    s.limiter.liftBan(IP);
    expect((await refusedHandshake(`${s.url}/openapi/quote/ws/v1`)).status).toBe(429);
    await Promise.all(probes.map((p) => p.close()));
    await s.stop();
  });

  it('when a v2 client sends a 51st message within 10 s, then the socket is closed with 1008', async () => {
    const s = await serve();
    const probe = await MarketProbe.open(`${s.url}/openapi/quote/ws/v2`);
    for (let i = 0; i < 51; i++) probe.send('ping');
    for (let i = 0; i < 50; i++) expect(await probe.next()).toEqual({ pong: NOW });
    expect(await probe.closed).toEqual({ code: 1008, reason: 'too many messages' });
    await s.stop();
  });
});
