import { barOpenTime, type KlineInterval } from './kline-intervals.js';

/** One bar; amounts in atto (10^-18) units so sums stay exact. */
export interface Bar {
  openTime: number;
  openAtto: bigint;
  highAtto: bigint;
  lowAtto: bigint;
  closeAtto: bigint;
  volumeAtto: bigint;
  quoteVolumeAtto: bigint;
  count: number;
  takerBuyVolumeAtto: bigint;
  takerBuyQuoteVolumeAtto: bigint;
}

export interface TradeTick {
  time: number;
  priceAtto: bigint;
  qtyAtto: bigint;
  quoteQtyAtto: bigint;
  takerIsBuyer: boolean;
}

/** The bars of one symbol at one interval, oldest first; only traded intervals have bars. */
export class KlineSeries {
  readonly bars: Bar[] = [];

  constructor(readonly interval: KlineInterval) {}

  add(trade: TradeTick): void {
    const openTime = barOpenTime(this.interval, trade.time);
    let bar = this.bars[this.bars.length - 1];
    if (bar === undefined || bar.openTime < openTime) {
      bar = {
        openTime,
        openAtto: trade.priceAtto,
        highAtto: trade.priceAtto,
        lowAtto: trade.priceAtto,
        closeAtto: trade.priceAtto,
        volumeAtto: 0n,
        quoteVolumeAtto: 0n,
        count: 0,
        takerBuyVolumeAtto: 0n,
        takerBuyQuoteVolumeAtto: 0n,
      };
      this.bars.push(bar);
    } else if (bar.openTime > openTime) {
      throw new Error(`trade at ${trade.time} is older than the current ${this.interval} bar`);
    }
    if (trade.priceAtto > bar.highAtto) bar.highAtto = trade.priceAtto;
    if (trade.priceAtto < bar.lowAtto) bar.lowAtto = trade.priceAtto;
    bar.closeAtto = trade.priceAtto;
    bar.volumeAtto += trade.qtyAtto;
    bar.quoteVolumeAtto += trade.quoteQtyAtto;
    bar.count++;
    if (trade.takerIsBuyer) {
      bar.takerBuyVolumeAtto += trade.qtyAtto;
      bar.takerBuyQuoteVolumeAtto += trade.quoteQtyAtto;
    }
  }

  /** Index of the first bar opening at or after `time`. */
  firstAtOrAfter(time: number): number {
    let low = 0;
    let high = this.bars.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.bars[mid].openTime < time) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /**
   * A7 selection: with `startTime`, the first `limit` bars from it up to `endTime`; otherwise the
   * last `limit` bars opening at or before `endTime`. Oldest first.
   */
  select(limit: number, startTime: number | undefined, endTime: number): Bar[] {
    const end = this.firstAtOrAfter(endTime + 1);
    if (startTime !== undefined) {
      const start = this.firstAtOrAfter(startTime);
      return this.bars.slice(start, Math.min(end, start + limit));
    }
    return this.bars.slice(Math.max(0, end - limit), end);
  }
}
