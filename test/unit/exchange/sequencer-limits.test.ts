/**
 * The sequencer's two limits: how many commands may wait (beyond, ENGINE_BUSY at once), and a
 * journal that cannot be written for want of space (the batch and every later command refused with
 * WRITES_SUSPENDED until the owner resumes writes). Either way a refused command is neither
 * applied nor journaled.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BourseError } from '../../../src/core/errors.js';
import type { Command, DerivedRows, StampedCommand } from '../../../src/core/types.js';
import { Sequencer, type Applier, type Outcome } from '../../../src/exchange/sequencer.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

/** Counts the deposits it applies; `undo` takes the last ones back (what a rollback to the journal does). */
class CountingApplier implements Applier {
  applied = 0;

  apply(stamped: StampedCommand, rows: DerivedRows): number {
    if (stamped.command.type !== 'deposit') throw new Error(`unexpected ${stamped.command.type}`);
    rows.flows.push({ flowId: stamped.seq, accountId: 1, asset: 'USDT', flowType: 4, changeAtoms: 1n, totalAtoms: 1n, precision: 0, created: stamped.ts, seq: stamped.seq });
    return ++this.applied;
  }
}

function deposit(n: number): Command {
  return { type: 'deposit', accountId: 1, asset: 'USDT', amount: '1', txId: `tx-${n}` };
}

/** What SQLite throws when a write finds no room. */
function diskFull(): Error {
  return Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
}

/** Every submission's outcome, by index, once all are settled. */
function submitAll(seq: Sequencer, count: number, from = 1): Promise<Outcome[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => new Promise<Outcome>((resolve) => seq.enqueue(deposit(from + i), resolve))));
}

function refusalName(outcome: Outcome): string {
  return outcome.accepted ? 'accepted' : (outcome.error as BourseError).errorName;
}

describe('Sequencer limits', () => {
  let store: SqliteStore;
  let applier: CountingApplier;

  beforeEach(() => {
    store = openSqliteStore({ path: ':memory:', synchronous: 'NORMAL' });
    applier = new CountingApplier();
  });
  afterEach(() => {
    store.close();
  });

  describe('when more commands arrive than may wait', () => {
    it('then those beyond maxQueued are refused at once with 503 -1003, before anything is applied or journaled', async () => {
      const seq = new Sequencer({ store, applier, clock: () => 1000, maxQueued: 100 });
      const refusedAtOnce: Outcome[] = [];
      const outcomes: Promise<Outcome>[] = [];

      for (let i = 1; i <= 10_000; i++) {
        outcomes.push(
          new Promise((resolve) =>
            seq.enqueue(deposit(i), (outcome) => {
              // Settled inside enqueue: no batch has run yet.
              if (applier.applied === 0) refusedAtOnce.push(outcome);
              resolve(outcome);
            }),
          ),
        );
        expect(seq.queued).toBeLessThanOrEqual(100);
      }

      expect(refusedAtOnce).toHaveLength(9_900);
      const settled = await Promise.all(outcomes);
      expect(settled.slice(0, 100).every((o) => o.accepted)).toBe(true);
      const refusal = settled[100];
      expect(refusal.accepted).toBe(false);
      if (refusal.accepted) return;
      expect([refusal.error.code, refusal.error.http, refusal.error.message]).toEqual([-1003, 503, 'Too many requests; current limit is 100 requests waiting for the engine.']);
      expect((refusal.error as BourseError).retryAfterSec).toBe(1);
      expect(applier.applied).toBe(100);
      expect([...store.readJournal(0)].map((s) => s.command)).toEqual(Array.from({ length: 100 }, (_, i) => deposit(i + 1)));
    });

    it('then once the queue has drained, commands are taken again', async () => {
      const seq = new Sequencer({ store, applier, clock: () => 1000, maxQueued: 2 });

      expect((await submitAll(seq, 3)).map(refusalName)).toEqual(['accepted', 'accepted', 'ENGINE_BUSY']);
      expect((await submitAll(seq, 2, 4)).map(refusalName)).toEqual(['accepted', 'accepted']);
      expect(store.lastSeq()).toBe(4);
    });

    it('then a bound below 1 is not accepted', () => {
      expect(() => new Sequencer({ store, applier, clock: () => 1000, maxQueued: 0 })).toThrow(RangeError);
    });
  });

  describe('when a commit fails for want of space', () => {
    /** The store's next `failures` commits throw SQLITE_FULL; the others commit. */
    function failNextCommits(failures: number): void {
      const append = store.appendBatch.bind(store);
      let left = failures;
      store.appendBatch = (commands, rows) => {
        if (left > 0) {
          left--;
          throw diskFull();
        }
        append(commands, rows);
      };
    }

    it('then the batch and the commands waiting are refused with 503 -1016, later ones at once, and nothing is fatal', async () => {
      const fatal: unknown[] = [];
      const rolledBackTo: number[] = [];
      const seq = new Sequencer({
        store,
        applier,
        clock: () => 1000,
        maxBatch: 2,
        onFatal: (error) => fatal.push(error),
        onCommitFailure: (error, committedSeq) => {
          expect(error).toMatchObject({ code: 'SQLITE_FULL' });
          applier.applied = committedSeq;
          rolledBackTo.push(committedSeq);
          return true;
        },
      });
      expect((await submitAll(seq, 1)).map(refusalName)).toEqual(['accepted']);
      failNextCommits(1);

      // Two in the failing batch, the third waiting for the next one.
      const outcomes = await submitAll(seq, 3, 2);

      expect(outcomes.map(refusalName)).toEqual(['WRITES_SUSPENDED', 'WRITES_SUSPENDED', 'WRITES_SUSPENDED']);
      const refusal = outcomes[0];
      if (refusal.accepted) return;
      expect([refusal.error.code, refusal.error.http]).toEqual([-1016, 503]);
      expect(refusal.error.message).toBe('This service is no longer available. Writes are suspended: the journal cannot be written (disk full); reads still work, retry later.');
      expect(rolledBackTo).toEqual([1]);
      expect(fatal).toEqual([]);
      expect(seq.writesSuspended).toBe(true);

      let appliedBefore = applier.applied;
      expect((await submitAll(seq, 1, 5)).map(refusalName)).toEqual(['WRITES_SUSPENDED']);
      expect(applier.applied).toBe(appliedBefore);
      await seq.flush();

      seq.resumeWrites();
      appliedBefore = applier.applied;
      const resumed = await submitAll(seq, 1, 6);
      expect(resumed.map(refusalName)).toEqual(['accepted']);
      // The refused commands took no sequence number: the next one follows the last committed.
      expect(resumed[0].accepted && resumed[0].stamped.seq).toBe(2);
      expect([...store.readJournal(0)].map((s) => s.command)).toEqual([deposit(1), deposit(6)]);
      expect(applier.applied).toBe(appliedBefore + 1);
    });

    it('then without an owner that brings the state back, it is fatal as before', async () => {
      const fatal: unknown[] = [];
      const seq = new Sequencer({ store, applier, clock: () => 1000, onFatal: (error) => fatal.push(error) });
      failNextCommits(1);

      expect((await submitAll(seq, 1)).map(refusalName)).toEqual(['INTERNAL']);
      expect(fatal).toHaveLength(1);
      expect((await submitAll(seq, 1, 2)).map(refusalName)).toEqual(['SERVICE_UNAVAILABLE']);
    });

    it('then if the state cannot be brought back, it is fatal and the batch is INTERNAL (outcome unknown)', async () => {
      const fatal: unknown[] = [];
      const seq = new Sequencer({
        store,
        applier,
        clock: () => 1000,
        onFatal: (error) => fatal.push(error),
        onCommitFailure: () => {
          throw new Error('the journal ends elsewhere');
        },
      });
      failNextCommits(1);

      expect((await submitAll(seq, 1)).map(refusalName)).toEqual(['INTERNAL']);
      expect(fatal).toHaveLength(1);
      expect(seq.writesSuspended).toBe(false);
    });
  });
});
