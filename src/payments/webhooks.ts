/** Webhooks of area B (docs/webhooks.md): registrations, outbox events, the retry schedule, bodies. */

import { createHash } from 'node:crypto';
import type { WebhookEventType } from '../core/webhook-commands.js';
import type { WebhookSettings } from './config.js';
import { formatFixed } from './money.js';
import { fundingTexts, type FundingRecord } from './model.js';
import type { Money, PaymentOrder } from './orders.js';

export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = ['ORDER_WEBHOOK', 'GLOBAL_PAYMENT_WEBHOOK', 'FUNDING_WEBHOOK'];

export const WEBHOOK_STATUS = { ACTIVE: 10, DISABLED: 20, DELETED: 30 } as const;

export type EventStatus = 'PENDING' | 'DELIVERED' | 'FAILED';
export const EVENT_STATUSES: readonly EventStatus[] = ['PENDING', 'DELIVERED', 'FAILED'];

/** The `error` of the entry B39 adds to each pending event it ends (attempt 0, nothing sent). */
export const WEBHOOK_DELETED_ERROR = 'webhook deleted';

export interface Webhook {
  webhookId: string;
  userId: number;
  eventType: WebhookEventType;
  url: string;
  status: number;
  createTime: number;
  updateTime: number;
  /** Events made so far: the input of the next `eventId`. */
  eventCount: number;
}

/** An event still to be delivered: the core holds these only; ended ones live in the store. */
export interface OutboxEvent {
  eventId: string;
  webhookId: string;
  userId: number;
  eventType: WebhookEventType;
  /** orderId or txId. */
  objectId: string;
  objectStatus: string;
  /** Attempts made so far (the next sends `attempts + 1`). */
  attempts: number;
  /** `attempts` when the current retry schedule began (0, or the count at a resend). */
  scheduleBase: number;
  nextAttemptTime: number;
  createTime: number;
  /** Creation order in the deployment. */
  eventNo: number;
  /** Waits its turn behind earlier events of its object; false for an ended event resent (docs/webhooks.md "Answering, retries, order": outside the order). */
  queued: boolean;
  /** B41 made it due at once, ahead of its object's order. */
  resent: boolean;
}

/**
 * `eventId`: 32 lowercase hex from the webhook's random id and its event count, so a replay
 * derives the same ids and two deployments (or a reset one) never repeat each other's.
 */
export function eventIdOf(webhookId: string, n: number): string {
  return createHash('sha256').update(`${webhookId}:${n}`).digest('hex').slice(0, 32);
}

/**
 * When the attempt after `attempt` is due, from `now`; undefined after the schedule's last attempt
 * (the event FAILS). The 0–`jitterPct` % jitter comes from the event id and attempt: spread like
 * random values, yet the same on a replay.
 */
export function nextAttemptAt(settings: WebhookSettings, eventId: string, attemptInSchedule: number, now: number): number | undefined {
  const gap = settings.retryGapsMs[attemptInSchedule - 1];
  if (gap === undefined) return undefined;
  const draw = createHash('sha256').update(`${eventId}:${attemptInSchedule}`).digest().readUInt32BE(0) / 2 ** 32;
  return now + gap + Math.floor((gap * settings.jitterPct * draw) / 100);
}

/** Which event type an order's changes are (docs/webhooks.md "Registering"). */
export function orderEventType(order: PaymentOrder): WebhookEventType {
  return order.kind === 'fiat_to_fiat' ? 'GLOBAL_PAYMENT_WEBHOOK' : 'ORDER_WEBHOOK';
}

const fixed = (m: Money): string => formatFixed(m.units, m.accuracy);

/** docs/webhooks.md "What is sent" order body after `webhookId`, `eventId`, `eventType`: ids of merchants and `failCode` numbers, the rest text. */
export function orderPayload(order: PaymentOrder): Record<string, string | number> {
  const head = { orderId: String(order.orderId), clientId: order.clientId, userId: String(order.userId) };
  const tail = {
    orderPrice: fixed(order.orderPrice),
    orderStatus: String(order.status),
    failCode: order.failCode,
    failReason: order.failReason,
    createTime: String(order.createTime),
    updateTime: String(order.updateTime),
  };
  if (order.onRamp !== undefined && order.offRamp !== undefined) {
    return {
      ...head,
      onRampCountry: order.onRamp.country,
      onRampMerchantId: order.onRamp.merchantId,
      onRampFiat: order.onRamp.fiat,
      onRampFiatAmount: fixed(order.onRamp.amount),
      onRampFiatFee: fixed(order.onRamp.fee),
      offRampCountry: order.offRamp.country,
      offRampMerchantId: order.offRamp.merchantId,
      offRampFiat: order.offRamp.fiat,
      offRampFiatAmount: fixed(order.offRamp.amount),
      offRampFiatFee: fixed(order.offRamp.fee),
      offArriveRampFiatAmount: fixed(order.offRamp.arrive),
      ...tail,
    };
  }
  return {
    ...head,
    merchantId: order.merchantId,
    orderType: order.kind === 'fiat_to_crypto' ? 'BUY' : 'SELL',
    fiat: order.fiat,
    fiatAmount: fixed(order.fiatAmount),
    fiatFee: fixed(order.fiatFee),
    crypto: order.crypto,
    cryptoAmount: fixed(order.cryptoAmount),
    ...tail,
  };
}

/** docs/webhooks.md "What is sent" funding body after `webhookId`, `eventId`, `eventType`: every value text; payer fields from the arrival, if any. */
export function fundingPayload(r: FundingRecord): Record<string, string> {
  const payer = r.payer;
  return {
    txId: String(r.txId),
    merchantId: String(r.merchantId),
    ...fundingTexts(r),
    userPaymentId: String(r.userPaymentId),
    type: r.type,
    status: String(r.status),
    createTime: String(r.createTime),
    updateTime: String(r.updateTime),
    cardNo: payer?.cardNo ?? '',
    taxId: payer?.taxId ?? '',
    payerName: payer?.payerName ?? '',
    payerAccount: payer?.payerAccount ?? '',
    bankWebhookInfo:
      payer === undefined
        ? '{}'
        : JSON.stringify({
            sender_account_number: payer.payerAccount,
            description: payer.description,
            sender_name: payer.payerName,
            tracking_id: payer.traceNumber,
            sender_id: payer.taxId,
          }),
  };
}
