/**
 * The store behind the one writer: the journal of stamped commands (the source of truth), the
 * read-model tables derived from it (orders, trades, flows, deposits, withdrawals) and state
 * snapshots. A batch's commands are committed before it is acknowledged; the rows they derived
 * are written in the same transaction or with a later one (the projection mark says up to which
 * command), and always before a read of the tables, so a reader sees every acknowledged write.
 */

import type {
  DepositRow,
  DerivedRows,
  FlowRow,
  OrderRow,
  Side,
  StampedCommand,
  TradeRow,
  WithdrawalRow,
} from '../core/types.js';
import type { FundingRecordRow, WebhookRow } from '../payments/rows.js';

/** The largest `limit` a list query accepts; the API clamps below it (area A: at most 1000). */
export const MAX_QUERY_LIMIT = 10_000;

export interface Snapshot {
  /** Sequence number of the last command the state includes. */
  seq: number;
  /** State hash recorded with the snapshot, compared after replay. */
  hash: string;
  /** Serialised state (JSON text). */
  state: string;
}

/** A17 (final = false) and A18 (final = true). */
export interface OrderQuery {
  accountId: number;
  symbol?: string;
  side?: Side;
  /** FILLED, CANCELED, REJECTED when true; NEW, PARTIALLY_FILLED when false. */
  final: boolean;
  beforeOrderId?: number;
  startTime?: number;
  endTime?: number;
  limit: number;
}

/** A20: the BHEX API fixes both the selection and the order of the result (see `listTrades`). */
export interface TradeQuery {
  accountId: number;
  symbol?: string;
  orderId?: number;
  startTime?: number;
  endTime?: number;
  fromId?: number;
  toId?: number;
  limit: number;
}

/** A31; times bound `created`. */
export interface FlowQuery {
  accountId: number;
  asset?: string;
  flowType?: number;
  /** Only ids below it. */
  fromFlowId?: number;
  /** Only ids above it. */
  endFlowId?: number;
  startTime?: number;
  endTime?: number;
  limit: number;
}

/** A21 and A24; times bound `time`. */
export interface FundingQuery {
  accountId: number;
  asset?: string;
  startTime?: number;
  endTime?: number;
  /** Only ids above it, the first `limit` of them. */
  fromId?: number;
  limit: number;
}

/** A25: either key or both (then both must match). */
export interface WithdrawalKey {
  withdrawalId?: number;
  clientOrderId?: string;
}

export interface FlowSum {
  accountId: number;
  asset: string;
  /** Exact sum of the account's `change` values in that asset, canonical decimal. */
  sum: string;
}

/** B21: a user's funding records, newest first (`createTime`, then `txId`). */
export interface FundingRecordQuery {
  userId: number;
  merchantId?: number;
  fiat?: string;
  type?: string;
  status?: number;
  clientId?: string;
  startTime?: number;
  endTime?: number;
  offset: number;
  limit: number;
}

/** B34: a user's payment orders, newest first. */
export interface PaymentOrderQuery {
  userId: number;
  kind?: string;
  status?: number;
  clientId?: string;
  merchantId?: number;
  startTime?: number;
  endTime?: number;
  offset: number;
  limit: number;
}

export interface WebhookDeliveryRow {
  attempt: number;
  time: number;
  url: string;
  httpStatus: number;
  durationMs: number;
  result: string;
  error: string;
}

/** An outbox event as stored, with its last attempts (newest first). Times are 0 when unset. */
export interface WebhookEventRow {
  eventId: string;
  webhookId: string;
  userId: number;
  eventType: string;
  objectId: string;
  objectStatus: string;
  status: string;
  attempts: number;
  nextAttemptTime: number;
  createTime: number;
  eventNo: number;
  deliveredTime: number;
  /** Time of the event's last change. */
  updateTime: number;
  payload: string;
  deliveries: WebhookDeliveryRow[];
}

/** B40 (one user) and the operator's history (`userId` absent: every user). */
export interface WebhookEventQuery {
  userId?: number;
  webhookId?: string;
  eventType?: string;
  status?: string;
  objectId?: string;
  startTime?: number;
  endTime?: number;
  /** Only events changed at or after this time (ms), least recently changed first: for following the history. */
  changedSince?: number;
  offset: number;
  limit: number;
}

/** A value now (SQLite) or once the database answers (PostgreSQL): callers `await` it either way. */
export type Awaitable<T> = T | Promise<T>;

/**
 * The journal as the one writer and recovery use it. `lastSeq`, `lastTs` and `projectedSeq` are
 * the store's own counters (no round-trip); a PostgreSQL store reads them at open and after each
 * commit of its own.
 */
export interface Journal {
  /** Sequence number of the last journaled command; 0 when the journal is empty. */
  lastSeq(): number;
  /** Time stamp of the last journaled command; 0 when the journal is empty. */
  lastTs(): number;
  /**
   * Commits the commands (whose seqs must continue `lastSeq()` without a gap), with the rows they
   * derived or with those rows queued for a later write; throws (or rejects), writing nothing,
   * when the commit fails. A write is acknowledged only once this has returned (resolved).
   */
  appendBatch(commands: readonly StampedCommand[], rows: DerivedRows): Awaitable<void>;
  /** The last command whose derived rows are in the tables (≤ `lastSeq()`). */
  projectedSeq(): number;
  /** Queues `rows`, derived again by the commands after `projectedSeq()`, in place of any queued before. */
  resetPendingRows(rows: DerivedRows): void;
  /** Stores a snapshot and drops all but the latest two. */
  saveSnapshot(snapshot: Snapshot): Awaitable<void>;
}

/** The journal read synchronously, as the SQLite store does: what the synchronous recovery needs. */
export interface SyncJournal extends Journal {
  appendBatch(commands: readonly StampedCommand[], rows: DerivedRows): void;
  saveSnapshot(snapshot: Snapshot): void;
  /**
   * Journaled commands with seq > afterSeq, in seq order, read `batchSize` rows at a time (for
   * replay: the store takes no writes while the iteration is inside a page).
   */
  readJournal(afterSeq: number, batchSize?: number): Iterable<StampedCommand>;
  loadLatestSnapshot(): Snapshot | undefined;
}

/** History: the read-model tables. Every answer is the same on both stores, rows and order alike. */
export interface History {
  getOrder(accountId: number, orderId: number): Awaitable<OrderRow | undefined>;
  /** The newest `limit` matching orders, oldest first. */
  listOrders(query: OrderQuery): Awaitable<OrderRow[]>;
  /**
   * fromId only: ids < fromId, descending; toId only: ids > toId, ascending; both: between them,
   * descending; neither: the most recent, descending.
   */
  listTrades(query: TradeQuery): Awaitable<TradeRow[]>;
  /** Only endFlowId: the first `limit` above it; otherwise the newest `limit`; oldest first. */
  listFlows(query: FlowQuery): Awaitable<FlowRow[]>;
  /** fromId: the first `limit` above it; otherwise the newest `limit`; oldest first. */
  listDeposits(query: FundingQuery): Awaitable<DepositRow[]>;
  /** As `listDeposits`. */
  listWithdrawals(query: FundingQuery): Awaitable<WithdrawalRow[]>;
  getWithdrawal(accountId: number, key: WithdrawalKey): Awaitable<WithdrawalRow | undefined>;
  /** B21: one page of matches and how many match in all. */
  listFundingRecords(query: FundingRecordQuery): Awaitable<{ total: number; rows: FundingRecordRow[] }>;
  getFundingRecord(txId: number): Awaitable<FundingRecordRow | undefined>;
  /** B34: one page of B33 objects and how many match in all. */
  listPaymentOrders(query: PaymentOrderQuery): Awaitable<{ total: number; rows: Record<string, unknown>[] }>;
  /** B33: the order's object, if it is the user's. */
  getPaymentOrder(userId: number, orderId: number): Awaitable<Record<string, unknown> | undefined>;
  /** B37: the user's webhooks in these statuses, newest first. */
  listWebhooks(userId: number, statuses: readonly number[]): Awaitable<WebhookRow[]>;
  /** B40: one page of events with their last attempts, and how many match in all. */
  listWebhookEvents(query: WebhookEventQuery): Awaitable<{ total: number; rows: WebhookEventRow[] }>;
  getWebhookEvent(eventId: string): Awaitable<WebhookEventRow | undefined>;
  /** The exact body a delivery sends. */
  webhookPayload(eventId: string): Awaitable<string | undefined>;
  /** Sum of every flow's `change` per account and asset, ordered by account then asset. */
  flowSums(): Awaitable<FlowSum[]>;
  /** Every trade once (its buyer's row), by trade id, after `afterTradeId`: for rebuilding market data. */
  readTrades(afterTradeId: number, pageSize?: number): Iterable<TradeRow> | AsyncIterable<TradeRow>;
}

/** The whole store: SQLite (`store/sqlite/`) or PostgreSQL (`store/postgres/`). */
export interface Store extends Journal, History {
  /** Journaled commands with seq > afterSeq, in seq order, read `batchSize` rows at a time. */
  readJournal(afterSeq: number, batchSize?: number): Iterable<StampedCommand> | AsyncIterable<StampedCommand>;
  loadLatestSnapshot(): Awaitable<Snapshot | undefined>;
  close(): Awaitable<void>;
}
