import type { SymbolState } from '../../exchange/spot-module.js';
import type { FrameWire, MarketFrame } from './market-frames.js';
import type { Topic, TopicKind } from './market-topics.js';

/** (symbol, topic) pairs one socket may hold (docs/websocket.md "Market stream"). */
export const MAX_PAIRS_PER_SOCKET = 200;

/** Where a subscription's frames go: its socket. */
export interface FrameSink {
  /**
   * A market frame that other sockets may be sent too: its bytes (or, with `binary`, their gzip) are
   * made once for all of them, so the sink sends them as they are.
   */
  send(frame: MarketFrame, binary: boolean): void;
}

export interface Subscription {
  readonly sink: FrameSink;
  readonly state: SymbolState;
  readonly topic: Topic;
  /** Levels (depth) or bars (kline snapshot) the frames carry; 0 where the topic has no limit. */
  readonly limit: number;
  readonly binary: boolean;
  /** How its frames are written (v1 or v2), and their fields before `data`, made once. */
  readonly wire: FrameWire;
  readonly head: string;
  /** What the last frame showed (a book version, a bar, a ticker): the "on change" rule compares it. */
  lastSent: string;
}

function pairKey(symbol: string, topicName: string): string {
  return `${symbol} ${topicName}`;
}

/** One socket's subscriptions by (symbol, topic) pair. */
export class SocketSubscriptions {
  private readonly pairs = new Map<string, Subscription>();

  get size(): number {
    return this.pairs.size;
  }

  has(symbol: string, topicName: string): boolean {
    return this.pairs.has(pairKey(symbol, topicName));
  }

  /** Adds all or none: false when they would pass `MAX_PAIRS_PER_SOCKET`. Pairs must be new. */
  add(subscriptions: readonly Subscription[]): boolean {
    if (this.pairs.size + subscriptions.length > MAX_PAIRS_PER_SOCKET) return false;
    for (const s of subscriptions) {
      const key = pairKey(s.state.spec.symbol, s.topic.name);
      if (this.pairs.has(key)) throw new Error(`pair ${key} is already subscribed`);
      this.pairs.set(key, s);
    }
    return true;
  }

  /** Removes a pair; the subscription it held, if any. */
  remove(symbol: string, topicName: string): Subscription | undefined {
    const key = pairKey(symbol, topicName);
    const subscription = this.pairs.get(key);
    this.pairs.delete(key);
    return subscription;
  }

  /** Removes every pair; the subscriptions they held. */
  clear(): Subscription[] {
    const all = [...this.pairs.values()];
    this.pairs.clear();
    return all;
  }
}

/** Every socket's subscriptions by topic kind, then symbol: what a fan-out walks. */
export class SubscriptionIndex {
  private readonly byKind = new Map<TopicKind, Map<string, Set<Subscription>>>();

  add(subscription: Subscription): void {
    let bySymbol = this.byKind.get(subscription.topic.kind);
    if (bySymbol === undefined) {
      bySymbol = new Map();
      this.byKind.set(subscription.topic.kind, bySymbol);
    }
    const symbol = subscription.state.spec.symbol;
    let set = bySymbol.get(symbol);
    if (set === undefined) {
      set = new Set();
      bySymbol.set(symbol, set);
    }
    set.add(subscription);
  }

  remove(subscription: Subscription): void {
    const bySymbol = this.byKind.get(subscription.topic.kind);
    const symbol = subscription.state.spec.symbol;
    const set = bySymbol?.get(symbol);
    if (bySymbol === undefined || set === undefined) return;
    set.delete(subscription);
    if (set.size === 0) bySymbol.delete(symbol);
  }

  /** Subscriptions of one kind, by symbol; symbols without any are absent. */
  of(kind: TopicKind): ReadonlyMap<string, ReadonlySet<Subscription>> {
    return this.byKind.get(kind) ?? EMPTY;
  }

  /** Subscriptions of one kind on one symbol. */
  count(kind: TopicKind, symbol: string): number {
    return this.byKind.get(kind)?.get(symbol)?.size ?? 0;
  }
}

const EMPTY: ReadonlyMap<string, ReadonlySet<Subscription>> = new Map();
