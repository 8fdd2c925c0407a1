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
  FundingRecordRow,
  PaymentOrderQuery,
  OrderQuery,
  Snapshot,
  Store,
  TradeQuery,
  WithdrawalKey,
  WebhookEventQuery,
  WebhookEventRow,
  WebhookRow,
} from '../store.js';
import { prepareBatchWrite, type BatchWrite } from './batch-writer.js';
import { prepareWriteProbe } from './disk-space.js';
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
}

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
    return new SqliteStore(db, background ? new WalCheckpointer(options.path) : undefined);
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

  constructor(
    private readonly db: Database.Database,
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
    this.write(commands, rows);
    this.committedSeq = seq;
    this.committedTs = ts;
  }

  readJournal(afterSeq: number, batchSize?: number): Iterable<StampedCommand> {
    return this.read(afterSeq, batchSize);
  }

  saveSnapshot(snapshot: Snapshot): void {
    if (!Number.isSafeInteger(snapshot.seq) || snapshot.seq < 0 || snapshot.seq > this.committedSeq) {
      throw new Error(`saveSnapshot: seq ${snapshot.seq} is not in the journal (last ${this.committedSeq})`);
    }
    this.snapshots.save(snapshot);
  }

  loadLatestSnapshot(): Snapshot | undefined {
    return this.snapshots.loadLatest();
  }

  getOrder(accountId: number, orderId: number): OrderRow | undefined {
    return this.readModel.getOrder(accountId, orderId);
  }

  listOrders(query: OrderQuery): OrderRow[] {
    return this.readModel.listOrders(query);
  }

  *readTrades(afterTradeId: number, pageSize = 5000): Iterable<TradeRow> {
    let after = afterTradeId;
    while (true) {
      const page = this.readModel.tradesAfter(after, pageSize);
      yield* page;
      if (page.length < pageSize) return;
      after = page[page.length - 1].tradeId;
    }
  }

  listTrades(query: TradeQuery): TradeRow[] {
    return this.readModel.listTrades(query);
  }

  listFlows(query: FlowQuery): FlowRow[] {
    return this.readModel.listFlows(query);
  }

  listDeposits(query: FundingQuery): DepositRow[] {
    return this.readModel.listDeposits(query);
  }

  listWithdrawals(query: FundingQuery): WithdrawalRow[] {
    return this.readModel.listWithdrawals(query);
  }

  listFundingRecords(query: FundingRecordQuery): { total: number; rows: FundingRecordRow[] } {
    return this.payments.listFundingRecords(query);
  }

  getFundingRecord(txId: number): FundingRecordRow | undefined {
    return this.payments.getFundingRecord(txId);
  }

  listPaymentOrders(query: PaymentOrderQuery): { total: number; rows: Record<string, unknown>[] } {
    return this.payments.listPaymentOrders(query);
  }

  getPaymentOrder(userId: number, orderId: number): Record<string, unknown> | undefined {
    return this.payments.getPaymentOrder(userId, orderId);
  }

  getWithdrawal(accountId: number, key: WithdrawalKey): WithdrawalRow | undefined {
    return this.readModel.getWithdrawal(accountId, key);
  }

  listWebhooks(userId: number, statuses: readonly number[]): WebhookRow[] {
    return this.webhooks.listWebhooks(userId, statuses);
  }

  listWebhookEvents(query: WebhookEventQuery): { total: number; rows: WebhookEventRow[] } {
    return this.webhooks.listWebhookEvents(query);
  }

  getWebhookEvent(eventId: string): WebhookEventRow | undefined {
    return this.webhooks.getWebhookEvent(eventId);
  }

  webhookPayload(eventId: string): string | undefined {
    return this.webhooks.webhookPayload(eventId);
  }

  flowSums(): FlowSum[] {
    return this.readModel.flowSums();
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
    this.checkpointer?.stop();
    this.db.close();
  }
}
