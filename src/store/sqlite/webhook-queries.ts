/** Read-model queries of area B webhooks (B37, B40, B41 and the operator's delivery history). */

import type { WebhookRow } from '../../payments/rows.js';
import type { WebhookDeliveryRow, WebhookEventQuery, WebhookEventRow } from '../store.js';
import { StatementCache, Where } from './queries.js';

/** B40 keeps the last 20 attempts of an event, newest first (B39's entry, attempt 0, ends an event: last of its millisecond). */
const DELIVERIES_SHOWN = 20;

const EVENT_SELECT = `event_id AS eventId, webhook_id AS webhookId, user_id AS userId, event_type AS eventType,
  object_id AS objectId, object_status AS objectStatus, status, attempts, next_attempt_time AS nextAttemptTime,
  create_time AS createTime, event_no AS eventNo, delivered_time AS deliveredTime, update_time AS updateTime, payload`;

const DELIVERY_SELECT = `attempt, time, url, http_status AS httpStatus, duration_ms AS durationMs, result, error`;

type StoredEvent = Omit<WebhookEventRow, 'deliveries'>;

export class WebhooksReadModel extends StatementCache {
  listWebhooks(userId: number, statuses: readonly number[]): WebhookRow[] {
    return this.all<WebhookRow>(
      `SELECT webhook_id AS webhookId, user_id AS userId, event_type AS eventType, url, status, create_time AS createTime, update_time AS updateTime
       FROM webhooks WHERE user_id = ? AND status IN (${statuses.map(() => '?').join(', ')}) ORDER BY create_time DESC, webhook_id DESC`,
      [userId, ...statuses],
    );
  }

  listWebhookEvents(query: WebhookEventQuery): { total: number; rows: WebhookEventRow[] } {
    const where = new Where()
      .when('user_id = ?', query.userId)
      .when('webhook_id = ?', query.webhookId)
      .when('event_type = ?', query.eventType)
      .when('status = ?', query.status)
      .when('object_id = ?', query.objectId)
      .when('create_time >= ?', query.startTime)
      .when('create_time <= ?', query.endTime)
      .when('update_time >= ?', query.changedSince);
    const condition = where.sql === '' ? '1' : where.sql;
    const total = this.first<{ total: number }>(`SELECT count(*) AS total FROM webhook_events WHERE ${condition}`, where.values)?.total ?? 0;
    const order = query.changedSince === undefined ? 'create_time DESC, event_no DESC' : 'update_time, event_no';
    const rows = this.all<StoredEvent>(
      `SELECT ${EVENT_SELECT} FROM webhook_events WHERE ${condition} ORDER BY ${order} LIMIT ? OFFSET ?`,
      [...where.values, query.limit, query.offset],
    );
    return { total, rows: rows.map((row) => this.withDeliveries(row)) };
  }

  getWebhookEvent(eventId: string): WebhookEventRow | undefined {
    const row = this.first<StoredEvent>(`SELECT ${EVENT_SELECT} FROM webhook_events WHERE event_id = ?`, [eventId]);
    return row === undefined ? undefined : this.withDeliveries(row);
  }

  /** The exact body of an event, for sending. */
  webhookPayload(eventId: string): string | undefined {
    return this.first<{ payload: string }>('SELECT payload FROM webhook_events WHERE event_id = ?', [eventId])?.payload;
  }

  private withDeliveries(row: StoredEvent): WebhookEventRow {
    const deliveries = this.all<WebhookDeliveryRow>(
      `SELECT ${DELIVERY_SELECT} FROM webhook_deliveries WHERE event_id = ? ORDER BY time DESC, attempt = 0 DESC, attempt DESC LIMIT ${DELIVERIES_SHOWN}`,
      [row.eventId],
    );
    return { ...row, deliveries };
  }
}
