/**
 * The PostgreSQL store (docs/deployment.md): the journal, the read-model tables and snapshots in
 * schema `bourse`, shared by every node of a deployment. One connection of its own appends, so
 * batches commit in order; a pool serves the reads. Each batch is one transaction that first
 * checks the writer's term against the leadership row (fencing), then writes the journal rows and
 * every derived row, and notifies the followers; the rows are never left for later, so the
 * tables always hold the rows of every journaled command. The documents merchants upload are
 * kept here too (`documents`), for every node to read.
 */

import pg from 'pg';
import { derivedRowCount, type DepositRow, type DerivedRows, type FlowRow, type OrderRow, type StampedCommand, type TradeRow, type WithdrawalRow } from '../../core/types.js';
import type { FundingRecordRow, WebhookRow } from '../../payments/rows.js';
import type {
  FlowQuery,
  FlowSum,
  FundingQuery,
  FundingRecordQuery,
  OrderQuery,
  PaymentOrderQuery,
  Snapshot,
  Store,
  TradeQuery,
  WebhookEventQuery,
  WebhookEventRow,
  WithdrawalKey,
} from '../store.js';
import type { DocumentStore } from '../documents.js';
import { batchStatements } from './batch-writer.js';
import { connectClient, readerPool } from './connection.js';
import { PgDocumentStore } from './documents.js';
import { FencedError } from './fenced-error.js';
import { readJournal, readJournalPage } from './journal-reader.js';
import { PgPaymentsReadModel } from './payments-queries.js';
import { PgReadModel } from './queries.js';
import { FENCED_SQLSTATE, migratePostgres } from './schema.js';
import { loadLatestSnapshot, saveSnapshot } from './snapshots.js';
import { PgWebhooksReadModel } from './webhook-queries.js';

/** The channel every append notifies, with its last seq as payload: followers LISTEN on it. */
export const JOURNAL_CHANNEL = 'bourse_journal';

/** How the appending connection shows in pg_stat_activity (the readers show as `bourse`). */
export const WRITER_APPLICATION_NAME = 'bourse writer';

const DEFAULT_READERS = 4;

export interface PostgresStoreOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** The writer's leadership term: appends commit only while the leadership row holds it. Absent: no fencing (tests, migrate-store). */
  term?: number;
  /** Connections of the readers' pool (default 4). */
  readers?: number;
  /** Told of an error on an idle connection (the server went away); the connection is replaced at its next use. */
  onConnectionError?: (error: Error) => void;
  /**
   * How long the writer's session may sit inside a transaction without a statement before the
   * server ends it (idle_in_transaction_session_timeout; default: the server's). A leader paused in
   * the middle of an append holds the leadership row FOR SHARE: this bounds how long its takeover waits.
   */
  writerIdleTimeoutMs?: number;
}

/** Opens the store at `options.url`, creating schema `bourse` and migrating it as needed. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const onError = options.onConnectionError ?? (() => undefined);
  const readers = options.readers ?? DEFAULT_READERS;
  if (!Number.isSafeInteger(readers) || readers < 1) throw new RangeError(`readers must be ≥ 1: ${readers}`);
  const pool = readerPool(options.url, readers, onError);
  try {
    const client = await pool.connect();
    try {
      await migratePostgres(client);
    } finally {
      client.release();
    }
    const store = new PostgresStore(options.url, pool, onError, options.writerIdleTimeoutMs);
    store.setTerm(options.term);
    await store.refreshLastSeq();
    return store;
  } catch (error) {
    await pool.end();
    throw error;
  }
}

export class PostgresStore implements Store {
  private readonly readModel: PgReadModel;
  private readonly payments: PgPaymentsReadModel;
  private readonly webhooks: PgWebhooksReadModel;
  /** B35's uploads, which O32 and O33 read back on any node: over the readers' pool, closed with the store. */
  readonly documents: DocumentStore;
  private committedSeq = 0;
  private committedTs = 0;
  private term: number | undefined;
  /** The appending connection, connected at first use and again after it failed. */
  private writer: Promise<pg.Client> | undefined;
  private connectedWriter: pg.Client | undefined;
  /** Appends (and refreshes of the counters) run one after another, in the order they were called. */
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
    private readonly onConnectionError: (error: Error) => void,
    private readonly writerIdleTimeoutMs?: number,
  ) {
    this.readModel = new PgReadModel(pool);
    this.payments = new PgPaymentsReadModel(pool);
    this.webhooks = new PgWebhooksReadModel(pool);
    this.documents = new PgDocumentStore(pool);
  }

  /** Sets the writer's term (after winning leadership); undefined: appends are not fenced. */
  setTerm(term: number | undefined): void {
    if (term !== undefined && (!Number.isSafeInteger(term) || term < 0)) throw new RangeError(`term must be an integer ≥ 0: ${term}`);
    this.term = term;
  }

  /** The writer's term, if fenced. */
  writerTerm(): number | undefined {
    return this.term;
  }

  lastSeq(): number {
    return this.committedSeq;
  }

  lastTs(): number {
    return this.committedTs;
  }

  /** Re-reads the journal's end (a follower, or a new leader before its first append); after any append in flight. */
  refreshLastSeq(): Promise<number> {
    return this.enqueue(async () => {
      const { rows } = await this.pool.query<{ seq: number; ts: number }>('SELECT seq, ts FROM bourse.journal ORDER BY seq DESC LIMIT 1');
      this.committedSeq = rows[0]?.seq ?? 0;
      this.committedTs = rows[0]?.ts ?? 0;
      return this.committedSeq;
    });
  }

  /** Every journaled command has its rows in the tables: they commit in the same transaction. */
  projectedSeq(): number {
    return this.committedSeq;
  }

  /**
   * Nothing to queue: recovery derives again the rows of the commands after `projectedSeq()`,
   * but every journaled command's rows were committed with it, by whichever leader wrote it, so
   * rows derived again are in the tables already and are dropped.
   */
  resetPendingRows(_rows: DerivedRows): void {}

  /**
   * Commits the batch in one transaction, after the appends before it: rejects with FencedError
   * when the leadership row holds another term than the writer's, with the database's error when
   * a row cannot be written (nothing of the batch is then), and with a connection error when the
   * outcome is unknown (the server went away during the commit: `refreshLastSeq` tells).
   */
  appendBatch(commands: readonly StampedCommand[], rows: DerivedRows): Promise<void> {
    if (commands.length === 0) {
      const rowCount = derivedRowCount(rows);
      return rowCount > 0 ? Promise.reject(new Error(`appendBatch: ${rowCount} derived rows without a command`)) : Promise.resolve();
    }
    let statements: pg.QueryConfig[];
    try {
      statements = batchStatements(commands, rows);
    } catch (error) {
      return Promise.reject(error);
    }
    const first = commands[0];
    const last = commands[commands.length - 1];
    const stamps = commands.map((c) => [c.seq, c.ts] as const);
    return this.enqueue(async () => {
      this.checkContinues(stamps);
      await this.commit(statements, first.seq, last.seq);
      this.committedSeq = last.seq;
      this.committedTs = last.ts;
    });
  }

  /** The batch's seqs must continue the journal without a gap and its stamps never go back in time. */
  private checkContinues(stamps: readonly (readonly [number, number])[]): void {
    let seq = this.committedSeq;
    let ts = this.committedTs;
    for (const [nextSeq, nextTs] of stamps) {
      if (nextSeq !== seq + 1) throw new Error(`appendBatch: seq ${nextSeq} does not follow ${seq}`);
      if (!Number.isSafeInteger(nextTs) || nextTs < ts) throw new Error(`appendBatch: ts ${nextTs} of seq ${nextSeq} is before ${ts}`);
      seq = nextSeq;
      ts = nextTs;
    }
  }

  /**
   * BEGIN, the term check, the rows, the notification and COMMIT go to the server at once
   * (pipelined: one round trip). A statement that fails aborts the transaction, so the COMMIT
   * behind it rolls back (PostgreSQL answers it ROLLBACK) and nothing of the batch is written.
   */
  private async commit(statements: readonly pg.QueryConfig[], firstSeq: number, lastSeq: number): Promise<void> {
    const client = await this.writerClient();
    const term = this.term;
    const sent = [
      client.query('BEGIN'),
      client.query({ name: 'bourse_check_term', text: 'SELECT bourse.check_term($1)', values: [term ?? null] }),
      ...statements.map((statement) => client.query(statement)),
      client.query({ name: 'bourse_notify', text: 'SELECT pg_notify($1, $2)', values: [JOURNAL_CHANNEL, String(lastSeq)] }),
      client.query('COMMIT'),
    ];
    const results = await Promise.allSettled(sent);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed !== undefined) {
      const error: unknown = failed.reason;
      if (error instanceof pg.DatabaseError && error.code === FENCED_SQLSTATE && term !== undefined) {
        throw new FencedError(term, Number(error.detail));
      }
      // Not the database's answer: the connection failed, and with it whatever was in flight.
      if (!(error instanceof pg.DatabaseError)) this.dropWriter(client);
      throw error;
    }
    const commit = results[results.length - 1];
    if (commit.status !== 'fulfilled' || commit.value.command !== 'COMMIT') {
      throw new Error(`appendBatch: seqs ${firstSeq}..${lastSeq} were not committed`);
    }
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the PostgreSQL store is closed'));
    const run = this.tail.then(task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private writerClient(): Promise<pg.Client> {
    if (this.writer === undefined) {
      const idle = this.writerIdleTimeoutMs;
      const options = idle === undefined ? undefined : `-c idle_in_transaction_session_timeout=${idle}`;
      const connecting = connectClient(this.url, { pipeline: true, application_name: WRITER_APPLICATION_NAME, options }, (error, client) => {
        this.onConnectionError(error);
        this.dropWriter(client);
      });
      this.writer = connecting;
      connecting.then(
        (client) => (this.connectedWriter = client),
        // Tried again at the next append.
        () => {
          if (this.writer === connecting) this.writer = undefined;
        },
      );
    }
    return this.writer;
  }

  /** Ends a failed writer connection; the next append connects again. */
  private dropWriter(client: pg.Client): void {
    if (this.connectedWriter === client) {
      this.connectedWriter = undefined;
      this.writer = undefined;
    }
    void client.end().catch(() => undefined);
  }

  readJournal(afterSeq: number, batchSize?: number): AsyncIterable<StampedCommand> {
    return readJournal(this.pool, afterSeq, batchSize);
  }

  /** Up to `limit` journaled commands with seq > afterSeq, in seq order (what a follower applies next). */
  readJournalPage(afterSeq: number, limit: number): Promise<StampedCommand[]> {
    return readJournalPage(this.pool, afterSeq, limit);
  }

  async saveSnapshot(snapshot: Snapshot): Promise<void> {
    if (!Number.isSafeInteger(snapshot.seq) || snapshot.seq < 0 || snapshot.seq > this.committedSeq) {
      throw new Error(`saveSnapshot: seq ${snapshot.seq} is not in the journal (last ${this.committedSeq})`);
    }
    await saveSnapshot(this.pool, snapshot);
  }

  loadLatestSnapshot(): Promise<Snapshot | undefined> {
    return loadLatestSnapshot(this.pool);
  }

  getOrder(accountId: number, orderId: number): Promise<OrderRow | undefined> {
    return this.readModel.getOrder(accountId, orderId);
  }

  listOrders(query: OrderQuery): Promise<OrderRow[]> {
    return this.readModel.listOrders(query);
  }

  listTrades(query: TradeQuery): Promise<TradeRow[]> {
    return this.readModel.listTrades(query);
  }

  async *readTrades(afterTradeId: number, pageSize = 5000): AsyncGenerator<TradeRow> {
    let after = afterTradeId;
    while (true) {
      const page = await this.readModel.tradesAfter(after, pageSize);
      yield* page;
      if (page.length < pageSize) return;
      after = page[page.length - 1].tradeId;
    }
  }

  listFlows(query: FlowQuery): Promise<FlowRow[]> {
    return this.readModel.listFlows(query);
  }

  listDeposits(query: FundingQuery): Promise<DepositRow[]> {
    return this.readModel.listDeposits(query);
  }

  listWithdrawals(query: FundingQuery): Promise<WithdrawalRow[]> {
    return this.readModel.listWithdrawals(query);
  }

  getWithdrawal(accountId: number, key: WithdrawalKey): Promise<WithdrawalRow | undefined> {
    return this.readModel.getWithdrawal(accountId, key);
  }

  listFundingRecords(query: FundingRecordQuery): Promise<{ total: number; rows: FundingRecordRow[] }> {
    return this.payments.listFundingRecords(query);
  }

  getFundingRecord(txId: number): Promise<FundingRecordRow | undefined> {
    return this.payments.getFundingRecord(txId);
  }

  listPaymentOrders(query: PaymentOrderQuery): Promise<{ total: number; rows: Record<string, unknown>[] }> {
    return this.payments.listPaymentOrders(query);
  }

  getPaymentOrder(userId: number, orderId: number): Promise<Record<string, unknown> | undefined> {
    return this.payments.getPaymentOrder(userId, orderId);
  }

  listWebhooks(userId: number, statuses: readonly number[]): Promise<WebhookRow[]> {
    return this.webhooks.listWebhooks(userId, statuses);
  }

  listWebhookEvents(query: WebhookEventQuery): Promise<{ total: number; rows: WebhookEventRow[] }> {
    return this.webhooks.listWebhookEvents(query);
  }

  getWebhookEvent(eventId: string): Promise<WebhookEventRow | undefined> {
    return this.webhooks.getWebhookEvent(eventId);
  }

  webhookPayload(eventId: string): Promise<string | undefined> {
    return this.webhooks.webhookPayload(eventId);
  }

  flowSums(): Promise<FlowSum[]> {
    return this.readModel.flowSums();
  }

  /**
   * The flow sums with the journal's end they belong to, read in one REPEATABLE READ
   * transaction: a batch's flows commit with its journal rows, so the sums are those at `seq`.
   */
  async flowSumsAt(): Promise<{ seq: number; sums: FlowSum[] }> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const { rows } = await client.query<{ seq: number }>('SELECT coalesce(max(seq), 0) AS seq FROM bourse.journal');
      const sums = await this.readModel.flowSums(client);
      await client.query('COMMIT');
      return { seq: rows[0].seq, sums };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** Ends every connection, after the appends in flight. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.tail;
    const writer = this.writer;
    this.writer = undefined;
    if (writer !== undefined) await writer.then((client) => client.end(), () => undefined);
    await this.pool.end();
  }
}
