/**
 * Where the one writer runs. `inline`: the core, the sequencer and the journal's writes share the
 * HTTP thread. `worker` (see core-thread/): they run in a worker thread, and this thread keeps a
 * replica of the core, fed the committed commands, for reads and fan-out.
 */

import type { Command } from '../core/types.js';
import { openSqliteStore, type SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Store } from '../store/store.js';
import type { ExchangeCore } from './exchange-core.js';
import { recover } from './recovery.js';
import { Sequencer, type CommitInfo } from './sequencer.js';
import { SnapshotSchedule } from './snapshot-schedule.js';
import { verifyLedger, type VerifyReport } from './verify.js';

export type CoreThread = 'inline' | 'worker';

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

/** Opens the store, recovers the core and starts the writer: inline, or inside the core worker. */
export function openWriter(options: CoreHostOptions): Writer {
  const store = openSqliteStore({ path: options.dbPath, synchronous: options.synchronous });
  let recovered: ReturnType<typeof recover>;
  try {
    recovered = recover(store);
  } catch (error) {
    store.close();
    throw error;
  }
  const { core, snapshotSeq, replayed } = recovered;
  const snapshots = new SnapshotSchedule(core, store, options.snapshotEveryCommands, snapshotSeq);
  let failed = false;
  const sequencer = new Sequencer({
    store,
    applier: core,
    clock: options.clock,
    onCommit: (info) => {
      options.onCommit(info);
      snapshots.afterCommit();
    },
    onFatal: (error) => {
      failed = true;
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
      if (!failed) snapshots.atStop();
      store.close();
    },
  };
}

export function startInlineCore(options: CoreHostOptions): CoreHost {
  const writer = openWriter(options);
  const { core, store } = writer;
  return {
    core,
    history: store,
    snapshotSeq: writer.snapshotSeq,
    replayed: writer.replayed,
    submit: (command) => writer.sequencer.submit(command),
    verify: (verifyOptions) => Promise.resolve(verifyLedger(core, store, options.clock(), verifyOptions)),
    close: () => writer.close(),
  };
}
