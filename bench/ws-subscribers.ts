/**
 * Child process of bench/ws.ts: a share of the market-stream subscribers. It opens
 * SUBSCRIBERS_CHILD_SOCKETS sockets to SUBSCRIBERS_CHILD_TARGET (numbered from SUBSCRIBERS_CHILD_FIRST, each
 * from a loopback address of its own per MAX_MARKET_SOCKETS_PER_IP sockets, as a server admits no
 * more per IP), then serves a control API on its own HTTP port (reported as bench/http-child.ts
 * expects):
 *
 *   POST /subscribe   every socket subscribes to depth, diffDepth and trade of the symbol; answers once all snapshots are in
 *   POST /cancel      every socket sends cancel_all; answers once all are acknowledged
 *   POST /take        the deliveries and latency histograms since the last take (then cleared), as JSON
 *
 * A frame is not parsed: its topic is the request id (`{"id":"t"…`: t trade, d depth, x diffDepth),
 * its `sendTime` the number before the closing brace, a trade's time the first `"t":` of its data.
 * Latencies are receipt (`Date.now()`, the same clock as the server's, this being one machine) minus
 * those times, in 1 ms buckets.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, type RawData } from 'ws';
import { MAX_MARKET_SOCKETS_PER_IP } from '../src/api/ws/market-stream.js';
import { serveForBench, type BenchServer } from './http-child.js';
import { positiveIntegerFromEnv } from './http.js';
import { LatencyHistogram, WS_TOPICS, type SubscriberTake, type WsTopic } from './ws-latency.js';

const OPEN_CONCURRENCY = 50;
const WAIT_TIMEOUT_MS = 60_000;

/** Request ids by topic: one byte each, at offset 7 of every frame (`{"id":"t"`). */
const TOPIC_IDS: Record<WsTopic, string> = { trade: 't', depth: 'd', diffDepth: 'x' };
const TOPIC_OF_BYTE = new Map<number, WsTopic>(WS_TOPICS.map((topic) => [TOPIC_IDS[topic].charCodeAt(0), topic]));
const CANCEL_ID_BYTE = 'c'.charCodeAt(0);
const ID_OFFSET = '{"id":"'.length;
const SEND_TIME = Buffer.from('"sendTime":');
const FIRST = Buffer.from('"f":true');
const DATA = Buffer.from('"data":');
const TIME = Buffer.from('"t":');

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set (bench/ws-subscribers.ts runs as a child of bench/ws.ts)`);
  return value;
}

/** The loopback address of socket number `n` (over all children): MAX_MARKET_SOCKETS_PER_IP a piece, 127.0.0.2 up. */
export function loopbackAddress(n: number): string {
  const block = Math.floor(n / MAX_MARKET_SOCKETS_PER_IP);
  return `127.0.${Math.floor(block / 250)}.${2 + (block % 250)}`;
}

/** An unsigned decimal integer of `buffer` from `start` to the first non-digit. */
function readInteger(buffer: Buffer, start: number): number {
  let value = 0;
  for (let i = start; i < buffer.length; i++) {
    const digit = buffer[i] - 48;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  return value;
}

class Tally {
  deliveries = emptyCounts();
  snapshots = 0;
  acks = 0;
  readonly sendLatency = new Map<WsTopic, LatencyHistogram>(WS_TOPICS.map((topic) => [topic, new LatencyHistogram()]));
  tradeLatency = new LatencyHistogram();
  private waiter: { count: () => number; target: number; resolve: () => void } | undefined;

  onMessage(data: RawData): void {
    const buffer = data as Buffer;
    const received = Date.now();
    const idByte = buffer[ID_OFFSET];
    if (idByte === CANCEL_ID_BYTE) {
      this.acks++;
      this.wake();
      return;
    }
    const topic = TOPIC_OF_BYTE.get(idByte);
    if (topic === undefined) throw new Error(`unexpected frame: ${buffer.toString('utf8', 0, 200)}`);
    const sendTimeAt = buffer.lastIndexOf(SEND_TIME);
    if (buffer.indexOf(FIRST, sendTimeAt - FIRST.length - 1) >= 0) {
      this.snapshots++;
      this.wake();
      return;
    }
    this.deliveries[topic]++;
    (this.sendLatency.get(topic) as LatencyHistogram).add(received - readInteger(buffer, sendTimeAt + SEND_TIME.length));
    if (topic === 'trade') {
      const time = buffer.indexOf(TIME, buffer.indexOf(DATA));
      if (time >= 0) this.tradeLatency.add(received - readInteger(buffer, time + TIME.length));
    }
  }

  /** Resolves once `count()` reaches `target`. */
  until(count: () => number, target: number): Promise<void> {
    if (this.waiter !== undefined) throw new Error('one wait at a time');
    return new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => {
        this.waiter = undefined;
        reject(new Error(`waited ${WAIT_TIMEOUT_MS} ms for ${target}, got ${count()}`));
      }, WAIT_TIMEOUT_MS);
      this.waiter = {
        count,
        target,
        resolve: () => {
          clearTimeout(timeout);
          resolve();
        },
      };
      this.wake();
    });
  }

  take(): SubscriberTake {
    const taken: SubscriberTake = {
      deliveries: this.deliveries,
      sendLatency: Object.fromEntries(WS_TOPICS.map((topic) => [topic, (this.sendLatency.get(topic) as LatencyHistogram).toJSON()])) as SubscriberTake['sendLatency'],
      tradeLatency: this.tradeLatency.toJSON(),
    };
    this.deliveries = emptyCounts();
    for (const histogram of this.sendLatency.values()) histogram.clear();
    this.tradeLatency.clear();
    return taken;
  }

  private wake(): void {
    const waiter = this.waiter;
    if (waiter !== undefined && waiter.count() >= waiter.target) {
      this.waiter = undefined;
      waiter.resolve();
    }
  }
}

function emptyCounts(): Record<WsTopic, number> {
  return { trade: 0, depth: 0, diffDepth: 0 };
}

function open(url: string, localAddress: string, tally: Tally): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { localAddress, perMessageDeflate: false });
    ws.on('message', (data) => tally.onMessage(data));
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

async function openAll(url: string, first: number, count: number, tally: Tally): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let start = 0; start < count; start += OPEN_CONCURRENCY) {
    const batch = Array.from({ length: Math.min(OPEN_CONCURRENCY, count - start) }, (_, i) => open(url, loopbackAddress(first + start + i), tally));
    sockets.push(...(await Promise.all(batch)));
  }
  for (const ws of sockets) ws.on('error', (error) => process.stderr.write(`subscriber socket: ${error.message}\n`));
  return sockets;
}

async function start(): Promise<BenchServer> {
  const target = requiredEnv('SUBSCRIBERS_CHILD_TARGET');
  const symbol = requiredEnv('SUBSCRIBERS_CHILD_SYMBOL');
  const count = positiveIntegerFromEnv('SUBSCRIBERS_CHILD_SOCKETS', 0, 1);
  const first = positiveIntegerFromEnv('SUBSCRIBERS_CHILD_FIRST', 0, 0);
  const tally = new Tally();
  const sockets = await openAll(target, first, count, tally);
  const subscribe = async (): Promise<void> => {
    const snapshots = tally.snapshots;
    for (const ws of sockets) {
      for (const topic of WS_TOPICS) ws.send(JSON.stringify({ id: TOPIC_IDS[topic], topic, event: 'sub', symbol, params: { binary: false } }));
    }
    await tally.until(() => tally.snapshots - snapshots, sockets.length * WS_TOPICS.length);
  };
  const cancel = async (): Promise<void> => {
    const acks = tally.acks;
    for (const ws of sockets) ws.send('{"id":"c","event":"cancel_all"}');
    await tally.until(() => tally.acks - acks, sockets.length);
  };
  const routes = new Map<string, () => Promise<unknown>>([
    ['/subscribe', async () => subscribe()],
    ['/cancel', async () => cancel()],
    ['/take', async () => tally.take()],
  ]);
  const control = createServer((request: IncomingMessage, response: ServerResponse) => {
    const route = request.method === 'POST' ? routes.get(request.url ?? '') : undefined;
    if (route === undefined) {
      response.writeHead(404).end();
      return;
    }
    route().then(
      (body) => response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body ?? {})),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    close: async () => {
      const closed = sockets.map((ws) => new Promise<void>((resolve) => (ws.readyState === WebSocket.CLOSED ? resolve() : ws.once('close', () => resolve()))));
      for (const ws of sockets) ws.close(1000);
      await Promise.all(closed);
      await new Promise<void>((resolve) => control.close(() => resolve()));
    },
  };
}

await serveForBench(start);
