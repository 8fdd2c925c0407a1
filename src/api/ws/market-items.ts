import { formatUnits } from '../../core/decimal.js';
import type { TradeRow } from '../../core/types.js';
import type { SymbolState } from '../../exchange/spot-module.js';
import type { Bar } from '../../market/kline-series.js';
import type { MarketData, PublicTrade, StatsWindow } from '../../market/market-data.js';
import { bestLevels, bookLevels, orZero, ticker24h } from '../spot/market-views.js';
import { attoText, EXCHANGE_ID } from '../spot/views.js';

/**
 * The `data` items of each market stream topic (docs/websocket.md "Market stream"), field for
 * field as v1 sends them; v2 writes some of them under other names (v2-frames.ts).
 */

/** The engine id as realtimes and depth items carry it: a number (the Java SDK reads one). */
const EXCHANGE_NUMBER = Number(EXCHANGE_ID);

export interface TradeItem {
  v: string;
  t: number;
  p: string;
  q: string;
  /** True when the taker bought (the platform's meaning; A6 `isBuyerMaker` negated). */
  m: boolean;
}

export function tradeItem(trade: PublicTrade): TradeItem {
  return { v: String(trade.tradeId), t: trade.time, p: attoText(trade.priceAtto), q: attoText(trade.qtyAtto), m: !trade.isBuyerMaker };
}

/** A committed trade from its buyer's row (canonical decimals already), as it happens. */
export function tradeItemOfBuyerRow(row: TradeRow): TradeItem {
  return { v: String(row.tradeId), t: row.time, p: row.price, q: row.qty, m: !row.isMaker };
}

export interface KlineItem {
  t: number;
  s: string;
  sn: string;
  o: string;
  h: string;
  l: string;
  c: string;
  v: string;
}

export function klineItem(bar: Bar, state: SymbolState): KlineItem {
  const symbol = state.spec.symbol;
  return {
    t: bar.openTime,
    s: symbol,
    sn: symbol,
    o: attoText(bar.openAtto),
    h: attoText(bar.highAtto),
    l: attoText(bar.lowAtto),
    c: attoText(bar.closeAtto),
    v: attoText(bar.volumeAtto),
  };
}

export interface DepthItem {
  e: number;
  s: string;
  t: number;
  v: string;
  b: [string, string][];
  a: [string, string][];
}

/** The book's best `limit` levels per side; `v` is A5's `lastUpdateId` now. */
export function depthItem(state: SymbolState, limit: number, now: number): DepthItem {
  const levels = bookLevels(state, limit);
  return { e: EXCHANGE_NUMBER, s: state.spec.symbol, t: now, v: String(state.book.version), b: levels.bids, a: levels.asks };
}

/** A diffDepth item: changed levels, best first, a deleted level with qty `"0"`. */
export function diffDepthItem(state: SymbolState, bids: [string, string][], asks: [string, string][], now: number): DepthItem {
  return { e: EXCHANGE_NUMBER, s: state.spec.symbol, t: now, v: String(state.book.version), b: bids, a: asks };
}

export interface BookTickerItem {
  s: string;
  b: string;
  bq: string;
  a: string;
  aq: string;
  t: number;
}

export function bookTickerItem(state: SymbolState, now: number): BookTickerItem {
  const best = bestLevels(state);
  return { s: state.spec.symbol, b: best.bidPrice, bq: best.bidQty, a: best.askPrice, aq: best.askQty, t: now };
}

export interface RealtimesItem {
  t: string;
  s: string;
  sn: string;
  c: string;
  h: string;
  l: string;
  o: string;
  v: string;
  qv: string;
  m: string;
  e: number;
}

/** The A8 values of `now` (over `window`: v2 may ask for a day) in realtimes names; `m` is the change fraction. */
export function realtimesItem(market: MarketData, state: SymbolState, now: number, window: StatsWindow): RealtimesItem {
  const ticker = ticker24h(market, state, now, window);
  return {
    t: String(now),
    s: ticker.symbol,
    sn: ticker.symbol,
    c: ticker.lastPrice,
    h: ticker.highPrice,
    l: ticker.lowPrice,
    o: ticker.openPrice,
    v: ticker.volume,
    qv: ticker.quoteVolume,
    m: ticker.priceChangePercent,
    e: EXCHANGE_NUMBER,
  };
}

export interface IndexItem {
  symbol: string;
  index: string;
  /** The platform's estimated delivery price; a spot symbol's equals its index. */
  edp: string;
  formula: string;
}

/** What `formula` says, whichever case gave the value. */
const INDEX_FORMULA = '(bid+ask)/2';

/**
 * A symbol's index (docs/websocket.md "The index topic"): the mid of its best bid and ask, exact
 * (half a tick may need one more decimal); the last price when a side is empty; `"0"` before any trade.
 */
export function indexItem(market: MarketData, state: SymbolState): IndexItem {
  const bid = state.book.bids.best();
  const ask = state.book.asks.best();
  const symbol = state.spec.symbol;
  // The sum of two prices in atto, times 5, is their mean in units of 10^-19: exact.
  const index =
    bid === undefined || ask === undefined
      ? orZero(market.lastPrice(symbol))
      : formatUnits((BigInt(bid.priceTicks) + BigInt(ask.priceTicks)) * state.spec.tickSizeAtto * 5n, 19);
  return { symbol, index, edp: index, formula: INDEX_FORMULA };
}

/** One publish's items, by the topic kind they belong to. */
export type TopicItems =
  | { kind: 'trade'; items: TradeItem[] }
  | { kind: 'kline'; items: KlineItem[] }
  | { kind: 'depth' | 'diffDepth'; items: DepthItem[] }
  | { kind: 'bookTicker'; items: BookTickerItem[] }
  | { kind: 'realtimes'; items: RealtimesItem[] }
  | { kind: 'index'; items: IndexItem[] };
