/**
 * The CPU that a target's measured segments cost: the server child's (the whole process and its
 * main, HTTP, thread) and this process's, summed over the segments and given in cores, i.e. CPU
 * seconds over the segments' wall time (1.0 = one core busy throughout).
 */

import type { ChildServer } from './http-child.js';
import { elapsedNs } from './stats.js';

export interface Cores {
  /** Undefined where a reading of the server's CPU was missing. */
  server: number | undefined;
  httpThread: number | undefined;
  bench: number;
}

/** A running CPU total plus one segment's use; undefined once any reading was missing. */
function addUsage(total: number | undefined, before: number | undefined, after: number | undefined): number | undefined {
  return total === undefined || before === undefined || after === undefined ? undefined : total + after - before;
}

export class CpuMeter {
  private server: number | undefined = 0;
  private httpThread: number | undefined = 0;
  private bench = 0;
  /** The measured segments' wall time, seconds. */
  wallSeconds = 0;

  constructor(private readonly child: ChildServer) {}

  /** Runs `work` as a measured segment. */
  async measure<T>(work: () => PromiseLike<T>): Promise<T> {
    const server = this.child.cpuSeconds();
    const httpThread = this.child.mainThreadCpuSeconds();
    const bench = process.cpuUsage();
    const started = process.hrtime.bigint();
    const result = await work();
    this.wallSeconds += elapsedNs(started) / 1e9;
    const used = process.cpuUsage(bench);
    this.bench += (used.user + used.system) / 1e6;
    this.server = addUsage(this.server, server, this.child.cpuSeconds());
    this.httpThread = addUsage(this.httpThread, httpThread, this.child.mainThreadCpuSeconds());
    return result;
  }

  cores(): Cores {
    const per = (seconds: number | undefined): number | undefined => (seconds === undefined ? undefined : seconds / this.wallSeconds);
    return { server: per(this.server), httpThread: per(this.httpThread), bench: this.bench / this.wallSeconds };
  }
}
