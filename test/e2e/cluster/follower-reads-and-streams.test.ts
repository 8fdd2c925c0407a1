import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../../support/answers.js';
import { AdminClient, SpotClient } from '../../support/clients.js';
import { Cluster, type ClusterNode } from '../../support/cluster.js';
import { postgresDatabases } from '../../support/postgres.js';
import { createFundedTrader, liftRateLimits, type FundedTrader } from '../../support/trading-setup.js';
import { WsProbe } from '../../support/ws-client.js';
import { MarketProbe, wsUrl } from '../../support/ws-market-client.js';

const ORDER = '/openapi/v1/order';
const STREAM = '/openapi/v1/userDataStream';
const MARKET_PATH = '/openapi/quote/ws/v1';
/** Writes made through a follower and read back from it at once. */
const READ_YOUR_WRITES = 20;
/** A frame the streams owe comes within this on an idle machine; a loaded one gets more. */
const FRAME_WAIT_MS = 10_000;

interface OrderReply {
  orderId: string;
  clientOrderId: string;
  status: string;
}

/** One W1 event of a frame (frames are arrays of events). */
interface UserEvent {
  e: string;
  c?: string;
  X?: string;
}

/** One W2 trade frame, as far as the checks read it. */
interface TradeFrame {
  topic?: string;
  data?: { p: string; q: string }[];
}

/** The next W1 frame holding an executionReport of order `clientOrderId` in status `status`. */
async function nextReport(socket: WsProbe, clientOrderId: string, status: string): Promise<UserEvent> {
  const deadline = performance.now() + FRAME_WAIT_MS;
  for (;;) {
    const events = (await socket.next(Math.max(1, deadline - performance.now()))) as UserEvent[];
    const report = events.find((event) => event.e === 'executionReport' && event.c === clientOrderId && event.X === status);
    if (report !== undefined) return report;
  }
}

/** The next W2 trade frame with a trade of `qty` at `price`. */
async function nextTrade(socket: MarketProbe, price: string, qty: string): Promise<TradeFrame> {
  const deadline = performance.now() + FRAME_WAIT_MS;
  for (;;) {
    const frame = (await socket.next(Math.max(1, deadline - performance.now()))) as TradeFrame;
    if (frame.topic === 'trade' && frame.data?.some((trade) => trade.p === price && trade.q === qty)) return frame;
  }
}

describe('followers serve reads and streams', () => {
  const databases = postgresDatabases();
  let cluster: Cluster;
  let maker: FundedTrader;
  let taker: FundedTrader;

  beforeAll(async () => {
    cluster = await Cluster.start({ databaseUrl: await databases.url(), size: 3 });
    const first = cluster.nodes[0];
    await liftRateLimits(first.url, cluster.adminToken);
    maker = await createFundedTrader(first.url, cluster.adminToken, 'maker', [['ETH', '100']]);
    taker = await createFundedTrader(first.url, cluster.adminToken, 'taker', [['USDT', '1000000']]);
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  const clientOf = (trader: FundedTrader, node: ClusterNode): SpotClient => new SpotClient(node.url, trader.apiKey, trader.secretKey);
  /** A trade of `qty` ETH at `price`: the maker rests a SELL through `node`, the taker crosses it through `node`. */
  const trade = async (node: ClusterNode, price: string, qty: string, tag: string): Promise<void> => {
    ok(await clientOf(maker, node).signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', price, quantity: qty, newClientOrderId: `${tag}-sell` }));
    const fill = ok<OrderReply>(await clientOf(taker, node).signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price, quantity: qty, newClientOrderId: `${tag}-buy` }));
    expect(fill.status).toBe('FILLED');
  };
  const subscribeTrades = async (node: ClusterNode): Promise<MarketProbe> => {
    const socket = await MarketProbe.open(wsUrl(node.url, MARKET_PATH));
    expect(await socket.ask({ symbol: 'ETHUSDT', topic: 'trade', event: 'sub', params: { binary: 'false' } })).toMatchObject({ topic: 'trade', f: true });
    return socket;
  };
  const userStream = async (trader: FundedTrader, node: ClusterNode): Promise<WsProbe> => {
    const listenKey = ok<{ listenKey: string }>(await clientOf(trader, node).signed('POST', STREAM)).listenKey;
    return WsProbe.open(wsUrl(node.url, `/openapi/ws/${listenKey}`));
  };

  it('when a client writes through a follower, then the same follower answers its reads with the write at once', async () => {
    const leader = await cluster.leader();
    for (const follower of cluster.followersOf(leader)) {
      const client = clientOf(taker, follower);
      for (let i = 0; i < READ_YOUR_WRITES; i++) {
        const clientOrderId = `ryw-${follower.name}-${i}`;
        const placed = ok<OrderReply>(await client.signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', price: '100', quantity: '0.02', newClientOrderId: clientOrderId }));
        expect(ok<OrderReply>(await client.signed('GET', ORDER, { orderId: placed.orderId }))).toMatchObject({ orderId: placed.orderId, clientOrderId, status: 'NEW' });
        const open = ok<OrderReply[]>(await client.signed('GET', '/openapi/v1/openOrders', { symbol: 'ETHUSDT' }));
        expect(open.map((order) => order.clientOrderId)).toContain(clientOrderId);
        const canceled = ok<OrderReply>(await client.signed('DELETE', ORDER, { orderId: placed.orderId }));
        expect(canceled.status).toBe('CANCELED');
        expect(ok<OrderReply>(await client.signed('GET', ORDER, { orderId: placed.orderId })).status).toBe('CANCELED');
      }
      // An operator write through the follower reads back from it too.
      const admin = new AdminClient(follower.url, cluster.adminToken);
      const user = ok<{ userId: string; accountId: string }>(await admin.send('POST', '/users', { email: `ryw-${follower.name}@bourse.test` }));
      ok(await admin.send('POST', '/deposits', { accountId: user.accountId, asset: 'USDT', amount: '12.5' }));
      expect(ok<{ asset: string; total: string }[]>(await admin.send('GET', `/users/${user.userId}/balances`))).toMatchObject([{ asset: 'USDT', total: '12.5' }]);
    }
    // What each node says of itself on /metrics: its role, the term, no lag once caught up, the writes it forwarded.
    const leaderHealth = (await (await fetch(`${leader.url}/health`)).json()) as { term: number };
    for (const node of cluster.running()) {
      const text = await (await fetch(`${node.url}/metrics`)).text();
      const gauge = (name: string): number => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
      expect(gauge('bourse_role'), node.name).toBe(node === leader ? 1 : 0);
      expect(gauge('bourse_term'), node.name).toBe(leaderHealth.term);
      expect(gauge('bourse_replica_lag_seconds'), node.name).toBeLessThan(1);
      // Each follower forwarded its READ_YOUR_WRITES orders, their cancels and the operator's two writes.
      expect(gauge('bourse_forwarded_requests_total'), node.name).toBe(node === leader ? 0 : 2 * READ_YOUR_WRITES + 2);
    }
  });

  it('when a listenKey is made on one node, then a socket on another node streams with it and a third node keeps it alive', async () => {
    const [a, b, c] = cluster.running();
    const listenKey = ok<{ listenKey: string }>(await clientOf(maker, a).signed('POST', STREAM)).listenKey;
    const socket = await WsProbe.open(wsUrl(b.url, `/openapi/ws/${listenKey}`));
    expect(ok(await clientOf(maker, c).signed('PUT', STREAM, { listenKey }))).toEqual({});
    ok(await clientOf(maker, c).signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', price: '9000', quantity: '0.01', newClientOrderId: 'key-elsewhere' }));
    expect(await nextReport(socket, 'key-elsewhere', 'NEW')).toMatchObject({ s: 'ETHUSDT', S: 'SELL' });
    ok(await clientOf(maker, a).signed('DELETE', ORDER, { origClientOrderId: 'key-elsewhere' }));
    expect(await nextReport(socket, 'key-elsewhere', 'CANCELED')).toMatchObject({ s: 'ETHUSDT' });
    await socket.close();
  });

  it("when the leader is killed, then its sockets close, and a follower's market and user streams go on with the trades made after the takeover", async () => {
    const leader = await cluster.leader();
    const [follower, other] = cluster.followersOf(leader);
    const onFollower = { market: await subscribeTrades(follower), user: await userStream(taker, follower) };
    const onOther = { market: await subscribeTrades(other), user: await userStream(maker, other) };
    const onLeader = { market: await subscribeTrades(leader), user: await userStream(taker, leader) };

    await trade(follower, '2001', '0.5', 'before');
    await nextTrade(onFollower.market, '2001', '0.5');
    await nextReport(onFollower.user, 'before-buy', 'FILLED');
    await nextTrade(onOther.market, '2001', '0.5');
    await nextReport(onOther.user, 'before-sell', 'FILLED');

    const killedAt = await leader.kill9();
    // A kill -9 sends no close frame: the sockets just end.
    await onLeader.market.closed;
    await onLeader.user.closed;
    const takeover = await cluster.takeover(killedAt, (node) => clientOf(taker, node).signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', price: '100', quantity: '0.02' }));
    console.log(`${takeover.leader.name} took over from ${leader.name}: a write accepted ${takeover.ms.toFixed(0)} ms after the kill, every node in the new term after ${takeover.allNodesMs.toFixed(0)} ms`);

    await trade(follower, '2002', '0.25', 'after');
    expect(await nextTrade(onFollower.market, '2002', '0.25')).toMatchObject({ symbol: 'ETHUSDT', f: false });
    expect(await nextReport(onFollower.user, 'after-buy', 'FILLED')).toMatchObject({ s: 'ETHUSDT', S: 'BUY' });
    await nextTrade(onOther.market, '2002', '0.25');
    expect(await nextReport(onOther.user, 'after-sell', 'FILLED')).toMatchObject({ s: 'ETHUSDT', S: 'SELL' });
    for (const socket of [onFollower.market, onFollower.user, onOther.market, onOther.user]) expect(socket.ws.readyState).toBe(socket.ws.OPEN);
    for (const socket of [onFollower.market, onFollower.user, onOther.market, onOther.user]) await socket.close();

    // The killed node comes back as a follower and serves what happened while it was down.
    await leader.start();
    await cluster.settled();
    expect(await leader.health()).toMatchObject({ role: 'follower' });
    expect(ok<OrderReply>(await clientOf(taker, leader).signed('GET', ORDER, { origClientOrderId: 'after-buy' })).status).toBe('FILLED');
  });
});
