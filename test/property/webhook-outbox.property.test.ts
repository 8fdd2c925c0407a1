/**
 * Property: whatever story runs against the webhooks module (on-ramps created, reviewed, paid and
 * expired, bank deposits; webhooks registered, disabled, re-enabled with another URL, deleted and
 * registered again; a worker reporting attempts that succeed or fail, some late or duplicated;
 * resends of pending and ended events; the retry gaps changed; the clock moved on), then after
 * every step:
 *
 * - the outbox in memory and the store agree: an event is PENDING in the store exactly when the
 *   core holds it, with the same attempts and next attempt time;
 * - an event's body never changes once written, and names its own id, webhook and type;
 * - each webhook's events are its 1st, 2nd, … without a gap; new events belong to an active webhook;
 * - sendable() yields exactly: per (webhook, object) the earliest pending event still queued, plus
 *   every resent event, of active webhooks only, each once (docs/webhooks.md "Answering, retries, order" ordering, docs/webhooks.md "Registering" pause); isSendable()
 *   says the same of each event, and headOf() names each object's earliest queued event;
 * - a pending event belongs to a webhook that is not deleted (B39 ends them);
 *
 * and after every run a replay of the journal and a snapshot round trip reach the same state hash,
 * the same outbox image and the same sendable set.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Command } from '../../src/core/types.js';
import type { WebhookEventType } from '../../src/core/webhook-commands.js';
import { Refusal } from '../../src/core/refusal.js';
import { restoreCore, serializeCore, stateHash } from '../../src/exchange/snapshot.js';
import type { ExchangeCore } from '../../src/exchange/exchange-core.js';
import { eventIdOf } from '../../src/payments/webhooks.js';
import type { WebhookEventRow } from '../../src/store/store.js';
import { PaymentsCore } from '../support/payments-core.js';

const TYPES: readonly WebhookEventType[] = ['ORDER_WEBHOOK', 'FUNDING_WEBHOOK'];
const URLS = ['https://a.example/hook', 'https://b.example/hook'];
const ERRORS = ['HTTP 500', 'timeout', 'connection error', 'callbackStatus FAIL'];

type Op =
  | { kind: 'create'; cents: number }
  | { kind: 'review'; pick: number; decision: 'approve' | 'rfi' | 'reject' }
  | { kind: 'upload'; pick: number }
  | { kind: 'pay'; pick: number }
  | { kind: 'deposit'; cents: number }
  | { kind: 'modes'; manual: boolean }
  | { kind: 'attempt'; pick: number; ok: boolean; error: number; skew: 0 | 1 | -1 }
  | { kind: 'status'; type: number; status: 10 | 20; url: number }
  | { kind: 'delete'; type: number }
  | { kind: 'register'; type: number; url: number }
  | { kind: 'resend'; pick: number }
  | { kind: 'gaps'; gaps: number[] }
  | { kind: 'clock'; ms: number };

const pick = fc.nat();
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('create' as const), cents: fc.integer({ min: 10_000, max: 90_000 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('review' as const), pick, decision: fc.constantFrom('approve' as const, 'rfi' as const, 'reject' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('upload' as const), pick }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('pay' as const), pick }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('deposit' as const), cents: fc.integer({ min: 1, max: 100_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('modes' as const), manual: fc.boolean() }) },
  {
    weight: 14,
    arbitrary: fc.record({
      kind: fc.constant('attempt' as const),
      pick,
      ok: fc.boolean(),
      error: fc.nat({ max: ERRORS.length - 1 }),
      skew: fc.oneof({ weight: 8, arbitrary: fc.constant(0 as const) }, { weight: 1, arbitrary: fc.constant(1 as const) }, { weight: 1, arbitrary: fc.constant(-1 as const) }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('status' as const), type: fc.nat({ max: 1 }), status: fc.constantFrom(10 as const, 20 as const), url: fc.nat({ max: 1 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), type: fc.nat({ max: 1 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('register' as const), type: fc.nat({ max: 1 }), url: fc.nat({ max: 1 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('resend' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('gaps' as const), gaps: fc.array(fc.integer({ min: 1, max: 120_000 }), { minLength: 0, maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('clock' as const), ms: fc.constantFrom(10, 1_000, 20_000, 600_000, 1_900_000) }) },
);

/** The store's events, oldest first. */
function storedEvents(h: PaymentsCore): WebhookEventRow[] {
  return h.store.listWebhookEvents({ offset: 0, limit: 1000 }).rows.sort((a, b) => a.eventNo - b.eventNo);
}

const sendableIds = (core: ExchangeCore): string[] => [...core.webhooks.sendable()].map((s) => s.event.eventId).sort();

class World {
  readonly h = new PaymentsCore();
  userId = 0;
  merchantId = 0;
  /** Every webhook ever registered → its type. */
  readonly webhooks = new Map<string, WebhookEventType>();
  /** First body seen of each event. */
  readonly bodies = new Map<string, string>();
  private registrations = 0;
  /** Resends accepted. */
  resends = 0;
  private traces = 0;
  /** Events stored before the step: new ones must belong to an active webhook. */
  private known = 0;

  async setUp(): Promise<void> {
    const { userId } = await this.h.setUp();
    this.userId = userId;
    this.merchantId = await this.h.merchant(userId, 'Acme MX');
    await this.h.submit({ type: 'deposit', accountId: this.h.core.payments.state.deskAccountId, asset: 'USDT', amount: '10000000', txId: 'desk-usdt' });
    await this.h.submit({ type: 'setPriceOverride', userId, from: 'USDT', to: 'MXN', price: '19.0000' });
    await this.h.submit({ type: 'setMerchantLimits', userId, merchantId: this.merchantId, dayFiatLimit: '0', monthFiatLimit: '0', monthCryptoLimit: '0' });
    await this.h.submit({ type: 'setUserLimit', userId, monthLimit: '0' });
    for (const type of TYPES) await this.run({ kind: 'register', type: TYPES.indexOf(type), url: 0 });
  }

  /** Applies a command: true when accepted, false when refused; any other error fails the property. */
  async apply(command: Command): Promise<boolean> {
    try {
      await this.h.submit(command);
      return true;
    } catch (error) {
      if (error instanceof Refusal) return false;
      throw error;
    }
  }

  private orderIn(pickIndex: number, statuses: readonly number[]): number | undefined {
    const orders = [...this.h.core.payments.state.orders.values()].filter((o) => statuses.includes(o.status));
    return orders.length === 0 ? undefined : orders[pickIndex % orders.length].orderId;
  }

  private webhookOf(type: number): string | undefined {
    return [...this.webhooks].find(([id]) => this.h.core.webhooks.webhook(id) !== undefined && this.webhooks.get(id) === TYPES[type])?.[0];
  }

  async run(op: Op): Promise<void> {
    const { h, userId, merchantId } = this;
    switch (op.kind) {
      case 'create': {
        const fiatAmount = `${Math.floor(op.cents / 100)}.${String(op.cents % 100).padStart(2, '0')}`;
        await this.apply({ type: 'createPaymentOrder', userId, onBehalf: false, clientId: '', remark: '', quoteId: '', order: { kind: 'fiat_to_crypto', merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount, paymentId: 58 } });
        return;
      }
      case 'review': {
        const orderId = this.orderIn(op.pick, [10, 12]);
        if (orderId !== undefined) await this.apply({ type: 'reviewOrder', userId: 0, orderId, decision: op.decision });
        return;
      }
      case 'upload': {
        const orderId = this.orderIn(op.pick, [11, 31]);
        if (orderId !== undefined) await this.apply({ type: 'attachDocuments', userId, orderId, kind: 'fiat_to_crypto', files: [{ name: 'a.pdf', size: 10, sha256: '0'.repeat(64), contentType: 'application/pdf' }] });
        return;
      }
      case 'pay': {
        const orderId = this.orderIn(op.pick, [40]);
        const order = orderId === undefined ? undefined : h.core.payments.state.orders.get(orderId);
        if (order === undefined) return;
        const units = order.fiatAmount.units.toString().padStart(3, '0');
        const amount = `${units.slice(0, -2)}.${units.slice(-2)}`;
        await this.apply({ type: 'bankArrival', userId, merchantId, fiat: 'MXN', amount, reference: String(orderId), traceNumber: `t${++this.traces}`, payerName: '', payerAccount: '', cardNo: '', taxId: '', description: '' });
        return;
      }
      case 'deposit': {
        const amount = `${Math.floor(op.cents / 100)}.${String(op.cents % 100).padStart(2, '0')}`;
        await this.apply({ type: 'bankArrival', userId, merchantId, fiat: 'MXN', amount, reference: '', traceNumber: `t${++this.traces}`, payerName: 'P', payerAccount: '1', cardNo: '', taxId: 'X', description: 'd' });
        return;
      }
      case 'modes':
        await this.apply({ type: 'setSandboxModes', userId, modes: { orderReview: op.manual ? 'manual' : 'approve' } });
        return;
      case 'attempt': {
        // A worker's report: mostly of an event it may send now, with the next attempt number; now and then a late or early one.
        const sendable = [...h.core.webhooks.sendable()];
        const pending = h.core.webhooks.image().events;
        const chosen = op.skew === 0 ? sendable[op.pick % Math.max(1, sendable.length)]?.event : pending[op.pick % Math.max(1, pending.length)];
        if (chosen === undefined) return;
        const before = chosen.attempts;
        const attempt = chosen.attempts + 1 + op.skew;
        const url = h.core.webhooks.webhook(chosen.webhookId)?.url ?? URLS[0];
        const error = op.ok ? '' : ERRORS[op.error];
        const result = await h.submit<{ eventId: string; status: string } | { dropped: string }>({ type: 'webhookAttempt', eventId: chosen.eventId, attempt, url, time: h.now, httpStatus: op.ok ? 200 : 0, durationMs: 1, error });
        if (op.skew !== 0) {
          expect(result).toEqual({ dropped: chosen.eventId });
          expect(h.core.webhooks.pendingEvent(chosen.eventId)?.attempts).toBe(before);
        } else if (op.ok) {
          expect(result).toEqual({ eventId: chosen.eventId, status: 'DELIVERED' });
        } else {
          expect(['PENDING', 'FAILED']).toContain((result as { status: string }).status);
          const after = h.core.webhooks.pendingEvent(chosen.eventId);
          if (after !== undefined) {
            // docs/webhooks.md "Answering, retries, order": the next attempt one gap (plus 0–10 %) after the report.
            const gap = h.core.payments.config.webhook.retryGapsMs[after.attempts - after.scheduleBase - 1];
            expect(after.nextAttemptTime - h.now).toBeGreaterThanOrEqual(gap);
            expect(after.nextAttemptTime - h.now).toBeLessThanOrEqual(gap * 1.1);
          }
        }
        return;
      }
      case 'status': {
        const webhookId = this.webhookOf(op.type);
        if (webhookId === undefined) return;
        const was = h.core.webhooks.webhook(webhookId)?.status;
        expect(await this.apply({ type: 'updateWebhook', userId, webhookId, status: op.status, url: URLS[op.url] })).toBe(true);
        expect(h.core.webhooks.webhook(webhookId)).toMatchObject({ status: op.status, url: URLS[op.url] });
        // docs/webhooks.md "Registering": re-enabled, its paused events resume at once.
        if (was === 20 && op.status === 10) for (const e of h.core.webhooks.image().events.filter((x) => x.webhookId === webhookId)) expect(e.nextAttemptTime).toBe(h.now);
        return;
      }
      case 'delete': {
        const webhookId = this.webhookOf(op.type);
        if (webhookId === undefined) return;
        expect(await this.apply({ type: 'deleteWebhook', userId, webhookId })).toBe(true);
        for (const row of storedEvents(h).filter((e) => e.webhookId === webhookId)) expect(row.status).not.toBe('PENDING');
        return;
      }
      case 'register': {
        const webhookId = eventIdOf('webhook', ++this.registrations);
        const existing = this.webhookOf(op.type);
        const accepted = await this.apply({ type: 'registerWebhook', userId, webhookId, eventType: TYPES[op.type], url: URLS[op.url] });
        // One non-deleted webhook per (user, type): -1174 while one exists.
        expect(accepted).toBe(existing === undefined);
        if (accepted) this.webhooks.set(webhookId, TYPES[op.type]);
        return;
      }
      case 'resend': {
        // As B41's edge does: the core's pending event, or the store's row of an ended one.
        const rows = storedEvents(h);
        const row = rows[op.pick % Math.max(1, rows.length)];
        if (row === undefined) return;
        const pendingBefore = h.core.webhooks.pendingEvent(row.eventId);
        const ended = pendingBefore === undefined ? { webhookId: row.webhookId, userId: row.userId, eventType: row.eventType as WebhookEventType, objectId: row.objectId, objectStatus: row.objectStatus, attempts: row.attempts, createTime: row.createTime } : undefined;
        const webhook = h.core.webhooks.webhook(row.webhookId);
        const accepted = await this.apply({ type: 'resendWebhookEvent', userId, eventId: row.eventId, ...(ended === undefined ? {} : { ended }) });
        // Refused exactly when its webhook is deleted or disabled.
        expect(accepted).toBe(webhook !== undefined && webhook.status === 10);
        if (accepted) {
          this.resends++;
          expect(h.core.webhooks.pendingEvent(row.eventId)).toMatchObject({ resent: true, nextAttemptTime: h.now, attempts: row.attempts });
          expect(sendableIds(h.core)).toContain(row.eventId);
        }
        return;
      }
      case 'gaps':
        await this.apply({ type: 'setPaymentsConfig', patch: { webhook: { retryGapsMs: op.gaps } } });
        return;
      case 'clock': {
        h.now += op.ms;
        for (const due of h.core.deadlines().filter((d) => d.at <= h.now)) await this.apply(due.command);
        return;
      }
    }
  }

  /** The invariants of the module's docblock, after one step. */
  check(step: number): void {
    const { h } = this;
    const core = h.core;
    const rows = storedEvents(h);
    const at = `after step ${step}`;
    // Memory and store agree on what is pending.
    const pending = core.webhooks.image().events;
    expect(rows.filter((r) => r.status === 'PENDING').map((r) => r.eventId).sort(), at).toEqual(pending.map((e) => e.eventId).sort());
    expect(core.webhooks.pendingCount).toBe(pending.length);
    for (const e of pending) {
      const row = rows.find((r) => r.eventId === e.eventId);
      expect([row?.attempts, row?.nextAttemptTime], at).toEqual([e.attempts, e.nextAttemptTime]);
      // B39 ends every pending event of the webhook it deletes.
      expect(core.webhooks.webhook(e.webhookId), at).toBeDefined();
    }
    for (const r of rows) expect(['PENDING', 'DELIVERED', 'FAILED']).toContain(r.status);
    // Bodies never change and name their own event.
    for (const r of rows) {
      const first = this.bodies.get(r.eventId);
      if (first === undefined) {
        const body = JSON.parse(r.payload) as Record<string, unknown>;
        expect([body.webhookId, body.eventId, body.eventType], at).toEqual([r.webhookId, r.eventId, r.eventType]);
        this.bodies.set(r.eventId, r.payload);
      } else {
        expect(r.payload, at).toBe(first);
      }
    }
    // Each webhook's events are numbered without a gap; new events come from an active webhook.
    for (const webhookId of this.webhooks.keys()) {
      const mine = rows.filter((r) => r.webhookId === webhookId).map((r) => r.eventId);
      expect(mine, at).toEqual(mine.map((_, i) => eventIdOf(webhookId, i + 1)));
    }
    for (const r of rows.slice(this.known)) expect(core.webhooks.webhook(r.webhookId)?.status, `${at}: event ${r.eventId} of an inactive webhook`).toBe(10);
    this.known = rows.length;
    // sendable(): per (webhook, object) the earliest queued pending event, plus resent ones, of active webhooks, each once.
    const yielded = [...core.webhooks.sendable()];
    const ids = yielded.map((s) => s.event.eventId);
    expect(new Set(ids).size, at).toBe(ids.length);
    const expected = new Set<string>();
    const heads = new Map<string, string>();
    for (const e of [...pending].sort((a, b) => a.eventNo - b.eventNo)) {
      if (core.webhooks.webhook(e.webhookId)?.status !== 10) continue;
      const key = `${e.webhookId}:${e.objectId}`;
      if (e.queued && !heads.has(key)) {
        heads.set(key, e.eventId);
        expected.add(e.eventId);
      }
      if (e.resent) expected.add(e.eventId);
    }
    expect(ids.sort(), at).toEqual([...expected].sort());
    for (const s of yielded) expect(s.webhook.webhookId).toBe(s.event.webhookId);
    // What the delivery worker asks of one event or one object agrees with sendable().
    for (const e of pending) {
      expect(core.webhooks.isSendable(e), `${at}: isSendable(${e.eventId})`).toBe(expected.has(e.eventId));
      const earliest = [...pending].filter((x) => x.queued && x.webhookId === e.webhookId && x.objectId === e.objectId).sort((a, b) => a.eventNo - b.eventNo)[0];
      expect(core.webhooks.headOf(e.webhookId, e.objectId)?.eventId, at).toBe(earliest?.eventId);
    }
  }
}

describe('property: the webhook outbox', () => {
  it('when orders, deposits, attempts, pauses, deletions and resends interleave, then memory and store agree, bodies never change, ids have no gap, only heads and resends are sendable, and replays agree', async () => {
    let runs = 0;
    let delivered = 0;
    let failed = 0;
    let resends = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 40, maxLength: 120, size: 'max' }), async (ops) => {
        const w = new World();
        await w.setUp();
        w.check(0);
        for (let i = 0; i < ops.length; i++) {
          await w.run(ops[i]);
          w.check(i + 1);
        }
        // A replay of the journal and a snapshot round trip rebuild the same outbox.
        const hash = stateHash(w.h.core);
        expect(w.h.replayHash()).toBe(hash);
        const restored = restoreCore(serializeCore(w.h.core));
        expect(stateHash(restored)).toBe(hash);
        expect(restored.webhooks.image()).toEqual(w.h.core.webhooks.image());
        expect(sendableIds(restored)).toEqual(sendableIds(w.h.core));
        const rows = storedEvents(w.h);
        runs++;
        delivered += rows.filter((r) => r.status === 'DELIVERED').length;
        failed += rows.filter((r) => r.status === 'FAILED').length;
        resends += w.resends;
      }),
      { seed: 20_261_125, numRuns: 40 },
    );
    console.log(`webhook outbox property: ${runs} runs, ${delivered} events delivered, ${failed} failed, ${resends} resends`);
    // The runs must have reached the interesting outcomes.
    expect(runs).toBe(40);
    expect(delivered).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(0);
    expect(resends).toBeGreaterThan(0);
  }, 120_000);
});
