import type { TradeRow } from '../../core/types.js';
import type { SymbolState } from '../../exchange/spot-module.js';
import type { KlineInterval } from '../../market/kline-intervals.js';
import type { Bar } from '../../market/kline-series.js';
import type { MarketData, StatsWindow } from '../../market/market-data.js';
import { DepthBaseline, wholeBook } from './depth-diff.js';
import type { MarketErrorName } from './market-errors.js';
import { FramePublish } from './market-frames.js';
import {
  bookTickerItem,
  depthItem,
  diffDepthItem,
  indexItem,
  klineItem,
  realtimesItem,
  tradeItem,
  tradeItemOfBuyerRow,
  type RealtimesItem,
  type TopicItems,
} from './market-items.js';
import type { SubscriptionRequest } from './market-request.js';
import { SubscriptionIndex, type FrameSink, type SocketSubscriptions, type Subscription } from './market-subscriptions.js';
import { TRADE_SNAPSHOT_SIZE, topicLimit } from './market-topics.js';
import { wireOf } from './v2-frames.js';

/** What the streams read: the books (current state) and the market read models. */
export interface MarketSource {
  readonly core: { readonly spot: { readonly symbols: ReadonlyMap<string, SymbolState> } };
  readonly market: MarketData;
}

/** The best levels in ticks and lots: equal keys mean an equal bookTicker item. */
function bestKey(state: SymbolState): string {
  const bid = state.book.bids.best();
  const ask = state.book.asks.best();
  return `${bid?.priceTicks ?? ''}:${bid?.totalLots ?? ''}:${ask?.priceTicks ?? ''}:${ask?.totalLots ?? ''}`;
}

/** A bar's open time and trade count: equal keys mean an equal kline item. */
function barKey(bar: Bar): string {
  return `${bar.openTime}:${bar.count}`;
}

/** The realtimes values without their time: equal keys mean nothing changed. */
function realtimesKey(item: RealtimesItem): string {
  return `${item.c}:${item.h}:${item.l}:${item.o}:${item.v}:${item.qv}:${item.m}`;
}

/** Sends a subscription its frames of `publish`, those every subscription with the same wire and head shares. */
function send(subscription: Subscription, publish: FramePublish): void {
  for (const frame of publish.framesFor(subscription.wire, subscription.head)) subscription.sink.send(frame, subscription.binary);
}

/**
 * Market stream subscriptions of both protocols and what they are sent (docs/websocket.md "Market
 * stream", "v2 market stream", "The index topic"): a snapshot (v1 `"f":true`; v2 the current
 * state) on subscribing; trades as committed; depth, diffDepth, bookTicker, kline, realtimes and
 * index by the `flush*` methods, which the owner calls once per throttle period and which send
 * only changes. A publish (one `data` to every subscription it concerns, v1 or v2) carries one
 * `sendTime` and builds each distinct frame once (`FramePublish`): subscriptions with equal wires
 * and heads are handed the same bytes.
 */
export class MarketFanout {
  private readonly index = new SubscriptionIndex();
  /** diffDepth baselines of the symbols that have diffDepth subscriptions. */
  private readonly baselines = new Map<string, DepthBaseline>();
  /** Buyer rows of the trades taken by `queueTrades` and not sent yet, by symbol. */
  private readonly queuedTrades = new Map<string, TradeRow[]>();

  constructor(
    private readonly source: MarketSource,
    private readonly clock: () => number,
  ) {}

  /**
   * A `sub` or `cancel` of one socket; the error to answer when refused (then nothing is applied).
   * `onApplied` runs once it is applied, before any snapshot is sent: where v2 acknowledges.
   */
  apply(sink: FrameSink, own: SocketSubscriptions, request: SubscriptionRequest, onApplied?: () => void): MarketErrorName | undefined {
    const topic = request.topic;
    if (request.event === 'cancel') {
      for (const state of request.symbols) {
        const removed = own.remove(state.spec.symbol, topic.name);
        if (removed !== undefined) this.forget(removed);
      }
      onApplied?.();
      return undefined;
    }
    // The snapshot shows the trades committed so far: those still queued go to the subscribers before it.
    if (topic.kind === 'trade') this.flushTrades();
    // A repeated sub is ignored: no second snapshot.
    const wire = wireOf(request.version, topic);
    const added: Subscription[] = request.symbols
      .filter((state) => !own.has(state.spec.symbol, topic.name))
      .map((state) => ({
        sink,
        state,
        topic,
        limit: topicLimit(topic.kind, request.limit, request.version),
        binary: request.binary,
        wire,
        head: wire.head(request.id, state.spec.symbol, topic, request.params),
        lastSent: '',
      }));
    if (!own.add(added)) return 'TOO_MANY_SUBSCRIPTIONS';
    onApplied?.();
    for (const subscription of added) {
      this.index.add(subscription);
      this.sendSnapshot(subscription);
    }
    return undefined;
  }

  /** Drops every subscription of one socket (`cancel_all`, or the socket closed). */
  cancelAll(own: SocketSubscriptions): void {
    for (const subscription of own.clear()) this.forget(subscription);
  }

  /** Sends the trades of a committed batch to trade subscribers at once, one frame per symbol. */
  onTrades(rows: readonly TradeRow[]): void {
    this.queueTrades(rows);
    this.flushTrades();
  }

  /**
   * Takes a committed batch's trades for the next `flushTrades`, which sends all taken since the
   * last in one frame per symbol. False when none concerns a trade subscriber.
   */
  queueTrades(rows: readonly TradeRow[]): boolean {
    const subscribed = this.index.of('trade');
    if (subscribed.size === 0) return false;
    let queued = false;
    for (const row of rows) {
      // Each trade has a buyer row and a seller row: one is enough.
      if (!row.isBuyer || !subscribed.has(row.symbol)) continue;
      const list = this.queuedTrades.get(row.symbol);
      if (list === undefined) this.queuedTrades.set(row.symbol, [row]);
      else list.push(row);
      queued = true;
    }
    return queued;
  }

  /** Sends the trades taken since the last flush to the trade subscribers of their symbols. */
  flushTrades(): void {
    if (this.queuedTrades.size === 0) return;
    const subscribed = this.index.of('trade');
    const now = this.clock();
    for (const [symbol, trades] of this.queuedTrades) {
      const publish = new FramePublish({ kind: 'trade', items: trades.map(tradeItemOfBuyerRow) }, false, now);
      for (const subscription of subscribed.get(symbol) ?? []) send(subscription, publish);
    }
    this.queuedTrades.clear();
  }

  /** bookTicker: the best levels, when they changed. True when any frame was sent. */
  flushBookTickers(): boolean {
    const now = this.clock();
    let sent = false;
    for (const [symbol, subscriptions] of this.index.of('bookTicker')) {
      const state = this.stateOf(symbol);
      const key = bestKey(state);
      let publish: FramePublish | undefined;
      for (const subscription of subscriptions) {
        if (subscription.lastSent === key) continue;
        publish ??= new FramePublish({ kind: 'bookTicker', items: [bookTickerItem(state, now)] }, false, now);
        subscription.lastSent = key;
        send(subscription, publish);
        sent = true;
      }
    }
    return sent;
  }

  /** depth: the book after a change; diffDepth: the levels changed since the last frame. True when any frame was sent. */
  flushDepths(): boolean {
    const now = this.clock();
    let sent = false;
    for (const [symbol, subscriptions] of this.index.of('depth')) {
      const state = this.stateOf(symbol);
      const version = String(state.book.version);
      const byLimit = new Map<number, FramePublish>();
      for (const subscription of subscriptions) {
        if (subscription.lastSent === version) continue;
        let publish = byLimit.get(subscription.limit);
        if (publish === undefined) {
          publish = new FramePublish({ kind: 'depth', items: [depthItem(state, subscription.limit, now)] }, false, now);
          byLimit.set(subscription.limit, publish);
        }
        subscription.lastSent = version;
        send(subscription, publish);
        sent = true;
      }
    }
    for (const [symbol, subscriptions] of this.index.of('diffDepth')) {
      const baseline = this.baselines.get(symbol);
      const state = this.stateOf(symbol);
      if (baseline === undefined || baseline.version === state.book.version) continue;
      const changes = baseline.advance();
      if (changes.bids.length === 0 && changes.asks.length === 0) continue;
      const version = String(state.book.version);
      const publish = new FramePublish({ kind: 'diffDepth', items: [diffDepthItem(state, changes.bids, changes.asks, now)] }, false, now);
      for (const subscription of subscriptions) {
        // A snapshot taken since the last frame already shows this version.
        if (subscription.lastSent === version) continue;
        subscription.lastSent = version;
        send(subscription, publish);
        sent = true;
      }
    }
    return sent;
  }

  /**
   * kline: the current bar, when it changed; realtimes: the window's values, when they changed;
   * index: the index, when it changed. True when any frame was sent.
   */
  flushStats(): boolean {
    const now = this.clock();
    let sent = false;
    const market = this.source.market;
    for (const [symbol, subscriptions] of this.index.of('kline')) {
      const state = this.stateOf(symbol);
      const byInterval = new Map<KlineInterval, { key: string; publish: FramePublish } | undefined>();
      for (const subscription of subscriptions) {
        if (subscription.topic.kind !== 'kline') continue;
        const interval = subscription.topic.interval;
        if (!byInterval.has(interval)) {
          const bar = market.klines(symbol, interval, 1, undefined, now)[0];
          byInterval.set(
            interval,
            bar === undefined ? undefined : { key: barKey(bar), publish: new FramePublish({ kind: 'kline', items: [klineItem(bar, state)] }, false, now) },
          );
        }
        const current = byInterval.get(interval);
        if (current === undefined || subscription.lastSent === current.key) continue;
        subscription.lastSent = current.key;
        send(subscription, current.publish);
        sent = true;
      }
    }
    for (const [symbol, subscriptions] of this.index.of('realtimes')) {
      const state = this.stateOf(symbol);
      const byWindow = new Map<StatsWindow, { key: string; publish: FramePublish }>();
      for (const subscription of subscriptions) {
        if (subscription.topic.kind !== 'realtimes') continue;
        const window = subscription.topic.window;
        let current = byWindow.get(window);
        if (current === undefined) {
          const item = realtimesItem(market, state, now, window);
          current = { key: realtimesKey(item), publish: new FramePublish({ kind: 'realtimes', items: [item] }, false, now) };
          byWindow.set(window, current);
        }
        if (subscription.lastSent === current.key) continue;
        subscription.lastSent = current.key;
        send(subscription, current.publish);
        sent = true;
      }
    }
    for (const [symbol, subscriptions] of this.index.of('index')) {
      const item = indexItem(market, this.stateOf(symbol));
      let publish: FramePublish | undefined;
      for (const subscription of subscriptions) {
        if (subscription.lastSent === item.index) continue;
        publish ??= new FramePublish({ kind: 'index', items: [item] }, false, now);
        subscription.lastSent = item.index;
        send(subscription, publish);
        sent = true;
      }
    }
    return sent;
  }

  /** A subscribed symbol's state; symbols are never delisted, so it is there. */
  private stateOf(symbol: string): SymbolState {
    const state = this.source.core.spot.symbols.get(symbol);
    if (state === undefined) throw new Error(`subscribed symbol ${symbol} is not listed`);
    return state;
  }

  private sendSnapshot(subscription: Subscription): void {
    const { state, topic, limit } = subscription;
    const symbol = state.spec.symbol;
    const market = this.source.market;
    const now = this.clock();
    let data: TopicItems;
    switch (topic.kind) {
      case 'trade':
        data = { kind: 'trade', items: market.recentTrades(symbol, TRADE_SNAPSHOT_SIZE).map(tradeItem) };
        break;
      case 'realtimes': {
        const item = realtimesItem(market, state, now, topic.window);
        subscription.lastSent = realtimesKey(item);
        data = { kind: 'realtimes', items: [item] };
        break;
      }
      case 'kline': {
        const bars = market.klines(symbol, topic.interval, limit, undefined, now);
        const last = bars[bars.length - 1];
        if (last !== undefined) subscription.lastSent = barKey(last);
        data = { kind: 'kline', items: bars.map((bar) => klineItem(bar, state)) };
        break;
      }
      case 'depth':
        subscription.lastSent = String(state.book.version);
        data = { kind: 'depth', items: [depthItem(state, limit, now)] };
        break;
      case 'diffDepth': {
        if (!this.baselines.has(symbol)) this.baselines.set(symbol, new DepthBaseline(state));
        const book = wholeBook(state);
        subscription.lastSent = String(state.book.version);
        data = { kind: 'diffDepth', items: [diffDepthItem(state, book.bids, book.asks, now)] };
        break;
      }
      case 'bookTicker':
        subscription.lastSent = bestKey(state);
        data = { kind: 'bookTicker', items: [bookTickerItem(state, now)] };
        break;
      case 'index': {
        const item = indexItem(market, state);
        subscription.lastSent = item.index;
        data = { kind: 'index', items: [item] };
        break;
      }
    }
    send(subscription, new FramePublish(data, true, now));
  }

  private forget(subscription: Subscription): void {
    this.index.remove(subscription);
    const symbol = subscription.state.spec.symbol;
    if (subscription.topic.kind === 'diffDepth' && this.index.count('diffDepth', symbol) === 0) this.baselines.delete(symbol);
  }
}
