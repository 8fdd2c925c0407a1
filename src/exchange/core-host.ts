/**
 * Where the one writer runs. `inline`: the core, the sequencer and the journal's writes share the
 * HTTP thread. `worker` (see core-thread/): they run in a worker thread, and this thread keeps a
 * replica of the core, fed the committed commands, for reads and fan-out.
 */

import type { Command } from '../core/types.js';
import { isDiskFull } from '../store/sqlite/disk-space.js';
import { openSqliteStore, type SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import type { ExchangeCore } from './exchange-core.js';
import { recover, rollBackToJournal } from './recovery.js';
import { Sequencer, type CommitInfo } from './sequencer.js';
import { SnapshotSchedule } from './snapshot-schedule.js';
import { verifyLedger, type VerifyReport } from './verify.js';

export type CoreThread = 'inline' | 'worker';

/** How often a writer whose disk was full tries a probe write (DEFAULT_WRITE_PROBE_MS). */
export const DEFAULT_WRITE_PROBE_MS = 1000;

/**
 * What the writer tells its owner about the journal's writes, for the log: suspended when a commit
 * found the disk full (the batch was refused and the state brought back to `seq`), resumed when a
 * probe write succeeded, a snapshot skipped for want of room (the journal still holds everything).
 */
export type WriteEvent =
  | { type: 'writesSuspended'; seq: number; reason: string }
  | { type: 'writesResumed'; seq: number; suspendedMs: number }
  | { type: 'snapshotSkipped'; seq: number; reason: string };

export interface CoreHostOptions {
  dbPath: string;
  synchronous: 'NORMAL' | 'FULL';
  snapshotEveryCommands: number;
  /** Milliseconds since the epoch; the stamps follow it (never backwards). */
  clock: () => number;
  /** After each committed batch, on this thread, once its submitters are answered. */
  onCommit: (info: CommitInfo) => void;
  /** Memory may be ahead of disk: the owner must stop and recover from the journal. */
  onFatal: (error: unknown) => void;
  /** Commands submitted and not yet answered, at most (default DEFAULT_MAX_QUEUED); beyond, ENGINE_BUSY. */
  maxPendingCommands?: number;
  /** Transitions of the journal's writes (disk full, room again), on this thread. */
  onWriteEvent?: (event: WriteEvent) => void;
  /** How often a suspended writer probes for room (default DEFAULT_WRITE_PROBE_MS). */
  writeProbeMs?: number;
}

export interface CoreHost {
  /** Committed state: reads and command checks (A12) use it; only `submit` changes it. */
  readonly core: ExchangeCore;
  /** The store's history tables, for reads. */
  readonly history: Store;
  /** Where recovery started (0: no snapshot) and how many journaled commands it replayed. */
  readonly snapshotSeq: number;
  readonly replayed: number;
  /** Resolves with the command's result once it is committed; rejects with a BourseError. */
  submit(command: Command): Promise<unknown>;
  /** The operator's ledger check, on the writer's state and store between two batches. */
  verify(options: { replay?: boolean }): Promise<VerifyReport>;
  /**
   * Caps the database at `pages` pages (SQLite `max_page_count` on the writer's connection), or
   * lifts the cap (null); resolves with the cap in force. A test and diagnostic knob: it makes the
   * disk look full, to rehearse the suspension of writes. Hosts over a SQLite writer offer it.
   */
  limitDatabasePages?(pages: number | null): Promise<number>;
  /** Refuses new commands, settles the pending ones, snapshots (unless failed) and closes the store. */
  close(): Promise<void>;
}

/** The one writer over the store: the core recovered from it, the sequencer, the snapshot schedule. */
export interface Writer {
  store: SqliteStore;
  core: ExchangeCore;
  snapshotSeq: number;
  replayed: number;
  sequencer: Sequencer;
  /** Settles the pending commands, snapshots (unless the sequencer failed) and closes the store. */
  close(): Promise<void>;
}

/**
 * Opens the store, recovers the core and starts the writer: inline, or inside the core worker.
 * `rowsEveryCommits`: see SqliteStoreOptions.
 *
 * A commit that fails with SQLITE_FULL does not stop it: the batch is refused (WRITES_SUSPENDED),
 * the core is brought back to the journal's state, and every command is refused until a probe
 * write, tried every `writeProbeMs`, commits; then writes resume by themselves. Nothing
 * acknowledged is lost (it is in the journal) and memory is never ahead of disk. Any other
 * failure of a commit is fatal, as before.
 */
export function openWriter(options: CoreHostOptions, rowsEveryCommits = 1): Writer {
  const store = openSqliteStore({ path: options.dbPath, synchronous: options.synchronous, checkpoints: 'background', rowsEveryCommits });
  let recovered: ReturnType<typeof recover>;
  try {
    recovered = recover(store);
  } catch (error) {
    store.close();
    throw error;
  }
  const { core, snapshotSeq, replayed } = recovered;
  try {
    // Rows a crash kept from the tables, derived again: written before anyone reads (in the
    // worker's case, through another connection).
    store.writePendingRows();
  } catch (error) {
    // A full disk: they stay queued for the first commit with room (reads lag until then).
    if (!isDiskFull(error)) {
      store.close();
      throw error;
    }
  }
  const report = options.onWriteEvent ?? (() => undefined);
  let snapshots = new SnapshotSchedule(core, store, options.snapshotEveryCommands, snapshotSeq);
  /** A snapshot is a shortcut for recovery, not a record: without room it is skipped, not fatal. */
  const snapshotUnlessFull = (take: () => void): void => {
    try {
      take();
    } catch (error) {
      if (!isDiskFull(error)) throw error;
      report({ type: 'snapshotSkipped', seq: core.lastSeq, reason: (error as Error).message });
      // The next try is a whole interval later: serialising the state on every commit would cost more.
      snapshots = new SnapshotSchedule(core, store, options.snapshotEveryCommands, core.lastSeq);
    }
  };
  let failed = false;
  let probe: NodeJS.Timeout | undefined;
  let suspendedAt = 0;
  const probeForRoom = (): void => {
    try {
      store.probeWrite();
    } catch {
      // Still no room (or the disk is failing): memory equals the journal, so waiting is safe.
      return;
    }
    clearInterval(probe);
    probe = undefined;
    sequencer.resumeWrites();
    report({ type: 'writesResumed', seq: sequencer.lastSeq, suspendedMs: Math.max(0, options.clock() - suspendedAt) });
  };
  const sequencer: Sequencer = new Sequencer({
    store,
    applier: core,
    clock: options.clock,
    maxQueued: options.maxPendingCommands,
    onCommit: (info) => {
      options.onCommit(info);
      snapshotUnlessFull(() => snapshots.afterCommit());
    },
    onCommitFailure: (error, committedSeq) => {
      if (!isDiskFull(error)) return false;
      // Throws (a fatal failure) when the journal does not end where the sequencer says it does.
      rollBackToJournal(core, store, committedSeq);
      suspendedAt = options.clock();
      report({ type: 'writesSuspended', seq: committedSeq, reason: (error as Error).message });
      probe = setInterval(probeForRoom, options.writeProbeMs ?? DEFAULT_WRITE_PROBE_MS);
      probe.unref();
      return true;
    },
    onFatal: (error) => {
      failed = true;
      clearInterval(probe);
      options.onFatal(error);
    },
  });
  return {
    store,
    core,
    snapshotSeq,
    replayed,
    sequencer,
    async close() {
      await sequencer.close().catch(() => undefined);
      clearInterval(probe);
      if (!failed) {
        try {
          await snapshots.atStop();
        } catch (error) {
          if (!isDiskFull(error)) throw error;
          report({ type: 'snapshotSkipped', seq: core.lastSeq, reason: (error as Error).message });
        }
      }
      store.close();
    },
  };
}

/**
 * Commits whose rows the inline writer may hold back and write together: its store is the tables'
 * only reader, so nothing sees them late. bench/journal: writing the rows of 4 batches at once
 * (each index page written once for them) instead of each batch's own.
 */
export const INLINE_ROWS_EVERY_COMMITS = 4;

export function startInlineCore(options: CoreHostOptions): CoreHost {
  // The worker's writer keeps 1: this thread's reads go through another connection.
  const writer = openWriter(options, INLINE_ROWS_EVERY_COMMITS);
  const { core, store } = writer;
  return {
    core,
    history: store,
    snapshotSeq: writer.snapshotSeq,
    replayed: writer.replayed,
    submit: (command) => writer.sequencer.submit(command),
    verify: (verifyOptions) => Promise.resolve(verifyLedger(core, store, options.clock(), verifyOptions)),
    limitDatabasePages: (pages) => new Promise((resolve) => resolve(store.setMaxPageCount(pages))),
    close: () => writer.close(),
  };
}
