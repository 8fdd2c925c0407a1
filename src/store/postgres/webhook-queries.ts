/**
 * Read-model queries of area B webhooks (B37, B40, B41 and the operator's delivery history):
 * those of store/sqlite/webhook-queries.ts, but a page's attempts in one query rather than one per event.
 */

import type { WebhookRow } from '../../payments/rows.js';
import type { WebhookDeliveryRow, WebhookEventQuery, WebhookEventRow } from '../store.js';
import { PgQueries } from './queries.js';
import { PgWhere } from './sql.js';

/** B40 keeps the last 20 attempts of an event, newest first (B39's entry, attempt 0, ends an event: last of its millisecond). */
const DELIVERIES_SHOWN = 20;

const EVENT_SELECT = `event_id AS "eventId", webhook_id AS "webhookId", user_id AS "userId", event_type AS "eventType",
  object_id AS "objectId", object_status AS "objectStatus", status, attempts, next_attempt_time AS "nextAttemptTime",
  create_time AS "createTime", event_no AS "eventNo", delivered_time AS "deliveredTime", update_time AS "updateTime", payload`;

const DELIVERY_SELECT = `attempt, time, url, http_status AS "httpStatus", duration_ms AS "durationMs", result, error`;

type StoredEvent = Omit<WebhookEventRow, 'deliveries'>;

export class PgWebhooksReadModel extends PgQueries {
  listWebhooks(userId: number, statuses: readonly number[]): Promise<WebhookRow[]> {
    // webhook_id in binary order, as SQLite compares text.
    return this.all<WebhookRow>(
      `SELECT webhook_id AS "webhookId", user_id AS "userId", event_type AS "eventType", url, status, create_time AS "createTime", update_time AS "updateTime"
       FROM bourse.webhooks WHERE user_id = $1 AND status = ANY($2::bigint[]) ORDER BY create_time DESC, webhook_id COLLATE "C" DESC`,
      [userId, [...statuses]],
    );
  }

  async listWebhookEvents(query: WebhookEventQuery): Promise<{ total: number; rows: WebhookEventRow[] }> {
    const where = new PgWhere()
      .when('user_id = ?', query.userId)
      .when('webhook_id = ?', query.webhookId)
      .when('event_type = ?', query.eventType)
      .when('status = ?', query.status)
      .when('object_id = ?', query.objectId)
      .when('create_time >= ?', query.startTime)
      .when('create_time <= ?', query.endTime)
      .when('update_time >= ?', query.changedSince);
    const total = (await this.first<{ total: number }>(`SELECT count(*) AS total FROM bourse.webhook_events WHERE ${where.sql}`, where.values))?.total ?? 0;
    const order = query.changedSince === undefined ? 'create_time DESC, event_no DESC' : 'update_time, event_no';
    const page = `LIMIT ${where.bind(query.limit)} OFFSET ${where.bind(query.offset)}`;
    const rows = await this.all<StoredEvent>(`SELECT ${EVENT_SELECT} FROM bourse.webhook_events WHERE ${where.sql} ORDER BY ${order} ${page}`, where.values);
    return { total, rows: await this.withDeliveries(rows) };
  }

  async getWebhookEvent(eventId: string): Promise<WebhookEventRow | undefined> {
    const row = await this.first<StoredEvent>(`SELECT ${EVENT_SELECT} FROM bourse.webhook_events WHERE event_id = $1`, [eventId]);
    return row === undefined ? undefined : (await this.withDeliveries([row]))[0];
  }

  /** The exact body of an event, for sending. */
  async webhookPayload(eventId: string): Promise<string | undefined> {
    return (await this.first<{ payload: string }>('SELECT payload FROM bourse.webhook_events WHERE event_id = $1', [eventId]))?.payload;
  }

  /** Each event with its last attempts, newest first. */
  private async withDeliveries(events: StoredEvent[]): Promise<WebhookEventRow[]> {
    if (events.length === 0) return [];
    const deliveries = await this.all<WebhookDeliveryRow & { eventId: string; place: number }>(
      `SELECT * FROM (
         SELECT event_id AS "eventId", ${DELIVERY_SELECT},
           row_number() OVER (PARTITION BY event_id ORDER BY time DESC, attempt = 0 DESC, attempt DESC) AS place
         FROM bourse.webhook_deliveries WHERE event_id = ANY($1::text[])
       ) AS d
       WHERE place <= ${DELIVERIES_SHOWN} ORDER BY "eventId", place`,
      [events.map((e) => e.eventId)],
    );
    const byEvent = new Map<string, WebhookDeliveryRow[]>();
    for (const { eventId, place: _place, ...delivery } of deliveries) {
      let list = byEvent.get(eventId);
      if (list === undefined) {
        list = [];
        byEvent.set(eventId, list);
      }
      list.push(delivery);
    }
    return events.map((event) => ({ ...event, deliveries: byEvent.get(event.eventId) ?? [] }));
  }
}
