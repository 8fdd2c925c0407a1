import { isKlineInterval, type KlineInterval } from '../../market/kline-intervals.js';
import { isStatsWindow, type StatsWindow } from '../../market/market-data.js';
import type { MarketErrorName } from './market-errors.js';

/** The kinds of market stream (docs/websocket.md "Market stream", "The index topic"). */
export type TopicKind = 'trade' | 'realtimes' | 'kline' | 'depth' | 'diffDepth' | 'bookTicker' | 'index';

/** The two market stream protocols: `/openapi/quote/ws/v1` and `/openapi/quote/ws/v2` (docs/websocket.md). */
export type StreamVersion = 'v1' | 'v2';

/**
 * `name` is the topic of a (symbol, topic) pair: `kline_<interval>` for klines, `realtimes` for
 * the 24 h ticker and `realtimes_<window>` for the others (v2), else the kind.
 */
export type Topic =
  | { kind: 'kline'; name: string; interval: KlineInterval }
  | { kind: 'realtimes'; name: string; window: StatsWindow }
  | { kind: Exclude<TopicKind, 'kline' | 'realtimes'>; name: string };

const PLAIN_TOPICS = ['trade', 'depth', 'diffDepth', 'bookTicker', 'index'] as const;
/** v2 serves neither diffDepth (docs/websocket.md "v2 market stream") nor anything v1 lacks. */
const V2_TOPICS: readonly TopicKind[] = ['trade', 'realtimes', 'kline', 'depth', 'bookTicker', 'index'];
const KLINE_PREFIX = 'kline_';
const REALTIMES = 'realtimes';

/** Trades in a trade subscription's snapshot. */
export const TRADE_SNAPSHOT_SIZE = 60;

const LIMITS: Record<StreamVersion, Partial<Record<TopicKind, { default: number; max: number }>>> = {
  v1: { kline: { default: 1, max: 2000 }, depth: { default: 300, max: 300 } },
  v2: { kline: { default: 1, max: 2000 }, depth: { default: 100, max: 100 } },
};

/**
 * A topic as a request names it: `kline_1m`, or `kline` with `params.klineType` (the name its
 * frames carry); topics are case-sensitive like A7 intervals (`1m` is not `1M`). A v2 realtimes
 * request may name its `realtimeInterval`; v1's is always the 24 h one.
 */
export function parseTopic(text: string, version: StreamVersion, klineType: string | undefined, realtimeInterval: string | undefined): Topic | MarketErrorName {
  const topic = topicOf(text, klineType, version === 'v2' ? realtimeInterval : undefined);
  if (typeof topic !== 'string' && version === 'v2' && !V2_TOPICS.includes(topic.kind)) return 'INVALID_TOPIC';
  return topic;
}

function topicOf(text: string, klineType: string | undefined, realtimeInterval: string | undefined): Topic | MarketErrorName {
  const plain = PLAIN_TOPICS.find((kind) => kind === text);
  if (plain !== undefined) return { kind: plain, name: plain };
  if (text === REALTIMES) {
    const window = realtimeInterval ?? '24h';
    if (!isStatsWindow(window)) return 'INVALID_PERIOD';
    return { kind: 'realtimes', name: window === '24h' ? REALTIMES : `${REALTIMES}_${window}`, window };
  }
  let interval: string | undefined;
  if (text.startsWith(KLINE_PREFIX)) interval = text.slice(KLINE_PREFIX.length);
  else if (text === 'kline') interval = klineType ?? '';
  else return 'INVALID_TOPIC';
  if (!isKlineInterval(interval)) return 'INVALID_PERIOD';
  return { kind: 'kline', name: `${KLINE_PREFIX}${interval}`, interval };
}

/** The `limit` a subscription uses: the request's, capped at the topic's maximum, else its default. */
export function topicLimit(kind: TopicKind, requested: number | undefined, version: StreamVersion): number {
  const bounds = LIMITS[version][kind];
  if (bounds === undefined) return 0;
  return requested === undefined ? bounds.default : Math.min(requested, bounds.max);
}

/** The `topic` a frame carries: `kline` for every kline interval (the SDKs read `params.klineType`), `realtimes` for every window. */
export function frameTopic(topic: Topic): string {
  return topic.kind === 'kline' || topic.kind === 'realtimes' ? topic.kind : topic.name;
}

/** What a frame's `params` add to the request's: the interval of a kline, the window of a ticker. */
export function frameParams(topic: Topic): Record<string, string> {
  if (topic.kind === 'kline') return { klineType: topic.interval };
  if (topic.kind === 'realtimes') return { realtimeInterval: topic.window };
  return {};
}
