import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { BacklogWatch } from '../../../../src/api/ws/backlog-watch.js';
import { MarketFanout } from '../../../../src/api/ws/market-fanout.js';
import { FramePublish, MarketFrame, V1_WIRE } from '../../../../src/api/ws/market-frames.js';
import { V1_PROTOCOL } from '../../../../src/api/ws/market-protocols.js';
import { readClientMessage } from '../../../../src/api/ws/market-request.js';
import { serveMarketSocket } from '../../../../src/api/ws/market-socket.js';
import { SocketSubscriptions, type FrameSink } from '../../../../src/api/ws/market-subscriptions.js';
import { WriteRound } from '../../../../src/api/ws/market-write-round.js';
import type { StreamVersion } from '../../../../src/api/ws/market-topics.js';
import { MarketData } from '../../../../src/market/market-data.js';
import { CoreHarness, T0, createCoreHarness, limit } from '../../../support/core-harness.js';

/** Each distinct frame of a publish is built once and every subscriber that gets it is handed the same bytes. */

const NOW = T0 + 30_000;

/** A sink that keeps the frames it is handed. */
class SharingSink implements FrameSink {
  readonly own = new SocketSubscriptions();
  frames: { frame: MarketFrame; binary: boolean }[] = [];

  send(frame: MarketFrame, binary: boolean): void {
    this.frames.push({ frame, binary });
  }
}

let h: CoreHarness;
let market: MarketData;
let fanout: MarketFanout;
let seller: number;
let buyer: number;

function subscribe(sink: FrameSink & { own: SocketSubscriptions }, request: object, version: StreamVersion = 'v1'): void {
  const message = readClientMessage(JSON.stringify(request), (symbol) => h.core.spot.symbols.get(symbol), version);
  if (message.kind !== 'subscription') throw new Error(`not a subscription: ${JSON.stringify(message)}`);
  expect(fanout.apply(sink, sink.own, message.request)).toBeUndefined();
}

/** A trade on ETHUSDT, sent to the trade subscribers as a commit would. */
function trade(): void {
  h.place(limit(seller, 'ETHUSDT', 'SELL', '2000', '0.1'));
  h.place(limit(buyer, 'ETHUSDT', 'BUY', '2000', '0.1'));
  market.onTrades(h.lastRows.trades);
  fanout.onTrades(h.lastRows.trades);
}

beforeEach(() => {
  h = createCoreHarness();
  market = new MarketData();
  fanout = new MarketFanout({ core: h.core, market }, () => NOW);
  seller = h.funded({ ETH: '10' });
  buyer = h.funded({ USDT: '100000' });
});

describe('FramePublish', () => {
  it('when asked for the same wire and head twice, then it builds one frame; another head gets its own', () => {
    const item = { v: '1', t: NOW, p: '2000', q: '0.1', m: true };
    const publish = new FramePublish({ kind: 'trade', items: [item] }, false, NOW);
    const a = publish.framesFor(V1_WIRE, '{"topic":"trade"');
    expect(publish.framesFor(V1_WIRE, '{"topic":"trade"')).toBe(a);
    expect(publish.framesFor(V1_WIRE, '{"id":"2","topic":"trade"')).not.toBe(a);
    expect(publish.size).toBe(2);
    expect(a.map((frame) => frame.text)).toEqual([`{"topic":"trade","data":[${JSON.stringify(item)}],"f":false,"sendTime":${NOW}}`]);
  });

  it('when bytes and gzip are read again, then they are the same Buffers, encoded once', () => {
    const frame = new MarketFrame('{"é":1}');
    const from = vi.spyOn(Buffer, 'from');
    try {
      expect(frame.bytes()).toBe(frame.bytes());
      expect(frame.gzip()).toBe(frame.gzip());
      expect(from).toHaveBeenCalledTimes(1);
    } finally {
      from.mockRestore();
    }
    expect(frame.bytes().toString('utf8')).toBe('{"é":1}');
    expect(gunzipSync(frame.gzip()).toString('utf8')).toBe('{"é":1}');
  });
});

describe('a publish to many subscribers', () => {
  it('when N subscribers share a head, then they are handed one frame; a distinct id gets its own', () => {
    const same = Array.from({ length: 50 }, () => new SharingSink());
    const other = new SharingSink();
    for (const sink of same) subscribe(sink, { id: '1', event: 'sub', topic: 'trade', symbol: 'ETHUSDT' });
    subscribe(other, { id: '2', event: 'sub', topic: 'trade', symbol: 'ETHUSDT' });
    const late = new SharingSink();
    subscribe(late, { id: '1', event: 'sub', topic: 'trade', symbol: 'ETHUSDT' });
    // Snapshots are each subscription's own.
    expect(new Set(same.map((sink) => sink.frames[0].frame)).size).toBe(50);
    for (const sink of [...same, other, late]) sink.frames = [];

    trade();
    const frames = new Set(same.map((sink) => sink.frames.map((f) => f.frame)).flat());
    expect(frames.size).toBe(1);
    const [shared] = frames;
    expect(other.frames).toHaveLength(1);
    expect(other.frames[0].frame).not.toBe(shared);
    expect(late.frames.map((f) => f.frame)).toEqual([shared]);
    expect(late.frames[0].frame).toBe(shared);
    expect(JSON.parse(shared.text)).toMatchObject({ id: '1', topic: 'trade', f: false, sendTime: NOW, data: [{ p: '2000', q: '0.1', m: true }] });
    expect(same.every((sink) => sink.frames[0].binary === false)).toBe(true);
  });

  it('when depth and diffDepth flush to many subscribers, then each distinct frame is built once', () => {
    const sinks = Array.from({ length: 20 }, () => new SharingSink());
    for (const sink of sinks) {
      subscribe(sink, { event: 'sub', topic: 'depth', symbol: 'ETHUSDT' });
      subscribe(sink, { event: 'sub', topic: 'diffDepth', symbol: 'ETHUSDT' });
      sink.frames = [];
    }
    h.place(limit(seller, 'ETHUSDT', 'SELL', '2001', '0.5'));
    fanout.flushDepths();
    const byTopic = new Map<string, Set<MarketFrame>>();
    for (const sink of sinks) {
      expect(sink.frames).toHaveLength(2);
      for (const { frame } of sink.frames) {
        const topic = (JSON.parse(frame.text) as { topic: string }).topic;
        byTopic.set(topic, (byTopic.get(topic) ?? new Set()).add(frame));
      }
    }
    expect([...byTopic.keys()].sort()).toEqual(['depth', 'diffDepth']);
    expect([...byTopic.values()].map((set) => set.size)).toEqual([1, 1]);
  });
});

describe('a publish to v1 and v2 subscribers', () => {
  it('when one order makes two trades, then v1 subscribers share one frame of both and v2 subscribers share one push per trade', () => {
    const v1 = Array.from({ length: 10 }, () => new SharingSink());
    const v2 = Array.from({ length: 10 }, () => new SharingSink());
    for (const sink of v1) subscribe(sink, { event: 'sub', topic: 'trade', symbol: 'ETHUSDT' });
    for (const sink of v2) subscribe(sink, { topic: 'trade', event: 'sub', params: { binary: false, symbol: 'ETHUSDT' } }, 'v2');
    // A v2 trade subscription starts with the next trade: no snapshot.
    expect(v2.map((sink) => sink.frames.length)).toEqual(Array.from({ length: 10 }, () => 0));
    for (const sink of v1) sink.frames = [];

    h.place(limit(seller, 'ETHUSDT', 'SELL', '2000', '0.1'));
    h.place(limit(seller, 'ETHUSDT', 'SELL', '2001', '0.2'));
    h.place(limit(buyer, 'ETHUSDT', 'BUY', '2001', '0.3'));
    market.onTrades(h.lastRows.trades);
    fanout.onTrades(h.lastRows.trades);

    const v1Frames = new Set(v1.flatMap((sink) => sink.frames.map((f) => f.frame)));
    expect(v1Frames.size).toBe(1);
    const [both] = v1Frames;
    expect((JSON.parse(both.text) as { data: { q: string }[] }).data.map((t) => t.q)).toEqual(['0.1', '0.2']);
    expect(v2.every((sink) => sink.frames.length === 2)).toBe(true);
    const pushes = v2[0].frames.map((f) => f.frame);
    expect(v2.every((sink) => sink.frames.every((f, i) => f.frame === pushes[i]))).toBe(true);
    const t = h.lastRows.trades[0].time;
    expect(pushes.map((frame) => JSON.parse(frame.text) as unknown)).toEqual([
      { topic: 'trade', params: { binary: false, symbol: 'ETHUSDT' }, data: { v: '1', t, p: '2000', q: '0.1', m: true } },
      { topic: 'trade', params: { binary: false, symbol: 'ETHUSDT' }, data: { v: '2', t, p: '2001', q: '0.2', m: true } },
    ]);
  });

  it('when a book change reaches v1 and v2 depth subscribers, then each protocol gets one frame, v2 with at most 100 levels and no e', () => {
    const v1 = new SharingSink();
    const v2 = [new SharingSink(), new SharingSink()];
    subscribe(v1, { event: 'sub', topic: 'depth', symbol: 'ETHUSDT' });
    for (const sink of v2) subscribe(sink, { topic: 'depth', event: 'sub', params: { binary: false, symbol: 'ETHUSDT', limit: 1000 } }, 'v2');
    for (const sink of [v1, ...v2]) sink.frames = [];
    h.place(limit(seller, 'ETHUSDT', 'SELL', '2001', '0.5'));
    fanout.flushDepths();
    expect(JSON.parse(v1.frames[0].frame.text)).toMatchObject({ topic: 'depth', data: [{ e: 301, v: '1' }], f: false });
    expect(v2[0].frames[0].frame).toBe(v2[1].frames[0].frame);
    expect(JSON.parse(v2[0].frames[0].frame.text)).toEqual({
      topic: 'depth',
      params: { binary: false, symbol: 'ETHUSDT', limit: 1000 },
      data: { s: 'ETHUSDT', t: NOW, v: '1', b: [], a: [['2001', '0.5']] },
    });
  });
});

/** Just what serveMarketSocket and BacklogWatch use of a `ws` socket. */
class FakeSocket extends EventEmitter {
  readyState = 1;
  bufferedAmount = 0;
  sent: { data: unknown; options: unknown }[] = [];

  send(data: unknown, options?: unknown): void {
    this.sent.push({ data, options });
  }

  ping(): void {}

  close(): void {
    this.readyState = 3;
    this.emit('close');
  }

  request(request: object): void {
    this.emit('message', Buffer.from(JSON.stringify(request)), false);
  }
}

describe('market sockets sent a shared frame', () => {
  let backlog: BacklogWatch;
  beforeEach(() => {
    backlog = new BacklogWatch({ maxBufferedBytes: 1 << 20, checkIntervalMs: 60_000, closeGraceMs: 1000, onCutOff: () => {} });
  });
  afterEach(() => backlog.stop());

  function open(count: number, binary: boolean): FakeSocket[] {
    const context = {
      fanout,
      lookup: (symbol: string) => h.core.spot.symbols.get(symbol),
      clock: () => NOW,
      idleMs: 60_000,
      logger: pino({ level: 'silent' }),
      backlog,
      writeRound: new WriteRound(),
    };
    return Array.from({ length: count }, () => {
      const socket = new FakeSocket();
      // Outside a write round the connection under `ws` is not touched: a stand-in will do.
      serveMarketSocket(socket as unknown as WebSocket, new PassThrough(), context, V1_PROTOCOL, () => {});
      socket.request({ id: 't', event: 'sub', topic: 'trade', symbol: 'ETHUSDT', params: { binary } });
      socket.sent = [];
      return socket;
    });
  }

  it('when a trade reaches N text subscribers, then every ws.send gets the very same Buffer as a text frame, holding the frame text', () => {
    const sockets = open(100, false);
    trade();
    expect(sockets.every((s) => s.sent.length === 1)).toBe(true);
    const payloads = new Set(sockets.map((s) => s.sent[0].data));
    expect(payloads.size).toBe(1);
    const [payload] = payloads;
    expect(Buffer.isBuffer(payload)).toBe(true);
    expect(sockets.every((s) => (s.sent[0].options as { binary: boolean }).binary === false)).toBe(true);
    expect(JSON.parse((payload as Buffer).toString('utf8'))).toMatchObject({ id: 't', topic: 'trade', params: { binary: false }, f: false, sendTime: NOW });
  });

  it('when a trade reaches N binary subscribers, then it is gzipped once and every ws.send gets that Buffer as a binary frame', () => {
    const sockets = open(100, true);
    trade();
    const payloads = new Set(sockets.map((s) => s.sent[0].data));
    expect(payloads.size).toBe(1);
    const [payload] = payloads;
    expect(sockets.every((s) => (s.sent[0].options as { binary: boolean }).binary === true)).toBe(true);
    expect(JSON.parse(gunzipSync(payload as Buffer).toString('utf8'))).toMatchObject({ id: 't', topic: 'trade', f: false });
  });

  it('when a socket is closed, then it is skipped and the others still share the frame', () => {
    const sockets = open(3, false);
    sockets[1].readyState = 2;
    trade();
    expect(sockets.map((s) => s.sent.length)).toEqual([1, 0, 1]);
    expect(sockets[0].sent[0].data).toBe(sockets[2].sent[0].data);
  });
});
