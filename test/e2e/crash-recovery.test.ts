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
import { MerchantClient } from '../support/merchant-client.js';
import { PaymentAckLog, startPaymentLoad } from '../support/payment-load.js';

const SEED = 20_260_601;
const ROUNDS = 5;
const LOOPS = 16;
const KILL_AFTER_MS = { min: 150, max: 900 };
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

describe('kill -9 under concurrent order load', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-crash-'));
  let child: ChildServer | undefined;

  afterAll(async () => {
    await child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (round: number): Promise<ChildServer> => {
    child = await startChildServer({ dataDir, env: LIVES[round % LIVES.length] });
    await liftRateLimits(child.url, child.adminToken);
    return child;
  };

  /** Every acknowledged arrival and claim is there exactly once, and a retry of one applies nothing. */
  const expectPaymentsRecovered = async (client: MerchantClient, merchantId: number, payments: PaymentAckLog): Promise<void> => {
    const records = new Map<number, { type: string; amount: string; clientId: string }>();
    for (let page = 1; ; page++) {
      const answer = await client.ok<{ data: { txId: number; type: string; amount: string; clientId: string }[] }>('GET', '/v2/merchant/funding/records', { merchantId, pageSize: 1000, currentPage: page });
      for (const record of answer.data) records.set(record.txId, record);
      if (answer.data.length < 1000) break;
    }
    for (const [traceNumber, acked] of payments.arrivals) {
      expect(records.get(acked.txId), `arrival ${traceNumber}`).toMatchObject({ type: 'DEPOSIT', amount: acked.amount });
    }
    for (const [clientId, acked] of payments.claims) {
      expect(records.get(acked.txId), `claim ${clientId}`).toMatchObject({ type: 'WITHDRAW', amount: acked.amount, clientId });
    }
    // Orders: each acknowledged one exists in a status it could have reached (an order acknowledged
    // paid is released, never reverted), and the crypto M received equals what released orders owe: paid once.
    let owed = 0n;
    for (const [orderId, acked] of payments.orders) {
      const detail = await client.ok<{ orderStatus: number; cryptoAmount: string }>('GET', '/v2/order/detail', { orderId });
      if (acked === 60) expect(detail.orderStatus, `order ${orderId}`).toBe(60);
      else expect([10, 40, 60, 70], `order ${orderId}`).toContain(detail.orderStatus);
    }
    for (let page = 1; ; page++) {
      const list = await client.ok<{ record: { orderStatus: number; cryptoAmount: string }[] }>('GET', '/v2/orders', { orderStatus: 60, pageSize: 1000, currentPage: page });
      for (const order of list.record) owed += BigInt(order.cryptoAmount.replace('.', ''));
      if (list.record.length < 1000) break;
    }
    const assets = await client.ok<{ balances: { asset: string; total: string }[] }>('GET', '/v2/assets/account/assets', { merchantId });
    const usdt = assets.balances.find((b) => b.asset === 'USDT')?.total ?? '0';
    // 10000 USDT of the demo, plus 4-decimal cryptoAmounts of released orders; area B shows 8 decimals.
    expect(BigInt(usdt.replace('.', ''))).toBe(10_000n * 10n ** 8n + owed * 10n ** 4n);
    const [traceNumber, arrival] = [...payments.arrivals][0] ?? [];
    if (traceNumber !== undefined && arrival !== undefined) {
      const again = await client.call('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: arrival.amount, traceNumber });
      expect([again.code, again.data]).toEqual([-1174, { txId: arrival.txId }]);
    }
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
    // Orders price at a fixed USDT/MXN (no market maker runs here); some wait for review in 10.
    await merchantOn(server.url).ok('PUT', '/sandbox/v2/prices', { from: 'USDT', to: 'MXN', price: '19.0000' });

    for (let round = 1; round <= ROUNDS; round++) {
      const killAfterMs = randomInt(random, KILL_AFTER_MS.min, KILL_AFTER_MS.max);
      const load = startOrderLoad({ url: server.url, traders, loops: LOOPS, seed: SEED + round, round, log });
      const paymentLoad = startPaymentLoad({ client: merchantOn(server.url), merchantId, beneficiaryId, loops: 2, seed: SEED + round, round, log: payments });
      await delay(killAfterMs);
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
      await expectRecovered(server, traders, log, round);
      await expectPaymentsRecovered(merchantOn(server.url), merchantId, payments);

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
      `in all: ${log.commands} commands acknowledged, ${log.orders.size} orders, ${log.fillCount} taker fills, ${payments.arrivals.size} arrivals, ${payments.claims.size} claims, ${payments.orders.size} payment orders`,
    );
    expect(log.orders.size).toBeGreaterThan(0);
    expect(payments.arrivals.size).toBeGreaterThan(0);
    expect(payments.claims.size).toBeGreaterThan(0);
    expect([...payments.orders.values()].filter((status) => status === 60).length).toBeGreaterThan(0);
    // Deadlines survive restarts: an order still waiting for its pay-in expires once, then -5104.
    let expired = 0;
    for (const orderId of [...payments.orders.keys()].reverse()) {
      const detail = await merchantOn(server.url).ok<{ orderStatus: number }>('GET', '/v2/order/detail', { orderId });
      if (detail.orderStatus !== 40) continue;
      expect((await merchantOn(server.url).ok<{ orderStatus: number; failCode: number }>('POST', `/sandbox/v2/orders/${orderId}/expire`)).failCode).toBe(-7004);
      expect((await merchantOn(server.url).call('POST', `/sandbox/v2/orders/${orderId}/expire`)).code).toBe(-5104);
      expired++;
      break;
    }
    expect(expired).toBe(1);
    await expectRecovered(server, traders, log, ROUNDS);
    expect(log.fillCount).toBeGreaterThan(0);
    expect(recoveriesFromSnapshot).toBeGreaterThan(0);
  }, 90_000);
});
