/**
 * Read throughput of a cluster with 1, 2 or 3 of its nodes serving: one autocannon per serving node,
 * all in this process and run together, the connections split evenly between them. Like
 * bench/http-load.ts, a target is measured in segments that bench/cluster.ts runs in turns with the
 * other targets', so that load from elsewhere falls on every target alike.
 */

import autocannon, { type Options, type RawResult } from 'autocannon';
import type { BenchCluster, BenchNode, CpuShares } from './cluster-nodes.js';
import { loadFigures, type LoadFigures } from './http-load.js';

export interface ReadRunResult extends LoadFigures {
  servers: number;
  /** Averaged over the measured segments. */
  cpu: CpuShares;
}

/** What one autocannon sends to one node: its URL and, where the request changes per send, its `requests`. */
export type ReadLoad = (node: BenchNode) => Pick<Options, 'url' | 'requests'>;

interface Segment {
  seconds: number;
  raws: RawResult[];
  cpu: CpuShares;
}

export class ReadTarget {
  private readonly segments: Segment[] = [];

  constructor(
    readonly label: string,
    private readonly servers: readonly BenchNode[],
    private readonly connections: number,
    private readonly load: ReadLoad,
  ) {
    if (connections < servers.length) throw new RangeError(`${label}: ${connections} connections cannot reach ${servers.length} nodes`);
  }

  /** Unmeasured: JIT, caches, the first connections. */
  async warmUp(seconds: number): Promise<void> {
    await Promise.all(this.servers.map((node, i) => autocannon({ ...this.options(node, i), duration: seconds })));
  }

  async runSegment(cluster: BenchCluster, seconds: number): Promise<void> {
    const started = performance.now();
    const { result: raws, cpu } = await cluster.measureCpu(() =>
      Promise.all(this.servers.map((node, i) => autocannon({ ...this.options(node, i), duration: seconds, skipAggregateResult: true }))),
    );
    this.segments.push({ seconds: (performance.now() - started) / 1000, raws, cpu });
  }

  result(): ReadRunResult {
    if (this.segments.length === 0) throw new Error(`${this.label}: no segment was run`);
    const raws = this.segments.flatMap((segment) => segment.raws);
    const seconds = this.segments.reduce((sum, segment) => sum + segment.seconds, 0);
    const { figures } = loadFigures(this.label, raws, seconds, { url: this.label, connections: this.connections });
    return { ...figures, servers: this.servers.length, cpu: averageCpu(this.segments) };
  }

  /** Node `index`'s share of the connections: as even as whole numbers allow. */
  private options(node: BenchNode, index: number): Options {
    const base = Math.floor(this.connections / this.servers.length);
    const connections = base + (index < this.connections % this.servers.length ? 1 : 0);
    return { ...this.load(node), connections };
  }
}

/** The segments' CPU shares weighted by their durations. */
function averageCpu(segments: readonly Segment[]): CpuShares {
  const seconds = segments.reduce((sum, s) => sum + s.seconds, 0);
  const nodes = new Map<string, number>();
  let bench = 0;
  let machine: number | undefined = 0;
  for (const { seconds: weight, cpu } of segments) {
    for (const [name, cores] of cpu.nodes) nodes.set(name, (nodes.get(name) ?? 0) + (cores * weight) / seconds);
    bench += (cpu.bench * weight) / seconds;
    machine = machine === undefined || cpu.machine === undefined ? undefined : machine + (cpu.machine * weight) / seconds;
  }
  return { nodes, bench, machine };
}
