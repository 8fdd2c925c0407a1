import { describe, expect, it } from 'vitest';
import { KLINE_INTERVALS, barOpenTime, isKlineInterval, nextBarOpenTime, type KlineInterval } from '../../../src/market/kline-intervals.js';

const DAY_MS = 86_400_000;
/** Saturday 2024-03-02 13:47:23.456 UTC: no two intervals share an open time here but 1d. */
const SATURDAY = Date.UTC(2024, 2, 2, 13, 47, 23, 456);

describe('barOpenTime (docs/spot-api.md "Market data" A7, UTC)', () => {
  const expected: Record<KlineInterval, number> = {
    '1m': Date.UTC(2024, 2, 2, 13, 47),
    '3m': Date.UTC(2024, 2, 2, 13, 45),
    '5m': Date.UTC(2024, 2, 2, 13, 45),
    '15m': Date.UTC(2024, 2, 2, 13, 45),
    '30m': Date.UTC(2024, 2, 2, 13, 30),
    '1h': Date.UTC(2024, 2, 2, 13),
    '2h': Date.UTC(2024, 2, 2, 12),
    '4h': Date.UTC(2024, 2, 2, 12),
    '6h': Date.UTC(2024, 2, 2, 12),
    '8h': Date.UTC(2024, 2, 2, 8),
    '12h': Date.UTC(2024, 2, 2, 12),
    '1d': Date.UTC(2024, 2, 2),
    // 2024-02-29 is day 19782 since 1970-01-01, a multiple of 3.
    '3d': Date.UTC(2024, 1, 29),
    // The Monday before.
    '1w': Date.UTC(2024, 1, 26),
    '1M': Date.UTC(2024, 2, 1),
  };

  it('when the interval list is read, then it is the spec list of 15, in order', () => {
    expect([...KLINE_INTERVALS]).toEqual(['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M']);
  });

  it.each(KLINE_INTERVALS)('when a time falls inside a %s bar, then the bar opens at its UTC boundary', (interval) => {
    expect(new Date(barOpenTime(interval, SATURDAY)).toISOString()).toBe(new Date(expected[interval]).toISOString());
  });

  it.each(KLINE_INTERVALS)('when a time is exactly a %s open time, then it is its own bar', (interval) => {
    expect(barOpenTime(interval, expected[interval])).toBe(expected[interval]);
  });

  it('when a time is the last ms of a Sunday, then its week opened on the Monday before; the next ms opens a new week', () => {
    const mondayMidnight = Date.UTC(2024, 0, 15);
    expect(barOpenTime('1w', mondayMidnight - 1)).toBe(Date.UTC(2024, 0, 8));
    expect(barOpenTime('1w', mondayMidnight)).toBe(mondayMidnight);
  });

  it('when the time is the epoch (a Thursday), then its week opened on Monday 1969-12-29', () => {
    expect(barOpenTime('1w', 0)).toBe(-3 * DAY_MS);
    expect(barOpenTime('3d', 0)).toBe(0);
  });

  it('when a time is on the last ms of February in a leap year, then its month opened on 1 February', () => {
    expect(barOpenTime('1M', Date.UTC(2024, 2, 1) - 1)).toBe(Date.UTC(2024, 1, 1));
  });
});

describe('nextBarOpenTime', () => {
  it.each([
    ['1m', '2024-03-02T13:47:00Z', '2024-03-02T13:48:00Z'],
    ['8h', '2024-03-02T16:00:00Z', '2024-03-03T00:00:00Z'],
    ['3d', '2024-02-29T00:00:00Z', '2024-03-03T00:00:00Z'],
    ['1w', '2024-02-26T00:00:00Z', '2024-03-04T00:00:00Z'],
    ['1M', '2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z'],
    ['1M', '2023-12-01T00:00:00Z', '2024-01-01T00:00:00Z'],
    ['1M', '2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z'],
  ] as const)('when a %s bar opens at %s, then the next opens at %s', (interval, open, next) => {
    expect(nextBarOpenTime(interval, Date.parse(open))).toBe(Date.parse(next));
  });
});

describe('isKlineInterval', () => {
  it('when the text is a listed interval, then it is accepted, case-sensitively', () => {
    expect(KLINE_INTERVALS.every((i) => isKlineInterval(i))).toBe(true);
    expect(['1H', '1X', '1M ', '', '1d1', '60m', '1W'].map((t) => isKlineInterval(t))).toEqual([false, false, false, false, false, false, false]);
  });
});
