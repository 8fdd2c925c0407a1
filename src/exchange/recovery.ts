import { emptyDerivedRows } from '../core/types.js';
import type { Store } from '../store/store.js';
import { ExchangeCore } from './exchange-core.js';
import { hashState, restoreSnapshot, serializeCore, stateHash } from './snapshot.js';

export class RecoveryError extends Error {}

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
export function recover(store: Store, options: { ignoreSnapshots?: boolean } = {}): Recovered {
  const snapshot = options.ignoreSnapshots === true ? undefined : store.loadLatestSnapshot();
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
  // Rows are already in the store: the replay rebuilds state only.
  const rows = emptyDerivedRows();
  for (const stamped of store.readJournal(core.lastSeq)) {
    try {
      core.apply(stamped, rows, 'none');
    } catch (error) {
      throw new RecoveryError(`journal replay diverged at seq ${stamped.seq} (${stamped.command.type}): ${(error as Error).message}`);
    }
    replayed++;
    // Rows the replay still makes (taker order rows, deposits) are dropped as it goes.
    if (rows.orders.length > 4096) Object.assign(rows, emptyDerivedRows());
  }
  if (core.lastSeq !== store.lastSeq()) {
    throw new RecoveryError(`replay ended at seq ${core.lastSeq} but the journal ends at ${store.lastSeq()}`);
  }
  return { core, snapshotSeq, replayed };
}

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
 * Makes `into` hold `from`'s state: every field of the core moves over (the ledger and the
 * modules), and the modules' references to their core are re-pointed at `into`. `from` must not be
 * used afterwards. The deadline epoch only moves forward, so the scheduler re-reads the deadlines.
 */
function moveState(from: ExchangeCore, into: ExchangeCore): void {
  const deadlineEpoch = into.deadlineEpoch;
  // Which accounts streams watch is the fan-out's, not state: it stays.
  const streamedAccounts = into.streamedAccounts;
  Object.assign(into, from);
  into.streamedAccounts = streamedAccounts;
  for (const module of into.modules) {
    const fields = module as unknown as Record<string, unknown>;
    for (const key of Object.keys(fields)) if (fields[key] === from) fields[key] = into;
  }
  into.deadlineEpoch = deadlineEpoch + 1;
}
