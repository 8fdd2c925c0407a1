import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { findLostAcknowledgements, verifyWithReplay, balancesOf } from '../support/ack-check.js';
import { AckLog } from '../support/ack-log.js';
import { startChildServer, type ChildServer } from '../support/child-server.js';
import { startOrderLoad, type Trader } from '../support/order-load.js';
import { randomInt, seededRandom } from '../support/prng.js';
import { createFundedTrader, demoTrader, liftRateLimits } from '../support/trading-setup.js';
import { AdminClient, SpotClient } from '../support/clients.js';
import { BUSINESS_FIELDS, MerchantClient } from '../support/merchant-client.js';
import { mayMove, TERMINAL } from '../support/order-statuses.js';
import { PaymentAckLog, startPaymentLoad } from '../support/payment-load.js';
import { WIRE_BENEFICIARY } from '../support/payments-story.js';
import { parseSignedDecimal } from '../../src/core/decimal.js';
import { FLOW_TYPES } from '../../src/core/types.js';
import type { OrderKind } from '../../src/payments/orders.js';

const SEED = 20_260_601;
const ROUNDS = 5;
const LOOPS = 16;
const KILL_AFTER_MS = { min: 150, max: 900 };
/** Payment orders a round acknowledges at least before its kill (about what an idle machine does in the window). */
const MIN_ORDERS_PER_ROUND = 15;

function roundOrders(log: PaymentAckLog, round: number): number {
  let n = 0;
  for (const order of log.orders.values()) if (order.round === round) n++;
  return n;
}
/**
 * Snapshots every 50 commands in some lives (so kills land between snapshots and recovery loads
 * them), the default in others; the core inline in some, in its worker thread in others, so each
 * placement is killed and each recovers what the other journaled.
 */
const LIVES: readonly Record<string, string>[] = [
  { BOURSE_SNAPSHOT_EVERY: '50', BOURSE_CORE_THREAD: 'worker' },
  { BOURSE_CORE_THREAD: 'inline' },
  { BOURSE_SNAPSHOT_EVERY: '50', BOURSE_SYNCHRONOUS: 'FULL', BOURSE_CORE_THREAD: 'inline' },
  { BOURSE_SYNCHRONOUS: 'FULL', BOURSE_CORE_THREAD: 'worker' },
];
/** Rounds after which the recovered server is also stopped cleanly and started again. */
const CLEAN_RESTART_ROUNDS = new Set([2, 4, 5]);
const SECOND_USER_FUNDS: readonly [string, string][] = [
  ['BTC', '10'],
  ['ETH', '100'],
  ['USDT', '1000000'],
];
/** Concurrent payment order stories beside the arrivals and claims. */
const ORDER_LOOPS = 4;
/**
 * The demo merchant user's modes in each round (index = round): manual review and payouts in most,
 * so that orders wait in every status for the docs/merchant-payments.md "The simulator and the sandbox API" actions of the load; automatic ones in others.
 */
const ROUND_MODES: readonly Record<string, string>[] = [
  {},
  { orderReview: 'manual', payout: 'manual' },
  { orderReview: 'approve', payout: 'success' },
  { orderReview: 'manual', payout: 'manual' },
  { orderReview: 'rfi', payout: 'fail' },
  { orderReview: 'documents', payout: 'manual' },
];
/**
 * The accept window of orders placed on behalf (30), short so that some wait with a deadline when
 * the server is killed, pass it while it is down, and must be expired (-7002) once it is back.
 */
const ACCEPT_WINDOW_MS = 1500;
/** How long after its deadline a recovered order may still be in 30: the scheduler re-arms at start. */
const TIMER_SLACK_MS = 1000;
const NON_TERMINAL = [10, 11, 12, 30, 31, 40, 41, 50, 51];

/** A B21 row, as far as the checks read it. */
interface FundingRow {
  txId: number;
  type: string;
  status: number;
  amount: string;
  fee: string;
  clientId: string;
}

/** A B34 row, as far as the checks read it. */
interface OrderRow {
  orderId: string;
  orderType: OrderKind;
  orderStatus: number;
  failCode: number;
  updateTime: string;
  paymentId: number;
  userPaymentId: number;
  fiatAmount: string;
  fiatFee: string;
  cryptoAmount: string;
  onRampFiatAmount: string;
  onRampFiatFee: string;
}

/** A signed decimal as atto units, so that "-999" and "-999.00" compare equal. */
function atto(text: string): bigint {
  const value = parseSignedDecimal(text);
  if (value === null) throw new Error(`not a decimal: ${text}`);
  return value;
}

/**
 * The rows M's A31 flows must hold, one per posting, from the orders' statuses (docs/merchant-payments.md "Order statuses") and the
 * completed claims: `asset flowType change` → count. A second settlement of an order, or a missing
 * one, shows as a difference.
 */
function expectedMerchantFlows(orders: readonly OrderRow[], completedClaimFees: readonly string[]): Map<string, number> {
  const rows = new Map<string, number>();
  const add = (asset: string, flowType: number, change: bigint): void => {
    if (change === 0n) return;
    const key = `${asset} ${flowType} ${change}`;
    rows.set(key, (rows.get(key) ?? 0) + 1);
  };
  const { OTC_BUY_COIN, OTC_SELL_COIN, OTC_TRADE, OTC_FEE } = FLOW_TYPES;
  for (const o of orders) {
    const s = o.orderStatus;
    if (o.orderType === 'fiat_to_crypto' && s === 60) {
      add('MXN', OTC_FEE, -atto(o.fiatFee));
      add('MXN', OTC_BUY_COIN, atto(o.fiatFee) - atto(o.fiatAmount));
      add('USDT', OTC_BUY_COIN, atto(o.cryptoAmount));
    } else if (o.orderType === 'crypto_to_fiat' && s === 60) {
      if (o.userPaymentId === 70) add('MXN', OTC_SELL_COIN, atto(o.fiatAmount));
      add('USDT', OTC_SELL_COIN, -atto(o.cryptoAmount));
    } else if (o.orderType === 'fiat_to_fiat' && (s === 51 || s === 60 || s === 72)) {
      add('MXN', OTC_FEE, -atto(o.onRampFiatFee));
      add('MXN', OTC_TRADE, atto(o.onRampFiatFee) - atto(o.onRampFiatAmount));
      if (s === 72) {
        add('MXN', OTC_FEE, atto(o.onRampFiatFee));
        add('MXN', OTC_TRADE, atto(o.onRampFiatAmount) - atto(o.onRampFiatFee));
      }
    }
  }
  for (const fee of completedClaimFees) add('MXN', OTC_FEE, -atto(fee));
  return rows;
}

describe('kill -9 under concurrent order load', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-crash-'));
  let child: ChildServer | undefined;
  /** Restarts after which a waiting order was expired by docs/merchant-payments.md "The simulator and the sandbox API" once (and refused a second time). */
  let expiredOnce = 0;

  afterAll(async () => {
    await child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (round: number): Promise<ChildServer> => {
    child = await startChildServer({ dataDir, env: LIVES[round % LIVES.length] });
    await liftRateLimits(child.url, child.adminToken);
    return child;
  };

  /** Every acknowledged arrival and claim is there exactly once, and a retry of one applies nothing. Answers the records. */
  const expectPaymentsRecovered = async (client: MerchantClient, merchantId: number, payments: PaymentAckLog): Promise<FundingRow[]> => {
    const records = new Map<number, FundingRow>();
    for (let page = 1; ; page++) {
      const answer = await client.ok<{ data: FundingRow[] }>('GET', '/v2/merchant/funding/records', { merchantId, pageSize: 1000, currentPage: page });
      for (const record of answer.data) records.set(record.txId, record);
      if (answer.data.length < 1000) break;
    }
    for (const [traceNumber, acked] of payments.arrivals) {
      expect(records.get(acked.txId), `arrival ${traceNumber}`).toMatchObject({ type: 'DEPOSIT', amount: acked.amount });
    }
    for (const [clientId, acked] of payments.claims) {
      expect(records.get(acked.txId), `claim ${clientId}`).toMatchObject({ type: 'WITHDRAW', amount: acked.amount, clientId });
    }
    const [traceNumber, arrival] = [...payments.arrivals][0] ?? [];
    if (traceNumber !== undefined && arrival !== undefined) {
      const again = await client.call('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: arrival.amount, traceNumber });
      expect([again.code, again.data]).toEqual([-1174, { txId: arrival.txId }]);
    }
    return [...records.values()];
  };

  /** B34, every page: the merchant's orders by id. */
  const listOrders = async (client: MerchantClient, merchantId: number, orderStatus?: number): Promise<Map<number, OrderRow>> => {
    const all = new Map<number, OrderRow>();
    for (let page = 1; ; page++) {
      const list = await client.ok<{ record: OrderRow[] }>('GET', '/v2/orders', { merchantId, pageSize: 1000, currentPage: page, ...(orderStatus === undefined ? {} : { orderStatus }) });
      for (const row of list.record) all.set(Number(row.orderId), row);
      if (list.record.length < 1000) return all;
    }
  };

  /** M's A31 rows of the order flow types, `asset flowType change` → count (A31 pages back by 100 rows). */
  const merchantFlows = async (ledger: SpotClient): Promise<Map<string, number>> => {
    const rows = new Map<string, number>();
    const { OTC_BUY_COIN, OTC_SELL_COIN, OTC_TRADE, OTC_FEE } = FLOW_TYPES;
    for (const flowType of [OTC_BUY_COIN, OTC_SELL_COIN, OTC_TRADE, OTC_FEE]) {
      for (let below: string | undefined; ; ) {
        const answer = await ledger.signed('GET', '/openapi/v1/balance_flow', { accountType: 1, accountIndex: 1, flowType, limit: 100, ...(below === undefined ? {} : { fromFlowId: below }) });
        expect(answer.status, answer.text).toBe(200);
        const page = answer.body as { id: string; tokenId: string; change: string }[];
        for (const flow of page) {
          const key = `${flow.tokenId} ${flowType} ${atto(flow.change)}`;
          rows.set(key, (rows.get(key) ?? 0) + 1);
        }
        if (page.length < 100) break;
        // The newest 100 below `fromFlowId`, listed oldest first: the next page is below the oldest.
        below = page.reduce((min, flow) => (BigInt(flow.id) < BigInt(min) ? flow.id : min), page[0].id);
      }
    }
    return rows;
  };

  /**
   * Every acknowledged payment order exists (B34, and B33 for those acknowledged this round) in a
   * status it could have reached from the last one acknowledged (docs/merchant-payments.md "Order statuses"); on-behalf orders whose
   * accept window passed, even while the server was down, are expired by the restarted scheduler;
   * M's flows hold each order's postings exactly once (settled at most once, and once if its status
   * says so) and its USDT is what released orders moved; and a deadline-bearing order still moves
   * forward once: docs/merchant-payments.md "The simulator and the sandbox API" expire (or release) works, and a second time is -5104. `recovered`: B34 read
   * first thing after the restart. Answers how many accept windows fired after the kill.
   */
  const expectOrdersRecovered = async (
    client: MerchantClient,
    ledger: SpotClient,
    merchantId: number,
    payments: PaymentAckLog,
    records: readonly FundingRow[],
    round: number,
    killedAt: number,
    recovered: ReadonlyMap<number, OrderRow>,
  ): Promise<number> => {
    expect(payments.conflicts).toEqual([]);
    const problems: string[] = [];
    for (const [orderId, acked] of payments.orders) {
      const row = recovered.get(orderId);
      if (row === undefined) problems.push(`order ${orderId} (acknowledged ${acked.status}) is missing from B34`);
      else if (row.orderType !== acked.kind || !mayMove(acked.kind, acked.status, row.orderStatus)) problems.push(`${acked.kind} order ${orderId} was acknowledged in ${acked.status}, is ${row.orderType} ${row.orderStatus}`);
    }
    for (const [orderId, acked] of [...payments.orders].filter(([, o]) => o.round === round)) {
      const detail = await client.call<{ orderStatus: number }>('GET', '/v2/order/detail', { orderId });
      if (detail.code !== 200 || !mayMove(acked.kind, acked.status, detail.data.orderStatus)) problems.push(`B33 of order ${orderId} (acknowledged ${acked.status}): ${detail.code} ${JSON.stringify(detail.data)}`);
    }
    expect(problems).toEqual([]);

    // Timers survive the kill: an order in 30 past its accept window is expired once the scheduler is re-armed.
    // The child's timers fire on their own: seen by reading the orders again until none is late.
    const late = async (): Promise<string[]> =>
      [...(await listOrders(client, merchantId, 30)).values()].filter((o) => Number(o.updateTime) + ACCEPT_WINDOW_MS + TIMER_SLACK_MS < Date.now()).map((o) => `${o.orderId} in 30 since ${o.updateTime}`);
    await expect.poll(late, { timeout: 5000, interval: 100 }).toEqual([]);
    const now = await listOrders(client, merchantId);
    // Orders expired with -7002 at or after the kill: nothing but the accept window's timer expires an order then (the
    // load has stopped, the documents window is a day), so their timer, set before the kill, fired in the restarted server.
    const fired = [...now.values()].filter((row) => (row.orderStatus === 70 || row.orderStatus === 71) && row.failCode === -7002 && Number(row.updateTime) >= killedAt).length;

    // Settled at most once: M's postings are exactly those the orders' statuses (and completed claims) call for.
    const claimFees = records.filter((r) => r.type === 'WITHDRAW' && r.status === 2).map((r) => r.fee);
    const expected = expectedMerchantFlows([...now.values()], claimFees);
    const actual = await merchantFlows(ledger);
    const differences = [...new Set([...expected.keys(), ...actual.keys()])].filter((key) => expected.get(key) !== actual.get(key)).map((key) => `${key}: expected ${expected.get(key) ?? 0}, found ${actual.get(key) ?? 0}`);
    expect(differences).toEqual([]);
    // M's USDT: the demo's 10000 plus what released on-ramps brought, minus what released off-ramps took.
    let usdt = 10_000n * 10n ** 18n;
    for (const o of now.values()) {
      if (o.orderStatus !== 60) continue;
      if (o.orderType === 'fiat_to_crypto') usdt += atto(o.cryptoAmount);
      if (o.orderType === 'crypto_to_fiat') usdt -= atto(o.cryptoAmount);
    }
    const assets = await client.ok<{ balances: { asset: string; total: string }[] }>('GET', '/v2/assets/account/assets', { merchantId });
    expect(atto(assets.balances.find((b) => b.asset === 'USDT')?.total ?? '0')).toBe(usdt);

    // A waiting order with a long timer moves forward once: 11/31 expire with -7002, f2c 40 and f2f 41 with -7004; a held off-ramp releases.
    const waiting = [...now.values()].filter((o) => [11, 31, 41].includes(o.orderStatus) || (o.orderType === 'fiat_to_crypto' && o.orderStatus === 40));
    const target = waiting[round % Math.max(1, waiting.length)];
    if (target !== undefined) {
      const orderId = Number(target.orderId);
      const expired = await client.ok<{ orderStatus: number; failCode: number }>('POST', `/sandbox/v2/orders/${orderId}/expire`);
      expect([orderId, expired.orderStatus, expired.failCode]).toEqual([orderId, target.orderType === 'fiat_to_fiat' ? 71 : 70, [11, 31].includes(target.orderStatus) ? -7002 : -7004]);
      expect((await client.call('POST', `/sandbox/v2/orders/${orderId}/expire`)).code).toBe(-5104);
      payments.ackOrder(orderId, target.orderType, expired.orderStatus, round, 'expire after restart');
      expiredOnce++;
    }
    // (One held off-ramp is left for later kills to find in 50.)
    const held = [...now.values()].filter((o) => o.orderType === 'crypto_to_fiat' && o.orderStatus === 50);
    if (held.length > 1) {
      const orderId = Number(held[0].orderId);
      expect((await client.ok<{ orderStatus: number }>('POST', `/sandbox/v2/orders/${orderId}/release`)).orderStatus).toBe(60);
      expect((await client.call('POST', `/sandbox/v2/orders/${orderId}/release`)).code).toBe(-5104);
      payments.ackOrder(orderId, 'crypto_to_fiat', 60, round, 'release after restart');
    }
    return fired;
  };

  const expectRecovered = async (server: ChildServer, traders: readonly Trader[], log: AckLog, round: number): Promise<void> => {
    expect(await findLostAcknowledgements(server.url, traders, log, round)).toEqual([]);
    const report = await verifyWithReplay(server.url, server.adminToken);
    expect(report, JSON.stringify(report)).toMatchObject({ ok: true, replay: { ok: true } });
    expect(report.replay?.replayHash).toBe(report.replay?.stateHash);
  };

  it('when the server is killed at random moments, then after each restart every acknowledged order and trade is there and the state equals a fresh replay', async () => {
    const random = seededRandom(SEED);
    const log = new AckLog();
    const payments = new PaymentAckLog();
    let recoveriesFromSnapshot = 0;
    let server = await start(0);
    const traders = [demoTrader(server.demo), await createFundedTrader(server.url, server.adminToken, 'second', SECOND_USER_FUNDS)];
    // Area B beside the orders: the demo merchant's arrivals and claims (tokens survive restarts).
    const merchantId = Number(server.demo.merchantId);
    const token = (await MerchantClient.connect(server.url, server.demo.merchantApiKey, server.demo.merchantSecretKey)).token;
    const merchantOn = (url: string): MerchantClient => new MerchantClient(url, token, server.demo.merchantApiKey);
    const beneficiaryId = (await merchantOn(server.url).ok<{ record: { id: number }[] }>('GET', '/v2/payments', { merchantId, status: 1 })).record[0].id;
    // Payment orders of the three kinds: a USD account and a WIRE beneficiary for global payments;
    // prices fixed for the user, as no market maker runs here; open orders pile up over the rounds.
    const setup = merchantOn(server.url);
    await setup.ok('POST', '/v2/merchant/accounts', { merchantId, fiat: 'USD', fieldList: BUSINESS_FIELDS });
    expect((await setup.ok<{ data: { status: number }[] }>('GET', '/v2/merchant/accounts', { merchantId, fiat: 'USD' })).data[0].status).toBe(2);
    const usdBeneficiaryId = (await setup.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 83, country: 'United States', fiat: 'USD', realName: 'John Smith', fieldJson: WIRE_BENEFICIARY })).id;
    await setup.ok('PUT', '/sandbox/v2/prices', { from: 'USDT', to: 'MXN', price: '19.0000' });
    await setup.ok('PUT', '/sandbox/v2/prices', { from: 'MXN', to: 'USD', price: '0.052000' });
    const config = await new AdminClient(server.url, server.adminToken).send('PATCH', '/payments/config', { maxOpenOrdersPerMerchant: 100_000, acceptWindowMs: ACCEPT_WINDOW_MS });
    expect(config.status, config.text).toBe(200);
    // M (the demo merchant's sub-account 1) read through the merchant user's main key.
    const ledgerOf = (url: string): SpotClient => new SpotClient(url, server.demo.merchantApiKey, server.demo.merchantSecretKey);
    /** Statuses recovered orders were found in after each kill (→ how many): the kills must have caught orders in every non-terminal one. */
    const caught = new Map<number, number>();
    /** On-behalf orders whose accept window passed around a kill and that the restarted scheduler expired. */
    let timersFired = 0;

    for (let round = 1; round <= ROUNDS; round++) {
      const killAfterMs = randomInt(random, KILL_AFTER_MS.min, KILL_AFTER_MS.max);
      const load = startOrderLoad({ url: server.url, traders, loops: LOOPS, seed: SEED + round, round, log });
      await merchantOn(server.url).ok('PUT', '/sandbox/v2/modes', ROUND_MODES[round]);
      const paymentLoad = startPaymentLoad({ client: merchantOn(server.url), merchantId, beneficiaryId, loops: 2, seed: SEED + round, round, log: payments, orders: { loops: ORDER_LOOPS, usdBeneficiaryId } });
      // The kill's moment is random on purpose: wall time the load runs for, not an event.
      await delay(killAfterMs);
      // On a loaded machine the load goes slower: the kill waits until the round has done enough
      // for the statuses below to be reached, whatever the machine's speed (at most 10 s: then the
      // kill comes anyway, and the checks below say what the round did not reach).
      await payments.until(() => roundOrders(payments, round) >= MIN_ORDERS_PER_ROUND, `${MIN_ORDERS_PER_ROUND} payment orders in round ${round}`, 10_000).catch(() => undefined);
      const killedAt = Date.now();
      const killed = server.kill('SIGKILL');
      load.stop();
      paymentLoad.stop();
      expect(await killed).toEqual({ code: null, signal: 'SIGKILL' });
      const outcome = await load.done;
      expect(outcome.malformed).toEqual([]);
      expect([...outcome.errorAnswers.keys()].filter((key) => key.startsWith('5'))).toEqual([]);
      expect((await paymentLoad.done).serverErrors).toBe(0);

      server = await start(round);
      const recovered = server.logLine('state recovered');
      if (Number(recovered?.snapshotSeq) > 0 && Number(recovered?.replayed) > 0) recoveriesFromSnapshot++;
      console.log(
        `round ${round}: ${outcome.acknowledged} commands acknowledged, ${outcome.connectionErrors} cut off, killed after ${killAfterMs} ms;` +
          ` recovered in ${Number(recovered?.ms).toFixed(1)} ms (snapshot at ${String(recovered?.snapshotSeq)}, replayed ${String(recovered?.replayed)}), serving after ${server.startMs.toFixed(0)} ms`,
      );
      // The orders as recovered, read first (an accept window may be running out): the statuses the kill caught them in.
      const recoveredOrders = await listOrders(merchantOn(server.url), merchantId);
      for (const order of recoveredOrders.values()) caught.set(order.orderStatus, (caught.get(order.orderStatus) ?? 0) + 1);
      await expectRecovered(server, traders, log, round);
      const records = await expectPaymentsRecovered(merchantOn(server.url), merchantId, payments);
      const fired = await expectOrdersRecovered(merchantOn(server.url), ledgerOf(server.url), merchantId, payments, records, round, killedAt, recoveredOrders);
      // An order whose accept window fired after the kill was in 30 when the kill came, even if it had expired before B34 was read.
      if (fired > 0) caught.set(30, (caught.get(30) ?? 0) + fired);
      timersFired += fired;

      if (CLEAN_RESTART_ROUNDS.has(round)) {
        const before = await Promise.all(traders.map((trader) => balancesOf(server.url, trader)));
        expect(await server.kill('SIGTERM')).toEqual({ code: 0, signal: null });
        server = await start(round);
        expect(server.logLine('state recovered')).toMatchObject({ replayed: 0 });
        expect(await Promise.all(traders.map((trader) => balancesOf(server.url, trader)))).toEqual(before);
      }
    }

    // The checks above are only as strong as the load: it must have traded, and recovery must have
    // gone through a snapshot followed by a replay.
    console.log(
      `in all: ${log.commands} commands acknowledged, ${log.orders.size} orders, ${log.fillCount} taker fills, ${payments.arrivals.size} arrivals, ${payments.claims.size} claims, ${payments.orders.size} payment orders` +
        ` (acknowledged in ${[...payments.statuses].sort().join(' ')}; found after the kills in ${[...caught].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')}),` +
        ` ${timersFired} accept windows passed during a kill and fired after it`,
    );
    expect(log.orders.size).toBeGreaterThan(0);
    expect(payments.arrivals.size).toBeGreaterThan(0);
    expect(payments.claims.size).toBeGreaterThan(0);
    // Orders were acknowledged in every status of docs/merchant-payments.md "Quotes and orders", kills caught them in every non-terminal one,
    // timers passed during a kill fired after it, and each restart moved a waiting order forward once.
    const missing = [...NON_TERMINAL, 60, 70, 71, 72].filter((status) => ![...payments.statuses].some((s) => s.endsWith(`:${status}`)));
    expect(missing, [...payments.statuses].sort().join(' ')).toEqual([]);
    expect(NON_TERMINAL.filter((status) => !caught.has(status))).toEqual([]);
    expect(timersFired).toBeGreaterThan(0);
    expect(expiredOnce).toBe(ROUNDS);
    expect([...payments.orders.values()].filter((o) => TERMINAL.has(o.status)).length).toBeGreaterThan(0);
    await expectRecovered(server, traders, log, ROUNDS);
    expect(log.fillCount).toBeGreaterThan(0);
    expect(recoveriesFromSnapshot).toBeGreaterThan(0);
  }, 90_000);
});
