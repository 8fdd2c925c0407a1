import { describe, expect, it } from 'vitest';
import { ok } from '../../support/answers.js';
import { SpotClient, type HttpAnswer } from '../../support/clients.js';
import { AckLog } from '../../support/ack-log.js';
import { clusterOfSuite, forbiddenAnswers, LEADER_TIMEOUT_MS, untilFollowing } from '../../support/cluster.js';
import { startOrderLoad } from '../../support/order-load.js';
import { createFundedTrader, demoTrader, liftRateLimits } from '../../support/trading-setup.js';
import { createTransferAccount, startTransferLoad, TransferLog } from '../../support/transfer-load.js';
import { wsUrl, MarketProbe } from '../../support/ws-market-client.js';
import { WsProbe } from '../../support/ws-client.js';

const ORDER = '/openapi/v1/order';
/** Writes sent to the paused leader; each a resting order with a client id of its own. */
const IN_FLIGHT = 12;
/** After SIGCONT, how long the paused leader may take to answer (or cut off) what it received while stopped. */
const ANSWER_WAIT_MS = 10_000;
const NO_LEADER = { status: 503, code: -1016 };
const SEED = 20_260_625;
/** Client loops of the load on each node. */
const LOAD_LOOPS = { orders: 4, transfers: 2 };
/** Orders and cancels the load has had acknowledged before the pause: it is under way. */
const LOAD_BEFORE_PAUSE = 20;
const SECOND_USER_FUNDS: readonly [string, string][] = [
  ['BTC', '10'],
  ['ETH', '100'],
  ['USDT', '1000000'],
];

/** A BUY on a book nobody else trades here: it rests, and is found (or not) by its client id. */
function restingBuy(clientOrderId: string): Record<string, string> {
  return { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '0.01', quantity: '0.1', newClientOrderId: clientOrderId };
}

/** What became of a request: its answer, or the error of a connection cut before one came. */
type Outcome = { answer: HttpAnswer } | { cutOff: string };

describe('a leader paused past its timeout', () => {
  const suite = clusterOfSuite(3);

  it('when the leader is stopped longer than the leader timeout, then another node leads a newer term, and after SIGCONT the old leader acknowledges none of the writes it got while stopped, stores none, closes its sockets and follows', async () => {
    const { cluster } = suite;
    const old = await cluster.leader();
    const oldTerm = (await old.health())?.term ?? 0;
    await liftRateLimits(old.url, cluster.adminToken);
    const trader = await createFundedTrader(old.url, cluster.adminToken, 'paused', [['BTC', '1']]);
    const clientOn = (url: string): SpotClient => new SpotClient(url, trader.apiKey, trader.secretKey);
    ok(await clientOn(old.url).signed('POST', ORDER, restingBuy('before-pause')));
    // Sockets of the old leader: both streams.
    const listenKey = ok<{ listenKey: string }>(await clientOn(old.url).signed('POST', '/openapi/v1/userDataStream')).listenKey;
    const userSocket = await WsProbe.open(wsUrl(old.url, `/openapi/ws/${listenKey}`));
    const marketSocket = await MarketProbe.open(wsUrl(old.url, '/openapi/quote/ws/v1'));
    // A load on every node, so that the pause catches writes anywhere on their way: queued, committing, forwarded.
    const traders = [demoTrader(cluster.demo), await createFundedTrader(old.url, cluster.adminToken, 'second', SECOND_USER_FUNDS)];
    const account = await createTransferAccount(old.url, cluster.adminToken, 'mover', '1000000');
    const log = new AckLog();
    const transfers = new TransferLog();
    const orderLoads = cluster.running().map((node, i) => startOrderLoad({ url: node.url, traders, loops: LOAD_LOOPS.orders, seed: SEED + i, round: 1, log, clientOrderIdPrefix: `load-${i}` }));
    const loads = [...orderLoads, ...cluster.running().map((node) => startTransferLoad({ url: node.url, account, loops: LOAD_LOOPS.transfers, log: transfers }))];
    await Promise.all(orderLoads.map((load) => load.acknowledged(LOAD_BEFORE_PAUSE)));

    old.pause();
    const pausedAt = performance.now();
    // Sent while it is stopped: the kernel takes the connections and the bytes, the process reads them after SIGCONT.
    const inFlight: Promise<Outcome>[] = Array.from({ length: IN_FLIGHT }, (_, i) =>
      clientOn(old.url)
        .signed('POST', ORDER, restingBuy(`paused-${i}`))
        .then(
          (answer) => ({ answer }),
          (error: unknown) => ({ cutOff: String(error) }),
        ),
    );

    const others = cluster.followersOf(old);
    const successor = await cluster.leader({ among: others });
    const newTerm = (await successor.health())?.term ?? 0;
    expect(newTerm).toBe(oldTerm + 1);
    const ledAfterMs = performance.now() - pausedAt;
    // The new term has written before the old leader runs again.
    ok(await clientOn(successor.url).signed('POST', ORDER, restingBuy('new-term')));

    old.resume();
    const outcomes = await Promise.race([
      Promise.all(inFlight),
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`the writes sent to the paused leader were neither answered nor cut off within ${ANSWER_WAIT_MS} ms of SIGCONT`)), ANSWER_WAIT_MS)),
    ]);
    const wrong = outcomes.flatMap((outcome, i) => {
      if ('cutOff' in outcome) return [];
      const code = (outcome.answer.body as { code?: unknown } | undefined)?.code;
      return outcome.answer.status === NO_LEADER.status && code === NO_LEADER.code ? [] : [`paused-${i}: ${outcome.answer.status} ${outcome.answer.text}`];
    });
    expect(wrong).toEqual([]);
    const cutOff = outcomes.filter((outcome) => 'cutOff' in outcome).length;
    const loadAcknowledged = log.commands + transfers.acknowledged;
    console.log(`${successor.name} led term ${newTerm} ${ledAfterMs.toFixed(0)} ms into the pause of ${old.name} (leader timeout ${LEADER_TIMEOUT_MS} ms from its last heartbeat); of ${IN_FLIGHT} writes sent to it while stopped, ${IN_FLIGHT - cutOff} were answered 503 -1016, ${cutOff} cut off; the load had ${loadAcknowledged} writes acknowledged by then`);

    // It rejoins as a follower of the new term; its clients were told to go elsewhere.
    await untilFollowing(old, newTerm);
    expect(await cluster.leader()).toBe(successor);
    expect((await userSocket.closed).code).toBe(1001);
    expect((await marketSocket.closed).code).toBe(1001);
    for (const load of loads) load.stop();
    const loadOutcomes = await Promise.all(loads.map((load) => load.done));
    expect(forbiddenAnswers(loadOutcomes)).toEqual([]);

    // Every node holds the same verified state, with every write the load saw acknowledged, once.
    expect((await cluster.verifiedState()).problems).toEqual([]);
    expect(await cluster.lostOnAnyNode({ traders, log, round: 1 }, { account, log: transfers })).toEqual([]);
    // None of the writes sent to the stopped leader is in the journal: no node knows their client ids.
    for (const node of cluster.running()) {
      const client = clientOn(node.url);
      expect(ok(await client.signed('GET', ORDER, { origClientOrderId: 'before-pause' })), node.name).toMatchObject({ status: 'NEW' });
      expect(ok(await client.signed('GET', ORDER, { origClientOrderId: 'new-term' })), node.name).toMatchObject({ status: 'NEW' });
      for (let i = 0; i < IN_FLIGHT; i++) {
        const found = await client.signed('GET', ORDER, { origClientOrderId: `paused-${i}` });
        expect([node.name, found.status, (found.body as { code?: number }).code]).toEqual([node.name, 400, -2013]);
      }
      const open = ok<{ clientOrderId: string }[]>(await client.signed('GET', '/openapi/v1/openOrders', {}));
      expect(open.map((order) => order.clientOrderId).sort(), node.name).toEqual(['before-pause', 'new-term']);
    }
  }, 90_000);
});
