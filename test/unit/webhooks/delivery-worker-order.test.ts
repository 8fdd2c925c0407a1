/**
 * The delivery worker's order per object (docs/webhooks.md "Answering, retries, order"): an
 * object's next event goes once the previous one got its 2xx, without waiting for that outcome's
 * commit too, and never before. The core, the sequencer and the SQLite store are real; the worker
 * runs from before the events are made, so it sees the commits that made them. Replies and the
 * commits of the outcomes are held by the test and let go when it chooses.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrderRequest } from '../../../src/core/payment-commands.js';
import type { Command } from '../../../src/core/types.js';
import { ExchangeCore } from '../../../src/exchange/exchange-core.js';
import { Sequencer } from '../../../src/exchange/sequencer.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { WebhookDeliveryWorker } from '../../../src/webhooks/delivery-worker.js';
import type { DeliveryOutcome } from '../../../src/webhooks/sender.js';
import { T0 } from '../../support/core-harness.js';
import { setUpWebhookMerchant } from '../../support/webhook-merchant.js';
import { Watch } from '../../support/watch.js';

const URL = 'https://merchant.example/bourse';
const WEBHOOK_ID = '0123456789abcdef0123456789abcdef';
/** Past the first retry gap (15 s plus at most 10 %). */
const PAST_FIRST_RETRY_MS = 20_000;
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

const OK: DeliveryOutcome = { httpStatus: 200, durationMs: 1, error: '' };
const UNAVAILABLE: DeliveryOutcome = { httpStatus: 503, durationMs: 1, error: 'HTTP 503' };

/** One attempt the worker made, its reply held until the test gives it. */
interface HeldAttempt {
  eventId: string;
  attempt: number;
  reply: (outcome: DeliveryOutcome) => void;
  /** The outcome given, once given. */
  outcome?: DeliveryOutcome;
}

const workers: WebhookDeliveryWorker[] = [];
afterEach(() => {
  for (const worker of workers.splice(0)) worker.stop();
});

/** A merchant with an ORDER_WEBHOOK and the worker running; `order()` makes an on-ramp order: two events (created 10, approved 40) of one object. */
async function world() {
  const store = openSqliteStore({ path: ':memory:', synchronous: 'NORMAL' });
  const core = new ExchangeCore();
  const watch = new Watch();
  let now = T0;
  /** Set once the set-up's commits are done: they make no events. */
  const subscriber: { worker?: WebhookDeliveryWorker } = {};
  const sequencer = new Sequencer({
    store,
    applier: core,
    clock: () => now,
    onCommit: (info) => {
      subscriber.worker?.onCommit(info);
      watch.changed();
    },
  });
  const submit = <T = unknown>(command: Command): Promise<T> => {
    now += 1;
    return sequencer.submit(command) as Promise<T>;
  };
  const { userId, merchantId } = await setUpWebhookMerchant(core, submit, WEBHOOK_ID, URL);

  const attempts: HeldAttempt[] = [];
  /** Outcomes submitted by the worker, not yet let through to the sequencer (their commit is held). */
  const outcomes: { command: Command; let: () => Promise<unknown> }[] = [];
  /** The events of the orders made. */
  const known: string[] = [];
  /** Every event sent (with the known events then pending in the core) and every 2xx given, in order: what a receiver would have seen. */
  const log: { kind: 'sent' | 'answered 2xx'; eventId: string; pending?: string[] }[] = [];
  const worker = new WebhookDeliveryWorker({
    core,
    history: store,
    submit: (command) => {
      if (command.type !== 'webhookAttempt') return submit(command);
      return new Promise((resolve, reject) => {
        outcomes.push({
          command,
          let: () => {
            const committed = submit(command);
            committed.then(resolve, reject);
            return committed;
          },
        });
        watch.changed();
      });
    },
    send: (request) =>
      new Promise((resolve) => {
        const eventId = request.headers['X-BH-Event-Id'];
        log.push({ kind: 'sent', eventId, pending: known.filter((id) => core.webhooks.pendingEvent(id) !== undefined) });
        const held: HeldAttempt = {
          eventId,
          attempt: Number(request.headers['X-BH-Delivery-Attempt']),
          reply: (outcome) => {
            held.outcome = outcome;
            if (outcome.error === '') log.push({ kind: 'answered 2xx', eventId });
            resolve(outcome);
          },
        };
        attempts.push(held);
        watch.changed();
      }),
    privateKey,
    sandbox: true,
    clock: () => now,
  });
  subscriber.worker = worker;
  workers.push(worker);
  worker.start();

  const order = async (): Promise<[string, string]> => {
    const before = new Set(store.listWebhookEvents({ offset: 0, limit: 1000 }).rows.map((row) => row.eventId));
    const request: OrderRequest = { kind: 'fiat_to_crypto', merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '500.00', paymentId: 58 };
    await submit({ type: 'createPaymentOrder', userId, onBehalf: false, clientId: '', remark: '', quoteId: '', order: request });
    const made = store
      .listWebhookEvents({ offset: 0, limit: 1000 })
      .rows.filter((row) => !before.has(row.eventId))
      .sort((a, b) => a.eventNo - b.eventNo)
      .map((row) => row.eventId);
    expect(made).toHaveLength(2);
    known.push(...made);
    return [made[0], made[1]];
  };
  /** Lets every held outcome through to the sequencer, in the order the worker submitted them, and waits for their commits. */
  const commitOutcomes = async (): Promise<void> => {
    await Promise.all(outcomes.splice(0).map((outcome) => outcome.let()));
  };
  const sentIds = (): string[] => attempts.map((attempt) => attempt.eventId);
  let deposits = 0;
  /** A commit of no webhook event; `unseen`: the worker is not given it, as a follower's worker is not while another node leads. */
  const unrelatedCommit = async (unseen: boolean): Promise<void> => {
    if (unseen) subscriber.worker = undefined;
    await submit({ type: 'deposit', accountId: core.payments.state.deskAccountId, asset: 'USDT', amount: '1', txId: `unrelated-${++deposits}` });
    subscriber.worker = worker;
  };
  return { core, worker, watch, attempts, outcomes, log, order, commitOutcomes, sentIds, unrelatedCommit, advance: (ms: number) => (now += ms) };
}

/**
 * Waits until the worker has nothing in flight (true) or makes an attempt the walk must answer
 * (false): an event taken up while its signature is still on the thread pool is in flight before it
 * is sent, so waiting for idle alone would wait for a reply only the walk can give.
 */
async function idleOrNewAttempt(w: Awaited<ReturnType<typeof world>>): Promise<boolean> {
  let idle = false;
  void w.worker.idle().then(() => {
    idle = true;
    w.watch.changed();
  });
  await w.watch.until(() => idle || w.attempts.some((a) => a.outcome === undefined), 'the worker idle, or an attempt to answer');
  return idle;
}

describe('delivery worker: one object’s events in order', () => {
  it("when an event's attempt is answered 2xx, then its object's next event is sent before that outcome commits", async () => {
    const w = await world();
    const [created, approved] = await w.order();
    await w.watch.until(() => w.attempts.length === 1, 'the first event sent');
    expect(w.sentIds()).toEqual([created]);

    w.attempts[0].reply(OK);
    await w.watch.until(() => w.attempts.length === 2, 'the next event sent');
    expect(w.sentIds()).toEqual([created, approved]);
    // The first event's outcome is submitted, not committed: it is still pending in the core.
    expect(w.outcomes.map((outcome) => outcome.command)).toMatchObject([{ type: 'webhookAttempt', eventId: created, attempt: 1, error: '' }]);
    expect(w.core.webhooks.pendingEvent(created)?.attempts).toBe(0);

    w.attempts[1].reply(OK);
    await w.watch.until(() => w.outcomes.length === 2, 'both outcomes submitted');
    expect(w.outcomes.map((outcome) => (outcome.command as { eventId: string }).eventId)).toEqual([created, approved]);
    await w.commitOutcomes();
    expect(w.core.webhooks.pendingEvent(created)).toBeUndefined();
    expect(w.core.webhooks.pendingEvent(approved)).toBeUndefined();
    await w.worker.idle();
    expect(w.sentIds()).toEqual([created, approved]);
  });

  it("when an event's attempt fails, then its object's next event waits until that event got a 2xx", async () => {
    const w = await world();
    const [created, approved] = await w.order();
    await w.watch.until(() => w.attempts.length === 1, 'the first event sent');
    w.attempts[0].reply(UNAVAILABLE);
    await w.watch.until(() => w.outcomes.length === 1, 'the failure submitted');
    await w.commitOutcomes();
    await w.worker.idle();
    w.worker.pump();
    // Nothing taken up (an event is in flight from the moment it is, before it is sent).
    expect(w.worker.busy).toBe(0);
    expect(w.sentIds()).toEqual([created]);
    expect(w.core.webhooks.pendingEvent(created)?.attempts).toBe(1);

    w.advance(PAST_FIRST_RETRY_MS);
    w.worker.pump();
    await w.watch.until(() => w.attempts.length === 2, 'the retry sent');
    expect(w.attempts.map((a) => [a.eventId, a.attempt])).toEqual([[created, 1], [created, 2]]);
    w.attempts[1].reply(OK);
    await w.watch.until(() => w.attempts.length === 3, 'the next event sent');
    expect(w.attempts[2].eventId).toBe(approved);
    w.attempts[2].reply(OK);
    await w.watch.until(() => w.outcomes.length === 2, 'both outcomes submitted');
    await w.commitOutcomes();
    expect(w.core.webhooks.pendingEvent(approved)).toBeUndefined();
  });

  it('when the worker was not given some commits, then an answered event’s next one waits for the outcome’s commit: the order it learnt may have a gap', async () => {
    const w = await world();
    const [created, approved] = await w.order();
    await w.watch.until(() => w.attempts.length === 1, 'the first event sent');
    await w.unrelatedCommit(true);
    await w.unrelatedCommit(false);

    w.attempts[0].reply(OK);
    await w.watch.until(() => w.outcomes.length === 1, 'the outcome submitted');
    w.worker.pump();
    // An event is in flight from the moment it is taken up, before its body is signed and sent: only the first one is.
    expect(w.worker.busy).toBe(1);
    expect(w.sentIds()).toEqual([created]);

    await w.commitOutcomes();
    await w.watch.until(() => w.attempts.length === 2, 'the next event sent once the outcome committed');
    expect(w.sentIds()).toEqual([created, approved]);
    w.attempts[1].reply(OK);
    await w.watch.until(() => w.outcomes.length === 1, 'the second outcome submitted');
    await w.commitOutcomes();
    expect(w.core.webhooks.pendingEvent(approved)).toBeUndefined();
  });

  it('when replies and commits come in any order, then no event is sent before the previous event of its object got its 2xx', async () => {
    const w = await world();
    const objects: [string, string][] = [];
    for (let i = 0; i < 4; i++) objects.push(await w.order());
    const previous = new Map(objects.map(([first, second]) => [second, first]));
    // A fixed pseudo-random walk: which held reply is given next, 2xx or not, and when outcomes commit.
    let seed = 20261129;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const all = objects.flat();
    for (let step = 0; step < 200 && all.some((id) => w.core.webhooks.pendingEvent(id) !== undefined); step++) {
      const open = w.attempts.filter((a) => a.outcome === undefined);
      if (open.length > 0) {
        const attempt = open[random(open.length)];
        const outcomes = w.outcomes.length;
        attempt.reply(random(3) === 0 ? UNAVAILABLE : OK);
        await w.watch.until(() => w.outcomes.length > outcomes, 'the outcome submitted');
      }
      if (random(2) === 0 || open.length === 0) await w.commitOutcomes();
      if (w.attempts.every((a) => a.outcome !== undefined) && w.outcomes.length === 0 && (await idleOrNewAttempt(w))) {
        w.advance(PAST_FIRST_RETRY_MS);
        w.worker.pump();
      }
    }
    expect(all.filter((id) => w.core.webhooks.pendingEvent(id) !== undefined)).toEqual([]);

    const answered = new Set<string>();
    let early = 0;
    for (const entry of w.log) {
      if (entry.kind === 'answered 2xx') answered.add(entry.eventId);
      const before = previous.get(entry.eventId);
      if (entry.kind !== 'sent' || before === undefined) continue;
      expect(answered.has(before), `${entry.eventId} sent only after ${before} got its 2xx`).toBe(true);
      if (entry.pending?.includes(before) === true) early++;
    }
    // The walk did reach the case the rule is about: a next event sent while the previous one's outcome was not committed.
    expect(early).toBeGreaterThan(0);
  });
});
