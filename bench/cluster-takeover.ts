/**
 * One takeover, timed as a client sees it (docs/deployment.md "Takeover"): the leader is killed
 * with SIGKILL, and from that moment a cheap write is sent to every surviving node every 20 ms,
 * without waiting for the earlier ones, until one answers 200. The time is from the kill to the
 * arrival of that first 200; the refusals on the way are tallied by "<HTTP status> <code>".
 */

import { setTimeout as delay } from 'node:timers/promises';
import type { BenchCluster, BenchNode } from './cluster-nodes.js';

const PROBE_EVERY_MS = 20;
/** A probe in flight longer than this is abandoned (counted as "timeout"). */
const PROBE_TIMEOUT_MS = 3000;
/** Past this without a write accepted, the round is given up: a takeover this slow misses the goal many times over. */
const GIVE_UP_MS = 15_000;

export interface TakeoverResult {
  killed: BenchNode;
  /** The node whose 200 came first (a follower answers after forwarding to the new leader). */
  acceptedBy: BenchNode | undefined;
  /** The node leading once the cluster settled again. */
  leader: BenchNode;
  /** From the kill to the first 200; undefined if none came within GIVE_UP_MS. */
  ms: number | undefined;
  refusals: Map<string, number>;
}

/** Sends one write to a node's URL; answers its HTTP status and the body's `code`, if any. */
export type ProbeWrite = (url: string, signal: AbortSignal) => Promise<{ status: number; code?: unknown }>;

/** Kills the leader of a settled cluster and times the first accepted write; the killed node is left down. */
export async function takeOver(cluster: BenchCluster, write: ProbeWrite): Promise<TakeoverResult> {
  const leader = await cluster.settled();
  const survivors = cluster.running().filter((node) => node !== leader);
  const refusals = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  let accepted: { at: number; node: BenchNode } | undefined;
  const probe = async (node: BenchNode): Promise<void> => {
    let key: string;
    try {
      const answer = await write(node.url, AbortSignal.timeout(PROBE_TIMEOUT_MS));
      if (answer.status === 200) {
        accepted ??= { at: performance.now(), node };
        return;
      }
      key = `${answer.status} ${String(answer.code)}`;
    } catch (error) {
      key = (error as Error).name === 'TimeoutError' ? 'timeout' : 'no connection';
    }
    refusals.set(key, (refusals.get(key) ?? 0) + 1);
  };

  const killedAt = leader.kill9();
  while (accepted === undefined && performance.now() - killedAt < GIVE_UP_MS) {
    for (const node of survivors) {
      const sent = probe(node).finally(() => inFlight.delete(sent));
      inFlight.add(sent);
    }
    await delay(PROBE_EVERY_MS);
  }
  await Promise.all(inFlight);
  const ms = accepted === undefined ? undefined : accepted.at - killedAt;
  const newLeader = await cluster.settled();
  return { killed: leader, acceptedBy: accepted?.node, leader: newLeader, ms, refusals };
}
