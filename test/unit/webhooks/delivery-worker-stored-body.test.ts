/**
 * The delivery worker (src/webhooks/delivery-worker.ts) when an event's exact body must be read
 * from the store and the store answers later, as PostgreSQL does: the event is in flight while it
 * is read (no second attempt of it starts), its object's next event waits for its outcome, a body
 * found missing is dropped as before, and a failed read is retried later, not at once.
 * The core, the sequencer and the SQLite store are real; the worker starts after the events were
 * committed (as after a restart), so no commit it saw carried their bodies.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderRequest } from '../../../src/core/payment-commands.js';
import type { Command } from '../../../src/core/types.js';
import { ExchangeCore } from '../../../src/exchange/exchange-core.js';
import { Sequencer } from '../../../src/exchange/sequencer.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { WebhookDeliveryWorker } from '../../../src/webhooks/delivery-worker.js';
import type { DeliveryRequest } from '../../../src/webhooks/sender.js';
import { T0 } from '../../support/core-harness.js';
import { setUpWebhookMerchant } from '../../support/webhook-merchant.js';
import { Watch } from '../../support/watch.js';

const URL = 'https://merchant.example/bourse';
const WEBHOOK_ID = '0123456789abcdef0123456789abcdef';
/** The worker's wait after an attempt it could not make or record (UNRECORDED_RETRY_MS). */
const RETRY_MS = 5_000;
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

/** A body read the test answers when it chooses. */
interface PendingRead {
  eventId: string;
  answer: (payload: string | undefined) => void;
  fail: (error: Error) => void;
}

const workers: WebhookDeliveryWorker[] = [];
afterEach(() => {
  for (const worker of workers.splice(0)) worker.stop();
});

/** A merchant with an ORDER_WEBHOOK and one on-ramp order: its two events (created 10, approved 40) are pending, for one object. */
async function world() {
  const store = openSqliteStore({ path: ':memory:', synchronous: 'NORMAL' });
  const core = new ExchangeCore();
  let now = T0;
  let worker: WebhookDeliveryWorker | undefined;
  const sequencer = new Sequencer({ store, applier: core, clock: () => now, onCommit: (info) => worker?.onCommit(info) });
  const submit = <T = unknown>(command: Command): Promise<T> => {
    now += 1;
    return sequencer.submit(command) as Promise<T>;
  };
  const { userId, merchantId } = await setUpWebhookMerchant(core, submit, WEBHOOK_ID, URL);
  const order: OrderRequest = { kind: 'fiat_to_crypto', merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '500.00', paymentId: 58 };
  await submit({ type: 'createPaymentOrder', userId, onBehalf: false, clientId: '', remark: '', quoteId: '', order });
  const [created, approved] = store
    .listWebhookEvents({ offset: 0, limit: 10 })
    .rows.sort((a, b) => a.eventNo - b.eventNo)
    .map((row) => row.eventId);
  expect([created, approved].every((id) => core.webhooks.pendingEvent(id) !== undefined)).toBe(true);

  const watch = new Watch();
  const reads: PendingRead[] = [];
  const sent: DeliveryRequest[] = [];
  const errors: unknown[] = [];
  /** Starts the worker, as a server does after recovery. */
  const start = (): WebhookDeliveryWorker => {
    worker = new WebhookDeliveryWorker({
      core,
      history: {
        webhookPayload: (eventId) =>
          new Promise<string | undefined>((answer, fail) => {
            reads.push({ eventId, answer, fail });
            watch.changed();
          }),
      },
      submit: (command) => submit(command).finally(() => watch.changed()),
      send: (request) => {
        sent.push(request);
        watch.changed();
        return Promise.resolve({ httpStatus: 200, durationMs: 1, error: '' });
      },
      privateKey,
      sandbox: true,
      clock: () => now,
      onError: (error) => errors.push(error),
    });
    workers.push(worker);
    worker.start();
    return worker;
  };
  const storedBody = (eventId: string): string => store.webhookPayload(eventId) ?? '';
  const sentIds = (): string[] => sent.map((request) => request.headers['X-BH-Event-Id']);
  return {
    core, created, approved, watch, reads, sent, errors, start, storedBody, sentIds,
    advance: (ms: number) => (now += ms),
  };
}

describe('delivery worker: an exact body read from the store', () => {
  it('when the body is awaited, then the event is in flight once: pumping again starts no second read nor attempt', async () => {
    const w = await world();
    const worker = w.start();
    expect(w.reads.map((read) => read.eventId)).toEqual([w.created]);
    expect(worker.busy).toBe(1);

    for (let i = 0; i < 3; i++) worker.pump();
    w.advance(60_000);
    worker.pump();
    expect(w.reads.map((read) => read.eventId)).toEqual([w.created]);
    expect(w.sent).toEqual([]);

    w.reads[0].answer(w.storedBody(w.created));
    await w.watch.until(() => w.core.webhooks.pendingEvent(w.created) === undefined, 'the first event delivered');
    expect(w.sentIds()).toEqual([w.created]);
    expect(w.sent[0].body.toString('utf8')).toBe(w.storedBody(w.created));
    expect(w.sent[0].headers['X-BH-Delivery-Attempt']).toBe('1');
  });

  it("when the first event's body is awaited, then its object's next event waits until the first one's outcome has committed (a worker that did not see them made knows only the core's order)", async () => {
    const w = await world();
    const worker = w.start();
    expect(w.reads.map((read) => read.eventId)).toEqual([w.created]);

    w.reads[0].answer(w.storedBody(w.created));
    // The next event is read only once the first one ended: its delivery committed.
    await w.watch.until(() => w.reads.length === 2, 'the next event read');
    expect(w.core.webhooks.pendingEvent(w.created)).toBeUndefined();
    expect(w.reads[1].eventId).toBe(w.approved);
    expect(w.sentIds()).toEqual([w.created]);

    w.reads[1].answer(w.storedBody(w.approved));
    await w.watch.until(() => w.core.webhooks.pendingEvent(w.approved) === undefined, 'the next event delivered');
    expect(w.sentIds()).toEqual([w.created, w.approved]);
    await worker.idle();
  });

  it('when the body is found missing, then nothing is sent, the slot is free and the event is not read again until it changes', async () => {
    const w = await world();
    const worker = w.start();
    w.reads[0].answer(undefined);
    await worker.idle();
    expect(worker.busy).toBe(0);

    w.advance(60_000);
    worker.pump();
    expect(w.reads.map((read) => read.eventId)).toEqual([w.created]);
    expect(w.sent).toEqual([]);
    expect(w.errors).toEqual([]);
  });

  it('when the read fails, then the error is reported and the same attempt is made later, not at once', async () => {
    const w = await world();
    const worker = w.start();
    const failure = new Error('connection to the database lost');
    w.reads[0].fail(failure);
    await worker.idle();
    expect(w.errors).toEqual([failure]);

    worker.pump();
    expect(w.reads).toHaveLength(1);
    w.advance(RETRY_MS);
    worker.pump();
    expect(w.reads.map((read) => read.eventId)).toEqual([w.created, w.created]);

    w.reads[1].answer(w.storedBody(w.created));
    await w.watch.until(() => w.core.webhooks.pendingEvent(w.created) === undefined, 'the event delivered');
    expect(w.sentIds()).toEqual([w.created]);
    expect(w.sent[0].headers['X-BH-Delivery-Attempt']).toBe('1');
  });

  it('when the worker stops while the body is read, then nothing is sent and it is idle', async () => {
    const w = await world();
    const worker = w.start();
    worker.stop();
    w.reads[0].answer(w.storedBody(w.created));
    await worker.idle();
    expect(w.sent).toEqual([]);
    expect(w.core.webhooks.pendingEvent(w.created)?.attempts).toBe(0);
  });
});
