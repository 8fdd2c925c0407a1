/**
 * One thing autocannon loads (a URL and its request), measured in segments: bench/http.ts runs the
 * segments of all targets in turns, so that load from other processes on the machine falls on every
 * target alike and their ratios stay meaningful. Each segment opens its connections afresh; counts,
 * CPU and latency histograms are summed over the segments.
 */

import autocannon, { type Histogram, type Options, type RawResult } from 'autocannon';
import { CpuMeter } from './cpu-meter.js';
import type { ChildServer } from './http-child.js';
import { formatCount } from './stats.js';

/** What a target's answers add up to, on one server or several (bench/cluster-reads.ts). */
export interface LoadFigures {
  label: string;
  /** 200 answers per second of measured time. */
  okPerSecond: number;
  ok: number;
  non200: number;
  /** Connection errors, timeouts included. */
  errors: number;
  /** Latencies of the 200s, milliseconds (autocannon's resolution). */
  p50Ms: number;
  p99Ms: number;
}

/**
 * A target's figures from autocannon's raw results over `seconds` of measured time; with them, the
 * answers by status, the timeouts and the latency histogram, for what a caller adds.
 */
export function loadFigures(
  label: string,
  raws: readonly RawResult[],
  seconds: number,
  options: Options,
): { figures: LoadFigures; byStatus: Map<string, number>; timeouts: number; latency: Histogram } {
  const byStatus = new Map<string, number>();
  let errors = 0;
  let timeouts = 0;
  for (const raw of raws) {
    errors += raw.errors;
    timeouts += raw.timeouts;
    for (const [status, { count }] of Object.entries(raw.statusCodeStats)) byStatus.set(status, (byStatus.get(status) ?? 0) + count);
  }
  // aggregateResult writes into the first result's status counts: it gets copies.
  const copies = raws.map((raw) => ({ ...raw, statusCodeStats: structuredClone(raw.statusCodeStats) }));
  const { latency } = autocannon.aggregateResult(copies, options);
  const ok = byStatus.get('200') ?? 0;
  const non200 = [...byStatus.values()].reduce((sum, count) => sum + count, 0) - ok;
  const figures = { label, okPerSecond: ok / seconds, ok, non200, errors, p50Ms: latency.p50, p99Ms: latency.p99 };
  return { figures, byStatus, timeouts, latency };
}

export interface HttpRunResult extends LoadFigures {
  p999Ms: number;
  maxMs: number;
  /** CPU the server used, in cores (1.0 = one core busy throughout), or undefined where it cannot be read. */
  serverCores: number | undefined;
  /** Of that, the server's main (HTTP) thread's. */
  httpThreadCores: number | undefined;
  /** CPU this process (autocannon) used, in cores. */
  benchCores: number;
  notes: string[];
}

export interface SegmentHooks {
  before?: () => Promise<void>;
  after?: () => Promise<void>;
}

export class LoadTarget {
  private readonly segments: RawResult[] = [];
  private readonly cpu: CpuMeter;

  constructor(
    readonly label: string,
    server: ChildServer,
    private readonly options: Options,
    private readonly hooks: SegmentHooks = {},
  ) {
    this.cpu = new CpuMeter(server);
  }

  /** Unmeasured: JIT, caches, the first connections. */
  async warmUp(seconds: number): Promise<void> {
    await autocannon({ ...this.options, duration: seconds });
  }

  async runSegment(seconds: number): Promise<void> {
    await this.hooks.before?.();
    this.segments.push(await this.cpu.measure(() => autocannon({ ...this.options, duration: seconds, skipAggregateResult: true })));
    await this.hooks.after?.();
  }

  result(): HttpRunResult {
    if (this.segments.length === 0) throw new Error(`${this.label}: no segment was run`);
    const seconds = this.segments.reduce((sum, segment) => sum + segment.duration, 0);
    const { figures, byStatus, timeouts, latency } = loadFigures(this.label, this.segments, seconds, this.options);
    const notes: string[] = [];
    if (figures.non200 > 0) {
      const statuses = [...byStatus].filter(([status]) => status !== '200');
      notes.push(`non-200: ${statuses.map(([status, count]) => `${status} ×${formatCount(count)}`).join(', ')}`);
    }
    if (timeouts > 0) notes.push(`timeouts ${formatCount(timeouts)}`);
    const cores = this.cpu.cores();
    return {
      ...figures,
      p999Ms: latency.p99_9,
      maxMs: latency.max,
      serverCores: cores.server,
      httpThreadCores: cores.httpThread,
      benchCores: cores.bench,
      notes,
    };
  }
}
