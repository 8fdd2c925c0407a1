/**
 * The webhooks module (src/exchange/webhooks/webhooks-module.ts) through the core and the real
 * sequencer, without HTTP: registrations, the durable outbox written with each state change
 * (docs/webhooks.md "Registering", docs/webhooks.md "Answering, retries, order"), what a delivery worker may send, the outcome of each attempt, pause,
 * deletion and resend, and that images and replays rebuild exactly the same outbox.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { WebhookEventType } from '../../../src/core/webhook-commands.js';
import type { OrderRequest } from '../../../src/core/payment-commands.js';
import { restoreCore, serializeCore, stateHash } from '../../../src/exchange/snapshot.js';
import { eventIdOf, orderPayload, fundingPayload, type OutboxEvent } from '../../../src/payments/webhooks.js';
import type { ExchangeCore } from '../../../src/exchange/exchange-core.js';
import type { WebhookEventRow } from '../../../src/store/store.js';
import type { FundingRecord } from '../../../src/payments/model.js';
import type { PaymentOrder } from '../../../src/payments/orders.js';
import { recover } from '../../../src/exchange/recovery.js';
import { PaymentsCore } from '../../support/payments-core.js';

const URL_A = 'https://merchant.example/bourse';
const URL_B = 'https://merchant.example/bourse-v2';
const GAPS = [15_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 54_000_000];

const hexId = (name: string): string => createHash('sha256').update(name).digest('hex').slice(0, 32);

type AttemptResult = { eventId: string; status: string } | { dropped: string };

/** A merchant user with an MXN merchant, a desk holding USDT and a fixed USDT/MXN price for the user. */
async function world() {
  const h = new PaymentsCore();
  const { userId } = await h.setUp();
  const merchantId = await h.merchant(userId, 'Acme MX');
  const desk = h.core.payments.state.deskAccountId;
  await h.submit({ type: 'deposit', accountId: desk, asset: 'USDT', amount: '1000000', txId: 'desk-usdt' });
  await h.submit({ type: 'setPriceOverride', userId, from: 'USDT', to: 'MXN', price: '19.0000' });
  let arrivals = 0;
  const w = {
    h,
    userId,
    merchantId,
    async register(eventType: WebhookEventType, url = URL_A, owner = userId): Promise<string> {
      const webhookId = hexId(`${owner}:${eventType}:${h.now}`);
      const view = await h.submit({ type: 'registerWebhook', userId: owner, webhookId, eventType, url });
      expect(view).toEqual({ webhookId, eventType, url, status: 10 });
      return webhookId;
    },
    /** B29 on-ramp paid by SPEI; with review `approve` (the default) it is in 40 when this returns. */
    async onRamp(fiatAmount = '500.00'): Promise<number> {
      const order: OrderRequest = { kind: 'fiat_to_crypto', merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount, paymentId: 58 };
      return (await h.submit<{ orderId: number }>({ type: 'createPaymentOrder', userId, onBehalf: false, clientId: '', remark: '', quoteId: '', order })).orderId;
    },
    /** The exact pay-in of an on-ramp in 40: 50 then 60 in one command. */
    async pay(orderId: number): Promise<void> {
      const order = h.core.payments.state.orders.get(orderId);
      const amount = `${order?.fiatAmount.units.toString().slice(0, -2)}.${order?.fiatAmount.units.toString().slice(-2)}`;
      const result = await h.submit<{ result: string }>({ type: 'bankArrival', userId, merchantId, fiat: 'MXN', amount, reference: String(orderId), traceNumber: `pay-${orderId}`, payerName: '', payerAccount: '', cardNo: '', taxId: '', description: '' });
      expect(result.result).toBe('ORDER_PAID');
    },
    /** A bank arrival without reference: a DEPOSIT record (created 2 in mode `deposit: complete`); its txId. */
    async deposit(amount = '100.00'): Promise<number> {
      const n = ++arrivals;
      const result = await h.submit<{ result: string; txId: number }>({
        type: 'bankArrival', userId, merchantId, fiat: 'MXN', amount, reference: '', traceNumber: `dep-${n}`,
        payerName: 'CENTAURE SA DE CV', payerAccount: '684180168000000000', cardNo: '', taxId: 'CCN2203099WA', description: 'Payment',
      });
      expect(result.result).toBe('DEPOSIT');
      return result.txId;
    },
    /** One attempt's outcome as the delivery worker reports it; `error` "" = delivered. */
    attempt(eventId: string, attempt: number, error = '', url = URL_A): Promise<AttemptResult> {
      return h.submit<AttemptResult>({ type: 'webhookAttempt', eventId, attempt, url, time: h.now, httpStatus: error === '' ? 200 : error.startsWith('HTTP ') ? Number(error.slice(5)) : 0, durationMs: 3, error });
    },
    /** Event ids a worker may send now or later, in no particular order. */
    sendable(): string[] {
      return [...h.core.webhooks.sendable()].map((s) => s.event.eventId).sort();
    },
    /** Every stored event, oldest first. */
    stored(query: { objectId?: string; status?: string; webhookId?: string } = {}): WebhookEventRow[] {
      return h.store.listWebhookEvents({ ...query, offset: 0, limit: 1000 }).rows.sort((a, b) => a.eventNo - b.eventNo);
    },
    row(eventId: string): WebhookEventRow {
      const row = h.store.getWebhookEvent(eventId);
      if (row === undefined) throw new Error(`no stored event ${eventId}`);
      return row;
    },
    pending(eventId: string): OutboxEvent {
      const event = h.core.webhooks.pendingEvent(eventId);
      if (event === undefined) throw new Error(`event ${eventId} is not pending`);
      return event;
    },
    /** Event ids of one object, oldest first. */
    ids(objectId: number | string): string[] {
      return w.stored({ objectId: String(objectId) }).map((e) => e.eventId);
    },
  };
  return w;
}

const sendableSet = (core: ExchangeCore): string[] => [...core.webhooks.sendable()].map((s) => s.event.eventId).sort();

describe('webhooks module: recording (docs/webhooks.md "Registering")', () => {
  it('events are recorded only while a webhook of the type is active (10): none before it, none while disabled or after deletion, and no backfill', async () => {
    const w = await world();
    const before = await w.onRamp();
    await w.deposit();
    expect(w.stored()).toEqual([]);
    expect(w.h.core.webhooks.pendingCount).toBe(0);

    const orders = await w.register('ORDER_WEBHOOK');
    const first = await w.onRamp();
    // Creation (10) and the automatic approval (40), one event each; the earlier order and the deposit got none.
    expect(w.stored().map((e) => [e.objectId, e.objectStatus, e.eventType, e.webhookId, e.status])).toEqual([
      [String(first), '10', 'ORDER_WEBHOOK', orders, 'PENDING'],
      [String(first), '40', 'ORDER_WEBHOOK', orders, 'PENDING'],
    ]);
    // A funding record is not an order event: no FUNDING_WEBHOOK is registered.
    await w.deposit();
    // The earlier order's changes from now on are recorded (50 and 60 commit while the webhook is active); its past is not backfilled.
    await w.pay(before);
    expect(w.stored({ objectId: String(before) }).map((e) => e.objectStatus)).toEqual(['50', '60']);
    expect(w.stored()).toHaveLength(4);

    await w.h.submit({ type: 'updateWebhook', userId: w.userId, webhookId: orders, status: 20 });
    const whileDisabled = await w.onRamp();
    await w.pay(first);
    expect(w.ids(whileDisabled)).toEqual([]);
    expect(w.stored({ objectId: String(first) }).map((e) => e.objectStatus)).toEqual(['10', '40']);

    await w.h.submit({ type: 'updateWebhook', userId: w.userId, webhookId: orders, status: 10 });
    const again = await w.onRamp();
    expect(w.stored({ objectId: String(again) }).map((e) => e.objectStatus)).toEqual(['10', '40']);

    await w.h.submit({ type: 'deleteWebhook', userId: w.userId, webhookId: orders });
    const afterDelete = await w.onRamp();
    expect(w.ids(afterDelete)).toEqual([]);
    expect(w.stored()).toHaveLength(6);
  });

  it('each status passed is one event with the exact docs/webhooks.md "What is sent" body, written in the command that made the change; eventIds are 32 hex, distinct and derived from the webhook and its count', async () => {
    const w = await world();
    const orders = await w.register('ORDER_WEBHOOK');
    const funding = await w.register('FUNDING_WEBHOOK');
    const orderId = await w.onRamp('1000.00');
    await w.pay(orderId);
    const txId = await w.deposit('250.50');
    const events = w.stored();
    expect(events.map((e) => [e.eventType, e.objectId, e.objectStatus])).toEqual([
      ['ORDER_WEBHOOK', String(orderId), '10'],
      ['ORDER_WEBHOOK', String(orderId), '40'],
      ['ORDER_WEBHOOK', String(orderId), '50'],
      ['ORDER_WEBHOOK', String(orderId), '60'],
      ['FUNDING_WEBHOOK', String(txId), '2'],
    ]);
    for (const e of events) {
      expect(e.eventId).toMatch(/^[0-9a-f]{32}$/);
      const body = JSON.parse(e.payload) as Record<string, unknown>;
      expect(Object.keys(body).slice(0, 3)).toEqual(['webhookId', 'eventId', 'eventType']);
      expect([body.webhookId, body.eventId, body.eventType]).toEqual([e.webhookId, e.eventId, e.eventType]);
      expect(body[e.eventType === 'FUNDING_WEBHOOK' ? 'status' : 'orderStatus']).toBe(e.objectStatus);
      // Each body was fixed when its change committed: its updateTime is that command's time, the same as the event's.
      expect(body.updateTime).toBe(String(e.createTime));
    }
    expect(new Set(events.map((e) => e.eventId)).size).toBe(events.length);
    expect(events.filter((e) => e.webhookId === orders).map((e) => e.eventId)).toEqual([1, 2, 3, 4].map((n) => eventIdOf(orders, n)));
    expect(events.filter((e) => e.webhookId === funding).map((e) => e.eventId)).toEqual([eventIdOf(funding, 1)]);
    // The bodies of the last status of each object are exactly those of docs/webhooks.md "What is sent", byte for byte.
    const order = w.h.core.payments.state.orders.get(orderId);
    expect(order).toBeDefined();
    expect(events[3].payload).toBe(JSON.stringify({ webhookId: orders, eventId: events[3].eventId, eventType: 'ORDER_WEBHOOK', ...orderPayload(order as PaymentOrder) }));
    const record: FundingRecord = {
      txId, userId: w.userId, merchantId: w.merchantId, merchantName: 'Acme MX', clientId: '', orderId: '', fiat: 'MXN',
      totalAmount: 25050n, amount: 25050n, fee: 0n, accuracy: 2, userPaymentId: 0, type: 'DEPOSIT', status: 2, failReason: '',
      payer: { payerName: 'CENTAURE SA DE CV', payerAccount: '684180168000000000', cardNo: '', taxId: 'CCN2203099WA', description: 'Payment', traceNumber: 'dep-1' },
      createTime: events[4].createTime, updateTime: events[4].createTime,
    };
    expect(events[4].payload).toBe(JSON.stringify({ webhookId: funding, eventId: events[4].eventId, eventType: 'FUNDING_WEBHOOK', ...fundingPayload(record) }));
    const deposit = JSON.parse(events[4].payload) as Record<string, string>;
    expect(deposit).toMatchObject({ txId: String(txId), type: 'DEPOSIT', status: '2', amount: '250.50', payerName: 'CENTAURE SA DE CV', taxId: 'CCN2203099WA' });
    expect(JSON.parse(deposit.bankWebhookInfo)).toEqual({ sender_account_number: '684180168000000000', description: 'Payment', sender_name: 'CENTAURE SA DE CV', tracking_id: 'dep-1', sender_id: 'CCN2203099WA' });
    // The rows say what the memory says: pending, no attempt, due at once.
    for (const e of events) {
      const p = w.pending(e.eventId);
      expect([e.attempts, e.nextAttemptTime, e.deliveredTime]).toEqual([0, p.nextAttemptTime, 0]);
      expect(p.nextAttemptTime).toBe(e.createTime);
    }
    expect(w.h.core.webhooks.pendingCount).toBe(5);
  });

  it('a second webhook of the same type for the user is refused -1174 with the existing id, another user may register its own', async () => {
    const w = await world();
    const id = await w.register('ORDER_WEBHOOK');
    expect(await w.h.refusal({ type: 'registerWebhook', userId: w.userId, webhookId: hexId('other'), eventType: 'ORDER_WEBHOOK', url: URL_B })).toBe(-1174);
    await w.register('GLOBAL_PAYMENT_WEBHOOK');
    const { userId: other } = await w.h.submit<{ userId: number }>({ type: 'createUser', email: 'other@acme.mx', userType: 'merchant' });
    await w.register('ORDER_WEBHOOK', URL_B, other);
    expect(w.h.core.webhooks.activeWebhook(w.userId, 'ORDER_WEBHOOK')?.webhookId).toBe(id);
    // Updating or deleting another user's webhook: -5103.
    expect(await w.h.refusal({ type: 'updateWebhook', userId: other, webhookId: id, status: 20 })).toBe(-5103);
    expect(await w.h.refusal({ type: 'deleteWebhook', userId: other, webhookId: id })).toBe(-5103);
  });
});

describe('webhooks module: what may be sent, and outcomes (docs/webhooks.md "Answering, retries, order")', () => {
  it('sendable() yields only the head of each (webhook, object) queue; DELIVERED ends it and the next event of the object becomes sendable', async () => {
    const w = await world();
    await w.register('ORDER_WEBHOOK');
    await w.register('FUNDING_WEBHOOK');
    const a = await w.onRamp();
    const b = await w.onRamp();
    const tx = await w.deposit();
    const [a10, a40] = w.ids(a);
    const [b10] = w.ids(b);
    const [d2] = w.ids(tx);
    expect(w.sendable()).toEqual([a10, b10, d2].sort());
    // What the delivery worker asks of one event and of one object says the same.
    const webhooks = w.h.core.webhooks;
    expect([a10, a40, b10, d2].map((id) => webhooks.isSendable(w.pending(id)))).toEqual([true, false, true, true]);
    expect(webhooks.headOf(w.row(a40).webhookId, String(a))?.eventId).toBe(a10);
    expect(webhooks.headOf(w.row(a40).webhookId, '424242')).toBeUndefined();

    const sentAt = w.h.now;
    expect(await w.attempt(a10, 1)).toEqual({ eventId: a10, status: 'DELIVERED' });
    expect(w.h.core.webhooks.pendingEvent(a10)).toBeUndefined();
    expect(w.row(a10)).toMatchObject({ status: 'DELIVERED', attempts: 1, deliveredTime: sentAt, nextAttemptTime: 0 });
    expect(w.row(a10).deliveries).toEqual([{ attempt: 1, time: sentAt, url: URL_A, httpStatus: 200, durationMs: 3, result: 'SUCCESS', error: '' }]);
    expect(w.sendable()).toEqual([a40, b10, d2].sort());
    expect(webhooks.isSendable(w.pending(a40))).toBe(true);
    expect(webhooks.headOf(w.row(a40).webhookId, String(a))?.eventId).toBe(a40);

    // Paying a adds 50 and 60 behind 40: still only 40 of a.
    await w.pay(a);
    const [, , a50, a60] = w.ids(a);
    expect(w.sendable()).toEqual([a40, b10, d2].sort());
    await w.attempt(a40, 1);
    expect(w.sendable()).toEqual([a50, b10, d2].sort());
    await w.attempt(a50, 1);
    await w.attempt(a60, 1);
    await w.attempt(b10, 1);
    await w.attempt(d2, 1);
    expect(w.sendable()).toEqual([w.ids(b)[1]]);
    expect(w.h.core.webhooks.pendingCount).toBe(1);
  });

  it('a report with the wrong attempt number is {dropped} and changes nothing; so is one for an event that has ended', async () => {
    const w = await world();
    await w.register('ORDER_WEBHOOK');
    const [e10] = w.ids(await w.onRamp());
    const image = w.h.core.webhooks.image();
    expect(await w.attempt(e10, 2)).toEqual({ dropped: e10 });
    expect(await w.attempt(e10, 0, 'timeout')).toEqual({ dropped: e10 });
    expect(await w.attempt('0'.repeat(32), 1)).toEqual({ dropped: '0'.repeat(32) });
    expect(w.h.core.webhooks.image()).toEqual(image);
    expect(w.row(e10)).toMatchObject({ status: 'PENDING', attempts: 0, deliveries: [] });

    expect(await w.attempt(e10, 1, 'HTTP 500')).toEqual({ eventId: e10, status: 'PENDING' });
    // The same attempt reported twice (a worker's late duplicate): counted once.
    const afterOne = w.h.core.webhooks.image();
    expect(await w.attempt(e10, 1, '')).toEqual({ dropped: e10 });
    expect(w.h.core.webhooks.image()).toEqual(afterOne);
    expect(w.row(e10)).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect(w.row(e10).deliveries.map((d) => [d.attempt, d.result, d.error])).toEqual([[1, 'FAILED', 'HTTP 500']]);

    expect(await w.attempt(e10, 2)).toEqual({ eventId: e10, status: 'DELIVERED' });
    expect(await w.attempt(e10, 3)).toEqual({ dropped: e10 });
    expect(w.row(e10)).toMatchObject({ status: 'DELIVERED', attempts: 2 });
  });

  it('a failure schedules the next attempt gap k plus 0–10 % after the report (config.webhook.retryGapsMs); after attempt 8 the event is FAILED, gone, and the next of its object is sendable', async () => {
    const w = await world();
    await w.register('ORDER_WEBHOOK');
    const orderId = await w.onRamp();
    const [e10, e40] = w.ids(orderId);
    const errors = ['HTTP 500', 'timeout', 'connection error', 'callbackStatus FAIL', 'HTTP 404', 'HTTP 302', 'timeout'];
    for (let attempt = 1; attempt <= 7; attempt++) {
      expect(await w.attempt(e10, attempt, errors[attempt - 1])).toEqual({ eventId: e10, status: 'PENDING' });
      const ts = w.h.now;
      const gap = GAPS[attempt - 1];
      const next = w.pending(e10).nextAttemptTime;
      expect(next).toBeGreaterThanOrEqual(ts + gap);
      expect(next).toBeLessThanOrEqual(ts + gap * 1.1);
      expect(w.row(e10)).toMatchObject({ status: 'PENDING', attempts: attempt, nextAttemptTime: next });
      // Waiting for its retry, it is still the head: its object's next event is not sendable.
      expect(w.sendable()).toEqual([e10]);
      w.h.now = next;
    }
    expect(await w.attempt(e10, 8, 'HTTP 503')).toEqual({ eventId: e10, status: 'FAILED' });
    expect(w.h.core.webhooks.pendingEvent(e10)).toBeUndefined();
    expect(w.row(e10)).toMatchObject({ status: 'FAILED', attempts: 8, nextAttemptTime: 0, deliveredTime: 0 });
    expect(w.row(e10).deliveries.map((d) => d.attempt)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(w.row(e10).deliveries.every((d) => d.result === 'FAILED')).toBe(true);
    expect(w.sendable()).toEqual([e40]);
    expect(w.pending(e40).attempts).toBe(0);
  });

  it('the schedule follows the configuration: with two gaps of 100 and 200 ms the event FAILS after attempt 3', async () => {
    const w = await world();
    await w.h.submit({ type: 'setPaymentsConfig', patch: { webhook: { retryGapsMs: [100, 200] } } });
    await w.register('ORDER_WEBHOOK');
    const [e10] = w.ids(await w.onRamp());
    await w.attempt(e10, 1, 'timeout');
    let ts = w.h.now;
    expect(w.pending(e10).nextAttemptTime - ts).toBeGreaterThanOrEqual(100);
    expect(w.pending(e10).nextAttemptTime - ts).toBeLessThanOrEqual(110);
    await w.attempt(e10, 2, 'timeout');
    ts = w.h.now;
    expect(w.pending(e10).nextAttemptTime - ts).toBeGreaterThanOrEqual(200);
    expect(w.pending(e10).nextAttemptTime - ts).toBeLessThanOrEqual(220);
    expect(await w.attempt(e10, 3, 'timeout')).toEqual({ eventId: e10, status: 'FAILED' });
    expect(w.row(e10)).toMatchObject({ status: 'FAILED', attempts: 3 });
  });
});

describe('webhooks module: disable, delete, resend (docs/webhooks.md "Registering", B38, B39, B41)', () => {
  it('updateWebhook 20 pauses the pending events (not sendable, none recorded); 10 makes every one of them due now, back-off included; a URL change keeps the events', async () => {
    const w = await world();
    const orders = await w.register('ORDER_WEBHOOK');
    const a = await w.onRamp();
    const b = await w.onRamp();
    const [a10] = w.ids(a);
    const [b10] = w.ids(b);
    await w.attempt(a10, 1, 'HTTP 500');
    expect(w.pending(a10).nextAttemptTime).toBeGreaterThan(w.h.now + 10_000);

    expect(await w.h.submit({ type: 'updateWebhook', userId: w.userId, webhookId: orders, status: 20 })).toEqual({ webhookId: orders, eventType: 'ORDER_WEBHOOK', url: URL_A, status: 20 });
    expect(w.sendable()).toEqual([]);
    expect(w.h.core.webhooks.isSendable(w.pending(b10))).toBe(false);
    expect(w.h.core.webhooks.activeWebhook(w.userId, 'ORDER_WEBHOOK')).toBeUndefined();
    expect(w.h.core.webhooks.pendingCount).toBe(4);

    w.h.now += 1000;
    const view = await w.h.submit({ type: 'updateWebhook', userId: w.userId, webhookId: orders, status: 10, url: URL_B });
    const ts = w.h.now;
    expect(view).toEqual({ webhookId: orders, eventType: 'ORDER_WEBHOOK', url: URL_B, status: 10 });
    expect(w.sendable()).toEqual([a10, b10].sort());
    for (const id of [...w.ids(a), ...w.ids(b)]) {
      expect(w.pending(id).nextAttemptTime).toBe(ts);
      expect(w.row(id).nextAttemptTime).toBe(ts);
    }
    // The next attempt goes to the new URL with the same body.
    const sent = [...w.h.core.webhooks.sendable()].find((s) => s.event.eventId === a10);
    expect(sent?.webhook.url).toBe(URL_B);
    expect(w.pending(a10).attempts).toBe(1);
    expect(await w.attempt(a10, 2, '', URL_B)).toEqual({ eventId: a10, status: 'DELIVERED' });
    expect(w.row(a10).deliveries.map((d) => [d.attempt, d.url])).toEqual([[2, URL_B], [1, URL_A]]);
  });

  it('deleteWebhook ends every pending event FAILED ("webhook deleted", attempt 0); later reports are dropped; the type may be registered again', async () => {
    const w = await world();
    const orders = await w.register('ORDER_WEBHOOK');
    const funding = await w.register('FUNDING_WEBHOOK');
    const a = await w.onRamp();
    const tx = await w.deposit();
    const [a10, a40] = w.ids(a);
    await w.attempt(a10, 1, 'timeout');
    expect(await w.h.submit({ type: 'deleteWebhook', userId: w.userId, webhookId: orders })).toEqual({ result: true });
    expect(w.h.core.webhooks.pendingEvent(a10)).toBeUndefined();
    expect(w.h.core.webhooks.pendingEvent(a40)).toBeUndefined();
    for (const id of [a10, a40]) {
      const row = w.row(id);
      expect(row).toMatchObject({ status: 'FAILED', nextAttemptTime: 0 });
      expect(row.deliveries[0]).toMatchObject({ attempt: 0, result: 'FAILED', error: 'webhook deleted', httpStatus: 0 });
    }
    expect(w.row(a10).attempts).toBe(1);
    // The other webhook's event is untouched.
    expect(w.sendable()).toEqual(w.ids(tx));
    expect(w.h.core.webhooks.webhook(funding)?.status).toBe(10);
    expect(await w.attempt(a10, 2)).toEqual({ dropped: a10 });
    expect(await w.h.refusal({ type: 'updateWebhook', userId: w.userId, webhookId: orders, status: 10 })).toBe(-5103);
    expect(await w.h.refusal({ type: 'deleteWebhook', userId: w.userId, webhookId: orders })).toBe(-5103);
    // Its events cannot be resent: the webhook is deleted.
    const ended = { webhookId: orders, userId: w.userId, eventType: 'ORDER_WEBHOOK' as const, objectId: String(a), objectStatus: '10', attempts: 1, createTime: w.row(a10).createTime };
    expect(await w.h.refusal({ type: 'resendWebhookEvent', userId: w.userId, eventId: a10, ended })).toBe(-5103);
    expect(w.h.store.listWebhooks(w.userId, [30]).map((r) => r.webhookId)).toEqual([orders]);
    const again = await w.register('ORDER_WEBHOOK', URL_B);
    expect(again).not.toBe(orders);
    const [c10] = w.ids(await w.onRamp());
    expect(w.row(c10).webhookId).toBe(again);
    expect(c10).toBe(eventIdOf(again, 1));
  });

  it('resendWebhookEvent of an ended event (with `ended` from the store) brings it back due now, unqueued, same id and body, attempts continuing and a new schedule', async () => {
    const w = await world();
    await w.register('ORDER_WEBHOOK');
    const orderId = await w.onRamp();
    const [e10, e40] = w.ids(orderId);
    await w.attempt(e10, 1, 'HTTP 500');
    w.h.now += 20_000;
    await w.attempt(e10, 2);
    const delivered = w.row(e10);
    expect(delivered).toMatchObject({ status: 'DELIVERED', attempts: 2 });
    const payload = delivered.payload;

    // Without `ended`, an event the core no longer holds does not exist.
    expect(await w.h.refusal({ type: 'resendWebhookEvent', userId: w.userId, eventId: e10 })).toBe(-5103);
    const ended = { webhookId: delivered.webhookId, userId: delivered.userId, eventType: 'ORDER_WEBHOOK' as const, objectId: delivered.objectId, objectStatus: delivered.objectStatus, attempts: delivered.attempts, createTime: delivered.createTime };
    // Another user's event: -5103 too.
    expect(await w.h.refusal({ type: 'resendWebhookEvent', userId: w.userId + 1000, eventId: e10, ended })).toBe(-5103);

    expect(await w.h.submit({ type: 'resendWebhookEvent', userId: w.userId, eventId: e10, ended })).toEqual({ eventId: e10 });
    const ts = w.h.now;
    const event = w.pending(e10);
    expect(event).toMatchObject({ eventId: e10, attempts: 2, nextAttemptTime: ts, queued: false, resent: true, objectId: String(orderId), objectStatus: '10' });
    expect(w.row(e10)).toMatchObject({ status: 'PENDING', attempts: 2, nextAttemptTime: ts, deliveredTime: 0, payload });
    // Outside its object's order: 40 (the head) stays sendable beside it.
    expect(w.sendable()).toEqual([e10, e40].sort());

    // A failure after a resend starts the schedule again: the first gap (15 s), not the third.
    expect(await w.attempt(e10, 3, 'timeout')).toEqual({ eventId: e10, status: 'PENDING' });
    const gap = w.pending(e10).nextAttemptTime - w.h.now;
    expect(gap).toBeGreaterThanOrEqual(15_000);
    expect(gap).toBeLessThanOrEqual(16_500);
    expect(await w.attempt(e10, 4)).toEqual({ eventId: e10, status: 'DELIVERED' });
    expect(w.row(e10)).toMatchObject({ status: 'DELIVERED', attempts: 4, payload });
    expect(w.row(e10).deliveries.map((d) => d.attempt)).toEqual([4, 3, 2, 1]);
    // Its object's own queue was never held up, nor changed.
    expect(w.sendable()).toEqual([e40]);
  });

  it('a resend of a pending event that waits behind its object is sendable at once; a resend while the webhook is disabled is -5104', async () => {
    const w = await world();
    const orders = await w.register('ORDER_WEBHOOK');
    const orderId = await w.onRamp();
    await w.pay(orderId);
    const [e10, e40, e50, e60] = w.ids(orderId);
    expect(w.sendable()).toEqual([e10]);
    await w.h.submit({ type: 'resendWebhookEvent', userId: w.userId, eventId: e50 });
    expect(w.sendable()).toEqual([e10, e50].sort());
    expect(w.pending(e50)).toMatchObject({ queued: true, resent: true, nextAttemptTime: w.h.now });
    await w.attempt(e50, 1);
    // Delivered out of turn: it leaves its queue, whose order holds for the rest.
    expect(w.sendable()).toEqual([e10]);
    await w.attempt(e10, 1);
    expect(w.sendable()).toEqual([e40]);
    await w.attempt(e40, 1);
    expect(w.sendable()).toEqual([e60]);

    await w.h.submit({ type: 'updateWebhook', userId: w.userId, webhookId: orders, status: 20 });
    expect(await w.h.refusal({ type: 'resendWebhookEvent', userId: w.userId, eventId: e60 })).toBe(-5104);
    expect(w.pending(e60).resent).toBe(false);
  });
});

describe('webhooks module: images and replays', () => {
  /** A mixed outbox: delivered, failed and retried events, a resend, a disabled webhook, a deletion, several objects. */
  async function busy() {
    const w = await world();
    await w.register('ORDER_WEBHOOK');
    const funding = await w.register('FUNDING_WEBHOOK');
    const gp = await w.register('GLOBAL_PAYMENT_WEBHOOK');
    const a = await w.onRamp('700.00');
    const b = await w.onRamp('300.00');
    await w.pay(a);
    const tx1 = await w.deposit('10.00');
    const tx2 = await w.deposit('20.00');
    const [a10, a40] = w.ids(a);
    await w.attempt(a10, 1);
    await w.attempt(a40, 1, 'timeout');
    const [b10] = w.ids(b);
    await w.attempt(b10, 1);
    const ended = w.row(b10);
    await w.h.submit({ type: 'resendWebhookEvent', userId: w.userId, eventId: b10, ended: { webhookId: ended.webhookId, userId: ended.userId, eventType: 'ORDER_WEBHOOK', objectId: ended.objectId, objectStatus: ended.objectStatus, attempts: ended.attempts, createTime: ended.createTime } });
    await w.attempt(w.ids(tx1)[0], 1, 'HTTP 502');
    await w.h.submit({ type: 'updateWebhook', userId: w.userId, webhookId: funding, status: 20 });
    await w.h.submit({ type: 'deleteWebhook', userId: w.userId, webhookId: gp });
    await w.onRamp('400.00');
    expect(w.ids(tx2)).toHaveLength(1);
    return w;
  }

  it('image() and restore() round-trip: an equal image, the same pending events and the same sendable set; later commands go on alike', async () => {
    const w = await busy();
    const image = w.h.core.webhooks.image();
    expect(image.events.length).toBe(w.h.core.webhooks.pendingCount);
    expect(image.events.length).toBeGreaterThan(4);
    const restored = restoreCore(serializeCore(w.h.core));
    expect(restored.webhooks.image()).toEqual(image);
    expect(sendableSet(restored)).toEqual(sendableSet(w.h.core));
    expect(sendableSet(restored).length).toBeGreaterThan(2);
    for (const e of image.events) expect(restored.webhooks.pendingEvent(e.eventId)).toEqual(w.h.core.webhooks.pendingEvent(e.eventId));
    expect(stateHash(restored)).toBe(stateHash(w.h.core));
    // The image is a copy: changing it changes nothing in the module.
    image.events[0].attempts = 99;
    expect(w.h.core.webhooks.image().events[0].attempts).not.toBe(99);
    // A restored module keeps the per-user uniqueness and the event counts: the next events get the same ids.
    expect(restored.webhooks.activeWebhook(w.userId, 'ORDER_WEBHOOK')?.eventCount).toBe(w.h.core.webhooks.activeWebhook(w.userId, 'ORDER_WEBHOOK')?.eventCount);
    expect(restored.webhooks.activeWebhook(w.userId, 'FUNDING_WEBHOOK')).toBeUndefined();
    expect(restored.webhooks.eventsMade).toBe(w.h.core.webhooks.eventsMade);
  });

  it('replaying the journal from scratch (every stamped command, webhook attempts and resends included) gives the same state hash and the same outbox', async () => {
    const w = await busy();
    const replayed = recover(w.h.store, { ignoreSnapshots: true }).core;
    expect(stateHash(replayed)).toBe(stateHash(w.h.core));
    expect(w.h.replayHash()).toBe(stateHash(w.h.core));
    expect(replayed.webhooks.image()).toEqual(w.h.core.webhooks.image());
    expect(sendableSet(replayed)).toEqual(sendableSet(w.h.core));
    expect(w.h.verify().ok).toBe(true);
    // Every pending event in memory has its row, PENDING, with the same attempts and next attempt time.
    for (const e of w.h.core.webhooks.image().events) expect(w.row(e.eventId)).toMatchObject({ status: 'PENDING', attempts: e.attempts, nextAttemptTime: e.nextAttemptTime });
    // And every PENDING row is in memory.
    for (const row of w.stored({ status: 'PENDING' })) expect(w.h.core.webhooks.pendingEvent(row.eventId)).toBeDefined();
  });

  it('purgeWebhookEvents drops ended events (and their attempts) past the retention, keeps pending and recent ones', async () => {
    const w = await world();
    await w.register('ORDER_WEBHOOK');
    const orderId = await w.onRamp();
    const [e10, e40] = w.ids(orderId);
    await w.attempt(e10, 1);
    const endedAt = w.h.now;
    await w.h.submit({ type: 'purgeWebhookEvents' });
    expect(w.row(e10).status).toBe('DELIVERED');
    w.h.now = endedAt + 30 * 86_400_000;
    expect(await w.h.submit({ type: 'purgeWebhookEvents' })).toEqual({ purgedUpTo: w.h.now });
    expect(w.h.store.getWebhookEvent(e10)).toBeUndefined();
    expect(w.row(e40).status).toBe('PENDING');
    expect(w.h.replayHash()).toBe(stateHash(w.h.core));
  });
});
