import { describe, expect, it } from 'vitest';
import { formatAtto, parseDecimal } from '../../../src/core/decimal.js';
import { KlineSeries, type Bar, type TradeTick } from '../../../src/market/kline-series.js';

const MINUTE_MS = 60_000;
/** 2024-01-15 10:00:00 UTC. */
const T = Date.UTC(2024, 0, 15, 10);

function atto(text: string): bigint {
  const value = parseDecimal(text);
  if (value === null) throw new Error(`not a decimal: ${text}`);
  return value;
}

function tick(time: number, price: string, qty: string, takerIsBuyer: boolean): TradeTick {
  return { time, priceAtto: atto(price), qtyAtto: atto(qty), quoteQtyAtto: (atto(price) * atto(qty)) / 10n ** 18n, takerIsBuyer };
}

/** A bar as the wire would show its values, for readable expectations. */
function view(bar: Bar): (string | number)[] {
  return [
    bar.openTime,
    formatAtto(bar.openAtto),
    formatAtto(bar.highAtto),
    formatAtto(bar.lowAtto),
    formatAtto(bar.closeAtto),
    formatAtto(bar.volumeAtto),
    formatAtto(bar.quoteVolumeAtto),
    bar.count,
    formatAtto(bar.takerBuyVolumeAtto),
    formatAtto(bar.takerBuyQuoteVolumeAtto),
  ];
}

/** One-minute bars opening at T, T+1m, T+3m and T+4m (minute 2 has no trade). */
function fourBars(): KlineSeries {
  const series = new KlineSeries('1m');
  series.add(tick(T + 5_000, '100', '1', true));
  series.add(tick(T + 59_999, '101', '2', false));
  series.add(tick(T + MINUTE_MS, '99.5', '0.5', false));
  series.add(tick(T + 3 * MINUTE_MS + 1, '102', '1', true));
  series.add(tick(T + 4 * MINUTE_MS + 30_000, '103', '0.25', true));
  return series;
}

const opens = (bars: Bar[]): number[] => bars.map((b) => (b.openTime - T) / MINUTE_MS);

describe('KlineSeries.add', () => {
  it('when trades fall in a bar, then it holds open, high, low, close, volumes, count and the taker-buy part', () => {
    const series = new KlineSeries('5m');
    series.add(tick(T + 1_000, '100', '1', true));
    series.add(tick(T + 2_000, '104.5', '0.2', false));
    series.add(tick(T + 3_000, '98', '0.3', true));
    series.add(tick(T + 4_000, '101', '0.5', false));
    expect(series.bars.map(view)).toEqual([[T, '100', '104.5', '98', '101', '2', '200.8', 4, '1.3', '129.4']]);
  });

  it('when only intervals with trades exist, then a quiet minute has no bar', () => {
    expect(opens(fourBars().bars)).toEqual([0, 1, 3, 4]);
  });

  it('when a trade is older than the current bar, then it is refused and the series is unchanged', () => {
    const series = fourBars();
    expect(() => series.add(tick(T + 2 * MINUTE_MS, '100', '1', true))).toThrow('older than the current 1m bar');
    expect(opens(series.bars)).toEqual([0, 1, 3, 4]);
  });
});

describe('KlineSeries.select (A7)', () => {
  const far = T + 100 * MINUTE_MS;

  it('when there is no startTime, then the last `limit` bars up to endTime are returned, oldest first', () => {
    expect(opens(fourBars().select(2, undefined, far))).toEqual([3, 4]);
    expect(opens(fourBars().select(500, undefined, far))).toEqual([0, 1, 3, 4]);
  });

  it('when endTime falls inside a bar, then that bar is included; one ms before its open, it is not', () => {
    expect(opens(fourBars().select(500, undefined, T + 3 * MINUTE_MS + 30_000))).toEqual([0, 1, 3]);
    expect(opens(fourBars().select(500, undefined, T + 3 * MINUTE_MS))).toEqual([0, 1, 3]);
    expect(opens(fourBars().select(500, undefined, T + 3 * MINUTE_MS - 1))).toEqual([0, 1]);
    expect(opens(fourBars().select(2, undefined, T + 3 * MINUTE_MS - 1))).toEqual([0, 1]);
  });

  it('when there is a startTime, then the first `limit` bars opening at or after it are returned', () => {
    expect(opens(fourBars().select(2, T, far))).toEqual([0, 1]);
    expect(opens(fourBars().select(2, T + MINUTE_MS, far))).toEqual([1, 3]);
    expect(opens(fourBars().select(500, T + 1, far))).toEqual([1, 3, 4]);
  });

  it('when both startTime and endTime are given, then bars are cut at both ends', () => {
    expect(opens(fourBars().select(500, T + MINUTE_MS, T + 3 * MINUTE_MS))).toEqual([1, 3]);
    expect(opens(fourBars().select(1, T + MINUTE_MS, T + 3 * MINUTE_MS))).toEqual([1]);
    expect(opens(fourBars().select(500, T + 2 * MINUTE_MS, T + 2 * MINUTE_MS + 59_999))).toEqual([]);
  });

  it('when the series is empty or the range is before every bar, then nothing is returned', () => {
    expect(new KlineSeries('1h').select(500, undefined, far)).toEqual([]);
    expect(fourBars().select(500, undefined, T - 1)).toEqual([]);
    expect(fourBars().select(500, far, far)).toEqual([]);
  });
});
