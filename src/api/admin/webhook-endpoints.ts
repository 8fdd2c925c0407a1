import { BourseError } from '../../core/errors.js';
import { PaymentError } from '../../core/payment-errors.js';
import type { Exchange } from '../../exchange/exchange.js';
import { EVENT_STATUSES, WEBHOOK_EVENT_TYPES } from '../../payments/webhooks.js';
import { resendEvent, webhookEventView } from '../merchant/webhooks.js';
import { operatorEndpoint, type OperatorEndpoint } from './operator-endpoint.js';
import * as P from './path-params.js';
import * as Q from './query-params.js';
import { EXAMPLES, webhookEvent, webhookEventPage, webhookPublicKey } from './schemas.js';

const DEFAULT_EVENTS = 100;
const MAX_EVENTS = 1000;

/**
 * The operator's webhook debugger routes (`bourse webhooks events|resend|receive`): every user's
 * deliveries, a resend of any event, and the deployment's public key.
 */
export function webhookOperatorEndpoints(exchange: Exchange, publicKey: string): OperatorEndpoint[] {
  return [
    operatorEndpoint({
      id: 'O20',
      summary: "Webhook events and their attempts, every user's (docs/webhooks.md)",
      method: 'GET',
      path: '/webhooks/events',
      response: webhookEventPage,
      example: {
        total: 1,
        events: [{ ...EXAMPLES.webhookEvent, status: 'DELIVERED', nextAttemptTime: '', deliveredTime: '1764115200180', userId: '7', updateTime: '1764115200180' }],
      },
      params: {
        query: {
          userId: Q.integer({ description: 'only this user; 0 = every user' }),
          webhookId: Q.text(),
          eventType: Q.oneOf(WEBHOOK_EVENT_TYPES),
          status: Q.oneOf(EVENT_STATUSES),
          objectId: Q.text(),
          changedSince: Q.integer({ description: 'only events made or attempted at or after this time (ms), least recently changed first (for following the history)' }),
          limit: Q.withDefault(Q.integer({ max: MAX_EVENTS, description: '0 = the default' }), DEFAULT_EVENTS),
        },
      },
      handler: async ({ query }) => {
        const { total, rows } = await exchange.history.listWebhookEvents({
          // 0 is every user, as absent is; a limit of 0 is the default one.
          userId: query.userId === 0 ? undefined : query.userId,
          webhookId: query.webhookId,
          eventType: query.eventType,
          status: query.status,
          objectId: query.objectId,
          changedSince: query.changedSince,
          offset: 0,
          limit: query.limit === 0 ? DEFAULT_EVENTS : query.limit,
        });
        return { total, events: rows.map((row) => ({ ...webhookEventView(row), userId: String(row.userId), updateTime: String(row.updateTime) })) };
      },
    }),
    operatorEndpoint({
      id: 'O21',
      summary: 'Resend one webhook event now (as B41, for any user)',
      method: 'POST',
      path: '/webhooks/events/:eventId/resend',
      response: webhookEvent,
      example: EXAMPLES.webhookEvent,
      params: { path: { eventId: P.text('the event id (32 hex digits)') } },
      handler: async ({ path }) => {
        try {
          return await resendEvent({ exchange }, 0, path.eventId);
        } catch (error) {
          if (!(error instanceof PaymentError)) throw error;
          if (error.code === -5103) throw new BourseError('NOT_FOUND', [`Webhook event ${path.eventId} (or its webhook)`]);
          throw new BourseError('INVALID_PARAM_VALUE', ['eventId (its webhook is disabled)']);
        }
      },
    }),
    operatorEndpoint({
      id: 'O22',
      summary: "The deployment's webhook public key (base64 DER SPKI, docs/webhooks.md \"Verifying the signature\")",
      method: 'GET',
      path: '/webhooks/public-key',
      response: webhookPublicKey,
      example: EXAMPLES.publicKey,
      handler: () => ({ publicKey }),
    }),
  ];
}
