import { BourseError } from '../../core/errors.js';
import { PaymentError } from '../../core/payment-errors.js';
import type { Exchange } from '../../exchange/exchange.js';
import { EVENT_STATUSES, WEBHOOK_EVENT_TYPES } from '../../payments/webhooks.js';
import { resendEvent, webhookEventView } from '../merchant/webhooks.js';
import { queryEnum, queryInt } from './admin-query.js';
import type { OperatorEndpoint } from './operator-endpoint.js';
import { EXAMPLES, webhookEvent, webhookEventPage, webhookPublicKey } from './schemas.js';

const MAX_EVENTS = 1000;

/**
 * The operator's webhook debugger routes (`bourse webhooks events|resend|receive`): every user's
 * deliveries, a resend of any event, and the deployment's public key.
 */
export function webhookOperatorEndpoints(exchange: Exchange, publicKey: string): OperatorEndpoint[] {
  return [
    {
      id: 'O20',
      summary: "Webhook events and their attempts, every user's (docs/webhooks.md)",
      method: 'GET',
      path: '/webhooks/events',
      response: webhookEventPage,
      example: {
        total: 1,
        events: [{ ...EXAMPLES.webhookEvent, status: 'DELIVERED', nextAttemptTime: '', deliveredTime: '1764115200180', userId: '7', updateTime: '1764115200180' }],
      },
      query: [
        { name: 'userId', type: 'INT' },
        { name: 'webhookId', type: 'STRING' },
        { name: 'eventType', type: 'ENUM', values: WEBHOOK_EVENT_TYPES },
        { name: 'status', type: 'ENUM', values: EVENT_STATUSES },
        { name: 'objectId', type: 'STRING' },
        { name: 'changedSince', type: 'INT', description: 'only events made or attempted at or after this time (ms), least recently changed first (for following the history)' },
        { name: 'limit', type: 'INT', description: `default 100, at most ${MAX_EVENTS}` },
      ],
      handler: ({ query }) => {
        const userId = queryInt(query, 'userId', 0);
        const changedSince = query.changedSince === undefined ? undefined : queryInt(query, 'changedSince', 0);
        const { total, rows } = exchange.history.listWebhookEvents({
          userId: userId === 0 ? undefined : userId,
          webhookId: query.webhookId,
          eventType: queryEnum(query, 'eventType', WEBHOOK_EVENT_TYPES),
          status: queryEnum(query, 'status', EVENT_STATUSES),
          objectId: query.objectId,
          changedSince,
          offset: 0,
          limit: queryInt(query, 'limit', 100, { max: MAX_EVENTS }) || 100,
        });
        return { total, events: rows.map((row) => ({ ...webhookEventView(row), userId: String(row.userId), updateTime: String(row.updateTime) })) };
      },
    },
    {
      id: 'O21',
      summary: 'Resend one webhook event now (as B41, for any user)',
      method: 'POST',
      path: '/webhooks/events/:eventId/resend',
      response: webhookEvent,
      example: EXAMPLES.webhookEvent,
      handler: async ({ params }) => {
        try {
          return await resendEvent({ exchange }, 0, params.eventId ?? '');
        } catch (error) {
          if (!(error instanceof PaymentError)) throw error;
          if (error.code === -5103) throw new BourseError('NOT_FOUND', [`Webhook event ${params.eventId ?? ''} (or its webhook)`]);
          throw new BourseError('INVALID_PARAM_VALUE', ['eventId (its webhook is disabled)']);
        }
      },
    },
    {
      id: 'O22',
      summary: "The deployment's webhook public key (base64 DER SPKI, docs/webhooks.md \"Verifying the signature\")",
      method: 'GET',
      path: '/webhooks/public-key',
      response: webhookPublicKey,
      example: EXAMPLES.publicKey,
      handler: () => ({ publicKey }),
    },
  ];
}
