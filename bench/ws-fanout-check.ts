/**
 * bench/ws.ts's in-process check of the market fan-out (src/api/ws/market-fanout.ts): N sinks each
 * subscribed to trade, depth and diffDepth of one symbol of an in-memory ExchangeCore, then rounds of
 * one crossing order each (a trade publish, then a depth flush: a depth and a diffDepth publish).
 * Counted: the sends, the distinct frames and the distinct Buffers the sinks were handed (a frame
 * serialised once per publish means as many of each as publishes). Timed: the fan-out per round,
 * with sinks taking the shared frame's bytes (as market sockets do) and, in the same run, with sinks
 * taking only text and encoding it each (what a socket sent a string does).
 */

import { MarketFanout } from '../src/api/ws/market-fanout.js';
import type { MarketFrame } from '../src/api/ws/market-frames.js';
import { readClientMessage } from '../src/api/ws/market-request.js';
import { SocketSubscriptions, type FrameSink } from '../src/api/ws/market-subscriptions.js';
import { emptyDerivedRows, type Command, type DerivedRows, type PlaceOrderCommand, type TradeRow } from '../src/core/types.js';
import { ExchangeCore } from '../src/exchange/exchange-core.js';
import { MarketData } from '../src/market/market-data.js';
import { FIRST_TS, setUpBenchMarket, SYMBOL } from './bench-market.js';
import { elapsedNs } from './stats.js';
import { WS_TOPICS } from './ws-latency.js';

const LADDER_LEVELS = 100;
const WARMUP_ROUNDS = 20;

export interface FanoutCheck {
  subscribers: number;
  /** Publishes in the measured rounds (3 a round: trade, depth, diffDepth). */
  publishes: number;
  sends: number;
  /** Distinct MarketFrame objects and distinct payload Buffers the sinks were handed. */
  frames: number;
  buffers: number;
  /** Mean fan-out time of a round, ns: shared bytes, and text encoded per sink. */
  sharedRoundNs: number;
  perSinkRoundNs: number;
}

class CountingSink implements FrameSink {
  readonly own = new SocketSubscriptions();
  constructor(private readonly counts: { sends: number; frames: Set<MarketFrame>; buffers: Set<Buffer> } | undefined) {}

  send(frame: MarketFrame): void {
    const bytes = frame.bytes();
    if (this.counts === undefined) return;
    this.counts.sends++;
    this.counts.frames.add(frame);
    this.counts.buffers.add(bytes);
  }
}

/** A sink that encodes the frame's text itself, as `ws` did with a string, once per socket. */
class TextSink implements FrameSink {
  readonly own = new SocketSubscriptions();
  send(frame: MarketFrame): void {
    Buffer.from(frame.text, 'utf8');
  }
}

/** One symbol of an in-memory core with a 100-level ladder a side, and a market fan-out over it. */
export class Market {
  private readonly core = new ExchangeCore();
  private readonly data = new MarketData();
  private ts = FIRST_TS;
  private readonly accounts: number[];
  private round = 0;
  readonly fanout = new MarketFanout({ core: this.core, market: this.data }, () => this.ts);

  constructor() {
    this.accounts = setUpBenchMarket((command) => this.apply(command).result, 2);
    for (let level = 0; level < LADDER_LEVELS; level++) {
      this.apply(this.limit(0, 'BUY', 900 - level));
      this.apply(this.limit(1, 'SELL', 1100 + level));
    }
    this.apply(this.limit(0, 'BUY', 1000, '1'));
  }

  subscribe(sink: FrameSink & { own: SocketSubscriptions }): void {
    for (const topic of WS_TOPICS) {
      const message = readClientMessage(JSON.stringify({ id: topic[0], topic, event: 'sub', symbol: SYMBOL }), (s) => this.core.spot.symbols.get(s));
      if (message.kind !== 'subscription' || this.fanout.apply(sink, sink.own, message.request) !== undefined) throw new Error(`sub ${topic} refused`);
    }
  }

  /**
   * One order of 2 at 1000 against the 1 resting there on the other side: a trade, and the level
   * turns from bid to ask or back (a depth and a diffDepth change). Its trades, for `publish`.
   */
  cross(): readonly TradeRow[] {
    const sells = (this.round++ & 1) === 0;
    const rows = this.apply(this.limit(sells ? 1 : 0, sells ? 'SELL' : 'BUY', 1000, '2')).rows;
    this.data.onTrades(rows.trades);
    return rows.trades;
  }

  /** What a commit and the next depth flush send: a trade frame, a depth and a diffDepth frame to each subscriber. */
  publish(trades: readonly TradeRow[]): void {
    this.fanout.onTrades(trades);
    this.fanout.flushDepths();
  }

  /** A `cross` with its `publish` timed, ns. */
  timedRound(): number {
    const trades = this.cross();
    const started = process.hrtime.bigint();
    this.publish(trades);
    return elapsedNs(started);
  }

  private limit(account: number, side: 'BUY' | 'SELL', price: number, quantity = '1'): PlaceOrderCommand {
    return { type: 'placeOrder', accountId: this.accounts[account], symbol: SYMBOL, side, orderType: 'LIMIT', timeInForce: 'GTC', quantity, price: String(price) };
  }

  private apply(command: Command): { result: unknown; rows: DerivedRows } {
    const rows = emptyDerivedRows();
    this.ts++;
    const result = this.core.apply({ seq: this.core.lastSeq + 1, ts: this.ts, command }, rows);
    return { result, rows };
  }
}

/** `rounds` measured rounds at `subscribers` sinks, shared and per-sink alternating in chunks. */
export function checkFanout(subscribers: number, rounds: number): FanoutCheck {
  const counts = { sends: 0, frames: new Set<MarketFrame>(), buffers: new Set<Buffer>() };
  const shared = new Market();
  const perSink = new Market();
  const sharedSinks = Array.from({ length: subscribers }, () => new CountingSink(undefined));
  const countingSinks = sharedSinks.map(() => new CountingSink(counts));
  for (const sink of sharedSinks) shared.subscribe(sink);
  for (let i = 0; i < subscribers; i++) perSink.subscribe(new TextSink());
  for (let i = 0; i < WARMUP_ROUNDS; i++) {
    shared.timedRound();
    perSink.timedRound();
  }
  let sharedNs = 0;
  let perSinkNs = 0;
  for (let i = 0; i < rounds; i++) {
    sharedNs += shared.timedRound();
    perSinkNs += perSink.timedRound();
  }
  // Counted apart from the timing: a fresh set of sinks on the shared market, the Sets' cost outside the timed rounds.
  const counted = new Market();
  for (const sink of countingSinks) counted.subscribe(sink);
  counts.sends = 0;
  counts.frames.clear();
  counts.buffers.clear();
  for (let i = 0; i < rounds; i++) counted.timedRound();
  return {
    subscribers,
    publishes: rounds * WS_TOPICS.length,
    sends: counts.sends,
    frames: counts.frames.size,
    buffers: counts.buffers.size,
    sharedRoundNs: sharedNs / rounds,
    perSinkRoundNs: perSinkNs / rounds,
  };
}
