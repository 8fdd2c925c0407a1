import { emptyDerivedRows } from '../core/types.js';
import type { Journal, Snapshot, Store, SyncJournal } from '../store/store.js';
import type { StampedCommand } from '../core/types.js';
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
  /** Stop at this seq instead of the journal's end (a follower stepping back to what it fed its streams). */
  untilSeq?: number;
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
export function recover(store: SyncJournal, options: RecoverOptions = {}): Recovered {
  const replay = new Replay(store, options, store.loadLatestSnapshot.bind(store));
  const until = options.untilSeq ?? Infinity;
  for (const stamped of store.readJournal(replay.core.lastSeq)) {
    if (stamped.seq > until) break;
    replay.apply(stamped);
  }
  return replay.finish();
}

/** `recover` over a store that answers asynchronously (PostgreSQL). */
export async function recoverAsync(store: Store, options: RecoverOptions = {}): Promise<Recovered> {
  const latest = options.ignoreSnapshots === true ? undefined : await store.loadLatestSnapshot();
  const replay = new Replay(store, options, () => latest);
  const until = options.untilSeq ?? Infinity;
  for await (const stamped of store.readJournal(replay.core.lastSeq)) {
    if (stamped.seq > until) break;
    replay.apply(stamped);
  }
  return replay.finish();
}

/** One recovery: the core loaded from the snapshot, then each journaled command applied in turn. */
class Replay {
  readonly core: ExchangeCore;
  private readonly snapshotSeq: number;
  private readonly projectedSeq: number;
  private replayed = 0;
  // Rows up to the mark are in the store already: the replay rebuilds state only, then derives the rest.
  private rows = emptyDerivedRows();
  private readonly unwritten = emptyDerivedRows();

  constructor(
    private readonly store: Journal,
    private readonly options: RecoverOptions,
    loadLatestSnapshot: () => Snapshot | undefined,
  ) {
    // Rows of commands after the projection mark were never written (the process stopped first):
    // they are derived again below, which a snapshot past the mark would skip.
    this.projectedSeq = options.deriveRows === false ? Infinity : store.projectedSeq();
    const latest = options.ignoreSnapshots === true ? undefined : loadLatestSnapshot();
    const until = options.untilSeq ?? Infinity;
    const snapshot = latest !== undefined && latest.seq <= this.projectedSeq && latest.seq <= until ? latest : undefined;
    this.core = snapshot === undefined ? new ExchangeCore() : coreOf(snapshot);
    this.snapshotSeq = this.core.lastSeq;
    // No stream is open yet: the rows derived again need no events.
    this.core.streamedAccounts = NO_ACCOUNTS;
  }

  apply(stamped: StampedCommand): void {
    const derive = stamped.seq > this.projectedSeq;
    try {
      this.core.apply(stamped, derive ? this.unwritten : this.rows, derive ? 'all' : 'none');
    } catch (error) {
      throw new RecoveryError(`journal replay diverged at seq ${stamped.seq} (${stamped.command.type}): ${(error as Error).message}`);
    }
    this.replayed++;
    // Rows the replay still makes (taker order rows, deposits) are dropped as it goes.
    if (this.rows.orders.length > 4096) this.rows = emptyDerivedRows();
  }

  finish(): Recovered {
    const { core } = this;
    core.streamedAccounts = undefined;
    const end = this.options.untilSeq ?? this.store.lastSeq();
    if (core.lastSeq !== end) {
      throw new RecoveryError(`replay ended at seq ${core.lastSeq} but the journal ends at ${end}`);
    }
    if (this.options.deriveRows !== false) this.store.resetPendingRows(this.unwritten);
    return { core, snapshotSeq: this.snapshotSeq, replayed: this.replayed };
  }
}

/** The snapshot's state, checked against the hash recorded with it. */
function coreOf(snapshot: Snapshot): ExchangeCore {
  if (hashState(snapshot.state) !== snapshot.hash) {
    throw new RecoveryError(`snapshot at seq ${snapshot.seq} is corrupt: its state does not hash to the recorded ${snapshot.hash}`);
  }
  const restored = restoreSnapshot(snapshot.state);
  // An older version's text is not what today's serialiser writes: its own hash vouched for it above.
  const rebuilt = restored.current ? stateHash(restored.core) : snapshot.hash;
  if (rebuilt !== snapshot.hash) {
    throw new RecoveryError(`state hash mismatch after loading the snapshot at seq ${snapshot.seq}: recorded ${snapshot.hash}, rebuilt ${rebuilt}`);
  }
  return restored.core;
}

const NO_ACCOUNTS: ReadonlySet<number> = new Set();

/** Records the current state with its hash. */
export function takeSnapshot(core: ExchangeCore, store: SyncJournal): { seq: number; hash: string } {
  const snapshot = snapshotOf(core);
  store.saveSnapshot(snapshot);
  return { seq: snapshot.seq, hash: snapshot.hash };
}

/** The current state as a snapshot (serialised now; a store may save it later). */
export function snapshotOf(core: ExchangeCore): Snapshot {
  const state = serializeCore(core);
  return { seq: core.lastSeq, hash: hashState(state), state };
}

/**
 * After a commit that failed, `core` is ahead of the journal by that batch: this brings it back to
 * the journal's state (`committedSeq`), recovered as at start (latest snapshot + replay). Readers
 * and streams hold `core` itself, so the recovered state is moved into it rather than handed out.
 * Throws a RecoveryError when the journal does not end at `committedSeq`: then the failed commit's
 * outcome is not what SQLite reported, and only a restart may decide.
 */
export function rollBackToJournal(core: ExchangeCore, store: SyncJournal, committedSeq: number): Recovered {
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
export function moveState(from: ExchangeCore, into: ExchangeCore): void {
  const deadlineEpoch = into.deadlineEpoch;
  // Which accounts streams watch is the fan-out's, not state: it stays.
  const streamedAccounts = into.streamedAccounts;
  Object.assign(into, from);
  into.streamedAccounts = streamedAccounts;
  into.deadlineEpoch = deadlineEpoch + 1;
}
