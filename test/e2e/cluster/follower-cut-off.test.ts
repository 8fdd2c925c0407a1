import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Cluster, databaseBehindProxy, LEADER_TIMEOUT_MS, type NodeHealth } from '../../support/cluster.js';
import { postgresDatabases } from '../../support/postgres.js';
import type { TcpProxy } from '../../support/tcp-proxy.js';
import { liftRateLimits } from '../../support/trading-setup.js';
import { createTransferAccount, findTransferProblems, TransferLog, transferOnce, type TransferAccount } from '../../support/transfer-load.js';

/** Small, so that a cut-off follower is declared lagging soon (the default is 5000). */
const MAX_LAG_MS = 1000;
/** A follower knows it is up to date as of its last read of the journal: reads come 100 ms apart, and take time. */
const LAST_READ_SLACK_MS = 300;
/** How long a cut-off follower may take to say so, past MAX_LAG_MS, on a loaded machine. */
const LAGGING_WAIT_MS = 10_000;

describe('a follower cut off from the database', () => {
  const databases = postgresDatabases();
  let cluster: Cluster;
  let proxy: TcpProxy;
  let account: TransferAccount;
  const transfers = new TransferLog();

  beforeAll(async () => {
    const { direct, viaProxy, ...cut } = await databaseBehindProxy(databases);
    proxy = cut.proxy;
    // Node 1 (the first leader) reaches the database directly, node 2 through the proxy.
    cluster = await Cluster.start({ databaseUrl: direct, size: 2, env: { BOURSE_MAX_LAG_MS: String(MAX_LAG_MS) }, nodeEnv: (index): Record<string, string> => (index === 1 ? { BOURSE_DB: viaProxy } : {}) });
    await liftRateLimits(cluster.nodes[0].url, cluster.adminToken);
    account = await createTransferAccount(cluster.nodes[0].url, cluster.adminToken, 'mover', '1000');
  });

  afterAll(async () => {
    await cluster?.stop();
    await proxy?.close();
  });

  it.each([
    ['its connections are reset and new ones refused', (p: TcpProxy) => p.reset()],
    ['its packets are held back', (p: TcpProxy) => p.stall()],
  ])('when %s while the leader writes, then it answers 503 lagging past BOURSE_MAX_LAG_MS, the leader is undisturbed, and it recovers to the same seq once it reaches the database again', async (_how, cut) => {
    const [leader, follower] = cluster.nodes;
    expect(await cluster.leader()).toBe(leader);
    const { term } = (await leader.health()) as NodeHealth;
    await cluster.settled();
    expect(proxy.connections).toBeGreaterThan(0);

    cut(proxy);
    const cutAt = performance.now();
    // The leader goes on writing; the follower cannot see it.
    const refused: string[] = [];
    const lagging = await vi
      .waitUntil(
        async () => {
          const answer = await transferOnce(leader.url, account, transfers);
          if (answer.status !== 200) refused.push(`${answer.status} ${answer.text}`);
          const health = await follower.health();
          return health?.httpStatus === 503 ? health : undefined;
        },
        { timeout: LAGGING_WAIT_MS, interval: 100 },
      )
      .catch(async () => {
        throw new Error(`the cut-off follower did not answer 503 within ${LAGGING_WAIT_MS} ms; it answers ${JSON.stringify(await follower.health())}`);
      });
    const laggingAfterMs = performance.now() - cutAt;
    expect(refused).toEqual([]);
    expect(lagging).toMatchObject({ status: 'lagging', role: 'follower' });
    // It was up to date when it was cut off, as of its last read: no sooner than MAX_LAG_MS after that one.
    expect(laggingAfterMs).toBeGreaterThanOrEqual(MAX_LAG_MS - LAST_READ_SLACK_MS);
    expect(lagging.lagMs).toBeGreaterThan(MAX_LAG_MS);
    expect(await leader.health()).toMatchObject({ httpStatus: 200, status: 'ok', role: 'leader', term });
    // Nothing to await here: the cut lasts past the leader timeout on purpose, so that a follower that
    // judged the leader stuck by its own clock would try to push it out (a held attempt lands on heal).
    await delay(Math.max(0, 2 * LEADER_TIMEOUT_MS - (performance.now() - cutAt)));
    expect(await follower.health()).toMatchObject({ httpStatus: 503, status: 'lagging', role: 'follower', term });

    proxy.heal();
    const seq = await cluster.settled();
    console.log(`cut off (${_how}): 503 lagging after ${laggingAfterMs.toFixed(0)} ms (lagMs ${lagging.lagMs}); back at seq ${seq} ${(performance.now() - cutAt).toFixed(0)} ms after the cut`);
    // Nobody took over: the leader and its term are the same, the follower is back with everything.
    expect(await leader.health()).toMatchObject({ httpStatus: 200, role: 'leader', term, seq });
    expect(await follower.health()).toMatchObject({ httpStatus: 200, status: 'ok', role: 'follower', term, seq, lagMs: 0 });
    expect(await findTransferProblems(follower.url, cluster.adminToken, account, transfers)).toEqual([]);
    expect((await cluster.verifiedState()).problems).toEqual([]);
  });
});
