/**
 * docs/spot-api.md "Stop and iceberg orders", durability: untriggered stop orders and a part-filled
 * iceberg rest across kill -9 (snapshot every 50 commands, so recoveries load one and replay after
 * it), on SQLite and on PostgreSQL. A real server process is killed and started again on the same
 * data: the option, the stops with their locks, the iceberg's visible part and the last trade price
 * are what they were; a kill in the middle of a burst of plain, iceberg and stop orders loses
 * nothing acknowledged; and after a restart a trade through the stop prices fires each stop once,
 * which a further restart and further trades through the same prices do not repeat.
 *
 * Story on BTCUSDT: S (second) sells 0.01 @ 30000 to the demo user D; S rests an iceberg SELL 0.05
 * @ 30500 showing 0.01, of which D buys 0.015 (last price 30500, 0.005 visible); D places five stops
 * (the MAX_NUM_ALGO_ORDERS of one symbol) around it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findLostAcknowledgements, verifyWithReplay } from '../support/ack-check.js';
import { asOrderRecord, AckLog } from '../support/ack-log.js';
import { startChildServer, type ChildServer } from '../support/child-server.js';
import { AdminClient, SpotClient, type HttpAnswer } from '../support/clients.js';
import { Cluster } from '../support/cluster.js';
import { isErrorBody, startOrderLoad, type Trader } from '../support/order-load.js';
import { postgresDatabases } from '../support/postgres.js';
import { randomInt, seededRandom } from '../support/prng.js';
import { createFundedTrader, demoTrader, liftRateLimits } from '../support/trading-setup.js';
import { Watch } from '../support/watch.js';

const SEED = 20_261_129;
/** Every life snapshots often: a recovery loads a snapshot holding untriggered stops, then replays the journal after it. */
const LIFE_ENV = { BOURSE_SNAPSHOT_EVERY: '50' };
const TRADER_FUNDS: readonly [string, string][] = [
  ['BTC', '10'],
  ['ETH', '100'],
  ['USDT', '1000000'],
];
const BURST_LOOPS = 8;
const ALGO_LOOPS = 4;
/** The kill comes once the burst has this many commands answered, with every loop still sending. */
const ACKNOWLEDGED_BEFORE_KILL = { plain: 150, algo: 20 };
/** The ETHUSDT price the order load trades around (test/support/order-load.ts), where the algo loops place theirs. */
const ETH_MID_TICKS = 200_000;

interface OrderView {
  orderId: string;
  status: string;
  type: string;
  side: string;
  price: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  stopPrice: string;
  icebergQty: string;
  isWorking: boolean;
  updateTime: string;
}

interface Balance {
  asset: string;
  free: string;
  locked: string;
}

interface Depth {
  bids: [string, string][];
  asks: [string, string][];
}

interface Trade {
  id: string;
  orderId: string;
  price: string;
  qty: string;
}

/** D's stops, placed at last price 30500: each on the side where it waits. */
const STOPS = {
  stopLimitSell: { type: 'STOP_LOSS_LIMIT', side: 'SELL', quantity: '0.01', stopPrice: '29000', price: '28400', timeInForce: 'GTC' },
  stopMarketSell: { type: 'STOP_LOSS', side: 'SELL', quantity: '0.02', stopPrice: '28500' },
  stopLimitBuy: { type: 'STOP_LOSS_LIMIT', side: 'BUY', quantity: '0.01', stopPrice: '31000', price: '31600', timeInForce: 'GTC' },
  // A BUY stop-market is sized in quote, as a MARKET BUY: 500 USDT.
  stopMarketBuy: { type: 'STOP_LOSS', side: 'BUY', quantity: '500', stopPrice: '31500' },
  // Fires when the price rises to 31200 and rests as an ask at 33000, out of reach of the trades below.
  takeProfitLimitSell: { type: 'TAKE_PROFIT_LIMIT', side: 'SELL', quantity: '0.01', stopPrice: '31200', price: '33000', timeInForce: 'GTC' },
} as const;
type StopName = keyof typeof STOPS;
const STOP_NAMES = Object.keys(STOPS) as StopName[];

/** One deployment killed and started again on the same data. */
interface Deployment {
  /** Starts (again) on the same data; resolves once it takes writes. */
  start(): Promise<ChildServer>;
  kill9(): Promise<void>;
  /** Ends it, once a start under way has ended (a timed-out test leaves no process behind), and removes what it kept. */
  stop(): Promise<void>;
}

function sqliteDeployment(): Deployment {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-crash-algo-'));
  let child: Promise<ChildServer> | undefined;
  return {
    start: () => (child = startChildServer({ dataDir, env: LIFE_ENV })),
    kill9: async () => {
      expect(await (await child)?.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    },
    stop: async () => {
      await (await child?.catch(() => undefined))?.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A one-node PostgreSQL deployment: a restarted node leads again once the killed one's heartbeat is old. */
function postgresDeployment(databases: { url(): Promise<string> }): Deployment {
  let cluster: Cluster | undefined;
  let starting: Promise<ChildServer> | undefined;
  const start = async (): Promise<ChildServer> => {
    if (cluster === undefined) cluster = await Cluster.start({ databaseUrl: await databases.url(), size: 1, env: LIFE_ENV });
    else await cluster.nodes[0].start();
    return (await cluster.leader()).server;
  };
  return {
    start: () => (starting = start()),
    kill9: async () => {
      await cluster?.nodes[0].kill9();
    },
    stop: async () => {
      await starting?.catch(() => undefined);
      await cluster?.stop();
    },
  };
}

const STORES: readonly [string, () => Deployment][] = [
  ['SQLite', sqliteDeployment],
  ['PostgreSQL', (): Deployment => postgresDeployment(postgresDatabases())],
];

function body<T>(answer: HttpAnswer, what: string): T {
  if (answer.status !== 200) throw new Error(`${what} answered ${answer.status} ${answer.text}`);
  return answer.body as T;
}

/** What the algo loops did besides their acknowledged orders. */
interface AlgoOutcome {
  /** Refusals by "<http status> <code>" (-2010 is expected: MAX_NUM_ALGO_ORDERS, or a stop on the side that would trigger at once). */
  errorAnswers: Map<string, number>;
  malformed: string[];
}

/**
 * Loops placing, in turn, an iceberg LIMIT order a few ticks around the ETHUSDT middle (the order
 * load takes it part by part), a stop-limit and a take-profit (stop-market) order one or two ticks
 * away (the load's trades fire them); every 200 goes into `log`. A loop ends at its first
 * connection error or when stopped.
 */
function startAlgoBurst(url: string, traders: readonly Trader[], log: AckLog, round: number): { stop(): void; acknowledged(count: number): Promise<void>; done: Promise<AlgoOutcome> } {
  const outcome: AlgoOutcome = { errorAnswers: new Map(), malformed: [] };
  const watch = new Watch();
  let acknowledged = 0;
  let stopped = false;
  const price = (ticks: number): string => ((ETH_MID_TICKS + ticks) / 100).toFixed(2);
  const loop = async (index: number): Promise<void> => {
    const trader = traders[index % traders.length];
    const client = new SpotClient(url, trader.apiKey, trader.secretKey);
    const random = seededRandom(SEED * 10 + index);
    for (let n = 0; !stopped; n++) {
      const buy = random() < 0.5;
      const side = buy ? 'BUY' : 'SELL';
      const away = buy ? 1 : -1;
      // 0.006 to 0.05 ETH in parts of 0.005: at most ten (ICEBERG_PARTS).
      const quantity = (randomInt(random, 6, 50) / 1000).toFixed(3);
      const kinds: Record<string, string>[] = [
        { type: 'LIMIT', timeInForce: 'GTC', price: price(randomInt(random, -3, 3)), quantity, icebergQty: '0.005' },
        { type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', stopPrice: price(away), price: price(3 * away), quantity },
        { type: 'TAKE_PROFIT', stopPrice: price(-2 * away), quantity: buy ? '20' : quantity },
      ];
      let answer: HttpAnswer;
      try {
        answer = await client.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side, ...kinds[n % kinds.length], recvWindow: 60_000 });
      } catch {
        return;
      }
      if (answer.status === 200) {
        log.record(trader.name, round, asOrderRecord(answer.body));
        log.commands++;
        acknowledged++;
        watch.changed();
      } else if (isErrorBody(answer.body)) {
        const key = `${answer.status} ${answer.body.code}`;
        outcome.errorAnswers.set(key, (outcome.errorAnswers.get(key) ?? 0) + 1);
      } else {
        outcome.malformed.push(`${answer.status} ${answer.text.slice(0, 200)}`);
      }
    }
  };
  const done = Promise.all(Array.from({ length: ALGO_LOOPS }, (_, i) => loop(i))).then(() => outcome);
  return {
    stop: () => {
      stopped = true;
    },
    acknowledged: (count) => watch.until(() => acknowledged >= count, `${count} algo orders acknowledged`, 30_000),
    done,
  };
}

describe.each(STORES)('kill -9 with stop orders and an iceberg resting (%s)', (_store, deployment) => {
  const life = deployment();
  afterAll(async () => life.stop());

  // About 20 s on an idle machine, most of it four starts of the server; a loaded one may take several times that.
  it('when the server is killed with stops untriggered and an iceberg part-filled, then each comes back as it was, a burst loses nothing acknowledged, and a later trade fires each stop exactly once', async () => {
    const log = new AckLog();
    let server = await life.start();
    /** The life of the server, 0 for the first: orders are logged with the life that acknowledged them. */
    let round = 0;
    const startAgain = async (): Promise<void> => {
      server = await life.start();
      round++;
      await liftRateLimits(server.url, server.adminToken);
      const recovered = server.logLine('state recovered');
      console.log(`life ${round}: serving after ${server.startMs.toFixed(0)} ms, recovered from the snapshot at ${String(recovered?.snapshotSeq)}, replayed ${String(recovered?.replayed)}`);
    };
    const restart = async (): Promise<void> => {
      await life.kill9();
      await startAgain();
    };
    await liftRateLimits(server.url, server.adminToken);
    const admin = (): AdminClient => new AdminClient(server.url, server.adminToken);
    expect(body<{ algoOrders: boolean }>(await admin().send('PATCH', '/trading/config', { algoOrders: true }), 'PATCH /trading/config').algoOrders).toBe(true);

    const d = demoTrader(server.demo);
    const s = await createFundedTrader(server.url, server.adminToken, 'second', TRADER_FUNDS);
    const burst = [await createFundedTrader(server.url, server.adminToken, 'burst-a', TRADER_FUNDS), await createFundedTrader(server.url, server.adminToken, 'burst-b', TRADER_FUNDS)];
    const traders = [d, s, ...burst];
    const client = (trader: Trader): SpotClient => new SpotClient(server.url, trader.apiKey, trader.secretKey);
    const stopIds = {} as Record<StopName, string>;
    /** A11 that must be accepted; its record goes into the log like the burst's. */
    const place = async (trader: Trader, params: Record<string, string>): Promise<OrderView & { fills: { price: string; qty: string }[] }> => {
      const record = body<OrderView & { fills: { price: string; qty: string }[] }>(await client(trader).signed('POST', '/openapi/v1/order', { symbol: 'BTCUSDT', ...params }), `order ${JSON.stringify(params)}`);
      log.record(trader.name, round, asOrderRecord(record));
      return record;
    };
    const order = async (trader: Trader, orderId: string): Promise<OrderView> => body<OrderView>(await client(trader).signed('GET', '/openapi/v1/order', { orderId }), `A13 ${orderId}`);
    const balances = async (trader: Trader): Promise<Balance[]> => body<{ balances: Balance[] }>(await client(trader).signed('GET', '/openapi/v1/account'), 'A19').balances;
    const locked = async (trader: Trader): Promise<Record<string, string>> => Object.fromEntries((await balances(trader)).filter((b) => ['BTC', 'USDT'].includes(b.asset)).map((b) => [b.asset, b.locked]));
    const depth = async (): Promise<Depth> => {
      const { bids, asks } = body<Depth>(await client(d).get('/openapi/quote/v1/depth', { symbol: 'BTCUSDT' }), 'depth');
      return { bids, asks };
    };
    const trades = async (trader: Trader): Promise<Trade[]> => body<Trade[]>(await client(trader).signed('GET', '/openapi/v1/myTrades', { symbol: 'BTCUSDT' }), 'A20');
    const stopRecords = async (): Promise<Record<StopName, OrderView>> => Object.fromEntries(await Promise.all(STOP_NAMES.map(async (name) => [name, await order(d, stopIds[name])]))) as Record<StopName, OrderView>;
    const algoConfig = async (): Promise<unknown> => body<{ algoOrders: boolean }>(await admin().send('GET', '/trading/config'), 'GET /trading/config').algoOrders;
    /** Every order and trade acknowledged is there, those of the life before the kill looked up one by one too. */
    const expectNothingLost = async (): Promise<void> => {
      expect(await findLostAcknowledgements(server.url, traders, log, round - 1)).toEqual([]);
      const report = await verifyWithReplay(server.url, server.adminToken);
      expect(report, JSON.stringify(report)).toMatchObject({ ok: true, replay: { ok: true } });
    };

    // A last price, then the iceberg taken 0.01 (its first part) + 0.005 (of the second): 0.005 shows, 0.035 remains.
    await place(s, { side: 'SELL', type: 'LIMIT', quantity: '0.01', price: '30000' });
    await place(d, { side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '30000' });
    const iceberg = await place(s, { side: 'SELL', type: 'LIMIT', quantity: '0.05', price: '30500', icebergQty: '0.01' });
    expect((await place(d, { side: 'BUY', type: 'LIMIT', quantity: '0.015', price: '30500' })).fills.map((f) => [f.price, f.qty])).toEqual([
      ['30500', '0.01'],
      ['30500', '0.005'],
    ]);
    for (const name of STOP_NAMES) {
      const placed = await place(d, STOPS[name]);
      expect(placed, name).toMatchObject({ status: 'NEW', isWorking: false, stopPrice: STOPS[name].stopPrice, type: STOPS[name].type });
      stopIds[name] = placed.orderId;
    }
    // Locked as the orders they fire: 0.01 + 0.02 + 0.01 BTC; 31600 × 0.01 + 500 USDT.
    expect(await locked(d)).toEqual({ BTC: '0.04', USDT: '816' });
    expect(await depth()).toEqual({ bids: [], asks: [['30500', '0.005']] });
    const stopsBefore = await stopRecords();
    const icebergBefore = await order(s, iceberg.orderId);
    expect(icebergBefore).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '0.015', icebergQty: '0.01' });
    const balancesBefore = { d: await balances(d), s: await balances(s) };

    // Kill 1, with nothing in flight: everything comes back exactly as it was.
    await restart();
    expect(await algoConfig()).toBe(true);
    expect(await stopRecords()).toEqual(stopsBefore);
    expect(await order(s, iceberg.orderId)).toEqual(icebergBefore);
    expect(await depth()).toEqual({ bids: [], asks: [['30500', '0.005']] });
    expect({ d: await balances(d), s: await balances(s) }).toEqual(balancesBefore);
    const openIds = body<OrderView[]>(await client(d).signed('GET', '/openapi/v1/openOrders', { symbol: 'BTCUSDT' }), 'A17').map((o) => o.orderId);
    expect(openIds.sort()).toEqual(Object.values(stopIds).sort());
    // The last price is 30500 still: a stop at it triggers at once on either side (with no last price both would be taken).
    for (const side of ['SELL', 'BUY']) {
      const refused = await client(s).signed('POST', '/openapi/v1/order', { symbol: 'BTCUSDT', side, type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '30500', stopPrice: '30500' });
      expect([refused.status, refused.body], side).toEqual([400, { code: -2010, msg: 'Order would trigger immediately.' }]);
    }
    // D's five untriggered stops still count: a sixth on the symbol is one too many.
    const sixth = await client(d).signed('POST', '/openapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_LOSS', quantity: '0.001', stopPrice: '20000' });
    expect([sixth.status, sixth.body]).toEqual([400, { code: -2010, msg: 'New order rejected: Filter failure: MAX_NUM_ALGO_ORDERS.' }]);
    expect(await balances(s)).toEqual(balancesBefore.s);
    await expectNothingLost();

    // Kill 2, in the middle of a burst of plain orders (BTCUSDT and ETHUSDT) and iceberg and stop orders (ETHUSDT) of two other users.
    const load = startOrderLoad({ url: server.url, traders: burst, loops: BURST_LOOPS, seed: SEED, round, log });
    const algo = startAlgoBurst(server.url, burst, log, round);
    await Promise.all([load.acknowledged(ACKNOWLEDGED_BEFORE_KILL.plain), algo.acknowledged(ACKNOWLEDGED_BEFORE_KILL.algo)]);
    const killed = life.kill9();
    load.stop();
    algo.stop();
    await killed;
    const [loadOutcome, algoOutcome] = await Promise.all([load.done, algo.done]);
    await startAgain();
    console.log(`burst: ${loadOutcome.acknowledged} plain commands acknowledged, ${loadOutcome.connectionErrors} cut off; algo refusals ${JSON.stringify([...algoOutcome.errorAnswers])}`);
    expect([...loadOutcome.malformed, ...algoOutcome.malformed]).toEqual([]);
    expect([...loadOutcome.errorAnswers.keys(), ...algoOutcome.errorAnswers.keys()].filter((key) => key.startsWith('5'))).toEqual([]);
    await expectNothingLost();
    expect(await algoConfig()).toBe(true);
    // The burst kept clear of D's stop prices (its BTCUSDT trades were between 29999.97 and 30500): they wait as before.
    expect(await stopRecords()).toEqual(stopsBefore);
    expect(await balances(d)).toEqual(balancesBefore.d);

    // An empty book, then S's ask at 31500 that a buy reaches: the price rises through 31000, 31200 and 31500.
    for (const trader of [s, ...burst]) body(await client(trader).signed('DELETE', '/openapi/v1/openOrders', { symbol: 'BTCUSDT' }), 'A16');
    expect(await depth()).toEqual({ bids: [], asks: [] });
    await place(s, { side: 'SELL', type: 'LIMIT', quantity: '0.05', price: '31500' });
    expect((await place(burst[0], { side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '31500' })).fills.map((f) => [f.price, f.qty])).toEqual([['31500', '0.01']]);
    // Then S's bid at 28500 that a sell reaches: it falls through 29000 and 28500.
    await place(s, { side: 'BUY', type: 'LIMIT', quantity: '0.05', price: '28500' });
    expect((await place(burst[0], { side: 'SELL', type: 'LIMIT', quantity: '0.01', price: '28500' })).fills.map((f) => [f.price, f.qty])).toEqual([['28500', '0.01']]);

    const fired = await stopRecords();
    const summary = (o: OrderView): unknown[] => [o.status, o.isWorking, o.executedQty, o.cummulativeQuoteQty];
    expect(Object.fromEntries(STOP_NAMES.map((name) => [name, summary(fired[name])]))).toEqual({
      stopLimitSell: ['FILLED', false, '0.01', '285'],
      stopMarketSell: ['FILLED', false, '0.02', '570'],
      stopLimitBuy: ['FILLED', false, '0.01', '315'],
      // 500 USDT buys floor(500 / 31500) to the step: 0.015873 for 499.9995.
      stopMarketBuy: ['FILLED', false, '0.015873', '499.9995'],
      takeProfitLimitSell: ['NEW', true, '0', '0'],
    });
    for (const name of STOP_NAMES) expect(Number(fired[name].updateTime), name).toBeGreaterThan(Number(stopsBefore[name].updateTime));
    // Each stop traded once, as the taker at S's price.
    const stopTrades = (list: Trade[]): unknown[] => list.filter((t) => Object.values(stopIds).includes(t.orderId)).map((t) => [t.orderId, t.price, t.qty]);
    expect(stopTrades(await trades(d)).sort()).toEqual(
      [
        [stopIds.stopLimitSell, '28500', '0.01'],
        [stopIds.stopMarketSell, '28500', '0.02'],
        [stopIds.stopLimitBuy, '31500', '0.01'],
        [stopIds.stopMarketBuy, '31500', '0.015873'],
      ].sort(),
    );
    expect(await locked(d)).toEqual({ BTC: '0.01', USDT: '0' });
    expect(await depth()).toEqual({
      bids: [['28500', '0.01']],
      asks: [
        ['31500', '0.014127'],
        ['33000', '0.01'],
      ],
    });
    const afterFire = { stops: fired, balances: await balances(d), trades: await trades(d), depth: await depth() };

    // Kill 3: nothing fires again in the replay, nor on trades through the same prices after it.
    await restart();
    expect({ stops: await stopRecords(), balances: await balances(d), trades: await trades(d), depth: await depth() }).toEqual(afterFire);
    expect((await place(burst[0], { side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '31500' })).fills.map((f) => [f.price, f.qty])).toEqual([['31500', '0.001']]);
    expect((await place(burst[0], { side: 'SELL', type: 'LIMIT', quantity: '0.001', price: '28500' })).fills.map((f) => [f.price, f.qty])).toEqual([['28500', '0.001']]);
    expect({ stops: await stopRecords(), balances: await balances(d), trades: await trades(d) }).toEqual({ stops: afterFire.stops, balances: afterFire.balances, trades: afterFire.trades });
    await expectNothingLost();
  }, 120_000);
});
