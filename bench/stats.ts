/** Percentiles of per-command latencies and the compact formatting of bench figures. */

export interface LatencySummary {
  p50Ns: number;
  p99Ns: number;
  p999Ns: number;
  maxNs: number;
}

/** Nearest-rank percentile of an ascending array: the smallest sample with `fraction` of samples at or below it. */
export function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) throw new RangeError('percentile of no samples');
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`percentile fraction must be in (0, 1]: ${fraction}`);
  const rank = Math.ceil(fraction * sorted.length);
  return sorted[Math.min(sorted.length, rank) - 1];
}

/** Sorts the samples in place and reads p50, p99, p99.9 and the maximum. */
export function summarizeLatencies(samplesNs: Float64Array): LatencySummary {
  samplesNs.sort();
  return {
    p50Ns: percentile(samplesNs, 0.5),
    p99Ns: percentile(samplesNs, 0.99),
    p999Ns: percentile(samplesNs, 0.999),
    maxNs: samplesNs[samplesNs.length - 1],
  };
}

/** Nanoseconds elapsed since `startedNs` (a `process.hrtime.bigint()` reading). */
export function elapsedNs(startedNs: bigint): number {
  return Number(process.hrtime.bigint() - startedNs);
}

/** "4.21M/s", "845k/s", "950/s". */
export function formatRate(perSecond: number): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)}M/s`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(0)}k/s`;
  return `${perSecond.toFixed(0)}/s`;
}

/** "0.21µs", "12.4µs", "1.31ms". */
export function formatNs(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)}ms`;
  if (ns >= 1e4) return `${(ns / 1e3).toFixed(1)}µs`;
  return `${(ns / 1e3).toFixed(2)}µs`;
}

/** "1,000,000". */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** "61.3%". */
export function formatShare(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`;
}

export type Align = 'left' | 'right';

/** Columns padded to fixed widths; a cell wider than its column pushes only its own row. */
export function formatRow(cells: readonly string[], widths: readonly number[], align: readonly Align[]): string {
  return cells
    .map((cell, i) => (align[i] === 'right' ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
    .join('  ')
    .trimEnd();
}

/** A column of a bench's table of figures. */
export interface Column {
  title: string;
  width: number;
  align: Align;
}

/** A table of fixed `columns`: `header`, the titles' row, and `row`, which formats any row of cells (formatRow). */
export function table(columns: readonly Column[]): { header: string; row: (cells: readonly string[]) => string } {
  const widths = columns.map((c) => c.width);
  const align = columns.map((c) => c.align);
  const row = (cells: readonly string[]): string => formatRow(cells, widths, align);
  return { header: row(columns.map((c) => c.title)), row };
}

/** The young generation this process runs with, for a benchmark's header: the server's (src/young-generation.ts) unless told otherwise. */
export function semiSpaceNote(): string {
  const flag = process.execArgv.find((arg) => arg.startsWith('--max-semi-space-size='));
  return flag === undefined ? 'V8 default semi-space (run through npm run bench for the server’s)' : `semi-space ${flag.split('=')[1]} MiB as the server's`;
}
