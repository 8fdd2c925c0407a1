/** Commands of the webhooks module (docs/webhooks.md). */

export type WebhookEventType = 'ORDER_WEBHOOK' | 'GLOBAL_PAYMENT_WEBHOOK' | 'FUNDING_WEBHOOK';

export interface RegisterWebhookCommand {
  type: 'registerWebhook';
  userId: number;
  /** 32 lowercase hex, drawn by the edge. */
  webhookId: string;
  eventType: WebhookEventType;
  url: string;
}

export interface UpdateWebhookCommand {
  type: 'updateWebhook';
  userId: number;
  webhookId: string;
  url?: string;
  /** 10 active or 20 disabled. */
  status?: number;
}

export interface DeleteWebhookCommand {
  type: 'deleteWebhook';
  userId: number;
  webhookId: string;
}

/** What the store holds of an event that has ended (no longer in the core's memory). */
export interface EndedEvent {
  webhookId: string;
  userId: number;
  eventType: WebhookEventType;
  objectId: string;
  objectStatus: string;
  attempts: number;
  createTime: number;
}

export interface ResendWebhookEventCommand {
  type: 'resendWebhookEvent';
  userId: number;
  eventId: string;
  /** The store's row when the event had ended: the core keeps only pending events. */
  ended?: EndedEvent;
}

/** One delivery attempt's outcome, as the delivery worker saw it (docs/webhooks.md "Answering, retries, order"). */
export interface WebhookAttemptCommand {
  type: 'webhookAttempt';
  eventId: string;
  /** 1, 2, …: the `X-BH-Delivery-Attempt` sent. */
  attempt: number;
  url: string;
  /** When the attempt was sent (ms). */
  time: number;
  /** 0 when no complete reply came. */
  httpStatus: number;
  durationMs: number;
  /** "" on success, else why it failed (docs/webhooks.md "Registering" B40). */
  error: string;
}

/** Drops the history of events that ended more than `retentionDays` ago (docs/webhooks.md "Answering, retries, order"). */
export interface PurgeWebhookEventsCommand {
  type: 'purgeWebhookEvents';
}

export type WebhookCommand =
  | RegisterWebhookCommand
  | UpdateWebhookCommand
  | DeleteWebhookCommand
  | ResendWebhookEventCommand
  | WebhookAttemptCommand
  | PurgeWebhookEventsCommand;
