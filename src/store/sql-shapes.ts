/**
 * The read queries as both SQL stores run them: each query's filter, order and page, and the
 * select lists of area B's tables. A store only renders them in its dialect: SQLite binds `?` as
 * written; PostgreSQL numbers the placeholders, prefixes its schema and quotes the aliases (it
 * folds unquoted names to lower case), so both answer the same rows in the same order.
 */

import {
  MAX_QUERY_LIMIT,
  type FlowQuery,
  type FundingQuery,
  type FundingRecordQuery,
  type OrderQuery,
  type PaymentOrderQuery,
  type TradeQuery,
  type WebhookEventQuery,
  type WithdrawalKey,
} from './store.js';

/** A value bound to a statement of either store. */
export type SqlValue = string | number;

/** A condition written with one `?`; an undefined value leaves it out of the query. */
export type Condition = readonly [sql: string, value: SqlValue | undefined];

/**
 * A history page (area A): rows of `table` matching every condition, by `orderBy`, the first
 * `limit`; `reverse` when the page was read newest first and is answered oldest first.
 */
export interface HistoryPage {
  table: string;
  conditions: readonly Condition[];
  orderBy: string;
  limit: number;
  reverse: boolean;
}

/** A counted page (area B): the rows matching every condition are counted, and `limit` of them after `offset` answered. */
export interface CountedPage {
  table: string;
  conditions: readonly Condition[];
  orderBy: string;
  limit: number;
  offset: number;
}

export function checkLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_QUERY_LIMIT) {
    throw new RangeError(`limit must be an integer in 1..${MAX_QUERY_LIMIT}: ${limit}`);
  }
  return limit;
}

/** A17, A18: the newest `limit` orders, answered oldest first. */
export function orderPage(query: OrderQuery): HistoryPage {
  const conditions: Condition[] = [
    ['account_id = ?', query.accountId],
    ['list_class = ?', query.final ? 1 : 0],
    ['symbol = ?', query.symbol],
    ['side = ?', query.side],
    ['order_id < ?', query.beforeOrderId],
    ['time >= ?', query.startTime],
    ['time <= ?', query.endTime],
  ];
  return { table: 'orders', conditions, orderBy: 'order_id DESC', limit: checkLimit(query.limit), reverse: true };
}

/** A20: newest first, but for the seed's one ascending case: toId alone pages forward from it. */
export function tradePage(query: TradeQuery): HistoryPage {
  const conditions: Condition[] = [
    ['account_id = ?', query.accountId],
    ['symbol = ?', query.symbol],
    ['order_id = ?', query.orderId],
    ['time >= ?', query.startTime],
    ['time <= ?', query.endTime],
    ['trade_id < ?', query.fromId],
    ['trade_id > ?', query.toId],
  ];
  const direction = query.toId !== undefined && query.fromId === undefined ? 'ASC' : 'DESC';
  return { table: 'trades', conditions, orderBy: `trade_id ${direction}`, limit: checkLimit(query.limit), reverse: false };
}

/** A31: endFlowId alone pages forward from it, otherwise the newest; answered oldest first. */
export function flowPage(query: FlowQuery): HistoryPage {
  const conditions: Condition[] = [
    ['account_id = ?', query.accountId],
    ['asset = ?', query.asset],
    ['flow_type = ?', query.flowType],
    ['flow_id < ?', query.fromFlowId],
    ['flow_id > ?', query.endFlowId],
    ['created >= ?', query.startTime],
    ['created <= ?', query.endTime],
  ];
  const forward = query.endFlowId !== undefined && query.fromFlowId === undefined;
  return { table: 'flows', conditions, orderBy: `flow_id ${forward ? 'ASC' : 'DESC'}`, limit: checkLimit(query.limit), reverse: !forward };
}

/** A21 (deposits) and A24 (withdrawals) select alike: fromId pages forward from it, otherwise the newest; answered oldest first. */
export function fundingPage(table: 'deposits' | 'withdrawals', query: FundingQuery): HistoryPage {
  const idColumn = table === 'deposits' ? 'deposit_id' : 'withdrawal_id';
  const conditions: Condition[] = [
    ['account_id = ?', query.accountId],
    ['asset = ?', query.asset],
    [`${idColumn} > ?`, query.fromId],
    ['time >= ?', query.startTime],
    ['time <= ?', query.endTime],
  ];
  const forward = query.fromId !== undefined;
  return { table, conditions, orderBy: `${idColumn} ${forward ? 'ASC' : 'DESC'}`, limit: checkLimit(query.limit), reverse: !forward };
}

/** A25: the conditions of a withdrawal's key (the newest matching row answers). */
export function withdrawalKeyConditions(accountId: number, key: WithdrawalKey): Condition[] {
  if (key.withdrawalId === undefined && key.clientOrderId === undefined) {
    throw new RangeError('getWithdrawal needs a withdrawalId or a clientOrderId');
  }
  return [
    ['account_id = ?', accountId],
    ['withdrawal_id = ?', key.withdrawalId],
    ['client_order_id = ?', key.clientOrderId],
  ];
}

export const FUNDING_SELECT = `tx_id AS txId, user_id AS userId, merchant_id AS merchantId, merchant_name AS merchantName,
  client_id AS clientId, order_id AS orderId, fiat, total_amount AS totalAmount, amount, fee,
  user_payment_id AS userPaymentId, type, status, fail_reason AS failReason, payer,
  create_time AS createTime, update_time AS updateTime`;

/** B21: a user's funding records, newest first. */
export function fundingRecordPage(query: FundingRecordQuery): CountedPage {
  const conditions: Condition[] = [
    ['user_id = ?', query.userId],
    ['merchant_id = ?', query.merchantId],
    ['fiat = ?', query.fiat],
    ['type = ?', query.type],
    ['status = ?', query.status],
    ['client_id = ?', query.clientId],
    ['create_time >= ?', query.startTime],
    ['create_time <= ?', query.endTime],
  ];
  return { table: 'funding_records', conditions, orderBy: 'create_time DESC, tx_id DESC', limit: query.limit, offset: query.offset };
}

/** B34: a user's payment orders (their `detail` column), newest first. */
export function paymentOrderPage(query: PaymentOrderQuery): CountedPage {
  const conditions: Condition[] = [
    ['user_id = ?', query.userId],
    ['kind = ?', query.kind],
    ['status = ?', query.status],
    ['client_id = ?', query.clientId],
    // Digits and commas only: LIKE matches them alike on both stores (SQLite's folds case, which these have none of).
    ['merchant_ids LIKE ?', query.merchantId === undefined ? undefined : `%,${query.merchantId},%`],
    ['create_time >= ?', query.startTime],
    ['create_time <= ?', query.endTime],
  ];
  return { table: 'payment_orders', conditions, orderBy: 'create_time DESC, order_id DESC', limit: query.limit, offset: query.offset };
}

export const WEBHOOK_SELECT = `webhook_id AS webhookId, user_id AS userId, event_type AS eventType, url, status,
  create_time AS createTime, update_time AS updateTime`;

export const EVENT_SELECT = `event_id AS eventId, webhook_id AS webhookId, user_id AS userId, event_type AS eventType,
  object_id AS objectId, object_status AS objectStatus, status, attempts, next_attempt_time AS nextAttemptTime,
  create_time AS createTime, event_no AS eventNo, delivered_time AS deliveredTime, update_time AS updateTime, payload`;

export const DELIVERY_SELECT = `attempt, time, url, http_status AS httpStatus, duration_ms AS durationMs, result, error`;

/** B40 keeps the last 20 attempts of an event (DELIVERY_ORDER's first 20). */
export const DELIVERIES_SHOWN = 20;

/** An event's attempts newest first; B39's entry, attempt 0, ends an event: last of its millisecond. */
export const DELIVERY_ORDER = 'time DESC, attempt = 0 DESC, attempt DESC';

/** B40 and the operator's history: newest first, or, following changes, least recently changed first. */
export function webhookEventPage(query: WebhookEventQuery): CountedPage {
  const conditions: Condition[] = [
    ['user_id = ?', query.userId],
    ['webhook_id = ?', query.webhookId],
    ['event_type = ?', query.eventType],
    ['status = ?', query.status],
    ['object_id = ?', query.objectId],
    ['create_time >= ?', query.startTime],
    ['create_time <= ?', query.endTime],
    ['update_time >= ?', query.changedSince],
  ];
  const orderBy = query.changedSince === undefined ? 'create_time DESC, event_no DESC' : 'update_time, event_no';
  return { table: 'webhook_events', conditions, orderBy, limit: query.limit, offset: query.offset };
}
