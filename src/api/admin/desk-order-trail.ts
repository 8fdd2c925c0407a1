/**
 * O32's trail of one payment order (docs/operating.md "The payments desk"): its statuses with their
 * times, the balance-flow rows of the commands that moved it, its webhook events with their
 * attempts, and the documents B35 stored for it.
 *
 * The statuses are the order's status log: every status it entered, stamped with the sequence
 * number and time of the command that moved it, kept by the core from creation (the webhooks a
 * merchant registered play no part). The postings are the flow rows of the order's accounts
 * (merchants, desk, fee) at those times made by exactly those commands.
 *
 * An order restored from a snapshot older than the log (image version 6 and before) has an
 * incomplete one: its past statuses are then read, as before the log, from its webhook events
 * (one per status entered, docs/webhooks.md), which exist while the user had a webhook of the
 * order's type, and `historyComplete` says whether they reach back to the creation; its postings
 * are the flow rows at those times of a journaled command that names the order.
 */
import { BourseError } from '../../core/errors.js';
import { FLOW_TYPES, type Command, type FlowRow } from '../../core/types.js';
import type { Exchange } from '../../exchange/exchange.js';
import { orderEventType } from '../../payments/webhooks.js';
import { statusLogComplete, type PaymentOrder, type StatusLogEntry } from '../../payments/orders.js';
import type { DocumentExt, DocumentStore } from '../../store/documents.js';
import { webhookEventView } from '../merchant/webhooks.js';
import { FileAnswer } from './file-answer.js';

/** Webhook events read per order: a lifecycle has a handful of statuses, resends add none. */
const MAX_ORDER_EVENTS = 200;
/** Flow rows read per account and status time, per page. */
const MAX_FLOWS_PER_TIME = 500;
/**
 * Pages read per account and status time when walking back to a logged command's rows: the rows
 * of one millisecond are those of a batch, a few thousand at the sequencer's batch limits.
 */
const MAX_FLOW_PAGES = 20;
/** B35 keeps at most 10 files per order (uploads the core refused may add a few): no more are listed. */
const MAX_DOCUMENTS = 50;

const FLOW_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(FLOW_TYPES).map(([name, value]) => [value, name]));

/** The types of what B35 stores, by extension. */
const CONTENT_TYPES: Readonly<Record<DocumentExt, string>> = { jpg: 'image/jpeg', png: 'image/png', pdf: 'application/pdf' };
/** What O33 may answer. */
export const DOCUMENT_MEDIA_TYPES: readonly string[] = Object.values(CONTENT_TYPES);
/** A document id as O32 lists it: anything else names no document. */
const SHA256_HEX = /^[0-9a-f]{64}$/;

export interface StatusEntry {
  status: number;
  time: number;
}

export function unknownOrder(orderId: number): never {
  throw new BourseError('NOT_FOUND', [`order ${orderId}`]);
}

/** The order's webhook events (O20 rows), oldest first. */
export async function orderEvents(exchange: Exchange, order: PaymentOrder): Promise<Record<string, unknown>[]> {
  const { rows } = await exchange.history.listWebhookEvents({ userId: order.userId, objectId: String(order.orderId), eventType: orderEventType(order), offset: 0, limit: MAX_ORDER_EVENTS });
  return rows
    .sort((a, b) => a.createTime - b.createTime || a.eventNo - b.eventNo)
    .map((row) => ({ ...webhookEventView(row), userId: String(row.userId), updateTime: String(row.updateTime) }));
}

/**
 * Statuses entered, oldest first, with their times: the order's status log when it is complete;
 * otherwise each webhook event's, then the current one if no event shows it yet.
 */
export function statusHistory(order: PaymentOrder, events: readonly Record<string, unknown>[]): { history: StatusEntry[]; historyComplete: boolean } {
  if (statusLogComplete(order)) return { history: order.statusLog.map(({ status, time }) => ({ status, time })), historyComplete: true };
  const history: StatusEntry[] = [];
  for (const event of events) {
    const entry = { status: Number(event.objectStatus), time: Number(event.createTime) };
    if (!history.some((h) => h.status === entry.status && h.time === entry.time)) history.push(entry);
  }
  const last = history.at(-1);
  if (last === undefined || last.status !== order.status) history.push({ status: order.status, time: order.updateTime });
  return { history, historyComplete: history[0]?.time === order.createTime };
}

/** The ledger accounts an order's money moves through: its merchants' M, the desk D, the fee account. */
function orderAccounts(exchange: Exchange, order: PaymentOrder): Map<number, string> {
  const { payments, ledger } = exchange.core;
  const accounts = new Map<number, string>();
  const merchantIds = order.onRamp !== undefined && order.offRamp !== undefined ? [order.onRamp.merchantId, order.offRamp.merchantId] : [order.merchantId];
  for (const merchantId of merchantIds) {
    const merchant = payments.state.merchants.get(merchantId);
    if (merchant !== undefined) accounts.set(merchant.accountId, `merchant ${merchantId}`);
  }
  accounts.set(payments.state.deskAccountId, 'desk');
  accounts.set(ledger.feeAccountId, 'fee');
  return accounts;
}

/** The journaled command at `seq`. */
async function commandAt(exchange: Exchange, seq: number): Promise<Command | undefined> {
  for await (const stamped of exchange.history.readJournal(seq - 1, 1)) return stamped.seq === seq ? stamped.command : undefined;
  return undefined;
}

function namesOrder(command: Command | undefined, orderId: number): boolean {
  if (command === undefined) return false;
  if (command.type === 'bankArrival') return command.reference === String(orderId);
  return 'orderId' in command && command.orderId === orderId;
}

/**
 * The flow rows of an account made at `time` by the commands `seqs` (all stamped `time`). Flow ids
 * grow with sequence numbers, so pages walk back from the millisecond's newest row until they pass
 * the lowest of them.
 */
async function flowsAt(exchange: Exchange, accountId: number, time: number, seqs: ReadonlySet<number>): Promise<FlowRow[]> {
  const lowest = Math.min(...seqs);
  const found: FlowRow[] = [];
  let fromFlowId: number | undefined;
  for (let page = 0; page < MAX_FLOW_PAGES; page++) {
    const rows = await exchange.history.listFlows({ accountId, startTime: time, endTime: time, fromFlowId, limit: MAX_FLOWS_PER_TIME });
    found.push(...rows.filter((f) => seqs.has(f.seq)));
    const oldest = rows[0];
    if (rows.length < MAX_FLOWS_PER_TIME || oldest === undefined || oldest.seq <= lowest) break;
    fromFlowId = oldest.flowId;
  }
  return found;
}

/** The flow rows of the commands the log names (the first `entries` of it, as the history shows them). */
async function loggedFlows(exchange: Exchange, accounts: ReadonlyMap<number, string>, log: readonly StatusLogEntry[]): Promise<FlowRow[]> {
  const seqsAt = new Map<number, Set<number>>();
  for (const { time, seq } of log) seqsAt.set(time, (seqsAt.get(time) ?? new Set()).add(seq));
  const found: FlowRow[] = [];
  for (const [time, seqs] of seqsAt) for (const accountId of accounts.keys()) found.push(...(await flowsAt(exchange, accountId, time, seqs)));
  return found;
}

/** Without a complete log: the flow rows at the history's times of journaled commands that name the order. */
async function namingFlows(exchange: Exchange, accounts: ReadonlyMap<number, string>, order: PaymentOrder, history: readonly StatusEntry[]): Promise<FlowRow[]> {
  const times = [...new Set(history.map((h) => h.time))];
  const found: FlowRow[] = [];
  for (const time of times) {
    for (const accountId of accounts.keys()) found.push(...(await exchange.history.listFlows({ accountId, startTime: time, endTime: time, limit: MAX_FLOWS_PER_TIME })));
  }
  const seqs = [...new Set(found.map((f) => f.seq))];
  const ours = new Set<number>();
  for (const seq of seqs) if (namesOrder(await commandAt(exchange, seq), order.orderId)) ours.add(seq);
  return found.filter((f) => ours.has(f.seq));
}

/**
 * The balance-flow rows of the commands that moved the order, oldest first, amounts as decimal
 * strings. `history` is what `statusHistory` answered: from a complete log, its first entries (a
 * log only grows, so a status entered since then adds no rows here).
 */
export async function orderPostings(exchange: Exchange, order: PaymentOrder, history: readonly StatusEntry[]): Promise<Record<string, unknown>[]> {
  const accounts = orderAccounts(exchange, order);
  const log = order.statusLog;
  const found = statusLogComplete(order) ? await loggedFlows(exchange, accounts, log.slice(0, history.length)) : await namingFlows(exchange, accounts, order, history);
  return found
    .sort((a, b) => a.flowId - b.flowId)
    .map((f) => ({
      flowId: String(f.flowId),
      seq: f.seq,
      accountId: String(f.accountId),
      account: accounts.get(f.accountId) ?? '',
      asset: f.asset,
      flowType: f.flowType,
      flowName: FLOW_NAMES.get(f.flowType) ?? String(f.flowType),
      change: f.change,
      total: f.total,
      time: f.created,
    }));
}

/** The documents B35 stored for the order, each with the O33 address that shows it; none without a document store. */
export async function orderDocuments(documents: DocumentStore | undefined, orderId: number, urlOf: (documentId: string) => string): Promise<Record<string, unknown>[]> {
  if (documents === undefined) return [];
  return (await documents.list(orderId, MAX_DOCUMENTS)).map((d) => ({
    documentId: d.sha256,
    name: `${d.sha256}.${d.ext}`,
    contentType: CONTENT_TYPES[d.ext],
    size: d.size,
    uploadTime: d.uploadTime,
    url: urlOf(d.sha256),
  }));
}

/** O33: one stored document of the order, its bytes with its type; 404 naming it when absent. */
export async function orderDocument(documents: DocumentStore | undefined, orderId: number, documentId: string): Promise<FileAnswer> {
  const found = documents !== undefined && SHA256_HEX.test(documentId) ? await documents.get(orderId, documentId) : undefined;
  if (found === undefined) throw new BourseError('NOT_FOUND', [`document ${documentId} of order ${orderId}`]);
  return new FileAnswer(CONTENT_TYPES[found.ext], found.bytes, `${documentId}.${found.ext}`);
}
