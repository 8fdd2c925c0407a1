/** Kline intervals of docs/spot-api.md "Market data" A7 (case-sensitive) and the bar each time falls in. */
export const KLINE_INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M'] as const;
export type KlineInterval = (typeof KLINE_INTERVALS)[number];

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const WEEK_MS = 7 * DAY_MS;
/** 1970-01-01 was a Thursday; weeks start on Monday, three days earlier. */
const MONDAY_OFFSET_MS = 3 * DAY_MS;

const FIXED_MS: Record<Exclude<KlineInterval, '1w' | '1M'>, number> = {
  '1m': MINUTE_MS,
  '3m': 3 * MINUTE_MS,
  '5m': 5 * MINUTE_MS,
  '15m': 15 * MINUTE_MS,
  '30m': 30 * MINUTE_MS,
  '1h': HOUR_MS,
  '2h': 2 * HOUR_MS,
  '4h': 4 * HOUR_MS,
  '6h': 6 * HOUR_MS,
  '8h': 8 * HOUR_MS,
  '12h': 12 * HOUR_MS,
  '1d': DAY_MS,
  '3d': 3 * DAY_MS,
};

export function isKlineInterval(text: string): text is KlineInterval {
  return (KLINE_INTERVALS as readonly string[]).includes(text);
}

/** Open time (ms, UTC) of the bar that holds `time`. */
export function barOpenTime(interval: KlineInterval, time: number): number {
  if (interval === '1M') {
    const date = new Date(time);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  }
  if (interval === '1w') return Math.floor((time + MONDAY_OFFSET_MS) / WEEK_MS) * WEEK_MS - MONDAY_OFFSET_MS;
  const length = FIXED_MS[interval];
  return Math.floor(time / length) * length;
}

/** Open time of the bar after the one opening at `openTime`. */
export function nextBarOpenTime(interval: KlineInterval, openTime: number): number {
  if (interval === '1M') {
    const date = new Date(openTime);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  }
  if (interval === '1w') return openTime + WEEK_MS;
  return openTime + FIXED_MS[interval];
}
