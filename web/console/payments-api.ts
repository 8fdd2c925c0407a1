/**
 * The payments desk's calls. The queue rows name the exact existing call for each decision
 * (`calls`: a sandbox route under `/sandbox/v2`, answered in area B's `{code, msg, detail, data}`
 * envelope, or an operator route under `/admin/v1`), so this file sends any such call with the
 * admin token and unwraps either answer; it knows no decision's path. Values go out as typed.
 */
import type { WebhookEventRow } from '../shared/webhook-event.js';
import { ApiError, jsonOrUndefined, sendWithToken, type AdminApi, type Json } from './api.js';

/** One decision's call, as a queue row (or a look-up) carries it. */
export interface DeskCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: Record<string, Json>;
  /** The body member that takes the operator's reason. */
  reasonField?: string;
  /** The codes the body's `failCode` may take (the first is the default). */
  failCodes?: number[];
}

/** A row of a queue: the ids and fields that fit it (everything else the server adds shows as it came). */
export interface QueueRow {
  userId: string;
  merchantId: string;
  fiat?: string;
  beneficiaryId?: string;
  orderId?: string;
  txId?: string;
  kind?: string;
  status?: string | number;
  createTime?: string | number;
  updateTime?: string | number;
  actions: string[];
  calls: Record<string, DeskCall>;
  [member: string]: Json | Record<string, DeskCall> | undefined;
}

export const QUEUE_NAMES = ['merchantsKyc', 'merchantAccounts', 'beneficiaries', 'ordersReview', 'ordersDocuments', 'payouts', 'fundingRecords'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface Queue {
  queue: QueueName | string;
  count: number;
  rows: QueueRow[];
}

export interface QueuesAnswer {
  queues: Queue[];
}

export interface DocumentRef {
  documentId: string;
  name: string;
  contentType: string;
  size: number;
  url: string;
}

/** O32: an order with its whole history. */
export interface OrderLookup {
  order: Record<string, Json>;
  history: { status: string | number; time: string | number }[];
  /** False when the statuses known (from the order's webhook events) do not reach back to its creation. */
  historyComplete?: boolean;
  postings: Record<string, Json>[];
  webhookEvents: WebhookEventRow[];
  documents: DocumentRef[];
  actions?: string[];
  calls?: Record<string, DeskCall>;
}

/** O31: a merchant with what hangs from it; members are shown as the server sends them. */
export type MerchantLookup = Record<string, Json>;

/** An area B refusal as the operator reads it: its name and sentence, with its code. */
function envelopeError(status: number, body: { code?: unknown; msg?: unknown; detail?: unknown } | undefined, text: string): ApiError {
  const name = typeof body?.msg === 'string' ? body.msg : '';
  const detail = typeof body?.detail === 'string' ? body.detail : '';
  const message = name === '' && detail === '' ? `HTTP ${status}${text === '' ? '' : `: ${text.slice(0, 200)}`}` : detail === '' ? name : name === '' ? detail : `${name}: ${detail}`;
  return new ApiError(status, typeof body?.code === 'number' ? body.code : undefined, message);
}

/**
 * Sends `call` with the admin token. `body` is the JSON text to send when given (so a member typed
 * as a number goes out byte for byte); otherwise the call's own body, as JSON.
 */
export async function sendCall<T>(api: AdminApi, call: DeskCall, rawBody?: string): Promise<T> {
  const body = rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
  const { response, text, parsed } = await sendWithToken(api.token, call.method, call.path, body);
  const answer = parsed as { code?: unknown; msg?: unknown; detail?: unknown; data?: unknown } | undefined;
  if (!response.ok) throw envelopeError(response.status, answer, text);
  // Area B's envelope says success with code 200 around `data`; an operator route answers the object itself.
  if (!call.path.startsWith('/admin/')) {
    if (answer?.code !== 200) throw envelopeError(response.status, answer, text);
    return answer.data as T;
  }
  return parsed as T;
}

/** A document's bytes, read with the admin token, as a blob URL the page can show inline (revoke it when done). */
export async function documentUrl(api: AdminApi, url: string): Promise<string> {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${api.token}` } });
  if (!response.ok) {
    const text = await response.text();
    throw envelopeError(response.status, jsonOrUndefined(text) as { code?: unknown; msg?: unknown; detail?: unknown } | undefined, text);
  }
  return URL.createObjectURL(await response.blob());
}

/** A ms time (number or digits) as ISO 8601 UTC; "" and 0 mean "not yet". */
export function timeText(value: Json | undefined): string {
  const ms = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/u.test(value) ? Number(value) : NaN;
  return Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString() : '';
}

/** A value as text, exactly as it came: strings as they are, anything else as JSON. */
export function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
