import { emptyDerivedRows } from '../core/types.js';
import type { Store } from '../store/store.js';
import { ExchangeCore } from './exchange-core.js';
import { hashState, restoreSnapshot, serializeCore, stateHash } from './snapshot.js';

export class RecoveryError extends Error {}

export interface RecoverOptions {
  /** Replay the whole journal, whatever snapshots there are. */
  ignoreSnapshots?: boolean;
  /**
   * Derive the rows the store lacks (those after its projection mark) and queue them in the store
   * (default). False for a replica over another connection: the writer derives and writes them.
   */
  deriveRows?: boolean;
}

export interface Recovered {
  core: ExchangeCore;
  snapshotSeq: number;
  replayed: number;
}

/**
 * Start-up = latest snapshot + replay of the journal after it (docs/running.md "Durability and recovery"). A snapshot
 * whose text or rebuilt state does not hash to the recorded value, or a journaled command the
 * state refuses, stops the start: the state would not be the one clients were told about.
 */
export function recover(store: Store, options: RecoverOptions = {}): Recovered {
  // Rows of commands after the projection mark were never written (the process stopped first):
  // they are derived again below, which a snapshot past the mark would skip.
  const projectedSeq = options.deriveRows === false ? Infinity : store.projectedSeq();
  const latest = options.ignoreSnapshots === true ? undefined : store.loadLatestSnapshot();
  const snapshot = latest !== undefined && latest.seq <= projectedSeq ? latest : undefined;
  let core: ExchangeCore;
  if (snapshot === undefined) {
    core = new ExchangeCore();
  } else {
    if (hashState(snapshot.state) !== snapshot.hash) {
      throw new RecoveryError(`snapshot at seq ${snapshot.seq} is corrupt: its state does not hash to the recorded ${snapshot.hash}`);
    }
    const restored = restoreSnapshot(snapshot.state);
    core = restored.core;
    // An older version's text is not what today's serialiser writes: its own hash vouched for it above.
    const rebuilt = restored.current ? stateHash(core) : snapshot.hash;
    if (rebuilt !== snapshot.hash) {
      throw new RecoveryError(`state hash mismatch after loading the snapshot at seq ${snapshot.seq}: recorded ${snapshot.hash}, rebuilt ${rebuilt}`);
    }
  }
  const snapshotSeq = core.lastSeq;
  let replayed = 0;
  // Rows up to the mark are in the store already: the replay rebuilds state only, then derives the rest.
  const rows = emptyDerivedRows();
  const unwritten = emptyDerivedRows();
  // No stream is open yet: the rows derived again need no events.
  core.streamedAccounts = NO_ACCOUNTS;
  for (const stamped of store.readJournal(core.lastSeq)) {
    const derive = stamped.seq > projectedSeq;
    try {
      core.apply(stamped, derive ? unwritten : rows, derive ? 'all' : 'none');
    } catch (error) {
      throw new RecoveryError(`journal replay diverged at seq ${stamped.seq} (${stamped.command.type}): ${(error as Error).message}`);
    }
    replayed++;
    // Rows the replay still makes (taker order rows, deposits) are dropped as it goes.
    if (rows.orders.length > 4096) Object.assign(rows, emptyDerivedRows());
  }
  core.streamedAccounts = undefined;
  if (core.lastSeq !== store.lastSeq()) {
    throw new RecoveryError(`replay ended at seq ${core.lastSeq} but the journal ends at ${store.lastSeq()}`);
  }
  if (options.deriveRows !== false) store.resetPendingRows(unwritten);
  return { core, snapshotSeq, replayed };
}

const NO_ACCOUNTS: ReadonlySet<number> = new Set();

/** Records the current state with its hash. */
export function takeSnapshot(core: ExchangeCore, store: Store): { seq: number; hash: string } {
  const state = serializeCore(core);
  const hash = hashState(state);
  store.saveSnapshot({ seq: core.lastSeq, hash, state });
  return { seq: core.lastSeq, hash };
}

/**
 * After a commit that failed, `core` is ahead of the journal by that batch: this brings it back to
 * the journal's state (`committedSeq`), recovered as at start (latest snapshot + replay). Readers
 * and streams hold `core` itself, so the recovered state is moved into it rather than handed out.
 * Throws a RecoveryError when the journal does not end at `committedSeq`: then the failed commit's
 * outcome is not what SQLite reported, and only a restart may decide.
 */
export function rollBackToJournal(core: ExchangeCore, store: Store, committedSeq: number): Recovered {
  const recovered = recover(store);
  if (recovered.core.lastSeq !== committedSeq) {
    throw new RecoveryError(`after a failed commit the journal ends at seq ${recovered.core.lastSeq}, not at the last committed ${committedSeq}`);
  }
  moveState(recovered.core, core);
  return { ...recovered, core };
}

/**
 * Makes `into` hold `from`'s state: every field of the core moves over (the ledger, the shared
 * context and the modules, which hold their ports and never the core). `from` must not be used
 * afterwards. The deadline epoch only moves forward, so the scheduler re-reads the deadlines.
 */
function moveState(from: ExchangeCore, into: ExchangeCore): void {
  const deadlineEpoch = into.deadlineEpoch;
  // Which accounts streams watch is the fan-out's, not state: it stays.
  const streamedAccounts = into.streamedAccounts;
  Object.assign(into, from);
  into.streamedAccounts = streamedAccounts;
  into.deadlineEpoch = deadlineEpoch + 1;
}
