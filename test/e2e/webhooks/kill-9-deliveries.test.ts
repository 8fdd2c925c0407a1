/**
 * kill -9 during webhook deliveries and during settlement (docs/webhooks.md "Answering, retries, order" durable outbox): the real
 * server runs as a child process on a kept data directory while payment orders of every kind are
 * driven and bank arrivals make funding records; a local receiver verifies every signature and
 * answers slowly, fails now and then, or times out; the server is SIGKILLed at random moments
 * and restarted on the same directory. Once it is up for good and the receiver is healthy, every
 * committed event has been delivered at least once, each copy byte-identical to the stored body
 * and signed with the deployment's key, none lost (each webhook's events are numbered without a
 * gap; every order's and record's statuses each have their event), and per object the statuses
 * arrived in order across the restarts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { eventIdOf } from '../../../src/payments/webhooks.js';
import type { OrderKind } from '../../../src/payments/orders.js';
import { startChildServer, type ChildServer } from '../../support/child-server.js';
import { AdminClient } from '../../support/clients.js';
import { BUSINESS_FIELDS, MerchantClient } from '../../support/merchant-client.js';
import { ORDER_EDGES } from '../../support/order-statuses.js';
import { PaymentAckLog, startPaymentLoad } from '../../support/payment-load.js';
import { WIRE_BENEFICIARY } from '../../support/payments-story.js';
import { randomInt, seededRandom } from '../../support/prng.js';
import { liftRateLimits } from '../../support/trading-setup.js';
import { WebhookReceiver, type EventRow, type Received, type Reply } from '../../support/webhook-receiver.js';

const SEED = 20_261_125;
const ROUNDS = 4;
const KILL_AFTER_MS = { min: 500, max: 1500 };
/** Snapshots every 50 commands in some lives (recovery loads the webhooks image, then replays); the core inline or in its worker. */
const LIVES: readonly Record<string, string>[] = [
  { BOURSE_SNAPSHOT_EVERY: '50', BOURSE_CORE_THREAD: 'worker' },
  { BOURSE_CORE_THREAD: 'inline' },
  { BOURSE_SNAPSHOT_EVERY: '50', BOURSE_CORE_THREAD: 'inline' },
  { BOURSE_SYNCHRONOUS: 'FULL', BOURSE_CORE_THREAD: 'worker' },
];
/** The merchant user's modes per round (index = round): automatic in some, manual review and payouts in others. */
const ROUND_MODES: readonly Record<string, string>[] = [
  {},
  { orderReview: 'approve', payout: 'success' },
  { orderReview: 'manual', payout: 'manual' },
  { orderReview: 'rfi', payout: 'fail' },
  { orderReview: 'documents', payout: 'manual' },
];
/** Short retries (the 15 s and up of docs/webhooks.md "Answering, retries, order" would outlast the test) and a short timeout, so failed attempts are retried within it. */
const WEBHOOK_SETTINGS = { retryGapsMs: [50, 50, 50, 50, 50, 50, 50], timeoutMs: 700 };
/** Longer than the timeout: the sender gives up first, and the reply finds the request gone. */
const TOO_SLOW_MS = 2000;
const EVENT_TYPES = ['ORDER_WEBHOOK', 'GLOBAL_PAYMENT_WEBHOOK', 'FUNDING_WEBHOOK'] as const;
const SUCCESS = '{"callbackStatus":"SUCCESS"}';
/** Transit time allowed between the sender's clock and the receiver's (a timeout is counted from the send, a reply from the arrival). */
const OVERLAP_SLACK_MS = 100;
/** How long the outbox may take to empty once the server is up for good. */
const DRAIN_TIMEOUT_MS = 40_000;

/** A B34 row, as far as the checks read it. */
interface OrderRow {
  orderId: string;
  orderType: OrderKind;
  orderStatus: number;
}

/** A B21 row, as far as the checks read it. */
interface FundingRow {
  txId: number;
  type: string;
  status: number;
}

/** One request the receiver got, with what it answered. */
interface Receipt {
  r: Received;
  /** The reply was one docs/webhooks.md "Answering, retries, order" counts as delivered (2xx SUCCESS or lenient), sent in time. */
  ok: boolean;
  /** When the reply was due (`at` + delay). */
  repliedAt: number;
}

/** Funding records: created 1 (pending) or 2 (completed); 1 → 2 or 3 (docs/merchant-payments.md "Lifecycles"). */
const FUNDING_STARTS = ['1', '2'];
const FUNDING_EDGES: Readonly<Record<string, readonly string[]>> = { '1': ['2', '3'] };

describe('kill -9 during webhook deliveries and settlement', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-webhooks-kill-'));
  let child: ChildServer | undefined;
  let receiver: WebhookReceiver | undefined;

  afterAll(async () => {
    await child?.kill('SIGKILL');
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (life: number): Promise<ChildServer> => {
    child = await startChildServer({ dataDir, env: LIVES[life % LIVES.length] });
    await liftRateLimits(child.url, child.adminToken);
    return child;
  };

  it('after every restart the outbox resumes: each committed event is delivered at least once, byte-identical and signed, none lost, per object in order', async () => {
    const startedAt = performance.now();
    const random = seededRandom(SEED);
    let server = await start(0);
    const admin = (): AdminClient => new AdminClient(server.url, server.adminToken);

    // The deployment's key (O22), the one every receiver configures; it must survive the restarts.
    const keyAnswer = await admin().send('GET', '/webhooks/public-key');
    expect(keyAnswer.status, keyAnswer.text).toBe(200);
    const publicKey = (keyAnswer.body as { publicKey: string }).publicKey;
    expect(publicKey).toMatch(/^[A-Za-z0-9+/]+=*$/);

    // The receiver: slow replies (so that kills catch deliveries in flight), failures now and then, timeouts.
    const replyRandom = seededRandom(SEED + 1);
    let healthy = false;
    const receipts: Receipt[] = [];
    const rx = await WebhookReceiver.start(publicKey);
    receiver = rx;
    rx.reply = (r: Received): Reply => {
      const draw = replyRandom();
      let reply: Reply;
      let ok = true;
      // 12 % of attempts fail: eight failures in a row (FAILED) are then too rare to happen.
      if (healthy || draw < 0.1) reply = { status: 200, body: SUCCESS };
      else if (draw < 0.84) reply = { status: 200, body: SUCCESS, delayMs: randomInt(replyRandom, 5, 150) };
      else if (draw < 0.88) reply = { status: 204, delayMs: randomInt(replyRandom, 0, 50) }; // lenient: delivered
      else if (draw < 0.92) [reply, ok] = [{ status: 500, body: '{"error":"busy"}', delayMs: randomInt(replyRandom, 0, 50) }, false];
      else if (draw < 0.94) [reply, ok] = [{ status: 200, body: '{"callbackStatus":"FAIL"}' }, false];
      else if (draw < 0.96) [reply, ok] = [{ status: 503 }, false];
      else [reply, ok] = [{ status: 200, body: SUCCESS, delayMs: TOO_SLOW_MS }, false];
      // The sender stops waiting at its timeout: past it the request is no longer in flight.
      receipts.push({ r, ok, repliedAt: r.at + Math.min(reply.delayMs ?? 0, WEBHOOK_SETTINGS.timeoutMs) });
      return reply;
    };

    // The demo merchant user: a USD account and a WIRE beneficiary for global payments, fixed prices, no cap on open orders.
    const merchantId = Number(server.demo.merchantId);
    const token = (await MerchantClient.connect(server.url, server.demo.merchantApiKey, server.demo.merchantSecretKey)).token;
    const merchantOn = (url: string): MerchantClient => new MerchantClient(url, token, server.demo.merchantApiKey);
    const setup = merchantOn(server.url);
    const beneficiaryId = (await setup.ok<{ record: { id: number }[] }>('GET', '/v2/payments', { merchantId, status: 1 })).record[0].id;
    await setup.ok('POST', '/v2/merchant/accounts', { merchantId, fiat: 'USD', fieldList: BUSINESS_FIELDS });
    const usdBeneficiaryId = (await setup.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 83, country: 'United States', fiat: 'USD', realName: 'John Smith', fieldJson: WIRE_BENEFICIARY })).id;
    await setup.ok('PUT', '/sandbox/v2/prices', { from: 'USDT', to: 'MXN', price: '19.0000' });
    await setup.ok('PUT', '/sandbox/v2/prices', { from: 'MXN', to: 'USD', price: '0.052000' });
    const config = await admin().send('PATCH', '/payments/config', { maxOpenOrdersPerMerchant: 100_000, webhook: WEBHOOK_SETTINGS });
    expect(config.status, config.text).toBe(200);

    /** B34 or B21, every page. */
    const everyPage = async <T>(client: MerchantClient, route: string, key: 'record' | 'data', params: Record<string, unknown> = {}): Promise<T[]> => {
      const all: T[] = [];
      for (let page = 1; ; page++) {
        const rows = (await client.ok<Record<string, T[]>>('GET', route, { ...params, pageSize: 1000, currentPage: page }))[key];
        all.push(...rows);
        if (rows.length < 1000) return all;
      }
    };
    // What existed before the webhooks: no event is owed for it (docs/webhooks.md "Registering", no backfill).
    const ordersBefore = new Set((await everyPage<OrderRow>(setup, '/v2/orders', 'record', { merchantId })).map((o) => o.orderId));
    const recordsBefore = new Set((await everyPage<FundingRow>(setup, '/v2/merchant/funding/records', 'data', { merchantId })).map((r) => r.txId));

    // B36: one webhook per type, all to the receiver; each answer shows the key O22 showed.
    const webhookIds = new Map<string, string>();
    const webhookOf = new Map<string, string>();
    for (const eventType of EVENT_TYPES) {
      const hook = await setup.ok<{ webhookId: string; status: number; publicKey: string }>('POST', '/v2/webhook', { eventType, url: rx.url });
      expect([hook.status, hook.publicKey]).toEqual([10, publicKey]);
      webhookIds.set(hook.webhookId, eventType);
      webhookOf.set(eventType, hook.webhookId);
    }

    const payments = new PaymentAckLog();
    /** Per round: the receiver's requests still unanswered when the kill came (deliveries in flight). */
    const inFlightAtKill: number[] = [];
    /** When each new life was spawned: no request it sends can arrive before. */
    const respawnedAt: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const killAfterMs = randomInt(random, KILL_AFTER_MS.min, KILL_AFTER_MS.max);
      await merchantOn(server.url).ok('PUT', '/sandbox/v2/modes', ROUND_MODES[round]);
      const load = startPaymentLoad({ client: merchantOn(server.url), merchantId, beneficiaryId, loops: 1, seed: SEED + round, round, log: payments, orders: { loops: 3, usdBeneficiaryId } });
      // The kill's moment is random on purpose: wall time the load runs for, not an event.
      await delay(killAfterMs);
      const killedAt = Date.now();
      const killed = server.kill('SIGKILL');
      load.stop();
      expect(await killed).toEqual({ code: null, signal: 'SIGKILL' });
      inFlightAtKill.push(receipts.filter((x) => x.r.at <= killedAt && x.repliedAt > killedAt).length);
      expect((await load.done).serverErrors).toBe(0);
      // The last life runs with a healthy receiver: what is left must now go through.
      if (round === ROUNDS) healthy = true;
      respawnedAt.push(Date.now());
      server = await start(round);
    }

    // The server is up for good: the outbox empties (O20: no event PENDING). The child's worker
    // sends on its own timers: the count is read again until it is 0.
    const drainStarted = Date.now();
    const pendingEvents = async (): Promise<number> => {
      const pending = await admin().send('GET', '/webhooks/events?status=PENDING&limit=1');
      expect(pending.status, pending.text).toBe(200);
      return (pending.body as { total: number }).total;
    };
    await expect.poll(pendingEvents, { timeout: DRAIN_TIMEOUT_MS, interval: 100, message: 'events still PENDING' }).toBe(0);
    const drainMs = Date.now() - drainStarted;
    const client = merchantOn(server.url);

    // Every event the store holds (B40, every page), and the objects they are about.
    const events = await everyPage<EventRow>(client, '/v2/webhook/events', 'record');
    const orders = (await everyPage<OrderRow>(client, '/v2/orders', 'record', { merchantId })).filter((o) => !ordersBefore.has(o.orderId));
    const records = (await everyPage<FundingRow>(client, '/v2/merchant/funding/records', 'data', { merchantId })).filter((r) => !recordsBefore.has(r.txId));
    const byId = new Map(events.map((e) => [e.eventId, e]));
    expect(byId.size).toBe(events.length);
    const o20Total = await admin().send('GET', '/webhooks/events?limit=1');
    expect((o20Total.body as { total: number }).total).toBe(events.length);

    // None lost: each webhook's events are its 1st, 2nd, … Nth, without a gap (an id is derived from the webhook and its count).
    const numberOf = new Map<string, number>();
    for (const webhookId of webhookIds.keys()) {
      const mine = events.filter((e) => e.webhookId === webhookId);
      for (let n = 1; n <= mine.length; n++) numberOf.set(eventIdOf(webhookId, n), n);
      const unnumbered = mine.filter((e) => !numberOf.has(e.eventId)).map((e) => e.eventId);
      expect(unnumbered, `events of ${webhookIds.get(webhookId)} outside 1..${mine.length}`).toEqual([]);
    }
    expect(events.every((e) => webhookIds.has(e.webhookId))).toBe(true);

    // Every event ended DELIVERED (the receiver never failed eight times in a row), with a body of its own.
    const problems: string[] = [];
    for (const e of events) {
      if (e.status !== 'DELIVERED') problems.push(`${e.eventId} (${e.eventType} ${e.objectId} → ${e.objectStatus}) is ${e.status}`);
      const body = JSON.parse(e.payload) as Record<string, unknown>;
      const objectKey = e.eventType === 'FUNDING_WEBHOOK' ? 'txId' : 'orderId';
      const statusKey = e.eventType === 'FUNDING_WEBHOOK' ? 'status' : 'orderStatus';
      if (body.eventId !== e.eventId || body.webhookId !== e.webhookId || body.eventType !== e.eventType || body[objectKey] !== e.objectId || body[statusKey] !== e.objectStatus) {
        problems.push(`${e.eventId}: body does not match its row: ${e.payload}`);
      }
    }
    expect(problems).toEqual([]);

    // What the receiver got: each copy verified with the published key, its bytes the stored body, its headers the event's.
    const copies = new Map<string, Receipt[]>();
    for (const x of receipts) {
      const eventId = String(x.r.headers['x-bh-event-id']);
      const list = copies.get(eventId) ?? [];
      list.push(x);
      copies.set(eventId, list);
      const e = byId.get(eventId);
      if (e === undefined) {
        problems.push(`received ${eventId}, which the store does not hold`);
        continue;
      }
      if (!x.r.verified) problems.push(`a copy of ${eventId} did not verify`);
      if (!x.r.raw.equals(Buffer.from(e.payload, 'utf8'))) problems.push(`a copy of ${eventId} differs from the stored body: ${x.r.raw.toString('utf8')}`);
      if (x.r.headers['x-bh-webhook-id'] !== e.webhookId || x.r.headers['x-bh-event-type'] !== e.eventType) problems.push(`a copy of ${eventId} has headers ${JSON.stringify(x.r.headers)}`);
    }
    expect(problems).toEqual([]);

    // At least once: every event has a copy the receiver acknowledged; the last attempt number sent is the one B40 counts.
    let duplicates = 0;
    let repeatedAttempts = 0;
    for (const e of events) {
      const got = copies.get(e.eventId) ?? [];
      if (!got.some((x) => x.ok)) problems.push(`${e.eventId} (${e.eventType} ${e.objectId} → ${e.objectStatus}) was never acknowledged by the receiver (${got.length} copies)`);
      const attemptsSent = got.map((x) => Number(x.r.headers['x-bh-delivery-attempt']));
      if (got.length > 0 && Math.max(...attemptsSent) !== e.attempts) problems.push(`${e.eventId}: attempts sent ${attemptsSent.join(',')}, B40 counts ${e.attempts}`);
      if (e.deliveries.filter((d) => d.result === 'SUCCESS').length !== 1) problems.push(`${e.eventId}: deliveries ${JSON.stringify(e.deliveries)}`);
      duplicates += Math.max(0, got.length - 1);
      // An attempt in flight at a kill is made again with the same number (docs/webhooks.md "Answering, retries, order"), but only then: within one life an
      // attempt is sent once, and the next only after its outcome committed.
      for (let i = 1; i < got.length; i++) {
        const earlier = got.slice(0, i).find((x) => x.r.headers['x-bh-delivery-attempt'] === got[i].r.headers['x-bh-delivery-attempt']);
        if (earlier === undefined) continue;
        repeatedAttempts++;
        if (!respawnedAt.some((t) => earlier.r.at < t && t <= got[i].r.at)) problems.push(`${e.eventId}: attempt ${String(got[i].r.headers['x-bh-delivery-attempt'])} sent twice without a restart between`);
      }
      // Within a life the next attempt waits for the outcome of the one before (docs/webhooks.md "Answering, retries, order": it commits first), so copies never overlap.
      for (let i = 1; i < got.length; i++) {
        const [a, b] = [got[i - 1], got[i]];
        const restarted = respawnedAt.some((t) => a.r.at < t && t <= b.r.at);
        if (!restarted && b.r.at < a.repliedAt - OVERLAP_SLACK_MS) problems.push(`${e.eventId}: attempt ${String(b.r.headers['x-bh-delivery-attempt'])} came ${a.repliedAt - b.r.at} ms before attempt ${String(a.r.headers['x-bh-delivery-attempt'])} was answered`);
      }
    }
    expect(problems).toEqual([]);

    // Per object, in order across the restarts: an event is first sent only after the one before it was acknowledged.
    const perObject = new Map<string, EventRow[]>();
    for (const e of events) {
      const key = `${e.webhookId}:${e.objectId}`;
      perObject.set(key, [...(perObject.get(key) ?? []), e]);
    }
    const indexOf = new Map(receipts.map((x, i) => [x, i]));
    for (const list of perObject.values()) list.sort((a, b) => (numberOf.get(a.eventId) ?? 0) - (numberOf.get(b.eventId) ?? 0));
    for (const [key, list] of perObject) {
      for (let i = 1; i < list.length; i++) {
        const previous = copies.get(list[i - 1].eventId) ?? [];
        const acknowledged = Math.min(...previous.filter((x) => x.ok).map((x) => indexOf.get(x) ?? Infinity));
        const first = Math.min(...(copies.get(list[i].eventId) ?? []).map((x) => indexOf.get(x) ?? Infinity));
        if (!(first > acknowledged)) problems.push(`${key}: status ${list[i].objectStatus} (request ${first}) went before ${list[i - 1].objectStatus} was acknowledged (request ${acknowledged})`);
      }
    }
    expect(problems).toEqual([]);

    // None lost, object by object: every order's events walk docs/merchant-payments.md "Order statuses" from creation to its status now, in the right type.
    for (const o of orders) {
      const list = perObject.get(`${webhookOf.get(o.orderType === 'fiat_to_fiat' ? 'GLOBAL_PAYMENT_WEBHOOK' : 'ORDER_WEBHOOK')}:${o.orderId}`) ?? [];
      const statuses = list.map((e) => Number(e.objectStatus));
      const walks = statuses.length > 0 && [10, 30].includes(statuses[0]) && statuses.every((s, i) => i === 0 || (ORDER_EDGES[o.orderType][statuses[i - 1]] ?? []).includes(s));
      if (!walks || statuses[statuses.length - 1] !== o.orderStatus) problems.push(`${o.orderType} order ${o.orderId} in ${o.orderStatus}: events ${statuses.join(' → ') || 'none'}`);
    }
    for (const [orderId, acked] of payments.orders) {
      if (ordersBefore.has(String(orderId))) continue;
      const type = acked.kind === 'fiat_to_fiat' ? 'GLOBAL_PAYMENT_WEBHOOK' : 'ORDER_WEBHOOK';
      if (!events.some((e) => e.eventType === type && e.objectId === String(orderId) && e.objectStatus === String(acked.status))) problems.push(`order ${orderId} was acknowledged in ${acked.status}: no event`);
    }
    // And every funding record's: created 1 or 2, then 1 → 2 or 3, ending in its status now.
    const fundingWebhook = webhookOf.get('FUNDING_WEBHOOK');
    for (const r of records) {
      const statuses = (perObject.get(`${fundingWebhook}:${r.txId}`) ?? []).map((e) => e.objectStatus);
      const walks = statuses.length > 0 && FUNDING_STARTS.includes(statuses[0]) && statuses.every((s, i) => i === 0 || (FUNDING_EDGES[statuses[i - 1]] ?? []).includes(s));
      if (!walks || statuses[statuses.length - 1] !== String(r.status)) problems.push(`${r.type} record ${r.txId} in ${r.status}: events ${statuses.join(' → ') || 'none'}`);
    }
    for (const [what, acked] of [...payments.arrivals, ...payments.claims]) {
      if (!records.some((r) => r.txId === acked.txId)) problems.push(`${what} (txId ${acked.txId}) was acknowledged but is not listed`);
    }
    // No event about an object the lists do not show.
    const objects = new Set([...orders.map((o) => o.orderId), ...records.map((r) => String(r.txId))]);
    for (const e of events) if (!objects.has(e.objectId)) problems.push(`event ${e.eventId} is about ${e.objectId}, which is not listed`);
    expect(problems).toEqual([]);

    // A resend (O21) after all the restarts: the same id, the same bytes and so the same signature, the next attempt number.
    const sample = events.find((e) => e.eventType === 'FUNDING_WEBHOOK') ?? events[0];
    const earlier = (copies.get(sample.eventId) ?? [])[0];
    const before = receipts.length;
    const resent = await admin().send('POST', `/webhooks/events/${sample.eventId}/resend`);
    expect(resent.status, resent.text).toBe(200);
    await rx.waitFor(before + 1);
    const again = receipts.slice(before).find((x) => x.r.headers['x-bh-event-id'] === sample.eventId);
    expect(again?.r.raw.equals(earlier.r.raw)).toBe(true);
    expect(again?.r.headers.signature).toBe(earlier.r.headers.signature);
    expect(again?.r.headers['x-bh-delivery-attempt']).toBe(String(sample.attempts + 1));
    expect(again?.r.verified).toBe(true);

    console.log(
      `webhooks kill -9: ${ROUNDS} kills (deliveries in flight at each: ${inFlightAtKill.join(', ')}), ${events.length} events (${orders.length} orders, ${records.length} funding records),` +
        ` ${receipts.length} requests received (${duplicates} duplicates, ${repeatedAttempts} attempts repeated after a kill, ${receipts.filter((x) => !x.ok).length} answered as failures),` +
        ` outbox empty ${drainMs} ms after the last start, ${((performance.now() - startedAt) / 1000).toFixed(1)} s in all`,
    );
    // The checks above are only as strong as the run: it must have made events of every type, failed attempts and retried them,
    // and killed the server while deliveries were in flight, whose attempts were then made again.
    for (const eventType of EVENT_TYPES) expect(events.filter((e) => e.eventType === eventType).length, eventType).toBeGreaterThan(0);
    expect(events.filter((e) => e.attempts > 1).length).toBeGreaterThan(0);
    expect(inFlightAtKill.reduce((s, n) => s + n, 0)).toBeGreaterThan(0);
    expect(repeatedAttempts).toBeGreaterThan(0);
    expect(orders.some((o) => o.orderStatus === 60)).toBe(true);
  }, 120_000);
});
