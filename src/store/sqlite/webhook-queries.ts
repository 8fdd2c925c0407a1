/** Read-model queries of area B webhooks (B37, B40, B41 and the operator's delivery history). */

import type { WebhookRow } from '../../payments/rows.js';
import { DELIVERIES_SHOWN, DELIVERY_ORDER, DELIVERY_SELECT, EVENT_SELECT, WEBHOOK_SELECT, webhookEventPage } from '../sql-shapes.js';
import type { WebhookDeliveryRow, WebhookEventQuery, WebhookEventRow } from '../store.js';
import { StatementCache } from './queries.js';

type StoredEvent = Omit<WebhookEventRow, 'deliveries'>;

export class WebhooksReadModel extends StatementCache {
  listWebhooks(userId: number, statuses: readonly number[]): WebhookRow[] {
    return this.all<WebhookRow>(
      `SELECT ${WEBHOOK_SELECT} FROM webhooks WHERE user_id = ? AND status IN (${statuses.map(() => '?').join(', ')})
       ORDER BY create_time DESC, webhook_id DESC`,
      [userId, ...statuses],
    );
  }

  listWebhookEvents(query: WebhookEventQuery): { total: number; rows: WebhookEventRow[] } {
    const { total, rows } = this.countedPage<StoredEvent>(EVENT_SELECT, webhookEventPage(query));
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
      `SELECT ${DELIVERY_SELECT} FROM webhook_deliveries WHERE event_id = ? ORDER BY ${DELIVERY_ORDER} LIMIT ${DELIVERIES_SHOWN}`,
      [row.eventId],
    );
    return { ...row, deliveries };
  }
}
