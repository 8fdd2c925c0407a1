import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AckLog } from '../../support/ack-log.js';
import { Cluster, databaseBehindProxy, forbiddenAnswers, untilFollowing, type NodeHealth } from '../../support/cluster.js';
import { startOrderLoad } from '../../support/order-load.js';
import { postgresDatabases } from '../../support/postgres.js';
import type { TcpProxy } from '../../support/tcp-proxy.js';
import { createFundedTrader, demoTrader, liftRateLimits } from '../../support/trading-setup.js';
import { createTransferAccount, startTransferLoad, TransferLog, transferOnce } from '../../support/transfer-load.js';

const SEED = 20_260_626;
/** Client loops on each node: the leader's own clients, and the follower's, whose writes it forwards. */
const LOAD_LOOPS = { orders: 6, transfers: 2 };
/** Orders and cancels acknowledged on each node before the cut: the leader is mid-append when it comes. */
const LOAD_BEFORE_CUT = 40;
/** docs/deployment.md "Roles": a stuck leader is pushed out after the leader timeout; writes come back within the 5 s of a kill. */
const TAKEOVER_GOAL_MS = 5000;
const SECOND_USER_FUNDS: readonly [string, string][] = [
  ['BTC', '10'],
  ['ETH', '100'],
  ['USDT', '1000000'],
];

describe('a leader cut off from the database', () => {
  const databases = postgresDatabases();
  let cluster: Cluster;
  let proxy: TcpProxy;

  beforeAll(async () => {
    const { direct, viaProxy, ...cut } = await databaseBehindProxy(databases);
    proxy = cut.proxy;
    // Node 1, the first leader, reaches the database through the proxy; node 2 directly.
    cluster = await Cluster.start({ databaseUrl: direct, size: 2, nodeEnv: (index): Record<string, string> => (index === 0 ? { BOURSE_DB: viaProxy } : {}) });
  });

  afterAll(async () => {
    await cluster?.stop();
    await proxy?.close();
  });

  it('when the network between the leader and the database stops passing packets under load, then the follower takes over within 5 s, and after it heals the old leader has acknowledged nothing it did not commit and follows the new term', async () => {
    const [old, successor] = cluster.nodes;
    expect(await cluster.leader()).toBe(old);
    const { term } = (await old.health()) as NodeHealth;
    await liftRateLimits(old.url, cluster.adminToken);
    const traders = [demoTrader(cluster.demo), await createFundedTrader(old.url, cluster.adminToken, 'second', SECOND_USER_FUNDS)];
    const account = await createTransferAccount(old.url, cluster.adminToken, 'mover', '1000000');
    const log = new AckLog();
    const transfers = new TransferLog();
    const orderLoads = cluster.nodes.map((node, i) => startOrderLoad({ url: node.url, traders, loops: LOAD_LOOPS.orders, seed: SEED + i, round: 1, log, clientOrderIdPrefix: `n${i}` }));
    const loads = [...orderLoads, ...cluster.nodes.map((node) => startTransferLoad({ url: node.url, account, loops: LOAD_LOOPS.transfers, log: transfers }))];
    await Promise.all(orderLoads.map((load) => load.acknowledged(LOAD_BEFORE_CUT)));

    proxy.stall();
    const cutAt = performance.now();
    const takeover = await cluster.takeover(cutAt, (node) => transferOnce(node.url, account, transfers), [successor]);
    console.log(`${takeover.leader.name} took over (term ${takeover.term}) from the cut-off ${old.name}: a write accepted ${takeover.ms.toFixed(0)} ms after the cut`);
    expect(takeover).toMatchObject({ leader: successor, term: term + 1 });
    expect(takeover.ms).toBeLessThanOrEqual(TAKEOVER_GOAL_MS);

    proxy.heal();
    for (const load of loads) load.stop();
    const outcomes = await Promise.all(loads.map((load) => load.done));
    expect(forbiddenAnswers(outcomes)).toEqual([]);
    await untilFollowing(old, takeover.term);
    expect((await cluster.verifiedState()).problems).toEqual([]);
    expect(await cluster.lostOnAnyNode({ traders, log, round: 1 }, { account, log: transfers })).toEqual([]);
  }, 90_000);
});
