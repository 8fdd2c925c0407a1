/**
 * Read-model queries of area B webhooks (B37, B40, B41 and the operator's delivery history):
 * those of store/sqlite/webhook-queries.ts, but a page's attempts in one query rather than one per event.
 */

import type { WebhookRow } from '../../payments/rows.js';
import { DELIVERIES_SHOWN, DELIVERY_ORDER, DELIVERY_SELECT, EVENT_SELECT, WEBHOOK_SELECT, webhookEventPage } from '../sql-shapes.js';
import type { WebhookDeliveryRow, WebhookEventQuery, WebhookEventRow } from '../store.js';
import { PgQueries } from './queries.js';
import { quotedAliases } from './sql.js';

const WEBHOOKS = quotedAliases(WEBHOOK_SELECT);
const EVENTS = quotedAliases(EVENT_SELECT);
const DELIVERIES = quotedAliases(DELIVERY_SELECT);

type StoredEvent = Omit<WebhookEventRow, 'deliveries'>;

export class PgWebhooksReadModel extends PgQueries {
  listWebhooks(userId: number, statuses: readonly number[]): Promise<WebhookRow[]> {
    // The statuses as one array parameter; webhook_id in binary order, as SQLite compares text.
    return this.all<WebhookRow>(
      `SELECT ${WEBHOOKS} FROM bourse.webhooks WHERE user_id = $1 AND status = ANY($2::bigint[])
       ORDER BY create_time DESC, webhook_id COLLATE "C" DESC`,
      [userId, [...statuses]],
    );
  }

  async listWebhookEvents(query: WebhookEventQuery): Promise<{ total: number; rows: WebhookEventRow[] }> {
    const { total, rows } = await this.countedPage<StoredEvent>(EVENTS, webhookEventPage(query));
    return { total, rows: await this.withDeliveries(rows) };
  }

  async getWebhookEvent(eventId: string): Promise<WebhookEventRow | undefined> {
    const row = await this.first<StoredEvent>(`SELECT ${EVENTS} FROM bourse.webhook_events WHERE event_id = $1`, [eventId]);
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
         SELECT event_id AS "eventId", ${DELIVERIES}, row_number() OVER (PARTITION BY event_id ORDER BY ${DELIVERY_ORDER}) AS place
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
