/**
 * bench/ws.ts's in-process check of write rounds (src/api/ws/market-write-round.ts): N WebSocket
 * connections over loopback, both ends in this process, each server end a sink subscribed to trade,
 * depth and diffDepth of bench/ws-fanout-check.ts's market; then rounds of one crossing order each,
 * published (a trade, a depth and a diffDepth frame to every socket) in turns inside a write round,
 * as the market streams do, and without one (a write per frame, as before). Counted: the writes
 * the server ends make (each `_write` or `_writev`, what reaches the kernel). Timed: the process's
 * CPU, user and system, both ends, from the publish until every client has the round's three
 * messages; a ratio in one process, so other load on the machine weighs on both sides alike.
 */

import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { MarketFrame } from '../src/api/ws/market-frames.js';
import { SocketSubscriptions, type FrameSink } from '../src/api/ws/market-subscriptions.js';
import { WriteRound } from '../src/api/ws/market-write-round.js';
import { Market } from './ws-fanout-check.js';
import { WS_TOPICS } from './ws-latency.js';
import { countSocketWrites } from '../test/support/socket-writes.js';

const OPEN_CONCURRENCY = 100;
const WARMUP_ROUNDS = 4;
/** Rounds of one kind in a row before the other kind's turn. */
const TURN_ROUNDS = 5;
const WAIT_TIMEOUT_MS = 30_000;

export interface WriteCheck {
  sockets: number;
  /** Measured rounds of each kind. */
  rounds: number;
  /** Server-end writes per round: in a write round, and a write per frame. */
  roundWrites: number;
  frameWrites: number;
  /** Mean process CPU per round, µs, both ends: in a write round, and a write per frame. */
  roundCpuUs: number;
  frameCpuUs: number;
}

/** A market socket's server end as a sink: into the round when one is given, else a write per frame. */
class SocketSink implements FrameSink {
  readonly own = new SocketSubscriptions();
  round: WriteRound | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly socket: Duplex,
  ) {}

  send(frame: MarketFrame): void {
    this.round?.hold(this.socket);
    this.ws.send(frame.bytes(), { binary: false });
  }
}

/** Messages the client ends received; resolves a wait once they reach a count. */
class Receipts {
  count = 0;
  private waiter: { target: number; resolve: () => void } | undefined;

  add(): void {
    this.count++;
    if (this.waiter !== undefined && this.count >= this.waiter.target) {
      this.waiter.resolve();
      this.waiter = undefined;
    }
  }

  until(target: number): Promise<void> {
    if (this.count >= target) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timeout = setTimeout(() => reject(new Error(`write check: waited ${WAIT_TIMEOUT_MS} ms for ${target} messages, got ${this.count}`)), WAIT_TIMEOUT_MS);
      this.waiter = {
        target,
        resolve: () => {
          clearTimeout(timeout);
          resolve();
        },
      };
    });
  }
}

async function connect(server: WebSocketServer, count: number, receipts: Receipts, counter: { writes: number }): Promise<{ sinks: SocketSink[]; clients: WebSocket[] }> {
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sinks: SocketSink[] = [];
  server.on('connection', (ws, request) => {
    countSocketWrites(request.socket, counter);
    sinks.push(new SocketSink(ws, request.socket));
  });
  const clients: WebSocket[] = [];
  for (let start = 0; start < count; start += OPEN_CONCURRENCY) {
    const batch = Array.from({ length: Math.min(OPEN_CONCURRENCY, count - start) }, () => {
      const client = new WebSocket(url, { perMessageDeflate: false });
      client.on('message', () => receipts.add());
      return new Promise<WebSocket>((resolve, reject) => {
        client.once('open', () => resolve(client));
        client.once('error', reject);
      });
    });
    clients.push(...(await Promise.all(batch)));
  }
  // The server ends are accepted before the clients see their handshake answered.
  if (sinks.length !== count) throw new Error(`write check: ${sinks.length} server ends for ${count} clients`);
  return { sinks, clients };
}

/** `rounds` measured rounds of each kind at `sockets` connections, the kinds in turns. */
export async function checkWrites(sockets: number, rounds: number): Promise<WriteCheck> {
  if (!(sockets > 0 && rounds > 0)) throw new Error(`write check: sockets and rounds must be positive, got ${sockets}, ${rounds}`);
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, clientTracking: false });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const receipts = new Receipts();
  const counter = { writes: 0 };
  const { sinks, clients } = await connect(server, sockets, receipts, counter);
  try {
    const market = new Market();
    for (const sink of sinks) market.subscribe(sink);
    await receipts.until(sockets * WS_TOPICS.length);
    const writeRound = new WriteRound();
    const totals = { round: { writes: 0, cpuUs: 0 }, frame: { writes: 0, cpuUs: 0 } };
    /** One round of one kind; its writes and CPU added to `into` unless warming up. */
    const runRound = async (inRound: boolean, into: { writes: number; cpuUs: number } | undefined): Promise<void> => {
      for (const sink of sinks) sink.round = inRound ? writeRound : undefined;
      const trades = market.cross();
      const target = receipts.count + sockets * WS_TOPICS.length;
      const writesBefore = counter.writes;
      const cpuBefore = process.cpuUsage();
      if (inRound) writeRound.run(() => market.publish(trades));
      else market.publish(trades);
      await receipts.until(target);
      const cpu = process.cpuUsage(cpuBefore);
      if (into === undefined) return;
      into.writes += counter.writes - writesBefore;
      into.cpuUs += cpu.user + cpu.system;
    };
    for (let i = 0; i < WARMUP_ROUNDS; i++) {
      await runRound(true, undefined);
      await runRound(false, undefined);
    }
    for (let done = 0; done < rounds; done += TURN_ROUNDS) {
      const turn = Math.min(TURN_ROUNDS, rounds - done);
      for (let i = 0; i < turn; i++) await runRound(true, totals.round);
      for (let i = 0; i < turn; i++) await runRound(false, totals.frame);
    }
    return {
      sockets,
      rounds,
      roundWrites: totals.round.writes / rounds,
      frameWrites: totals.frame.writes / rounds,
      roundCpuUs: totals.round.cpuUs / rounds,
      frameCpuUs: totals.frame.cpuUs / rounds,
    };
  } finally {
    const closed = clients.map((client) => new Promise<void>((resolve) => client.once('close', () => resolve())));
    for (const client of clients) client.close(1000);
    await Promise.all(closed);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
