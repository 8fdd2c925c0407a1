/**
 * Area B's typed rows as SQLite writes them: each kind to its table and columns. Tables are
 * upserted on their first column (an object's last state in a batch wins); an event's change
 * carries only the columns that changed (the table gives the others defaults on first insert).
 */

import type { ModuleRow, WebhookEventChange } from '../../payments/rows.js';
import { paymentOrderView } from '../../payments/order-view.js';
import type { SqlValue } from '../sql-shapes.js';

export type TableWrite =
  | { table: string; values: Readonly<Record<string, SqlValue>> }
  /** Deletes the rows whose `column` is positive and at most `upTo` (history past its retention). */
  | { table: string; purge: { column: string; upTo: number } };

/** Column of each member of an event change, in the order they are written. */
const EVENT_COLUMNS: readonly (readonly [keyof WebhookEventChange, string])[] = [
  ['eventId', 'event_id'],
  ['webhookId', 'webhook_id'],
  ['userId', 'user_id'],
  ['eventType', 'event_type'],
  ['objectId', 'object_id'],
  ['objectStatus', 'object_status'],
  ['status', 'status'],
  ['attempts', 'attempts'],
  ['nextAttemptTime', 'next_attempt_time'],
  ['createTime', 'create_time'],
  ['eventNo', 'event_no'],
  ['deliveredTime', 'delivered_time'],
  ['purgeAfter', 'purge_after'],
  ['payload', 'payload'],
  ['updateTime', 'update_time'],
];

export function tableWriteOf(row: ModuleRow): TableWrite {
  switch (row.kind) {
    case 'fundingRecord': {
      const r = row.record;
      return {
        table: 'funding_records',
        values: {
          tx_id: r.txId,
          user_id: r.userId,
          merchant_id: r.merchantId,
          merchant_name: r.merchantName,
          client_id: r.clientId,
          order_id: r.orderId,
          fiat: r.fiat,
          total_amount: r.totalAmount,
          amount: r.amount,
          fee: r.fee,
          user_payment_id: r.userPaymentId,
          type: r.type,
          status: r.status,
          fail_reason: r.failReason,
          payer: r.payer,
          create_time: r.createTime,
          update_time: r.updateTime,
        },
      };
    }
    case 'paymentOrder': {
      const order = row.order.order;
      const merchants = order.onRamp === undefined ? [order.merchantId] : [order.onRamp.merchantId, order.offRamp?.merchantId ?? 0];
      return {
        table: 'payment_orders',
        values: {
          order_id: order.orderId,
          user_id: order.userId,
          kind: order.kind,
          status: order.status,
          client_id: order.clientId,
          // ',7,' or ',7,9,': B34's merchantId matches any of them.
          merchant_ids: `,${[...new Set(merchants)].join(',')},`,
          create_time: order.createTime,
          detail: JSON.stringify(paymentOrderView(row.order)),
        },
      };
    }
    case 'webhook': {
      const w = row.webhook;
      return {
        table: 'webhooks',
        values: { webhook_id: w.webhookId, user_id: w.userId, event_type: w.eventType, url: w.url, status: w.status, create_time: w.createTime, update_time: w.updateTime },
      };
    }
    case 'webhookEvent': {
      const values: Record<string, SqlValue> = {};
      for (const [member, column] of EVENT_COLUMNS) {
        const value = row.event[member];
        if (value !== undefined) values[column] = value;
      }
      return { table: 'webhook_events', values };
    }
    case 'webhookAttempt': {
      const a = row.attempt;
      return {
        table: 'webhook_deliveries',
        values: {
          delivery_key: `${a.eventId}:${a.attempt}`,
          event_id: a.eventId,
          attempt: a.attempt,
          time: a.time,
          url: a.url,
          http_status: a.httpStatus,
          duration_ms: a.durationMs,
          result: a.result,
          error: a.error,
        },
      };
    }
    case 'webhookEventsPurge':
      return { table: 'webhook_events', purge: { column: 'purge_after', upTo: row.upTo } };
  }
}
