import { formatUnits } from '../../core/decimal.js';
import type { PriceLevel } from '../../engine/price-level.js';
import type { SymbolState } from '../../exchange/spot-module.js';
import { ratioUnits, type MarketData, type StatsWindow } from '../../market/market-data.js';
import { attoText } from './views.js';

/**
 * Market-data values as both the REST answers (A5–A10) and the market streams (W2) write them,
 * so a stream frame and a REST answer taken at the same moment agree to the digit.
 */

/** Canonical decimal text of a price in ticks. */
export function priceText(priceTicks: number, state: SymbolState): string {
  return attoText(BigInt(priceTicks) * state.spec.tickSizeAtto);
}

/** Canonical decimal text of a quantity in lots. */
export function levelQty(lots: number, state: SymbolState): string {
  return attoText(BigInt(lots) * state.spec.stepSizeAtto);
}

/** Book levels as `[price, qty]` pairs, in the order given (best first from `topLevels`). */
export function levelPairs(levels: readonly PriceLevel[], state: SymbolState): [string, string][] {
  return levels.map((level) => [priceText(level.priceTicks, state), levelQty(level.totalLots, state)]);
}

/** `[price, qty]` texts of both sides of a book. */
export interface LevelChanges {
  bids: [string, string][];
  asks: [string, string][];
}

/** The levels formatted for one book version, by limit. */
interface FormattedLevels {
  version: number;
  byLimit: Map<number, LevelChanges>;
}

const formattedLevels = new WeakMap<object, FormattedLevels>();

/**
 * The book's best `limit` levels per side as `[price, qty]` texts, best first. Formatted once per
 * book version and limit: when many sockets subscribe at once (a reconnect storm), each snapshot
 * shares them. The arrays are shared: callers only read them.
 */
export function bookLevels(state: SymbolState, limit: number): LevelChanges {
  const book = state.book;
  let formatted = formattedLevels.get(book);
  if (formatted === undefined || formatted.version !== book.version) {
    formatted = { version: book.version, byLimit: new Map() };
    formattedLevels.set(book, formatted);
  }
  let levels = formatted.byLimit.get(limit);
  if (levels === undefined) {
    levels = { bids: levelPairs(book.bids.topLevels(limit), state), asks: levelPairs(book.asks.topLevels(limit), state) };
    formatted.byLimit.set(limit, levels);
  }
  return levels;
}

export interface BestLevels {
  bidPrice: string;
  bidQty: string;
  askPrice: string;
  askQty: string;
}

/** The best bid and ask now; an empty side is `"0"` (A10, W2 bookTicker). */
export function bestLevels(state: SymbolState): BestLevels {
  const bid = state.book.bids.best();
  const ask = state.book.asks.best();
  return {
    bidPrice: bid === undefined ? '0' : priceText(bid.priceTicks, state),
    bidQty: bid === undefined ? '0' : levelQty(bid.totalLots, state),
    askPrice: ask === undefined ? '0' : priceText(ask.priceTicks, state),
    askQty: ask === undefined ? '0' : levelQty(ask.totalLots, state),
  };
}

/** An atto value, or `"0"` when there is none to tell (no trade yet). */
export function orZero(value: bigint | undefined): string {
  return value === undefined ? '0' : attoText(value);
}

/** A8's one field set with BHEX and Binance-style names (docs/spot-api.md "Market data"). */
export interface Ticker24h {
  time: number;
  openTime: number;
  closeTime: number;
  symbol: string;
  bestBidPrice: string;
  bestAskPrice: string;
  bidPrice: string;
  bidQty: string;
  askPrice: string;
  askQty: string;
  lastPrice: string;
  openPrice: string;
  highPrice: string;
  lowPrice: string;
  prevClosePrice: string;
  priceChange: string;
  priceChangePercent: string;
  weightedAvgPrice: string;
  volume: string;
  quoteVolume: string;
  count: number;
}

/** The 24 h ticker of one symbol at `now` (A8; W2 realtimes), or over another `window` (v2 realtimes). */
export function ticker24h(market: MarketData, state: SymbolState, now: number, window: StatsWindow = '24h'): Ticker24h {
  const stats = market.dayStats(state.spec.symbol, now, window);
  const best = bestLevels(state);
  const change = stats.lastPriceAtto === undefined || stats.openPriceAtto === undefined ? 0n : stats.lastPriceAtto - stats.openPriceAtto;
  const percent = stats.openPriceAtto === undefined ? 0n : ratioUnits(change, stats.openPriceAtto, 4);
  const priceDecimals = state.spec.tickDecimals;
  const weighted = ratioUnits(stats.quoteVolumeAtto, stats.volumeAtto, priceDecimals);
  return {
    time: now,
    openTime: stats.openTime,
    closeTime: now,
    symbol: state.spec.symbol,
    bestBidPrice: best.bidPrice,
    bestAskPrice: best.askPrice,
    bidPrice: best.bidPrice,
    bidQty: best.bidQty,
    askPrice: best.askPrice,
    askQty: best.askQty,
    lastPrice: orZero(stats.lastPriceAtto),
    openPrice: orZero(stats.openPriceAtto),
    highPrice: orZero(stats.highPriceAtto),
    lowPrice: orZero(stats.lowPriceAtto),
    prevClosePrice: orZero(stats.prevClosePriceAtto),
    priceChange: attoText(change),
    priceChangePercent: formatUnits(percent, 4),
    weightedAvgPrice: formatUnits(weighted, priceDecimals),
    volume: attoText(stats.volumeAtto),
    quoteVolume: attoText(stats.quoteVolumeAtto),
    count: stats.count,
  };
}
