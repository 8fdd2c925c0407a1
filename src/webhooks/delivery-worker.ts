import type { KeyObject } from 'node:crypto';
import type { Command } from '../core/types.js';
import type { CommitSubscriber } from '../exchange/commit-subscribers.js';
import type { ExchangeCore } from '../exchange/exchange-core.js';
import type { CommitInfo } from '../exchange/sequencer.js';
import { WEBHOOK_STATUS, type OutboxEvent, type Webhook } from '../payments/webhooks.js';
import type { Awaitable, Store } from '../store/store.js';
import { DueQueue } from './due-queue.js';
import type { DeliveryOutcome, DeliveryRequest } from './sender.js';
import { signBody } from './signature.js';

/** How often ended events past their retention are purged (docs/webhooks.md "Answering, retries, order": 30 days by default). */
const PURGE_EVERY_MS = 3_600_000;
/** When an attempt's outcome could not be recorded (overload, writes suspended), the attempt is made again this much later. */
const UNRECORDED_RETRY_MS = 5_000;

export interface DeliveryWorkerOptions {
  core: ExchangeCore;
  /** Where exact bodies are read when no commit since the start carried them. */
  history: Pick<Store, 'webhookPayload'>;
  submit: (command: Command) => Promise<unknown>;
  send: (request: DeliveryRequest) => Promise<DeliveryOutcome>;
  privateKey: KeyObject;
  /** `BOURSE_SANDBOX=0` blocks private targets at send time (docs/webhooks.md "Registering"). */
  sandbox: boolean;
  clock: () => number;
  onError?: (error: unknown) => void;
}

/** The key of a webhook's object (`[webhookId, objectId]`) in `newestOf`. */
function objectKey(object: [string, string]): string {
  return `${object[0]}:${object[1]}`;
}

/**
 * The delivery worker of docs/webhooks.md "Answering, retries, order", a commit subscriber outside the core: it sends what the webhooks
 * module holds as sendable and due, reports each attempt as a `webhookAttempt` command, and only
 * once that outcome has committed may the event be tried again. Nothing here is durable: after a
 * restart the core's recovered outbox is the whole truth, and an attempt that was in flight is
 * simply made again.
 *
 * An object's next event waits for the previous one's 2xx, not for its outcome's commit too: once
 * the reply is in and the outcome submitted, the event behind it goes (the order of the commits
 * that made them tells which one that is). Should that outcome never commit (a crash), the
 * recovered outbox has the previous event pending and it is made again: at least once, first
 * copies in order.
 *
 * The events a commit changed are the outbox rows it wrote: only those (and the next event of an
 * object whose event ended) are looked at, through a queue ordered by due time, so a backlog costs
 * nothing per commit.
 */
export class WebhookDeliveryWorker implements CommitSubscriber {
  private readonly due = new DueQueue();
  private readonly inFlight = new Set<string>();
  private readonly perUrl = new Map<string, number>();
  /** Due events whose URL had no free slot, by URL, first come first served: taken one per freed slot. */
  private readonly parked = new Map<string, { ids: string[]; head: number }>();
  /** Exact bodies of pending events, from the commits that wrote them. */
  private readonly bodies = new Map<string, string>();
  /** Their signatures, begun on the thread pool as soon as the body committed (the same for every attempt). */
  private readonly signatures = new Map<string, Promise<string>>();
  /** The due time each queued event is in the queue for, so that a change seen twice queues it once. */
  private readonly queuedAt = new Map<string, number>();
  /** `[webhookId, objectId]` of pending events: when one ends, its object's next event is due. */
  private readonly objectOf = new Map<string, [string, string]>();
  /** Per `webhookId:objectId`, its newest event seen committed while pending: the one a new event of the object queues behind. */
  private readonly newestOf = new Map<string, string>();
  /** Pending event → the event right ahead of it in its object's order, as commits seen in sequence showed; absent: unknown, it waits for the core's order. */
  private readonly aheadOf = new Map<string, string>();
  /** The reverse of `aheadOf`. */
  private readonly behindOf = new Map<string, string>();
  /** Queued events whose attempt got a 2xx and whose outcome is submitted, not yet seen committed: the event behind may go. */
  private readonly answered = new Set<string>();
  /** The last sequence number seen committed: a gap (commits this worker was not given) makes the order above unknown again. */
  private lastSeq: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private purgeTimer: NodeJS.Timeout | undefined;
  private running = false;
  private readonly settled = new Set<() => void>();

  constructor(private readonly options: DeliveryWorkerOptions) {}

  start(): void {
    this.running = true;
    // Commits may have gone by unseen (a follower leading again): only the core's order is known.
    this.forgetOrder();
    for (const { event } of this.options.core.webhooks.sendable()) this.consider(event.eventId);
    this.purge();
    this.purgeTimer = setInterval(() => this.purge(), PURGE_EVERY_MS);
    this.purgeTimer.unref();
    this.pump();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    clearInterval(this.purgeTimer);
    this.timer = undefined;
  }

  onCommit(info: CommitInfo): void {
    const webhooks = this.options.core.webhooks;
    const { commands } = info;
    if (commands.length > 0) {
      if (this.lastSeq !== undefined && commands[0].seq !== this.lastSeq + 1) this.forgetOrder();
      this.lastSeq = commands[commands.length - 1].seq;
    }
    let changed = false;
    for (const row of info.rows.moduleRows) {
      if (row.kind !== 'webhookEvent') continue;
      const event = row.event;
      const eventId = event.eventId;
      changed = true;
      if (event.payload !== undefined) {
        // A body is written once, when the event is made: it queues behind its object's newest pending event.
        const object: [string, string] = [String(event.webhookId), String(event.objectId)];
        this.bodies.set(eventId, event.payload);
        this.signatures.set(eventId, this.sign(event.payload));
        this.objectOf.set(eventId, object);
        this.queueBehind(eventId, object);
      }
      if (event.status !== 'DELIVERED' && event.status !== 'FAILED') {
        this.consider(eventId);
        continue;
      }
      const object = this.objectOf.get(eventId);
      this.bodies.delete(eventId);
      this.signatures.delete(eventId);
      this.objectOf.delete(eventId);
      this.ended(eventId, object);
      const next = object === undefined ? undefined : webhooks.headOf(object[0], object[1]);
      if (next !== undefined) this.consider(next.eventId);
    }
    if (changed) this.pump();
  }

  /** Attempts in flight now. */
  get busy(): number {
    return this.inFlight.size;
  }

  /** Resolves once no attempt is in flight (tests, shutdown). */
  idle(): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.settled.add(resolve));
  }

  /** Starts every due attempt the per-URL cap allows and arms a timer for the next one. */
  pump(): void {
    if (!this.running) return;
    const { core, clock } = this.options;
    const now = clock();
    const cap = core.payments.config.webhook.maxInFlightPerUrl;
    while (this.due.peek() <= now) {
      const { key, at } = this.due.pop() as { key: string; at: number };
      if (this.queuedAt.get(key) === at) this.queuedAt.delete(key);
      const ready = this.ready(key, now);
      if (ready === undefined) continue;
      const url = ready.webhook.url;
      if ((this.perUrl.get(url) ?? 0) >= cap) {
        const waiting = this.parked.get(url);
        if (waiting === undefined) this.parked.set(url, { ids: [key], head: 0 });
        else waiting.ids.push(key);
        continue;
      }
      this.attempt(ready.event, ready.webhook, now);
    }
    this.arm(this.due.peek(), now);
  }

  /** The event and its webhook if it may be sent now; stale entries (sent meanwhile, ended, rescheduled, paused) give undefined: a later change queues them again. */
  private ready(eventId: string, now: number): { event: OutboxEvent; webhook: Webhook } | undefined {
    const webhooks = this.options.core.webhooks;
    const event = webhooks.pendingEvent(eventId);
    if (event === undefined || this.inFlight.has(eventId) || event.nextAttemptTime > now || !this.mayGo(event)) return undefined;
    return { event, webhook: webhooks.webhook(event.webhookId) as Webhook };
  }

  /** Queues the event for its due time if it may be sent. */
  private consider(eventId: string): void {
    const webhooks = this.options.core.webhooks;
    const event = webhooks.pendingEvent(eventId);
    if (event === undefined || this.inFlight.has(eventId) || this.queuedAt.get(eventId) === event.nextAttemptTime || !this.mayGo(event)) return;
    this.queuedAt.set(eventId, event.nextAttemptTime);
    this.due.push(event.nextAttemptTime, eventId);
  }

  /** The core's order allows it, or every event ahead of it in its object's order got its 2xx (their outcomes are on their way to a commit). */
  private mayGo(event: OutboxEvent): boolean {
    const webhooks = this.options.core.webhooks;
    if (webhooks.isSendable(event)) return true;
    if (webhooks.webhook(event.webhookId)?.status !== WEBHOOK_STATUS.ACTIVE) return false;
    const head = webhooks.headOf(event.webhookId, event.objectId)?.eventId;
    // Each step goes to an earlier event: the walk ends within the object's pending events.
    for (let ahead = this.aheadOf.get(event.eventId), steps = 0; ahead !== undefined && steps <= this.aheadOf.size; ahead = this.aheadOf.get(ahead), steps++) {
      if (!this.answered.has(ahead)) return false;
      if (ahead === head) return true;
    }
    return false;
  }

  /** A new event of `object`: it is right behind the object's newest event seen pending, if any. */
  private queueBehind(eventId: string, object: [string, string]): void {
    const key = objectKey(object);
    const newest = this.newestOf.get(key);
    if (newest !== undefined) {
      this.aheadOf.set(eventId, newest);
      this.behindOf.set(newest, eventId);
    }
    this.newestOf.set(key, eventId);
  }

  /** The event ended (committed DELIVERED or FAILED): it is out of its object's order. */
  private ended(eventId: string, object: [string, string] | undefined): void {
    this.answered.delete(eventId);
    const behind = this.behindOf.get(eventId);
    const ahead = this.aheadOf.get(eventId);
    this.behindOf.delete(eventId);
    this.aheadOf.delete(eventId);
    // The one behind is now its object's head, or (this one ended out of turn, by a resend) not known
    // to be right behind the one ahead: either way it goes by the core's order.
    if (behind !== undefined) this.aheadOf.delete(behind);
    if (ahead !== undefined) this.behindOf.delete(ahead);
    if (object === undefined) return;
    const key = objectKey(object);
    if (this.newestOf.get(key) === eventId) this.newestOf.delete(key);
  }

  private forgetOrder(): void {
    this.newestOf.clear();
    this.aheadOf.clear();
    this.behindOf.clear();
    this.answered.clear();
    this.lastSeq = undefined;
  }

  private sign(payload: string): Promise<string> {
    const signature = signBody(this.options.privateKey, Buffer.from(payload, 'utf8'));
    signature.catch(() => undefined); // a failure is met where the signature is used
    return signature;
  }

  private arm(at: number, now: number): void {
    if (at === this.timerAt && this.timer !== undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = at;
    if (at === Infinity) return;
    // Timers hold at most 2^31-1 ms; a farther time is re-armed when this one fires.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.pump();
    }, Math.min(Math.max(0, at - now), 2 ** 31 - 1));
    this.timer.unref();
  }

  private attempt(event: OutboxEvent, webhook: Webhook, now: number): void {
    const { options } = this;
    const payload = this.bodies.get(event.eventId) ?? options.history.webhookPayload(event.eventId);
    if (payload === undefined) return; // its row is committed with it; absent only if purged meanwhile
    // The event and its URL slot are taken before a stored body is awaited (PostgreSQL answers
    // later): no second attempt of the event starts meanwhile, and its object's next event stays
    // behind it, as it is not the object's head until this one ends.
    const url = webhook.url;
    this.inFlight.add(event.eventId);
    this.perUrl.set(url, (this.perUrl.get(url) ?? 0) + 1);
    if (event.queued) this.objectOf.set(event.eventId, [event.webhookId, event.objectId]);
    // The URL's slot frees once the reply is in: the outcome's commit is not a request to the URL.
    let slotFreed = false;
    const freeSlot = (): void => {
      if (slotFreed) return;
      slotFreed = true;
      this.freeSlot(url);
    };
    void this.deliver(event, webhook, now, payload, freeSlot).then(
      (made) => {
        freeSlot();
        this.finished(event.eventId, made ? undefined : 'never');
      },
      (error: unknown) => {
        // Not recorded, so not counted: the same attempt goes again later, not at once in a loop.
        options.onError?.(error);
        freeSlot();
        this.finished(event.eventId, options.clock() + UNRECORDED_RETRY_MS);
      },
    );
  }

  /**
   * Sends one attempt and submits its outcome; false when it was not made: its stored body is
   * gone (purged while it was read) or the worker stopped meanwhile (made again after the restart).
   */
  private async deliver(event: OutboxEvent, webhook: Webhook, now: number, stored: Awaitable<string | undefined>, freeSlot: () => void): Promise<boolean> {
    const { options } = this;
    const payload = await stored;
    if (payload === undefined || !this.running) return false;
    let signature = this.signatures.get(event.eventId);
    if (signature === undefined) {
      signature = this.sign(payload);
      // Kept for the next attempts only while the event is pending: its end (seen in a commit) clears it.
      if (options.core.webhooks.pendingEvent(event.eventId) !== undefined) this.signatures.set(event.eventId, signature);
    }
    const attempt = event.attempts + 1;
    const outcome = await options.send({
      url: webhook.url,
      body: Buffer.from(payload, 'utf8'),
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'User-Agent': 'Bourse-Webhooks/1',
        'X-BH-Webhook-Id': webhook.webhookId,
        'X-BH-Event-Id': event.eventId,
        'X-BH-Event-Type': event.eventType,
        'X-BH-Delivery-Attempt': String(attempt),
        'X-BH-Timestamp': String(now),
        signature: await signature,
      },
      timeoutMs: options.core.payments.config.webhook.timeoutMs,
      blockPrivateTargets: !options.sandbox,
    });
    freeSlot();
    // After stop (shutdown) an aborted attempt is not an outcome: it is made again after the restart.
    if (this.running) {
      const recorded = options.submit({ type: 'webhookAttempt', eventId: event.eventId, attempt, url: webhook.url, time: now, ...outcome });
      // Submitted first, so the outcome is sequenced before any outcome of the event behind it.
      if (outcome.error === '' && event.queued) this.answer(event.eventId);
      this.pump();
      try {
        await recorded;
      } catch (error) {
        // Not recorded: the event is made again later, and what is behind it waits for that.
        this.answered.delete(event.eventId);
        throw error;
      }
    }
    return true;
  }

  /** The event got its 2xx: the event right behind it may go now (docs/webhooks.md "Answering, retries, order"). */
  private answer(eventId: string): void {
    if (this.options.core.webhooks.pendingEvent(eventId) === undefined) return;
    this.answered.add(eventId);
    const behind = this.behindOf.get(eventId);
    if (behind !== undefined) this.consider(behind);
  }

  /** One attempt to the URL has its reply (or none will come): the first parked event still ready takes the slot. */
  private freeSlot(url: string): void {
    const left = (this.perUrl.get(url) ?? 1) - 1;
    if (left === 0) this.perUrl.delete(url);
    else this.perUrl.set(url, left);
    const waiting = this.parked.get(url);
    if (waiting === undefined || !this.running) return;
    const now = this.options.clock();
    while (waiting.head < waiting.ids.length) {
      const ready = this.ready(waiting.ids[waiting.head++], now);
      if (ready === undefined) continue;
      // The webhook's URL may have changed while it waited: it then takes a slot of its new URL.
      if (ready.webhook.url === url || (this.perUrl.get(ready.webhook.url) ?? 0) < this.options.core.payments.config.webhook.maxInFlightPerUrl) {
        this.attempt(ready.event, ready.webhook, now);
        break;
      }
      this.consider(ready.event.eventId);
    }
    if (waiting.head >= waiting.ids.length) this.parked.delete(url);
    else if (waiting.head > 1024 && waiting.head * 2 > waiting.ids.length) this.parked.set(url, { ids: waiting.ids.slice(waiting.head), head: 0 });
  }

  /**
   * The attempt's outcome has committed (or, with `retryAt`, could not be): the event may be tried
   * again when due. `'never'`: no attempt was made and none is queued (as for a body found missing
   * before the attempt began); a later change of the event queues it again.
   */
  private finished(eventId: string, retryAt?: number | 'never'): void {
    this.inFlight.delete(eventId);
    if (retryAt === undefined) {
      // A failed attempt's event is due again later; its reschedule row queued it already.
      this.consider(eventId);
    } else if (retryAt !== 'never') {
      this.queuedAt.set(eventId, retryAt);
      this.due.push(retryAt, eventId);
    }
    if (this.inFlight.size === 0) {
      for (const resolve of this.settled) resolve();
      this.settled.clear();
    }
    this.pump();
  }

  private purge(): void {
    if (!this.running || this.options.core.webhooks.eventsMade === 0) return;
    this.options.submit({ type: 'purgeWebhookEvents' }).catch((error: unknown) => this.options.onError?.(error));
  }
}
