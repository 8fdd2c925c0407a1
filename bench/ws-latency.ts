/** What bench/ws.ts and its subscriber children exchange: deliveries and latencies in 1 ms buckets. */

export const WS_TOPICS = ['trade', 'depth', 'diffDepth'] as const;
export type WsTopic = (typeof WS_TOPICS)[number];

/** A histogram as sent over the control API: [milliseconds, count] pairs of the non-empty buckets. */
export type HistogramJson = [number, number][];

/** One subscriber child's figures since its last take. */
export interface SubscriberTake {
  deliveries: Record<WsTopic, number>;
  /** `sendTime` (the publish) to receipt, by topic. */
  sendLatency: Record<WsTopic, HistogramJson>;
  /** A trade's time (stamped when the order was taken in, before its commit) to receipt. */
  tradeLatency: HistogramJson;
}

/** Latencies of whole milliseconds, from 0 to `MAX_MS` (higher ones count as `MAX_MS`). */
export class LatencyHistogram {
  static readonly MAX_MS = 60_000;
  private counts = new Uint32Array(LatencyHistogram.MAX_MS + 1);
  private total = 0;

  get size(): number {
    return this.total;
  }

  add(ms: number, count = 1): void {
    this.counts[Math.min(LatencyHistogram.MAX_MS, Math.max(0, Math.round(ms)))] += count;
    this.total += count;
  }

  addJson(json: HistogramJson): void {
    for (const [ms, count] of json) this.add(ms, count);
  }

  clear(): void {
    this.counts.fill(0);
    this.total = 0;
  }

  toJSON(): HistogramJson {
    const pairs: HistogramJson = [];
    this.counts.forEach((count, ms) => {
      if (count > 0) pairs.push([ms, count]);
    });
    return pairs;
  }

  /** Nearest rank, as stats.ts `percentile`: the smallest latency with `fraction` of samples at or below it; undefined without samples. */
  percentile(fraction: number): number | undefined {
    if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`percentile fraction must be in (0, 1]: ${fraction}`);
    if (this.total === 0) return undefined;
    const rank = Math.ceil(fraction * this.total);
    let seen = 0;
    for (let ms = 0; ms < this.counts.length; ms++) {
      seen += this.counts[ms];
      if (seen >= rank) return ms;
    }
    return LatencyHistogram.MAX_MS;
  }

  max(): number | undefined {
    for (let ms = this.counts.length - 1; ms >= 0; ms--) if (this.counts[ms] > 0) return ms;
    return undefined;
  }

  merge(other: LatencyHistogram): void {
    other.counts.forEach((count, ms) => {
      if (count > 0) this.add(ms, count);
    });
  }
}
