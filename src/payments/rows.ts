/**
 * The rows area B's modules derive with each command, typed: funding records, payment orders,
 * webhooks and their outbox. The store maps each kind to its table; which table and which column
 * is the store's business, not the core's.
 */

import type { WebhookEventType } from '../core/webhook-commands.js';
import type { FundingRecord } from './model.js';
import type { PaymentOrder } from './orders.js';
import type { EventStatus } from './webhooks.js';

/**
 * A funding record as stored and read back (B21): the record with its amounts as the fixed-decimal
 * strings area B shows and its payer as JSON text of the arrival's payer (DEPOSIT, REFUND), '' otherwise.
 */
export interface FundingRecordRow extends Omit<FundingRecord, 'totalAmount' | 'amount' | 'fee' | 'accuracy' | 'type' | 'payer'> {
  totalAmount: string;
  amount: string;
  fee: string;
  type: string;
  payer: string;
}

/**
 * A payment order as a command left it, with what its B33 object shows of other objects, resolved
 * when the command ran (order-view.ts makes the B33 object of it).
 */
export interface PaymentOrderRow {
  /** A copy: later commands of the same batch change the live order. */
  order: Readonly<PaymentOrder>;
  /** Where the payer pays in: the merchant account's instructions with the order as reference; empty from the pending fund or for c2f. */
  payInInfo: Readonly<Record<string, string>>;
  /** The beneficiary paid out (its fields); empty when there is none. */
  payoutInfo: Readonly<Record<string, string>>;
}

export interface WebhookRow {
  webhookId: string;
  userId: number;
  eventType: string;
  url: string;
  status: number;
  createTime: number;
  updateTime: number;
}

/** An outbox event written when made (every member set) or changed (only what changed), stamped with the change's time. */
export interface WebhookEventChange {
  eventId: string;
  /** Time of the change (what the debugger follows). */
  updateTime: number;
  webhookId?: string;
  userId?: number;
  eventType?: WebhookEventType;
  objectId?: string;
  objectStatus?: string;
  status?: EventStatus;
  attempts?: number;
  /** 0: none planned. */
  nextAttemptTime?: number;
  createTime?: number;
  eventNo?: number;
  deliveredTime?: number;
  /** End time + retention once ended; 0 while pending. */
  purgeAfter?: number;
  /** The exact body sent on every attempt. */
  payload?: string;
}

/** One delivery attempt of an event (attempt 0: B39 ended it without sending). */
export interface WebhookAttemptRow {
  eventId: string;
  attempt: number;
  time: number;
  url: string;
  httpStatus: number;
  durationMs: number;
  result: 'SUCCESS' | 'FAILED';
  error: string;
}

/** A row of area B, in the order derived: an object's last state in a batch wins. */
export type ModuleRow =
  | { kind: 'fundingRecord'; record: FundingRecordRow }
  | { kind: 'paymentOrder'; order: PaymentOrderRow }
  | { kind: 'webhook'; webhook: WebhookRow }
  | { kind: 'webhookEvent'; event: WebhookEventChange }
  | { kind: 'webhookAttempt'; attempt: WebhookAttemptRow }
  /** Ended events whose retention ran out by `upTo` are deleted, with their attempts. */
  | { kind: 'webhookEventsPurge'; upTo: number };
