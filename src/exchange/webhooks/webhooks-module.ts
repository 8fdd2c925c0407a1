import { refuse } from '../../core/payment-errors.js';
import type { Command } from '../../core/types.js';
import type {
  DeleteWebhookCommand,
  RegisterWebhookCommand,
  ResendWebhookEventCommand,
  UpdateWebhookCommand,
  WebhookAttemptCommand,
  WebhookCommand,
  WebhookEventType,
} from '../../core/webhook-commands.js';
import type { PostingContext } from '../../ledger/ledger.js';
import type { WebhookSettings } from '../../payments/config.js';
import type { WebhookEventChange } from '../../payments/rows.js';
import { eventIdOf, nextAttemptAt, WEBHOOK_DELETED_ERROR, WEBHOOK_STATUS, type OutboxEvent, type Webhook } from '../../payments/webhooks.js';
import { sortedEntries, type CoreModule } from '../core-module.js';

const DAY_MS = 86_400_000;

export interface WebhooksImage {
  webhooks: Webhook[];
  events: OutboxEvent[];
  nextEventNo: number;
}

/** What a delivery worker needs to send one event now. */
export interface SendableEvent {
  event: OutboxEvent;
  webhook: Webhook;
}

/** A webhook as B36–B38 show it (`publicKey` is added by the edge). */
export interface WebhookView {
  webhookId: string;
  eventType: WebhookEventType;
  url: string;
  status: number;
}

const WEBHOOK_COMMANDS = ['registerWebhook', 'updateWebhook', 'deleteWebhook', 'resendWebhookEvent', 'webhookAttempt', 'purgeWebhookEvents'] as const;

const queueKey = (e: { webhookId: string; objectId: string }): string => `${e.webhookId}:${e.objectId}`;

/** The webhooks module's port: the retry schedule and the retention, which the payments configuration holds (docs/webhooks.md). */
export interface WebhookSettingsSource {
  readonly webhookSettings: WebhookSettings;
}

/**
 * Area B webhooks (docs/webhooks.md): registrations and the durable outbox. Events are recorded by
 * the payments module's state changes through `record`, in the same command and so the same
 * journal batch; the delivery worker outside the core reads what is sendable and reports each
 * attempt back as a `webhookAttempt` command. Only pending events stay in memory.
 */
export class WebhooksModule implements CoreModule<WebhooksImage> {
  readonly name = 'webhooks';
  readonly commandTypes = WEBHOOK_COMMANDS;
  /** Not deleted; deleted ones live in the store only (B37 `status=30`). */
  private webhooks = new Map<string, Webhook>();
  /** `userId:eventType` → webhookId, one non-deleted webhook per pair (docs/webhooks.md "Registering"). */
  private byOwner = new Map<string, string>();
  private events = new Map<string, OutboxEvent>();
  /** Per `webhookId:objectId`, pending queued events in creation order: only the head may be sent. */
  private queues = new Map<string, string[]>();
  private nextEventNo = 1;
  /** Bumped by every change a delivery worker must see (new events, outcomes, registrations). */
  version = 0;

  constructor(private readonly settings: WebhookSettingsSource) {}

  apply(command: Command, ctx: PostingContext): unknown {
    const cmd = command as WebhookCommand;
    this.version++;
    switch (cmd.type) {
      case 'registerWebhook':
        return this.register(cmd, ctx);
      case 'updateWebhook':
        return this.update(cmd, ctx);
      case 'deleteWebhook':
        return this.delete(cmd, ctx);
      case 'resendWebhookEvent':
        return this.resend(cmd, ctx);
      case 'webhookAttempt':
        return this.attempted(cmd, ctx);
      case 'purgeWebhookEvents': {
        const upTo = ctx.ts;
        if (ctx.recordRows) ctx.rows.moduleRows.push({ kind: 'webhookEventsPurge', upTo });
        return { purgedUpTo: upTo };
      }
    }
  }

  /** The user's webhook of `eventType` if it is active (10): events are recorded only then (docs/webhooks.md "Registering"). */
  activeWebhook(userId: number, eventType: WebhookEventType): Webhook | undefined {
    const id = this.byOwner.get(`${userId}:${eventType}`);
    const webhook = id === undefined ? undefined : this.webhooks.get(id);
    return webhook?.status === WEBHOOK_STATUS.ACTIVE ? webhook : undefined;
  }

  /**
   * Records one event of a state change in the command being applied: the body's bytes are fixed
   * now (docs/webhooks.md "Answering, retries, order" same bytes on every attempt) and written with the change.
   */
  record(ctx: PostingContext, userId: number, eventType: WebhookEventType, objectId: string, objectStatus: string, fields: () => Record<string, string | number>): void {
    const webhook = this.activeWebhook(userId, eventType);
    if (webhook === undefined) return;
    this.version++;
    const eventId = eventIdOf(webhook.webhookId, ++webhook.eventCount);
    const event: OutboxEvent = {
      eventId,
      webhookId: webhook.webhookId,
      userId,
      eventType,
      objectId,
      objectStatus,
      attempts: 0,
      scheduleBase: 0,
      nextAttemptTime: ctx.ts,
      createTime: ctx.ts,
      eventNo: this.nextEventNo++,
      queued: true,
      resent: false,
    };
    this.events.set(eventId, event);
    const key = queueKey(event);
    const queue = this.queues.get(key);
    if (queue === undefined) this.queues.set(key, [eventId]);
    else queue.push(eventId);
    if (!ctx.recordRows) return;
    const payload = JSON.stringify({ webhookId: webhook.webhookId, eventId, eventType, ...fields() });
    writeEvent(ctx, eventId, {
      webhookId: webhook.webhookId,
      userId,
      eventType,
      objectId,
      objectStatus,
      status: 'PENDING',
      attempts: 0,
      nextAttemptTime: ctx.ts,
      createTime: ctx.ts,
      eventNo: event.eventNo,
      deliveredTime: 0,
      purgeAfter: 0,
      payload,
    });
  }

  /** Events a delivery worker may send now or later: heads of their object's order, and resends, of active webhooks. */
  *sendable(): Generator<SendableEvent> {
    const seen = new Set<string>();
    for (const queue of this.queues.values()) {
      const event = this.events.get(queue[0]);
      if (event === undefined) continue;
      seen.add(event.eventId);
      const webhook = this.webhooks.get(event.webhookId);
      if (webhook?.status === WEBHOOK_STATUS.ACTIVE) yield { event, webhook };
    }
    for (const event of this.events.values()) {
      if (!event.resent || seen.has(event.eventId)) continue;
      const webhook = this.webhooks.get(event.webhookId);
      if (webhook?.status === WEBHOOK_STATUS.ACTIVE) yield { event, webhook };
    }
  }

  /** May the event be sent (when due): its webhook is active, and it is its object's turn or a resend. */
  isSendable(event: OutboxEvent): boolean {
    if (this.webhooks.get(event.webhookId)?.status !== WEBHOOK_STATUS.ACTIVE) return false;
    return event.resent || this.queues.get(queueKey(event))?.[0] === event.eventId;
  }

  /** The event whose turn it is for one object of a webhook, if any is pending. */
  headOf(webhookId: string, objectId: string): OutboxEvent | undefined {
    const id = this.queues.get(queueKey({ webhookId, objectId }))?.[0];
    return id === undefined ? undefined : this.events.get(id);
  }

  pendingEvent(eventId: string): OutboxEvent | undefined {
    return this.events.get(eventId);
  }

  webhook(webhookId: string): Webhook | undefined {
    return this.webhooks.get(webhookId);
  }

  get pendingCount(): number {
    return this.events.size;
  }

  /** Events recorded since the deployment began (resends of ended ones included). */
  get eventsMade(): number {
    return this.nextEventNo - 1;
  }

  private register(cmd: RegisterWebhookCommand, ctx: PostingContext): WebhookView {
    const owner = `${cmd.userId}:${cmd.eventType}`;
    const existing = this.byOwner.get(owner);
    if (existing !== undefined) refuse('REPEATED_SUBMIT_REQUEST', `A webhook of ${cmd.eventType} exists; change it with PUT /v2/webhook/${existing}`, { webhookId: existing });
    if (this.webhooks.has(cmd.webhookId)) throw new Error(`webhook id collision ${cmd.webhookId}`);
    const webhook: Webhook = { webhookId: cmd.webhookId, userId: cmd.userId, eventType: cmd.eventType, url: cmd.url, status: WEBHOOK_STATUS.ACTIVE, createTime: ctx.ts, updateTime: ctx.ts, eventCount: 0 };
    this.webhooks.set(webhook.webhookId, webhook);
    this.byOwner.set(owner, webhook.webhookId);
    this.writeWebhook(ctx, webhook);
    return viewOf(webhook);
  }

  private owned(userId: number, webhookId: string): Webhook {
    const webhook = this.webhooks.get(webhookId);
    if (webhook === undefined || webhook.userId !== userId) refuse('WEBHOOK_NOT_EXIST', `Webhook ${webhookId} does not exist`);
    return webhook;
  }

  private update(cmd: UpdateWebhookCommand, ctx: PostingContext): WebhookView {
    const webhook = this.owned(cmd.userId, cmd.webhookId);
    if (cmd.url !== undefined) webhook.url = cmd.url;
    if (cmd.status !== undefined && cmd.status !== webhook.status) {
      webhook.status = cmd.status;
      // docs/webhooks.md "Registering": paused events resume at once on re-enable.
      if (cmd.status === WEBHOOK_STATUS.ACTIVE) for (const event of this.eventsOf(webhook.webhookId)) this.schedule(ctx, event, ctx.ts);
    }
    webhook.updateTime = ctx.ts;
    this.writeWebhook(ctx, webhook);
    return viewOf(webhook);
  }

  private delete(cmd: DeleteWebhookCommand, ctx: PostingContext): { result: true } {
    const webhook = this.owned(cmd.userId, cmd.webhookId);
    webhook.status = WEBHOOK_STATUS.DELETED;
    webhook.updateTime = ctx.ts;
    this.webhooks.delete(webhook.webhookId);
    this.byOwner.delete(`${webhook.userId}:${webhook.eventType}`);
    for (const event of this.eventsOf(webhook.webhookId)) {
      this.writeDelivery(ctx, event, { attempt: 0, url: webhook.url, time: ctx.ts, httpStatus: 0, durationMs: 0, error: WEBHOOK_DELETED_ERROR });
      this.end(ctx, event, 'FAILED');
    }
    this.writeWebhook(ctx, webhook);
    return { result: true };
  }

  private resend(cmd: ResendWebhookEventCommand, ctx: PostingContext): { eventId: string } {
    const notFound = (): never => refuse('WEBHOOK_NOT_EXIST', `Event ${cmd.eventId} does not exist`);
    let event = this.events.get(cmd.eventId);
    if (event !== undefined && event.userId !== cmd.userId) notFound();
    const ended = cmd.ended;
    if (event === undefined && (ended === undefined || ended.userId !== cmd.userId)) notFound();
    const webhook = this.webhooks.get(event?.webhookId ?? ended?.webhookId ?? '');
    if (webhook === undefined || webhook.userId !== cmd.userId) refuse('WEBHOOK_NOT_EXIST', `The webhook of event ${cmd.eventId} was deleted`);
    if (webhook.status !== WEBHOOK_STATUS.ACTIVE) refuse('INVALID_STATE', `Webhook ${webhook.webhookId} is disabled; enable it to resend`);
    if (event === undefined && ended !== undefined) {
      // Back from the store: it goes at once and outside its object's order (docs/webhooks.md "Answering, retries, order").
      event = { ...ended, eventId: cmd.eventId, attempts: ended.attempts, scheduleBase: 0, nextAttemptTime: ctx.ts, eventNo: this.nextEventNo++, queued: false, resent: true };
      this.events.set(event.eventId, event);
    }
    if (event === undefined) return notFound();
    event.resent = true;
    event.scheduleBase = event.attempts;
    writeEvent(ctx, event.eventId, { status: 'PENDING', purgeAfter: 0, deliveredTime: 0 });
    this.schedule(ctx, event, ctx.ts);
    return { eventId: event.eventId };
  }

  private attempted(cmd: WebhookAttemptCommand, ctx: PostingContext): { eventId: string; status: string } | { dropped: string } {
    const event = this.events.get(cmd.eventId);
    // A late report (the event ended meanwhile, or this attempt was already counted) changes nothing.
    if (event === undefined || cmd.attempt !== event.attempts + 1) return { dropped: cmd.eventId };
    event.attempts = cmd.attempt;
    this.writeDelivery(ctx, event, cmd);
    if (cmd.error === '') {
      this.end(ctx, event, 'DELIVERED', cmd.time);
      return { eventId: event.eventId, status: 'DELIVERED' };
    }
    const next = nextAttemptAt(this.settings.webhookSettings, event.eventId, event.attempts - event.scheduleBase, ctx.ts);
    if (next === undefined) {
      this.end(ctx, event, 'FAILED');
      return { eventId: event.eventId, status: 'FAILED' };
    }
    writeEvent(ctx, event.eventId, { attempts: event.attempts });
    this.schedule(ctx, event, next);
    return { eventId: event.eventId, status: 'PENDING' };
  }

  private eventsOf(webhookId: string): OutboxEvent[] {
    return [...this.events.values()].filter((e) => e.webhookId === webhookId).sort((a, b) => a.eventNo - b.eventNo);
  }

  private schedule(ctx: PostingContext, event: OutboxEvent, at: number): void {
    event.nextAttemptTime = at;
    writeEvent(ctx, event.eventId, { nextAttemptTime: at });
  }

  /** DELIVERED or FAILED: out of memory and its object's queue; the store keeps it for the retention. */
  private end(ctx: PostingContext, event: OutboxEvent, status: 'DELIVERED' | 'FAILED', deliveredTime = 0): void {
    this.events.delete(event.eventId);
    if (event.queued) {
      const key = queueKey(event);
      const queue = (this.queues.get(key) ?? []).filter((id) => id !== event.eventId);
      if (queue.length === 0) this.queues.delete(key);
      else this.queues.set(key, queue);
    }
    const retention = this.settings.webhookSettings.retentionDays * DAY_MS;
    writeEvent(ctx, event.eventId, { status, attempts: event.attempts, nextAttemptTime: 0, deliveredTime, purgeAfter: ctx.ts + retention });
  }

  private writeDelivery(ctx: PostingContext, event: OutboxEvent, a: Omit<WebhookAttemptCommand, 'type' | 'eventId'>): void {
    if (!ctx.recordRows) return;
    ctx.rows.moduleRows.push({
      kind: 'webhookAttempt',
      attempt: {
        eventId: event.eventId,
        attempt: a.attempt,
        time: a.time,
        url: a.url,
        httpStatus: a.httpStatus,
        durationMs: a.durationMs,
        result: a.error === '' ? 'SUCCESS' : 'FAILED',
        error: a.error,
      },
    });
  }

  private writeWebhook(ctx: PostingContext, w: Webhook): void {
    if (!ctx.recordRows) return;
    ctx.rows.moduleRows.push({
      kind: 'webhook',
      webhook: { webhookId: w.webhookId, userId: w.userId, eventType: w.eventType, url: w.url, status: w.status, createTime: w.createTime, updateTime: w.updateTime },
    });
  }

  image(): WebhooksImage {
    return {
      webhooks: sortedEntries(this.webhooks).map(([, w]) => ({ ...w })),
      events: [...this.events.values()].sort((a, b) => a.eventNo - b.eventNo).map((e) => ({ ...e })),
      nextEventNo: this.nextEventNo,
    };
  }

  restore(image: WebhooksImage): void {
    this.webhooks = new Map(image.webhooks.map((w) => [w.webhookId, { ...w }]));
    this.byOwner = new Map(image.webhooks.map((w) => [`${w.userId}:${w.eventType}`, w.webhookId]));
    this.events = new Map();
    this.queues = new Map();
    for (const e of image.events) {
      this.events.set(e.eventId, { ...e });
      if (!e.queued) continue;
      const queue = this.queues.get(queueKey(e));
      if (queue === undefined) this.queues.set(queueKey(e), [e.eventId]);
      else queue.push(e.eventId);
    }
    this.nextEventNo = image.nextEventNo;
    this.version++;
  }
}

/** What changed of an event, stamped with the change's time (what the debugger follows). */
function writeEvent(ctx: PostingContext, eventId: string, change: Omit<WebhookEventChange, 'eventId' | 'updateTime'>): void {
  if (ctx.recordRows) ctx.rows.moduleRows.push({ kind: 'webhookEvent', event: { eventId, ...change, updateTime: ctx.ts } });
}

function viewOf(w: Webhook): WebhookView {
  return { webhookId: w.webhookId, eventType: w.eventType, url: w.url, status: w.status };
}
