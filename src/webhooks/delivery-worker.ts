import type { KeyObject } from 'node:crypto';
import type { Command } from '../core/types.js';
import type { CommitSubscriber } from '../exchange/commit-subscribers.js';
import type { ExchangeCore } from '../exchange/exchange-core.js';
import type { OutboxEvent, Webhook } from '../payments/webhooks.js';
import type { Store } from '../store/store.js';
import type { DeliveryOutcome, DeliveryRequest } from './sender.js';
import { signBody } from './signature.js';

/** How often ended events past their retention are purged (§6.4: 30 days by default). */
const PURGE_EVERY_MS = 3_600_000;

export interface DeliveryWorkerOptions {
  core: ExchangeCore;
  /** Where the exact bodies are read from. */
  history: Pick<Store, 'webhookPayload'>;
  submit: (command: Command) => Promise<unknown>;
  send: (request: DeliveryRequest) => Promise<DeliveryOutcome>;
  privateKey: KeyObject;
  /** `BOURSE_SANDBOX=0` blocks private targets at send time (§6.1). */
  sandbox: boolean;
  clock: () => number;
  onError?: (error: unknown) => void;
}

/**
 * The delivery worker of §6.4, a commit subscriber outside the core: it sends what the webhooks
 * module holds as sendable and due, reports each attempt as a `webhookAttempt` command, and only
 * once that outcome has committed may the event be tried again. Nothing here is durable: after a
 * restart the core's recovered outbox is the whole truth, and an attempt that was in flight is
 * simply made again.
 */
export class WebhookDeliveryWorker implements CommitSubscriber {
  private readonly inFlight = new Set<string>();
  private readonly perUrl = new Map<string, number>();
  private seenVersion = -1;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private purgeTimer: NodeJS.Timeout | undefined;
  private running = false;
  private readonly settled = new Set<() => void>();

  constructor(private readonly options: DeliveryWorkerOptions) {}

  start(): void {
    this.running = true;
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

  onCommit(): void {
    if (this.running && this.options.core.webhooks.version !== this.seenVersion) this.pump();
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
    this.seenVersion = core.webhooks.version;
    const now = clock();
    const cap = core.payments.config.webhook.maxInFlightPerUrl;
    let earliest = Infinity;
    for (const { event, webhook } of core.webhooks.sendable()) {
      if (this.inFlight.has(event.eventId)) continue;
      if (event.nextAttemptTime > now) {
        earliest = Math.min(earliest, event.nextAttemptTime);
        continue;
      }
      // A full URL is pumped again when one of its attempts ends.
      if ((this.perUrl.get(webhook.url) ?? 0) >= cap) continue;
      this.attempt(event, webhook, now);
    }
    this.arm(earliest, now);
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
    const payload = options.history.webhookPayload(event.eventId);
    if (payload === undefined) return; // its row is committed with it; absent only if purged meanwhile
    const url = webhook.url;
    this.inFlight.add(event.eventId);
    this.perUrl.set(url, (this.perUrl.get(url) ?? 0) + 1);
    const attempt = event.attempts + 1;
    const body = Buffer.from(payload, 'utf8');
    const headers = {
      'Content-Type': 'application/json; charset=utf-8',
      'User-Agent': 'Bourse-Webhooks/1',
      'X-BH-Webhook-Id': webhook.webhookId,
      'X-BH-Event-Id': event.eventId,
      'X-BH-Event-Type': event.eventType,
      'X-BH-Delivery-Attempt': String(attempt),
      'X-BH-Timestamp': String(now),
      signature: signBody(options.privateKey, body),
    };
    const timeoutMs = options.core.payments.config.webhook.timeoutMs;
    void options
      .send({ url, body, headers, timeoutMs, blockPrivateTargets: !options.sandbox })
      // After stop (shutdown) an aborted attempt is not an outcome: it is made again after the restart.
      .then((outcome) => (this.running ? options.submit({ type: 'webhookAttempt', eventId: event.eventId, attempt, url, time: now, ...outcome }) : undefined))
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        this.inFlight.delete(event.eventId);
        const left = (this.perUrl.get(url) ?? 1) - 1;
        if (left === 0) this.perUrl.delete(url);
        else this.perUrl.set(url, left);
        if (this.inFlight.size === 0) {
          for (const resolve of this.settled) resolve();
          this.settled.clear();
        }
        this.pump();
      });
  }

  private purge(): void {
    if (!this.running || this.options.core.webhooks.eventsMade === 0) return;
    this.options.submit({ type: 'purgeWebhookEvents' }).catch((error: unknown) => this.options.onError?.(error));
  }
}
