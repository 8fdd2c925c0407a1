import { isKlineInterval, type KlineInterval } from '../../market/kline-intervals.js';
import type { MarketErrorName } from './market-errors.js';

/** The kinds of market stream (docs/websocket.md "Market stream"). */
export type TopicKind = 'trade' | 'realtimes' | 'kline' | 'depth' | 'diffDepth' | 'bookTicker';

/** `name` is the topic of a (symbol, topic) pair: `kline_<interval>` for klines, else the kind. */
export type Topic = { kind: 'kline'; name: string; interval: KlineInterval } | { kind: Exclude<TopicKind, 'kline'>; name: string };

const PLAIN_TOPICS = ['trade', 'realtimes', 'depth', 'diffDepth', 'bookTicker'] as const;
const KLINE_PREFIX = 'kline_';

/** Trades in a trade subscription's snapshot. */
export const TRADE_SNAPSHOT_SIZE = 60;

const LIMITS: Partial<Record<TopicKind, { default: number; max: number }>> = {
  kline: { default: 1, max: 2000 },
  depth: { default: 300, max: 300 },
};

/**
 * A topic as a request names it: `kline_1m`, or `kline` with `params.klineType` (the name its
 * frames carry); topics are case-sensitive like A7 intervals (`1m` is not `1M`).
 */
export function parseTopic(text: string, klineType: string | undefined): Topic | MarketErrorName {
  const plain = PLAIN_TOPICS.find((kind) => kind === text);
  if (plain !== undefined) return { kind: plain, name: plain };
  let interval: string | undefined;
  if (text.startsWith(KLINE_PREFIX)) interval = text.slice(KLINE_PREFIX.length);
  else if (text === 'kline') interval = klineType ?? '';
  else return 'INVALID_TOPIC';
  if (!isKlineInterval(interval)) return 'INVALID_PERIOD';
  return { kind: 'kline', name: `${KLINE_PREFIX}${interval}`, interval };
}

/** The `limit` a subscription uses: the request's, capped at the topic's maximum, else its default. */
export function topicLimit(kind: TopicKind, requested: number | undefined): number {
  const bounds = LIMITS[kind];
  if (bounds === undefined) return 0;
  return requested === undefined ? bounds.default : Math.min(requested, bounds.max);
}

/** The `topic` a frame carries: `kline` for every kline interval (the SDKs read `params.klineType`). */
export function frameTopic(topic: Topic): string {
  return topic.kind === 'kline' ? 'kline' : topic.name;
}

/** What a frame's `params` add to the request's. */
export function frameParams(topic: Topic): Record<string, string> {
  if (topic.kind === 'kline') return { klineType: topic.interval };
  if (topic.kind === 'realtimes') return { realtimeInterval: '24h' };
  return {};
}
