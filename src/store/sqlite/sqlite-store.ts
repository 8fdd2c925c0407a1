/**
 * The SQLite store: one connection, owned by the one writer. better-sqlite3 is synchronous, so a
 * batch's commit runs inside the sequencer's synchronous apply-and-commit step.
 */

import Database from 'better-sqlite3';
import { derivedRowCount, type DepositRow, type DerivedRows, type FlowRow, type OrderRow, type StampedCommand, type TradeRow, type WithdrawalRow } from '../../core/types.js';
import type {
  FlowQuery,
  FlowSum,
  FundingQuery,
  FundingRecordQuery,
  PaymentOrderQuery,
  OrderQuery,
  Snapshot,
  Store,
  TradeQuery,
  WithdrawalKey,
  WebhookEventQuery,
  WebhookEventRow,
} from '../store.js';
import type { FundingRecordRow, WebhookRow } from '../../payments/rows.js';
import { mergeRows, prepareBatchWrite, type BatchWrite } from './batch-writer.js';
import { isDiskFull, prepareWriteProbe } from './disk-space.js';
import { prepareJournalRead, type JournalRead } from './journal-reader.js';
import { PaymentsReadModel } from './payments-queries.js';
import { WebhooksReadModel } from './webhook-queries.js';
import { ReadModel } from './queries.js';
import { migrate } from './schema.js';
import { prepareSnapshotTable, type SnapshotTable } from './snapshots.js';
import { WalCheckpointer } from './wal-checkpointer.js';

export interface SqliteStoreOptions {
  /** File path, or ':memory:' for tests. */
  path: string;
  /** NORMAL: a commit survives a process crash, maybe not a power loss; FULL: both. */
  synchronous: 'NORMAL' | 'FULL';
  /**
   * Who copies the WAL into the database file: the writer after its commits (default), or, with
   * synchronous NORMAL, a thread of its own that copies most frames before the writer's
   * autocheckpoint comes due, which then stays as a backstop with little left to copy. (With FULL,
   * whose every commit syncs, that thread's syncs contend with the writer's: bench/journal
   * measured 77k → 65k commands/s, so FULL keeps the writer's checkpoints.)
   */
  checkpoints?: 'writer' | 'background';
  /**
   * Commits whose derived rows may wait in memory before they are written (default 1: each batch
   * writes its rows with its commands). Above 1, up to that many batches' rows are written at once,
   * with a later batch's commands, or before any read of the tables, a snapshot or the close, or
   * ROWS_DELAY_MS after the first waits. The journal is written at every commit: a crash loses only
   * rows, which recovery derives again from the journal (see `projectedSeq`). Only for a store that
   * is the tables' one reader: another connection would see them late.
   */
  rowsEveryCommits?: number;
}

/** Rows that may wait in memory at most; past it they are written with the next commit. */
const MAX_PENDING_ROWS = 8192;
/** How long rows wait at most when no commit or read comes to write them. */
const ROWS_DELAY_MS = 20;

/** The writer's autocheckpoint, in pages: a checkpoint after the commit that grows the WAL past 16 MiB. */
const WRITER_CHECKPOINT_PAGES = 4000;

/** Opens (creating and migrating as needed) the database at `options.path`. */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const db = new Database(options.path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous}`);
    const background = options.checkpoints === 'background' && options.synchronous === 'NORMAL' && options.path !== ':memory:';
    // Checkpoints copy the WAL into the main file; fewer, larger ones cost less per committed row,
    // and the limit returns the WAL file's space after each.
    db.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
    db.pragma('journal_size_limit = 67108864');
    db.pragma('cache_size = -65536');
    db.pragma('temp_store = MEMORY');
    migrate(db);
    const rowsEveryCommits = options.rowsEveryCommits ?? 1;
    if (!Number.isSafeInteger(rowsEveryCommits) || rowsEveryCommits < 1) throw new RangeError(`rowsEveryCommits must be ≥ 1: ${rowsEveryCommits}`);
    return new SqliteStore(db, rowsEveryCommits, background ? new WalCheckpointer(options.path) : undefined);
  } catch (error) {
    db.close();
    throw error;
  }
}

export class SqliteStore implements Store {
  private readonly write: BatchWrite;
  private readonly read: JournalRead;
  private readonly snapshots: SnapshotTable;
  private readonly readModel: ReadModel;
  private readonly payments: PaymentsReadModel;
  private readonly webhooks: WebhooksReadModel;
  private readonly writeProbe: () => void;
  /** SQLite's own page limit, as it was at open: what lifting a cap restores. */
  private readonly defaultMaxPageCount: number;
  private committedSeq: number;
  private committedTs: number;
  /** The projection mark as written: the tables hold the rows of every command up to it. */
  private writtenSeq: number;
  /** Rows of the commits after `writtenSeq`, in commit order, waiting to be written. */
  private pending: DerivedRows[] = [];
  private pendingRows = 0;
  private rowsTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly rowsEveryCommits = 1,
    private readonly checkpointer?: WalCheckpointer,
  ) {
    this.write = prepareBatchWrite(db);
    this.read = prepareJournalRead(db);
    this.snapshots = prepareSnapshotTable(db);
    this.readModel = new ReadModel(db);
    this.payments = new PaymentsReadModel(db);
    this.webhooks = new WebhooksReadModel(db);
    this.writeProbe = prepareWriteProbe(db);
    this.defaultMaxPageCount = db.pragma('max_page_count', { simple: true }) as number;
    const end = db
      .prepare<[], { seq: number; ts: number }>('SELECT seq, ts FROM journal ORDER BY seq DESC LIMIT 1')
      .get();
    this.committedSeq = end?.seq ?? 0;
    this.committedTs = end?.ts ?? 0;
    this.writtenSeq = db.prepare<[], number>('SELECT seq FROM projection WHERE id = 1').pluck().get() ?? 0;
  }

  /**
   * The last command whose derived rows are in the tables. Rows of later commands were lost with
   * the memory that held them (a crash): recovery derives them again from the journal.
   */
  projectedSeq(): number {
    return this.writtenSeq;
  }

  /**
   * Replaces the rows waiting to be written by `rows`: those of every command after
   * `projectedSeq()` up to the last committed one, derived again from the journal by recovery.
   */
  resetPendingRows(rows: DerivedRows): void {
    this.pending = [];
    this.pendingRows = 0;
    if (this.writtenSeq < this.committedSeq) this.queueRows(rows);
  }

  /** Writes the rows waiting in memory, if any; throws when the write fails (they stay queued). */
  writePendingRows(): void {
    if (this.pending.length === 0) return;
    this.write([], mergeRows(this.pending), this.committedSeq);
    this.rowsWritten();
  }

  /**
   * Before a read of the tables: the rows waiting in memory are written, so that the read sees
   * every acknowledged command. The one exception is a full disk (writes are then suspended):
   * the read is answered from the tables as they are, the rows staying queued until there is room.
   */
  private beforeRead(): void {
    try {
      this.writePendingRows();
    } catch (error) {
      if (!isDiskFull(error)) throw error;
    }
  }

  lastSeq(): number {
    return this.committedSeq;
  }

  lastTs(): number {
    return this.committedTs;
  }

  appendBatch(commands: readonly StampedCommand[], rows: DerivedRows): void {
    if (commands.length === 0) {
      const rowCount = derivedRowCount(rows);
      if (rowCount > 0) throw new Error(`appendBatch: ${rowCount} derived rows without a command`);
      return;
    }
    let seq = this.committedSeq;
    let ts = this.committedTs;
    for (const stamped of commands) {
      if (stamped.seq !== seq + 1) throw new Error(`appendBatch: seq ${stamped.seq} does not follow ${seq}`);
      if (!Number.isSafeInteger(stamped.ts) || stamped.ts < ts) {
        throw new Error(`appendBatch: ts ${stamped.ts} of seq ${stamped.seq} is before ${ts}`);
      }
      seq = stamped.seq;
      ts = stamped.ts;
    }
    const writeRows = this.pending.length + 1 >= this.rowsEveryCommits || this.pendingRows + derivedRowCount(rows) >= MAX_PENDING_ROWS;
    try {
      if (writeRows) this.write(commands, this.pending.length === 0 ? rows : mergeRows([...this.pending, rows]), seq);
      else this.write(commands, rows, undefined);
    } catch (error) {
      // The batch is lost, not the acknowledged ones before it: with less to write, their queued
      // rows may still fit, and the reads while writes are suspended are then complete.
      if (isDiskFull(error)) this.tryWritePendingRows();
      throw error;
    }
    this.committedSeq = seq;
    this.committedTs = ts;
    if (writeRows) this.rowsWritten();
    else this.queueRows(rows);
  }

  private tryWritePendingRows(): void {
    try {
      this.writePendingRows();
    } catch {
      // Still no room: they wait for the next commit or read.
    }
  }

  private queueRows(rows: DerivedRows): void {
    this.pending.push(rows);
    this.pendingRows += derivedRowCount(rows);
    if (this.rowsTimer === undefined) {
      this.rowsTimer = setTimeout(() => {
        this.rowsTimer = undefined;
        // Without room, or with the disk failing, the rows stay queued for the next commit, whose
        // failure the writer handles (WRITES_SUSPENDED or fatal); a crash leaves them to recovery.
        this.tryWritePendingRows();
      }, ROWS_DELAY_MS);
      this.rowsTimer.unref();
    }
  }

  private rowsWritten(): void {
    this.pending = [];
    this.pendingRows = 0;
    this.writtenSeq = this.committedSeq;
    if (this.rowsTimer !== undefined) clearTimeout(this.rowsTimer);
    this.rowsTimer = undefined;
  }

  readJournal(afterSeq: number, batchSize?: number): Iterable<StampedCommand> {
    return this.read(afterSeq, batchSize);
  }

  saveSnapshot(snapshot: Snapshot): void {
    if (!Number.isSafeInteger(snapshot.seq) || snapshot.seq < 0 || snapshot.seq > this.committedSeq) {
      throw new Error(`saveSnapshot: seq ${snapshot.seq} is not in the journal (last ${this.committedSeq})`);
    }
    // Recovery from this snapshot can derive again only the rows of commands after it.
    this.writePendingRows();
    this.snapshots.save(snapshot);
  }

  loadLatestSnapshot(): Snapshot | undefined {
    return this.snapshots.loadLatest();
  }

  getOrder(accountId: number, orderId: number): OrderRow | undefined {
    this.beforeRead();
    return this.readModel.getOrder(accountId, orderId);
  }

  listOrders(query: OrderQuery): OrderRow[] {
    this.beforeRead();
    return this.readModel.listOrders(query);
  }

  *readTrades(afterTradeId: number, pageSize = 5000): Iterable<TradeRow> {
    this.beforeRead();
    let after = afterTradeId;
    while (true) {
      const page = this.readModel.tradesAfter(after, pageSize);
      yield* page;
      if (page.length < pageSize) return;
      after = page[page.length - 1].tradeId;
    }
  }

  listTrades(query: TradeQuery): TradeRow[] {
    this.beforeRead();
    return this.readModel.listTrades(query);
  }

  listFlows(query: FlowQuery): FlowRow[] {
    this.beforeRead();
    return this.readModel.listFlows(query);
  }

  listDeposits(query: FundingQuery): DepositRow[] {
    this.beforeRead();
    return this.readModel.listDeposits(query);
  }

  listWithdrawals(query: FundingQuery): WithdrawalRow[] {
    this.beforeRead();
    return this.readModel.listWithdrawals(query);
  }

  listFundingRecords(query: FundingRecordQuery): { total: number; rows: FundingRecordRow[] } {
    this.beforeRead();
    return this.payments.listFundingRecords(query);
  }

  getFundingRecord(txId: number): FundingRecordRow | undefined {
    this.beforeRead();
    return this.payments.getFundingRecord(txId);
  }

  listPaymentOrders(query: PaymentOrderQuery): { total: number; rows: Record<string, unknown>[] } {
    this.beforeRead();
    return this.payments.listPaymentOrders(query);
  }

  getPaymentOrder(userId: number, orderId: number): Record<string, unknown> | undefined {
    this.beforeRead();
    return this.payments.getPaymentOrder(userId, orderId);
  }

  getWithdrawal(accountId: number, key: WithdrawalKey): WithdrawalRow | undefined {
    this.beforeRead();
    return this.readModel.getWithdrawal(accountId, key);
  }

  listWebhooks(userId: number, statuses: readonly number[]): WebhookRow[] {
    this.beforeRead();
    return this.webhooks.listWebhooks(userId, statuses);
  }

  listWebhookEvents(query: WebhookEventQuery): { total: number; rows: WebhookEventRow[] } {
    this.beforeRead();
    return this.webhooks.listWebhookEvents(query);
  }

  getWebhookEvent(eventId: string): WebhookEventRow | undefined {
    this.beforeRead();
    return this.webhooks.getWebhookEvent(eventId);
  }

  webhookPayload(eventId: string): string | undefined {
    this.beforeRead();
    return this.webhooks.webhookPayload(eventId);
  }

  flowSums(): FlowSum[] {
    this.beforeRead();
    // Flows still queued (the disk was full) count as well: verify compares them with the balances.
    return this.readModel.flowSums(this.pending.flatMap((rows) => rows.flows));
  }

  /** Commits a write that needs room and removes it again; throws SQLITE_FULL while there is none (disk-space.ts). */
  probeWrite(): void {
    this.writeProbe();
  }

  /**
   * Caps this connection's database at `pages` pages (SQLite `max_page_count`), or lifts the cap
   * (null): a test and diagnostic knob that makes the disk look full. Returns the cap in force,
   * which SQLite never sets below the file's current size.
   */
  setMaxPageCount(pages: number | null): number {
    const cap = pages ?? this.defaultMaxPageCount;
    if (!Number.isSafeInteger(cap) || cap < 1) throw new RangeError(`max page count must be a positive integer: ${cap}`);
    return this.db.pragma(`max_page_count = ${cap}`, { simple: true }) as number;
  }

  close(): void {
    // Rows without room to be written now are derived again from the journal at the next start.
    this.tryWritePendingRows();
    if (this.rowsTimer !== undefined) clearTimeout(this.rowsTimer);
    this.checkpointer?.stop();
    this.db.close();
  }
}
