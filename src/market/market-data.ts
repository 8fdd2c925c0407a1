import { divRoundHalfAway, parseDecimal } from '../core/decimal.js';
import type { TradeRow } from '../core/types.js';
import { KLINE_INTERVALS, barOpenTime, type KlineInterval } from './kline-intervals.js';
import { KlineSeries, type Bar } from './kline-series.js';

/** The newest trades kept per symbol for A6 (docs/spot-api.md "Market data"). */
export const RECENT_TRADES_KEPT = 1000;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** The 24 h window: 1440 one-minute buckets ending with the current one. */
const WINDOW_BUCKETS = 1440;

/**
 * The spans a ticker covers (docs/websocket.md "v2 market stream" `realtimeInterval`): A8's rolling
 * 24 h, the UTC day so far, and the day so far at UTC+8 (the platform's home time).
 */
const STATS_WINDOWS = ['24h', '1d', '1d+8'] as const;
export type StatsWindow = (typeof STATS_WINDOWS)[number];

export function isStatsWindow(text: string): text is StatsWindow {
  return (STATS_WINDOWS as readonly string[]).includes(text);
}

/** Where `window` opens for a ticker at `now`: a one-minute bar's open time. */
function windowOpenTime(window: StatsWindow, now: number): number {
  switch (window) {
    case '24h':
      return barOpenTime('1m', now) - (WINDOW_BUCKETS - 1) * MINUTE_MS;
    case '1d':
      return barOpenTime('1d', now);
    case '1d+8':
      return barOpenTime('1d', now + 8 * HOUR_MS) - 8 * HOUR_MS;
  }
}

export interface PublicTrade {
  tradeId: number;
  priceAtto: bigint;
  qtyAtto: bigint;
  time: number;
  /** Literal: the buyer's order was resting (the taker sold). */
  isBuyerMaker: boolean;
}

/** A8's statistics over a window (24 h unless told) in atto values; prices undefined when there is no trade to tell them. */
export interface DayStats {
  openTime: number;
  lastPriceAtto: bigint | undefined;
  openPriceAtto: bigint | undefined;
  highPriceAtto: bigint | undefined;
  lowPriceAtto: bigint | undefined;
  prevClosePriceAtto: bigint | undefined;
  volumeAtto: bigint;
  quoteVolumeAtto: bigint;
  count: number;
}

class SymbolMarket {
  recent: PublicTrade[] = [];
  lastPriceAtto: bigint | undefined;
  lastTradeTime = 0;
  readonly series = new Map<KlineInterval, KlineSeries>(KLINE_INTERVALS.map((i) => [i, new KlineSeries(i)]));
}

function atto(text: string): bigint {
  const value = parseDecimal(text);
  if (value === null) throw new Error(`trade value ${text} is not a decimal`);
  return value;
}

/**
 * Market read models (commit subscribers of the fan-out): recent trades, klines of every interval and the
 * 24 h window, fed by the trades of committed batches, in engine order.
 */
export class MarketData {
  private readonly symbols = new Map<string, SymbolMarket>();

  private market(symbol: string): SymbolMarket {
    let market = this.symbols.get(symbol);
    if (market === undefined) {
      market = new SymbolMarket();
      this.symbols.set(symbol, market);
    }
    return market;
  }

  /** Takes committed trade rows; each trade has a buyer row and a seller row, the buyer's is used. */
  onTrades(rows: readonly TradeRow[]): void {
    for (const row of rows) {
      if (!row.isBuyer) continue;
      const market = this.market(row.symbol);
      const trade: PublicTrade = { tradeId: row.tradeId, priceAtto: atto(row.price), qtyAtto: atto(row.qty), time: row.time, isBuyerMaker: row.isMaker };
      market.recent.push(trade);
      if (market.recent.length >= 2 * RECENT_TRADES_KEPT) market.recent = market.recent.slice(-RECENT_TRADES_KEPT);
      market.lastPriceAtto = trade.priceAtto;
      market.lastTradeTime = row.time;
      const tick = { time: row.time, priceAtto: trade.priceAtto, qtyAtto: trade.qtyAtto, quoteQtyAtto: atto(row.quoteQty), takerIsBuyer: !row.isMaker };
      for (const series of market.series.values()) series.add(tick);
    }
  }

  /** The newest `limit` trades, oldest first. */
  recentTrades(symbol: string, limit: number): PublicTrade[] {
    const recent = this.symbols.get(symbol)?.recent ?? [];
    return recent.slice(Math.max(0, recent.length - Math.min(limit, RECENT_TRADES_KEPT)));
  }

  klines(symbol: string, interval: KlineInterval, limit: number, startTime: number | undefined, endTime: number): Bar[] {
    return this.symbols.get(symbol)?.series.get(interval)?.select(limit, startTime, endTime) ?? [];
  }

  lastPrice(symbol: string): bigint | undefined {
    return this.symbols.get(symbol)?.lastPriceAtto;
  }

  dayStats(symbol: string, now: number, window: StatsWindow = '24h'): DayStats {
    const openTime = windowOpenTime(window, now);
    const market = this.symbols.get(symbol);
    const stats: DayStats = {
      openTime,
      lastPriceAtto: market?.lastPriceAtto,
      openPriceAtto: undefined,
      highPriceAtto: undefined,
      lowPriceAtto: undefined,
      prevClosePriceAtto: undefined,
      volumeAtto: 0n,
      quoteVolumeAtto: 0n,
      count: 0,
    };
    const series = market?.series.get('1m');
    if (series === undefined) return stats;
    const first = series.firstAtOrAfter(openTime);
    if (first > 0) stats.prevClosePriceAtto = series.bars[first - 1].closeAtto;
    for (let i = first; i < series.bars.length; i++) {
      const bar = series.bars[i];
      stats.openPriceAtto ??= bar.openAtto;
      if (stats.highPriceAtto === undefined || bar.highAtto > stats.highPriceAtto) stats.highPriceAtto = bar.highAtto;
      if (stats.lowPriceAtto === undefined || bar.lowAtto < stats.lowPriceAtto) stats.lowPriceAtto = bar.lowAtto;
      stats.volumeAtto += bar.volumeAtto;
      stats.quoteVolumeAtto += bar.quoteVolumeAtto;
      stats.count += bar.count;
    }
    // A window without trades reports the last price for open, high and low.
    stats.openPriceAtto ??= stats.lastPriceAtto;
    stats.highPriceAtto ??= stats.lastPriceAtto;
    stats.lowPriceAtto ??= stats.lastPriceAtto;
    return stats;
  }
}

/** `numerator / denominator` rounded half away from zero to `decimals` places, as units of that scale. */
export function ratioUnits(numeratorAtto: bigint, denominatorAtto: bigint, decimals: number): bigint {
  if (denominatorAtto === 0n) return 0n;
  return divRoundHalfAway(numeratorAtto * 10n ** BigInt(decimals), denominatorAtto);
}
