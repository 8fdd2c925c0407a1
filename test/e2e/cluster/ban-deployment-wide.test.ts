/**
 * docs/deployment.md "Writes through any node": request weight is counted by the node that serves
 * the request, but a ban, once earned, is journaled and holds on every node of the deployment.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AdminClient, request, type HttpAnswer } from '../../support/clients.js';
import { Cluster, type ClusterNode } from '../../support/cluster.js';
import { postgresDatabases } from '../../support/postgres.js';

/** A weight limit reached in a few requests, two strikes to a ban, and a first ban that outlasts the test. */
const LOW_LIMITS = { requestWeightPerMinute: 1, banStrikes: 2, banBaseMs: 1_800_000 };
/** A read of weight 1: served (and counted) by the node it reaches. */
const PAIRS = '/openapi/v1/pairs';
/** How long the other nodes may take to apply a journaled ban on a loaded machine. */
const APPLY_WAIT_MS = 10_000;

interface BanRow {
  ip: string;
  bannedUntil: number;
  banCount: number;
}

/** The `bannedUntil` a 418's message names. */
function bannedUntil(answer: HttpAnswer): number {
  const { msg } = answer.body as { msg: string };
  return Number(/IP banned until ([0-9]+)\.$/.exec(msg)?.[1]);
}

describe('a ban earned through a follower holds on every node', () => {
  const databases = postgresDatabases();
  let cluster: Cluster;
  let leader: ClusterNode;
  let banningFollower: ClusterNode;
  let otherFollower: ClusterNode;

  beforeAll(async () => {
    cluster = await Cluster.start({ databaseUrl: await databases.url(), size: 3 });
    leader = await cluster.leader();
    [banningFollower, otherFollower] = cluster.followersOf(leader);
    const patched = await new AdminClient(leader.url, cluster.adminToken).send('PATCH', '/trading/config', LOW_LIMITS);
    expect(patched.status, patched.text).toBe(200);
    // Every node's limiter takes the low limits from the journal before the client starts.
    await cluster.settled();
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  const bansOf = async (node: ClusterNode): Promise<BanRow[]> => {
    const answer = await new AdminClient(node.url, cluster.adminToken).send('GET', '/bans');
    expect(answer.status, answer.text).toBe(200);
    return answer.body as BanRow[];
  };

  it('when a client earns a ban on a follower, then the leader and the other follower refuse it (418) until the operator lifts it on any node', async () => {
    // Only the banning follower serves the client's requests: the others never count a request of it.
    let refusal: HttpAnswer | undefined;
    for (let sent = 0; sent < 6 && refusal === undefined; sent++) {
      const answer = await request(`${banningFollower.url}${PAIRS}`);
      if (answer.status === 418) refusal = answer;
    }
    if (refusal === undefined) throw new Error('the follower did not ban the client within 6 requests');
    const ban: BanRow = { ip: '127.0.0.1', bannedUntil: bannedUntil(refusal), banCount: 1 };

    // The follower journaled the ban through the leader; every node applies it from the journal.
    for (const node of [leader, otherFollower]) {
      await vi.waitUntil(async () => (await bansOf(node)).length > 0, { timeout: APPLY_WAIT_MS, interval: 50 });
      expect(await bansOf(node)).toEqual([ban]);
      const answer = await request(`${node.url}${PAIRS}`);
      expect(answer.status, `${node.name}: ${answer.text}`).toBe(418);
      expect(bannedUntil(answer)).toBe(ban.bannedUntil);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(1700);
    }
    // A write reaching a follower is judged by the leader, which refuses it too.
    expect((await request(`${otherFollower.url}/openapi/v1/order`, { method: 'POST' })).status).toBe(418);

    // The operator lifts it through the other follower (forwarded to the leader): every node serves the client again.
    const lifted = await new AdminClient(otherFollower.url, cluster.adminToken).send('DELETE', '/bans/127.0.0.1');
    expect(lifted.body).toEqual({ ip: '127.0.0.1', lifted: true });
    // The banning follower's weight counter is still full this minute: the limit goes back up first.
    const restored = await new AdminClient(leader.url, cluster.adminToken).send('PATCH', '/trading/config', { requestWeightPerMinute: 3000, banStrikes: 20, banBaseMs: 120_000 });
    expect(restored.status, restored.text).toBe(200);
    await cluster.settled();
    for (const node of cluster.nodes) {
      expect(await bansOf(node)).toEqual([]);
      expect((await request(`${node.url}${PAIRS}`)).status, node.name).toBe(200);
    }
    // The bans are state of every node's core: the same hash everywhere, and a replay reaches it.
    expect((await cluster.verifiedState()).problems).toEqual([]);
  });
});
