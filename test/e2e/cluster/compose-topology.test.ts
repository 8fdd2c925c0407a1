/**
 * deploy/compose.yaml's deployment, started as plain processes: no Docker engine runs here, and a
 * user's machine has no HAProxy. Its two Bourse nodes get the settings Compose would give them (the
 * Dockerfile's ENV, the env file deploy/new-secrets.sh writes, the service's `environment`) on a
 * fresh PostgreSQL database, and in front of them a load balancer in the test's process does what
 * deploy/haproxy.cfg says (test/support/load-balancer.ts). Only what exists inside Compose alone is
 * replaced: service host names by 127.0.0.1 and free ports, the `postgres` service by the test's
 * database, the volumes' `/data` by temporary directories, and HAProxy's network address (which
 * BOURSE_TRUST_PROXY names) by a loopback address the test's balancer connects from. Everything else
 * is taken as the files write it, so a setting of theirs that stops working fails here.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ok } from '../../support/answers.js';
import { REPO, runChild } from '../../support/child-run.js';
import { AdminClient, request, SpotClient, type HttpAnswer } from '../../support/clients.js';
import { Cluster, type NodePlace } from '../../support/cluster.js';
import { child, dockerfileEnv, dockerfileInstructions, entries, envFile, haproxyLines, items, lastStage, yamlLines } from '../../support/deploy-files.js';
import { balancingRules, LoadBalancer, serverOf, type BalancingRules } from '../../support/load-balancer.js';
import { postgresDatabases } from '../../support/postgres.js';
import { createFundedTrader, type FundedTrader } from '../../support/trading-setup.js';
import { MarketProbe, wsUrl } from '../../support/ws-market-client.js';

/** Where the test's balancer connects from, as HAProxy from its address in compose.yaml: Linux routes all of 127/8 to lo. */
const BALANCER_ADDRESS = '127.0.0.10';
/** The client's address: the one the nodes must count it under, not the balancer's. */
const CLIENT_ADDRESS = '127.0.0.1';
const ORDER = '/openapi/v1/order';
const SYMBOL = 'KITCASH';
/** A write accepted again this long after the leader's kill at most (docs/deployment.md "Takeover": 5 s). */
const WRITES_BACK_WAIT_MS = 10_000;
/** A frame the market stream owes comes within this on a loaded machine. */
const FRAME_WAIT_MS = 10_000;

const read = (file: string): string => readFileSync(path.join(REPO, file), 'utf8');

// --- the deployment as its files describe it --------------------------------------------------

const compose = yamlLines(read('deploy/compose.yaml'));
const services = child(compose, 'services');
const serviceNames = [...entries(services).keys()];
/** The Bourse nodes: the services built on the `x-bourse` anchor, in the file's order. */
const nodeServices = serviceNames.filter((name) => child(services, name).some((line) => line.text === '<<: *bourse'));
const anchor = entries(child(compose, 'x-bourse'));
const imageEnv = dockerfileEnv(lastStage(dockerfileInstructions(read('Dockerfile'))));
/** The port every node listens on inside its container, as the Dockerfile sets it. */
const containerPort = imageEnv.get('PORT') ?? '';
const haproxyAddress = entries(child(child(child(services, 'haproxy'), 'networks'), 'default')).get('ipv4_address') ?? '';
const rules: BalancingRules = balancingRules(haproxyLines(read('deploy/haproxy.cfg')));
/** A value still naming a host that only Compose's network has. */
/** A service name where a URL names its host (after `//` or `@`, before a port, a path or the end), or HAProxy's address. */
const composeHost = new RegExp(`(//|@)(${serviceNames.join('|')})(:[0-9]+)?(/|$)|${haproxyAddress.replaceAll('.', '\\.')}`);

/** The env file the nodes share, written by deploy/new-secrets.sh into `dir`, with BOURSE_DB on the test's database. */
async function sharedSettings(dir: string, databaseUrl: string): Promise<Map<string, string>> {
  const run = await runChild('sh', ['deploy/new-secrets.sh', dir], { env: {}, deadlineMs: 20_000 });
  expect(run.exitCode, run.stderr).toBe(0);
  const settings = envFile(readFileSync(path.join(dir, anchor.get('env_file') ?? ''), 'utf8'));
  const database = new URL(settings.get('BOURSE_DB') ?? '');
  expect(serviceNames, `BOURSE_DB's host ${database.hostname} is a service of compose.yaml`).toContain(database.hostname);
  settings.set('BOURSE_DB', databaseUrl);
  return settings;
}

/** What Compose gives node `name` (the image's ENV, then the env file, then the service's `environment`), placed outside Compose. */
function nodeSettings(name: string, shared: ReadonlyMap<string, string>, place: NodePlace): Record<string, string> {
  const service = child(services, name);
  const settings = new Map([...imageEnv, ...shared, ...entries(child(service, 'environment'))]);
  // The node's own address: its service name and the container's port become 127.0.0.1 and a free port.
  const port = new URL(place.url).port;
  for (const [key, value] of settings) settings.set(key, value.replaceAll(`http://${name}:${containerPort}`, place.url).replaceAll(haproxyAddress, BALANCER_ADDRESS));
  settings.set('PORT', port);
  // Its volume's mount point becomes a temporary directory.
  const mount = items(child(service, 'volumes')).find((volume) => volume.startsWith(`${name}-data:`))?.split(':')[1];
  expect(settings.get('BOURSE_DATA'), `${name}'s data directory is its volume`).toBe(mount);
  settings.set('BOURSE_DATA', place.dataDir);
  for (const [key, value] of settings) expect(value, `${name}'s ${key} names a host outside Compose no more`).not.toMatch(composeHost);
  return Object.fromEntries(settings);
}

// --- the client's side -------------------------------------------------------------------------------

interface OrderReply {
  orderId: string;
  clientOrderId: string;
  status: string;
  executedQty?: string;
}

interface TradeFrame {
  topic?: string;
  data?: { p: string; q: string }[];
}

/** The next trade frame of `socket` with a trade of `qty` at `price`. */
async function nextTrade(socket: MarketProbe, price: string, qty: string): Promise<TradeFrame> {
  const deadline = performance.now() + FRAME_WAIT_MS;
  for (;;) {
    const frame = (await socket.next(Math.max(1, deadline - performance.now()))) as TradeFrame;
    if (frame.topic === 'trade' && frame.data?.some((trade) => trade.p === price && trade.q === qty)) return frame;
  }
}

describe('the deployment of deploy/compose.yaml, behind a balancer doing what deploy/haproxy.cfg says', () => {
  const databases = postgresDatabases();
  const secretsDir = mkdtempSync(path.join(tmpdir(), 'bourse-compose-'));
  let cluster: Cluster;
  let balancer: LoadBalancer;
  let admin: AdminClient;
  let maker: FundedTrader;
  let taker: FundedTrader;
  /** A market stream through the balancer, open when the leader is killed. */
  let market: MarketProbe;
  /** Every order acknowledged through the balancer: client order id → its trader and the status last acknowledged. */
  const acknowledged = new Map<string, { trader: FundedTrader; status: string }>();

  const subscribeTrades = async (): Promise<MarketProbe> => {
    const socket = await MarketProbe.open(wsUrl(balancer.url, '/openapi/quote/ws/v1'));
    expect(await socket.ask({ symbol: SYMBOL, topic: 'trade', event: 'sub', params: { binary: 'false' } })).toMatchObject({ topic: 'trade', f: true });
    return socket;
  };
  const client = (trader: FundedTrader): SpotClient => new SpotClient(balancer.url, trader.apiKey, trader.secretKey);
  const place = async (trader: FundedTrader, params: Record<string, string>): Promise<OrderReply> => {
    const reply = ok<OrderReply>(await client(trader).signed('POST', ORDER, params));
    acknowledged.set(reply.clientOrderId, { trader, status: reply.status });
    return reply;
  };

  beforeAll(async () => {
    expect(nodeServices).toEqual(['bourse-1', 'bourse-2']);
    const shared = await sharedSettings(secretsDir, await databases.url());
    // The first node started leads: the client's own node (balance source), so that the leader's
    // kill moves the client to the other node, through the health checks and the redispatch.
    const clientsNode = serverOf(rules, CLIENT_ADDRESS).address.split(':')[0];
    const order = [...nodeServices].sort((a, b) => Number(b === clientsNode) - Number(a === clientsNode));
    expect(order[0]).toBe(clientsNode);
    cluster = await Cluster.start({
      databaseUrl: shared.get('BOURSE_DB') ?? '',
      size: order.length,
      names: order,
      deployment: Object.fromEntries(shared),
      nodeEnv: (index, where) => nodeSettings(order[index]!, shared, where),
    });
    // haproxy.cfg's servers are the nodes' services on the container's port: here, where the nodes really are.
    const targets = new Map(
      rules.servers.map((server) => {
        const node = cluster.nodes.find((candidate) => server.address === `${candidate.name}:${containerPort}`);
        if (node === undefined) throw new Error(`haproxy.cfg's server ${server.name} at ${server.address} is no node of compose.yaml`);
        return [server.name, node.url];
      }),
    );
    balancer = await LoadBalancer.start(rules, targets, BALANCER_ADDRESS);
    admin = new AdminClient(balancer.url, cluster.adminToken);
  });

  afterAll(async () => {
    await market?.close();
    await balancer?.close();
    await cluster?.stop();
    rmSync(secretsDir, { recursive: true, force: true });
  });

  it('when an operator lists a market and funds two users through the balancer, then they trade, cancel and read their orders back, and a market stream through it sees the trade', async () => {
    for (const node of cluster.nodes) expect(balancer.isUp(node.name)).toBe(true);
    // Assets of this test's own: the empty deployment lists some (area B's), and the market is the test's alone.
    ok(await admin.send('POST', '/assets', { asset: 'KIT', precision: 8, chains: ['KIT'] }));
    ok(await admin.send('POST', '/assets', { asset: 'CASH', precision: 6, chains: ['CASH'] }));
    ok(await admin.send('POST', '/symbols', { symbol: SYMBOL, baseAsset: 'KIT', quoteAsset: 'CASH', tickSize: '0.01', stepSize: '0.0001', minNotional: '1' }));
    maker = await createFundedTrader(balancer.url, cluster.adminToken, 'maker', [['KIT', '2']]);
    taker = await createFundedTrader(balancer.url, cluster.adminToken, 'taker', [['CASH', '100000']]);
    // BOURSE_DEMO "0" as the file sets it: no demo user beside them.
    expect(ok<{ email: string }[]>(await admin.send('GET', '/users')).map((user) => user.email)).toEqual(['maker@bourse.test', 'taker@bourse.test']);

    market = await subscribeTrades();

    expect(await place(maker, { symbol: SYMBOL, side: 'SELL', type: 'LIMIT', price: '30000', quantity: '0.5', newClientOrderId: 'ask-1' })).toMatchObject({ status: 'NEW' });
    const open = ok<OrderReply[]>(await client(maker).signed('GET', '/openapi/v1/openOrders', { symbol: SYMBOL }));
    expect(open.map((order) => order.clientOrderId)).toEqual(['ask-1']);
    expect(await place(taker, { symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '30000', quantity: '0.1', newClientOrderId: 'lift-1' })).toMatchObject({ status: 'FILLED' });
    await nextTrade(market, '30000', '0.1');

    const canceled = ok<OrderReply>(await client(maker).signed('DELETE', ORDER, { origClientOrderId: 'ask-1' }));
    expect(canceled).toMatchObject({ status: 'CANCELED', executedQty: '0.1' });
    acknowledged.set('ask-1', { trader: maker, status: 'CANCELED' });
    expect(ok<OrderReply>(await client(maker).signed('GET', ORDER, { origClientOrderId: 'ask-1' }))).toMatchObject({ status: 'CANCELED', executedQty: '0.1' });
    // Two that stay on the book across the leader's kill.
    await place(maker, { symbol: SYMBOL, side: 'SELL', type: 'LIMIT', price: '31000', quantity: '0.2', newClientOrderId: 'ask-2' });
    await place(taker, { symbol: SYMBOL, side: 'BUY', type: 'LIMIT', price: '29000', quantity: '0.1', newClientOrderId: 'bid-1' });

    // Area B is served through the balancer too: its own envelope, not a 404 of an unknown path.
    const merchant = await request(`${balancer.url}/v2/user/account`);
    expect({ status: merchant.status, body: merchant.body }).toEqual({ status: 401, body: { code: -1002, msg: 'UNAUTHORIZED', detail: 'X-BH-TOKEN is missing', data: null } });
  });

  it('when the leader is killed -9, then the health checks take it out within fall × inter, writes through the balancer succeed again, every acknowledged order reads back, and a ban names the client, not the balancer', async () => {
    const leader = await cluster.leader();
    expect(leader.name, 'the client is on the leader').toBe(cluster.nodes[0]!.name);
    const killedAt = await leader.kill9();
    const leaderServer = rules.servers.find((server) => server.address.startsWith(`${leader.name}:`))!;
    const takenOut = balancer.watch.until(() => !balancer.isUp(leaderServer.name), `${leaderServer.name} taken out`, WRITES_BACK_WAIT_MS).then(() => performance.now() - killedAt);

    // From the kill on, a write resent with its id until one answer says it is in (a repeat answers -1141: the first went through).
    const refusals = new Map<string, number>();
    const writeIn = async (): Promise<boolean> => {
      const answer: HttpAnswer = await client(taker)
        .signed('POST', ORDER, { symbol: SYMBOL, side: 'BUY', type: 'LIMIT', price: '28000', quantity: '0.1', newClientOrderId: 'bid-2' })
        .catch((error: unknown) => ({ status: 0, headers: new Headers(), text: '', body: { code: String(error) } }));
      const code = (answer.body as { code?: number } | undefined)?.code;
      if (answer.status === 200 || code === -1141) return true;
      const key = `${answer.status} ${String(code)}`;
      refusals.set(key, (refusals.get(key) ?? 0) + 1);
      return false;
    };
    await vi.waitUntil(writeIn, { timeout: WRITES_BACK_WAIT_MS, interval: 100 }).catch(() => {
      throw new Error(`no write accepted through the balancer within ${WRITES_BACK_WAIT_MS} ms of the kill; refusals ${JSON.stringify([...refusals])}`);
    });
    const writesBackMs = performance.now() - killedAt;
    // The first failed check comes within `inter` of the kill, then `fall` - 1 more.
    const takenOutMs = await takenOut;
    expect(takenOutMs).toBeLessThan((leaderServer.fall + 1) * leaderServer.interMs);
    acknowledged.set('bid-2', { trader: taker, status: 'NEW' });
    // Refused only as a takeover is: no leader (503 -1016, or the balancer's 503), or a write cut off in flight (502).
    for (const key of refusals.keys()) expect(key).toMatch(/^(503 -1016|503 undefined|502 undefined)$/);
    console.log(`${leader.name} killed: out of the balancer after ${takenOutMs.toFixed(0)} ms, writes through it accepted after ${writesBackMs.toFixed(0)} ms; refusals ${JSON.stringify([...refusals])}`);

    // The market stream was on the killed node: cut off, and open again through the balancer, on the other node.
    await market.closed;
    market = await subscribeTrades();
    expect(await place(taker, { symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '31000', quantity: '0.05', newClientOrderId: 'lift-2' })).toMatchObject({ status: 'FILLED' });
    acknowledged.set('ask-2', { trader: maker, status: 'PARTIALLY_FILLED' });
    await nextTrade(market, '31000', '0.05');
    await market.close();

    for (const [clientOrderId, { trader, status }] of acknowledged) {
      expect(ok<OrderReply>(await client(trader).signed('GET', ORDER, { origClientOrderId: clientOrderId })), clientOrderId).toMatchObject({ clientOrderId, status });
    }

    // A client that spends its weight is banned under its own address: the nodes believe the balancer's X-Forwarded-For.
    ok(await admin.send('PATCH', '/trading/config', { requestWeightPerMinute: 1, banStrikes: 2, banBaseMs: 1_800_000 }));
    let status = 0;
    for (let sent = 0; sent < 6 && status !== 418; sent++) status = (await request(`${balancer.url}/openapi/v1/pairs`)).status;
    expect(status).toBe(418);
    expect(ok<{ ip: string }[]>(await admin.send('GET', '/bans')).map((ban) => ban.ip)).toEqual([CLIENT_ADDRESS]);
  });
});
