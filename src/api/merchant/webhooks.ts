import { invalidParam, refuse } from '../../core/payment-errors.js';
import type { WebhookEventType } from '../../core/webhook-commands.js';
import type { WebhookView } from '../../exchange/webhooks/webhooks-module.js';
import { isHttpUrl } from '../../payments/validation/formats.js';
import { EVENT_STATUSES, WEBHOOK_EVENT_TYPES, WEBHOOK_STATUS } from '../../payments/webhooks.js';
import type { WebhookEventRow } from '../../store/store.js';
import type { MerchantContext, MerchantEndpoint } from './merchant-endpoint.js';
import { ANSWERS } from './schemas.js';
import { linkToken } from './merchants.js';

const HEX_ID = /^[0-9a-f]{32}$/;
/** B38 takes the legacy 1 and 2 as synonyms of 10 and 20 (docs/webhooks.md "Registering"). */
const STATUS_INPUT: ReadonlyMap<number, number> = new Map([
  [1, WEBHOOK_STATUS.ACTIVE],
  [2, WEBHOOK_STATUS.DISABLED],
  [WEBHOOK_STATUS.ACTIVE, WEBHOOK_STATUS.ACTIVE],
  [WEBHOOK_STATUS.DISABLED, WEBHOOK_STATUS.DISABLED],
]);

const msText = (ms: number): string => (ms === 0 ? '' : String(ms));

/** A B40 row: the exact body as `payload`, the last 20 attempts newest first. */
export function webhookEventView(row: WebhookEventRow): Record<string, unknown> {
  return {
    eventId: row.eventId,
    webhookId: row.webhookId,
    eventType: row.eventType,
    objectId: row.objectId,
    objectStatus: row.objectStatus,
    status: row.status,
    attempts: row.attempts,
    nextAttemptTime: row.status === 'PENDING' ? msText(row.nextAttemptTime) : '',
    createTime: msText(row.createTime),
    deliveredTime: msText(row.deliveredTime),
    payload: row.payload,
    deliveries: row.deliveries.map((d) => ({ attempt: d.attempt, time: String(d.time), url: d.url, httpStatus: d.httpStatus, durationMs: d.durationMs, result: d.result, error: d.error })),
  };
}

/** docs/webhooks.md "Registering": absolute http(s), at most 512 characters; https only when `BOURSE_SANDBOX=0`. */
function targetUrl(ctx: MerchantContext, options: { required: boolean }): string | undefined {
  const url = ctx.params.str('url', { required: options.required, max: 512 });
  if (url === undefined) return undefined;
  if (!isHttpUrl(url)) invalidParam('url', 'must be an absolute http or https URL');
  if (!ctx.sandbox && !/^https:/i.test(url)) invalidParam('url', 'must be https (BOURSE_SANDBOX=0)');
  return url;
}

function withKey(ctx: MerchantContext, view: WebhookView): Record<string, unknown> {
  return { ...view, publicKey: ctx.webhookPublicKey };
}

function pathHexId(ctx: MerchantContext, name: string, what: string): string {
  const id = ctx.path[name] ?? '';
  if (!HEX_ID.test(id)) refuse('WEBHOOK_NOT_EXIST', `${what} ${id} does not exist`);
  return id;
}

async function register(ctx: MerchantContext): Promise<unknown> {
  const eventType = ctx.params.enumOf('eventType', WEBHOOK_EVENT_TYPES, { required: true });
  const url = targetUrl(ctx, { required: true }) as string;
  const view = await ctx.exchange.submit<WebhookView>({ type: 'registerWebhook', userId: ctx.userId, webhookId: linkToken(), eventType, url });
  return withKey(ctx, view);
}

async function list(ctx: MerchantContext): Promise<unknown> {
  const status = ctx.params.int('status');
  if (status !== undefined && !Object.values(WEBHOOK_STATUS).includes(status as 10)) invalidParam('status', 'must be 10, 20 or 30');
  const statuses = status === undefined ? [WEBHOOK_STATUS.ACTIVE, WEBHOOK_STATUS.DISABLED] : [status];
  const webhooks = await ctx.exchange.history.listWebhooks(ctx.userId, statuses);
  return webhooks.map((w) => withKey(ctx, { webhookId: w.webhookId, eventType: w.eventType as WebhookEventType, url: w.url, status: w.status }));
}

async function update(ctx: MerchantContext): Promise<unknown> {
  const webhookId = pathHexId(ctx, 'webhookId', 'Webhook');
  const url = targetUrl(ctx, { required: false });
  const given = ctx.params.int('status');
  const status = given === undefined ? undefined : STATUS_INPUT.get(given);
  if (given !== undefined && status === undefined) invalidParam('status', 'must be 10 (active) or 20 (disabled)');
  if (url === undefined && status === undefined) invalidParam('url', 'or status is required');
  const view = await ctx.exchange.submit<WebhookView>({ type: 'updateWebhook', userId: ctx.userId, webhookId, ...(url === undefined ? {} : { url }), ...(status === undefined ? {} : { status }) });
  return withKey(ctx, view);
}

async function remove(ctx: MerchantContext): Promise<unknown> {
  const webhookId = pathHexId(ctx, 'webhookId', 'Webhook');
  return ctx.exchange.submit({ type: 'deleteWebhook', userId: ctx.userId, webhookId });
}

async function events(ctx: MerchantContext): Promise<unknown> {
  const { params } = ctx;
  const webhookId = params.str('webhookId', { max: 32 });
  const eventType = params.enumOf('eventType', WEBHOOK_EVENT_TYPES);
  const status = params.enumOf('status', EVENT_STATUSES);
  const objectId = params.str('objectId', { max: 64 });
  const range = params.timeRange();
  const paging = params.paging();
  const { total, rows } = await ctx.exchange.history.listWebhookEvents({
    userId: ctx.userId,
    webhookId,
    eventType,
    status,
    objectId,
    ...range,
    offset: (paging.currentPage - 1) * paging.pageSize,
    limit: paging.pageSize,
  });
  return { currentPage: paging.currentPage, size: paging.pageSize, total, record: rows.map(webhookEventView) };
}

/**
 * B41 for the caller, or for any user when `userId` is 0 (the operator): the core holds only
 * pending events, so an ended one travels in the command as the store has it.
 */
export async function resendEvent(ctx: Pick<MerchantContext, 'exchange'>, userId: number, eventId: string): Promise<Record<string, unknown>> {
  const notFound = (): never => refuse('WEBHOOK_NOT_EXIST', `Event ${eventId} does not exist`);
  if (!HEX_ID.test(eventId)) notFound();
  const { exchange } = ctx;
  // The store first, the core after it: the core is then current when the command is built, so an
  // event that ended while the store answered travels as the store has it, not as a stale pending one.
  const stored = await exchange.history.getWebhookEvent(eventId);
  const pending = exchange.core.webhooks.pendingEvent(eventId);
  const owner = pending?.userId ?? stored?.userId;
  if (owner === undefined || (userId !== 0 && owner !== userId)) notFound();
  const ended =
    pending === undefined && stored !== undefined
      ? { webhookId: stored.webhookId, userId: stored.userId, eventType: stored.eventType as WebhookEventType, objectId: stored.objectId, objectStatus: stored.objectStatus, attempts: stored.attempts, createTime: stored.createTime }
      : undefined;
  await exchange.submit({ type: 'resendWebhookEvent', userId: owner as number, eventId, ...(ended === undefined ? {} : { ended }) });
  const row = await exchange.history.getWebhookEvent(eventId);
  return row === undefined ? notFound() : webhookEventView(row);
}

/** B36–B41 (docs/webhooks.md "Registering"). */
export function webhookEndpoints(): MerchantEndpoint[] {
  const urlParam = { name: 'url', type: 'STRING', description: 'absolute http(s) URL, at most 512 characters; https only when BOURSE_SANDBOX=0' } as const;
  return [
    {
      id: 'B36',
      summary: 'Register a webhook',
      method: 'POST',
      path: '/v2/webhook',
      auth: 'TOKEN',
      params: [{ name: 'eventType', type: 'ENUM', required: true, values: WEBHOOK_EVENT_TYPES }, { ...urlParam, required: true }],
      ...ANSWERS.B36,
      handler: register,
    },
    { id: 'B37', summary: 'List webhooks', method: 'GET', path: '/v2/webhooks', auth: 'TOKEN', params: [{ name: 'status', type: 'INT', description: '10, 20 or 30; absent: 10 and 20' }], ...ANSWERS.B37, handler: list },
    {
      id: 'B38',
      summary: 'Change the URL or status of a webhook',
      method: 'PUT',
      path: '/v2/webhook/:webhookId',
      auth: 'TOKEN',
      params: [urlParam, { name: 'status', type: 'INT', description: '10 active or 20 disabled (1 and 2 accepted)' }],
      ...ANSWERS.B38,
      handler: update,
    },
    { id: 'B39', summary: 'Delete a webhook', method: 'DELETE', path: '/v2/webhook/:webhookId', auth: 'TOKEN', params: [], ...ANSWERS.B39, handler: remove },
    {
      id: 'B40',
      summary: 'Webhook delivery history',
      method: 'GET',
      path: '/v2/webhook/events',
      auth: 'TOKEN',
      params: [
        { name: 'webhookId', type: 'STRING' },
        { name: 'eventType', type: 'ENUM', values: WEBHOOK_EVENT_TYPES },
        { name: 'status', type: 'ENUM', values: EVENT_STATUSES },
        { name: 'objectId', type: 'STRING' },
        { name: 'startTime', type: 'LONG' },
        { name: 'endTime', type: 'LONG' },
        { name: 'currentPage', type: 'INT' },
        { name: 'pageSize', type: 'INT' },
      ],
      ...ANSWERS.B40,
      handler: events,
    },
    {
      id: 'B41',
      summary: 'Resend one webhook event now',
      method: 'POST',
      path: '/v2/webhook/events/:eventId/resend',
      auth: 'TOKEN',
      params: [],
      ...ANSWERS.B41,
      handler: (ctx) => resendEvent(ctx, ctx.userId, ctx.path.eventId ?? ''),
    },
  ];
}
