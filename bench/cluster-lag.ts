/**
 * Follower lag under load, as a client would see it: from the moment the leader's answer to a write
 * reaches this process to the moment a follower shows, on /health, a seq at or past the one that
 * answer carried (`x-bourse-seq`: the leader's committed seq when it answered, which holds the
 * write). Every `sampleEvery`-th answered order is a sample; each follower is polled back to back,
 * one request in flight, and a sample counts as applied at the arrival of the first answer that
 * shows its seq. That is an upper bound: it includes up to one poll's round trip, and the wait of
 * this process's event loop, which also runs the load generator.
 */

import { setTimeout as delay } from 'node:timers/promises';
import type { Request } from 'autocannon';
import { SEQ_HEADER } from '../src/cluster/forwarding.js';
import { readHealth } from './cluster-nodes.js';
import { percentile } from './stats.js';
/** After the load, how long the samples still pending may take to show up. */
const DRAIN_TIMEOUT_MS = 10_000;
/** A follower that did not answer is asked again after this, not in a busy loop. */
const RETRY_MS = 10;

interface Sample {
  seq: number;
  ackAt: number;
}

interface FollowerWatch {
  name: string;
  url: string;
  pending: Sample[];
  lagsMs: number[];
  /** lagMs of its /health answers: the follower's own view. */
  reportedLagsMs: number[];
  lagging: number;
  unanswered: number;
}

export interface FollowerLag {
  name: string;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Samples not seen applied by the end of the drain. */
  unresolved: number;
  reportedP99Ms: number;
  /** /health answers "lagging" (503) and no answer in time. */
  lagging: number;
  unanswered: number;
}

export interface LagResult {
  followers: FollowerLag[];
  /** All followers' samples together. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  pollP50Ms: number;
  pollP99Ms: number;
  /** Sampled 200 answers without a seq header (a leader always sends one): not samples. */
  withoutSeq: number;
}

function sortedOf(values: readonly number[]): Float64Array {
  return Float64Array.from(values).sort();
}

export class LagProbe {
  private readonly followers: FollowerWatch[];
  private readonly pollsMs: number[] = [];
  private answered = 0;
  private withoutSeq = 0;
  private sampling = false;
  private polling = false;
  private pollers: Promise<void>[] = [];

  constructor(
    followers: readonly { name: string; url: string }[],
    private readonly sampleEvery: number,
  ) {
    this.followers = followers.map(({ name, url }) => ({ name, url, pending: [], lagsMs: [], reportedLagsMs: [], lagging: 0, unanswered: 0 }));
  }

  /** `request` with its answers sampled (while sampling); its own onResponse still runs. */
  sampled(request: Request): Request {
    const onResponse = request.onResponse;
    return {
      ...request,
      onResponse: (status, body, context, headers) => {
        onResponse?.(status, body, context, headers);
        if (!this.sampling || status !== 200 || this.answered++ % this.sampleEvery !== 0) return;
        const seq = Number(headers[SEQ_HEADER]);
        if (!Number.isSafeInteger(seq)) {
          this.withoutSeq++;
          return;
        }
        const ackAt = performance.now();
        for (const follower of this.followers) follower.pending.push({ seq, ackAt });
      },
    };
  }

  /** Starts polling the followers and sampling answers. */
  start(): void {
    this.sampling = true;
    this.polling = true;
    this.pollers = this.followers.map((follower) => this.poll(follower));
  }

  /** Stops sampling; polls on until every pending sample is seen (or DRAIN_TIMEOUT_MS), then stops. */
  async stop(): Promise<LagResult> {
    this.sampling = false;
    const deadline = performance.now() + DRAIN_TIMEOUT_MS;
    while (this.followers.some((f) => f.pending.length > 0) && performance.now() < deadline) await delay(20);
    this.polling = false;
    await Promise.all(this.pollers);
    return this.result();
  }

  private async poll(follower: FollowerWatch): Promise<void> {
    while (this.polling) {
      const sent = performance.now();
      const health = await readHealth(follower.url);
      const at = performance.now();
      this.pollsMs.push(at - sent);
      if (health === undefined) {
        follower.unanswered++;
        await delay(RETRY_MS);
        continue;
      }
      if (health.status === 'lagging') follower.lagging++;
      follower.reportedLagsMs.push(health.lagMs);
      const still: Sample[] = [];
      for (const sample of follower.pending) {
        if (sample.seq <= health.seq) follower.lagsMs.push(at - sample.ackAt);
        else still.push(sample);
      }
      follower.pending = still;
    }
  }

  private result(): LagResult {
    const followers = this.followers.map((f): FollowerLag => {
      const lags = sortedOf(f.lagsMs);
      const reported = sortedOf(f.reportedLagsMs);
      const none = lags.length === 0;
      return {
        name: f.name,
        samples: lags.length,
        p50Ms: none ? NaN : percentile(lags, 0.5),
        p99Ms: none ? NaN : percentile(lags, 0.99),
        maxMs: none ? NaN : lags[lags.length - 1],
        unresolved: f.pending.length,
        reportedP99Ms: reported.length === 0 ? NaN : percentile(reported, 0.99),
        lagging: f.lagging,
        unanswered: f.unanswered,
      };
    });
    const all = sortedOf(this.followers.flatMap((f) => f.lagsMs));
    const polls = sortedOf(this.pollsMs);
    const none = all.length === 0;
    return {
      followers,
      p50Ms: none ? NaN : percentile(all, 0.5),
      p99Ms: none ? NaN : percentile(all, 0.99),
      maxMs: none ? NaN : all[all.length - 1],
      pollP50Ms: polls.length === 0 ? NaN : percentile(polls, 0.5),
      pollP99Ms: polls.length === 0 ? NaN : percentile(polls, 0.99),
      withoutSeq: this.withoutSeq,
    };
  }
}
