/**
 * The one writer's front door. Commands submitted during one event-loop turn form a batch: each is
 * stamped (seq, ts), applied in submission order by the state machine, and the accepted ones are
 * committed with their derived rows in one transaction; only then are submitters answered, so an
 * answer always describes durable state. A store that commits asynchronously (PostgreSQL) holds the
 * next batch back until the commit returns: commands keep queueing meanwhile and the next batch takes
 * them all, which is the group commit a round trip to the database calls for.
 */

import { BourseError } from '../core/errors.js';
import { Refusal } from '../core/refusal.js';
import { emptyDerivedRows, markRows, truncateRows, type Command, type DerivedRows, type StampedCommand } from '../core/types.js';
import type { Store } from '../store/store.js';

/**
 * The state machine as the sequencer sees it. `apply` appends the rows it derives to `rows` and
 * returns the submitter's result; it throws a Refusal to reject, leaving its state unchanged.
 */
export interface Applier {
  apply(stamped: StampedCommand, rows: DerivedRows): unknown;
}

export interface CommitInfo {
  /** Accepted commands in the batch. */
  size: number;
  commitMs: number;
  commands: StampedCommand[];
  rows: DerivedRows;
  /** What `apply` returned, one per accepted command. */
  results: unknown[];
}

export interface SequencerOptions {
  store: Store;
  applier: Applier;
  /** Milliseconds since the epoch; may step backwards, the stamps never do. */
  clock: () => number;
  /** Most commands in one batch (default 4096); the rest wait for the next turn. */
  maxBatch?: number;
  /** When > 0, wait up to this long for a batch to fill before applying it (default 0: next turn). */
  maxBatchDelayMs?: number;
  /**
   * Most commands waiting for their batch (default DEFAULT_MAX_QUEUED); a command beyond it is
   * refused at once with ENGINE_BUSY, before it is applied or journaled.
   */
  maxQueued?: number;
  /**
   * A batch's commit failed. Return true when the failure is one to wait out (the disk is full)
   * and the state machine is back at the last committed state (`committedSeq`): the batch, the
   * commands waiting and every later one are refused with WRITES_SUSPENDED until `resumeWrites`.
   * Return false (or throw) for a failure that stops the sequencer (`onFatal`). Return 'stop' when
   * the store refused the batch as a whole and the writer must step aside (a fenced leader): the
   * batch and the waiting commands are refused with SERVICE_UNAVAILABLE, later ones too, and
   * `onFatal` is not called. Default: false.
   */
  onCommitFailure?: (error: unknown, committedSeq: number) => boolean | 'stop';
  onCommit?: (info: CommitInfo) => void;
  /** Memory may be ahead of disk: the owner must stop and recover from the journal. */
  onFatal?: (error: unknown) => void;
}

/** How a command ended: applied at `stamped` (durable when reported) or refused. */
export type Outcome =
  | { accepted: true; stamped: StampedCommand; result: unknown; followUps: readonly StampedCommand[] }
  | { accepted: false; error: Refusal };

/** What most commands cause: shared, so that they allocate no list of their own. */
const NO_FOLLOW_UPS: readonly StampedCommand[] = Object.freeze([]);

/**
 * A command waiting for its batch, and then how it ended. `submit`'s promise is settled through
 * `resolve`/`reject` directly: no closure or outcome object per command beyond the promise.
 */
class Submission {
  /** Set once applied: the stamp and what `apply` returned. */
  stamped: StampedCommand | undefined = undefined;
  result: unknown = undefined;
  followUps: readonly StampedCommand[] = NO_FOLLOW_UPS;
  /** Set when refused: the Refusal it is answered with. */
  refusal: Refusal | undefined = undefined;

  constructor(
    readonly command: Command,
    /** When it was received, if before this thread saw it; else the clock's time at apply. */
    readonly receivedAt: number | undefined,
    /** `enqueue`'s callback; undefined for `submit`. */
    private readonly settleOutcome: ((outcome: Outcome) => void) | undefined,
    private readonly resolve: ((result: unknown) => void) | undefined,
    private readonly reject: ((error: Refusal) => void) | undefined,
  ) {}

  /** Answers with what the batch decided: the refusal, else the applied result. */
  settleDecided(): void {
    if (this.refusal !== undefined) this.settle({ accepted: false, error: this.refusal });
    else if (this.settleOutcome !== undefined) {
      this.settleOutcome({ accepted: true, stamped: this.stamped as StampedCommand, result: this.result, followUps: this.followUps });
    } else (this.resolve as (result: unknown) => void)(this.result);
  }

  settle(outcome: Outcome): void {
    if (this.settleOutcome !== undefined) this.settleOutcome(outcome);
    else if (outcome.accepted) (this.resolve as (result: unknown) => void)(outcome.result);
    else (this.reject as (error: Refusal) => void)(outcome.error);
  }
}

interface FlushWaiter {
  /** Resolved once this many submissions are settled. */
  submitted: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export const DEFAULT_MAX_BATCH = 4096;
/**
 * Commands waiting for the core, at most (BOURSE_MAX_PENDING_COMMANDS). At the 11–14k commands/s
 * the HTTP bench measures, a full queue is answered within about a second, far inside the 10 s
 * engine timeout: an admitted command is answered, not timed out and resent, which is what makes
 * an unbounded queue grow. A waiting command holds about 750 bytes here (measured) besides its
 * request, so the bound also caps that memory: 7 MiB here, where 200,000 unbounded held 140 MiB.
 */
export const DEFAULT_MAX_QUEUED = 10_000;
/** Follow-ups one submitted command may cause (a decision chain is a few steps long). */
const MAX_FOLLOW_UPS = 16;

/** Without an owner to tell, a fatal error must still stop the process rather than vanish. */
function crash(error: unknown): void {
  setImmediate(() => {
    throw error;
  });
}

export class Sequencer {
  private readonly store: Store;
  private readonly applier: Applier;
  private readonly clock: () => number;
  private readonly maxBatch: number;
  private readonly maxBatchDelayMs: number;
  private readonly maxQueued: number;
  private readonly onCommitFailure: (error: unknown, committedSeq: number) => boolean | 'stop';
  private readonly onCommit: ((info: CommitInfo) => void) | undefined;
  private readonly onFatal: (error: unknown) => void;

  private queue: Submission[] = [];
  private immediate: NodeJS.Immediate | undefined;
  private timer: NodeJS.Timeout | undefined;
  private flushWaiters: FlushWaiter[] = [];
  private submittedCount = 0;
  private settledCount = 0;
  private committedSeq: number;
  private committedTs: number;
  private closed = false;
  private failed = false;
  private suspended = false;
  /** An asynchronous commit is in flight: no batch is applied until it returns. */
  private committing = false;

  constructor(options: SequencerOptions) {
    const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
    const maxBatchDelayMs = options.maxBatchDelayMs ?? 0;
    const maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
    if (!Number.isSafeInteger(maxBatch) || maxBatch < 1) throw new RangeError(`maxBatch must be ≥ 1: ${maxBatch}`);
    if (!Number.isSafeInteger(maxQueued) || maxQueued < 1) throw new RangeError(`maxQueued must be ≥ 1: ${maxQueued}`);
    if (!Number.isFinite(maxBatchDelayMs) || maxBatchDelayMs < 0) {
      throw new RangeError(`maxBatchDelayMs must be ≥ 0: ${maxBatchDelayMs}`);
    }
    this.store = options.store;
    this.applier = options.applier;
    this.clock = options.clock;
    this.maxBatch = maxBatch;
    this.maxBatchDelayMs = maxBatchDelayMs;
    this.maxQueued = maxQueued;
    this.onCommitFailure = options.onCommitFailure ?? (() => false);
    this.onCommit = options.onCommit;
    this.onFatal = options.onFatal ?? crash;
    this.committedSeq = this.store.lastSeq();
    this.committedTs = this.store.lastTs();
  }

  /** Sequence number of the last committed command (the state's position in the journal). */
  get lastSeq(): number {
    return this.committedSeq;
  }

  /** Commands waiting for their batch (at most `maxQueued`). */
  get queued(): number {
    return this.queue.length;
  }

  /** True from a commit that failed for want of space until `resumeWrites`. */
  get writesSuspended(): boolean {
    return this.suspended;
  }

  /** The owner saw the store take a write again: commands are applied again from now on. */
  resumeWrites(): void {
    this.suspended = false;
  }

  /** Resolves with `apply`'s result once the command is committed; rejects with a Refusal. */
  submit(command: Command): Promise<unknown> {
    return new Promise((resolve, reject) => this.add(new Submission(command, undefined, undefined, resolve, reject)));
  }

  /**
   * `submit` for callers that also need the stamp: `settle` is called once, synchronously inside
   * the batch's turn, after the commit (with a Refusal outcome for a refusal or a failure).
   * `receivedAt` is the time another thread took the command in; the stamp is never before it.
   */
  enqueue(command: Command, settle: (outcome: Outcome) => void, receivedAt?: number): void {
    this.add(new Submission(command, receivedAt, settle, undefined, undefined));
  }

  private add(submission: Submission): void {
    if (this.closed || this.failed) {
      submission.settle({ accepted: false, error: new BourseError('SERVICE_UNAVAILABLE') });
      return;
    }
    // Refused before it is applied: a refused command changes nothing and is not journaled.
    if (this.suspended) {
      submission.settle({ accepted: false, error: new BourseError('WRITES_SUSPENDED') });
      return;
    }
    if (this.queue.length >= this.maxQueued) {
      submission.settle({ accepted: false, error: new BourseError('ENGINE_BUSY', [this.maxQueued]) });
      return;
    }
    this.queue.push(submission);
    this.submittedCount++;
    this.schedule();
  }

  /** Resolves when every command submitted so far is settled; rejects if the sequencer failed. */
  flush(): Promise<void> {
    if (this.failed) return Promise.reject(new BourseError('INTERNAL'));
    if (this.settledCount === this.submittedCount) return Promise.resolve();
    // Someone is waiting: a batch held back to fill up goes now.
    if (this.timer !== undefined) this.runNextTurn();
    return new Promise((resolve, reject) => {
      this.flushWaiters.push({ submitted: this.submittedCount, resolve, reject });
    });
  }

  /**
   * This writer may no longer write (a leader that lost its lead): new and waiting commands are
   * refused with SERVICE_UNAVAILABLE at once; a commit in flight still settles its batch as the
   * store answers. Resolves when that commit has.
   */
  abandon(): Promise<void> {
    this.closed = true;
    this.cancelSchedule();
    const waiting = this.queue;
    this.queue = [];
    for (const submission of waiting) submission.settle({ accepted: false, error: new BourseError('SERVICE_UNAVAILABLE') });
    this.settledCount += waiting.length;
    this.releaseFlushWaiters();
    return this.flush().catch(() => undefined);
  }

  /** Refuses new commands (SERVICE_UNAVAILABLE) and resolves once the pending ones are settled. */
  close(): Promise<void> {
    this.closed = true;
    return this.flush();
  }

  private schedule(): void {
    if (this.immediate !== undefined || this.committing) return;
    if (this.maxBatchDelayMs === 0 || this.queue.length >= this.maxBatch) {
      this.runNextTurn();
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.runBatch(), this.maxBatchDelayMs);
    }
  }

  private runNextTurn(): void {
    this.cancelSchedule();
    this.immediate = setImmediate(() => this.runBatch());
  }

  private cancelSchedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }

  private runBatch(): void {
    this.cancelSchedule();
    // The state may not run ahead of an unfinished commit: its outcome decides what comes next.
    if (this.committing) return;
    let batch: Submission[];
    if (this.queue.length <= this.maxBatch) {
      batch = this.queue;
      this.queue = [];
    } else {
      batch = this.queue.splice(0, this.maxBatch);
      this.runNextTurn();
    }

    const rows = emptyDerivedRows();
    const commands: StampedCommand[] = [];
    const results: unknown[] = [];
    let seq = this.committedSeq;
    let ts = this.committedTs;
    for (const submission of batch) {
      const marks = markRows(rows);
      try {
        ts = Math.max(ts, submission.receivedAt ?? this.clock());
        const stamped: StampedCommand = { seq: seq + 1, ts, command: submission.command };
        const followUpsFrom = rows.followUps.length;
        const result = this.applier.apply(stamped, rows);
        seq = stamped.seq;
        commands.push(stamped);
        results.push(result);
        const followUps = rows.followUps.length === followUpsFrom ? NO_FOLLOW_UPS : this.applyFollowUps(rows, followUpsFrom, seq, ts, commands, results);
        seq += followUps.length;
        submission.stamped = stamped;
        submission.result = result;
        submission.followUps = followUps;
      } catch (error) {
        if (!(error instanceof Refusal)) {
          this.fail(error, batch);
          return;
        }
        // A rejected command leaves no trace, whatever the applier wrote before it threw.
        truncateRows(rows, marks);
        submission.refusal = error;
      }
    }

    if (commands.length === 0) {
      this.settleBatch(batch, { size: 0, commitMs: 0, commands, rows, results }, seq, ts);
      return;
    }
    const started = process.hrtime.bigint();
    const commitMs = (): number => Number(process.hrtime.bigint() - started) / 1e6;
    let committing: void | Promise<void>;
    try {
      committing = this.store.appendBatch(commands, rows);
    } catch (error) {
      this.commitFailed(error, batch);
      return;
    }
    if (committing === undefined) {
      this.settleBatch(batch, { size: commands.length, commitMs: commitMs(), commands, rows, results }, seq, ts);
      return;
    }
    this.committing = true;
    committing.then(
      () => {
        this.committing = false;
        this.settleBatch(batch, { size: commands.length, commitMs: commitMs(), commands, rows, results }, seq, ts);
        if (this.queue.length > 0) this.schedule();
      },
      (error: unknown) => {
        this.committing = false;
        this.commitFailed(error, batch);
      },
    );
  }

  /** The batch is durable (or held no accepted command): answers its submitters, then the subscribers. */
  private settleBatch(batch: Submission[], info: CommitInfo, seq: number, ts: number): void {
    const { commands } = info;
    if (commands.length > 0) {
      this.committedSeq = seq;
      this.committedTs = ts;
    }
    // Rejections wait for the commit too: they were decided on state that includes this batch.
    for (const submission of batch) submission.settleDecided();
    this.settledCount += batch.length;
    this.releaseFlushWaiters();

    if (commands.length > 0 && this.onCommit !== undefined) {
      try {
        this.onCommit(info);
      } catch (error) {
        // The batch is durable, but what follows a commit (streams, read models) is now behind.
        this.fail(error, []);
      }
    }
  }

  /**
   * Applies the commands that the last one made due at once, each as a journaled command of its
   * own right after it (and theirs in turn, up to MAX_FOLLOW_UPS); one refused is dropped: it
   * was decided on a state the command before it changed.
   */
  private applyFollowUps(rows: DerivedRows, from: number, seq: number, ts: number, commands: StampedCommand[], results: unknown[]): StampedCommand[] {
    const applied: StampedCommand[] = [];
    for (let next = from; next < rows.followUps.length; next++) {
      if (applied.length === MAX_FOLLOW_UPS) throw new Error(`more than ${MAX_FOLLOW_UPS} follow-up commands from seq ${seq}`);
      const stamped: StampedCommand = { seq: seq + applied.length + 1, ts, command: rows.followUps[next] };
      const marks = markRows(rows);
      try {
        results.push(this.applier.apply(stamped, rows));
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        truncateRows(rows, marks);
        continue;
      }
      commands.push(stamped);
      applied.push(stamped);
    }
    return applied;
  }

  private releaseFlushWaiters(): void {
    let released = 0;
    while (released < this.flushWaiters.length && this.flushWaiters[released].submitted <= this.settledCount) {
      this.flushWaiters[released].resolve();
      released++;
    }
    if (released > 0) this.flushWaiters = this.flushWaiters.slice(released);
  }

  /**
   * Nothing of `batch` was committed. If the owner brings the state back to the committed one and
   * waits for space, the batch is refused (never acknowledged, never applied as far as anyone will
   * see) and writes are suspended; otherwise the sequencer stops.
   */
  private commitFailed(error: unknown, batch: Submission[]): void {
    let waitForSpace: boolean | 'stop';
    try {
      waitForSpace = this.onCommitFailure(error, this.committedSeq);
    } catch (rollbackError) {
      const why = (e: unknown): string => (e instanceof Error ? e.message : String(e));
      this.fail(new Error(`a commit failed (${why(error)}) and the state could not be brought back to the journal: ${why(rollbackError)}`, { cause: rollbackError }), batch);
      return;
    }
    if (waitForSpace === 'stop') {
      this.stepAside(batch);
      return;
    }
    if (!waitForSpace) {
      this.fail(error, batch);
      return;
    }
    this.suspended = true;
    this.cancelSchedule();
    const waiting = this.queue;
    this.queue = [];
    for (const submission of batch) submission.settle({ accepted: false, error: new BourseError('WRITES_SUSPENDED') });
    for (const submission of waiting) submission.settle({ accepted: false, error: new BourseError('WRITES_SUSPENDED') });
    this.settledCount += batch.length + waiting.length;
    this.releaseFlushWaiters();
  }

  /** The store refused `batch` whole (nothing of it committed): this writer takes no more commands. */
  private stepAside(batch: Submission[]): void {
    this.closed = true;
    this.cancelSchedule();
    const refused = [...batch, ...this.queue];
    this.queue = [];
    for (const submission of refused) submission.settle({ accepted: false, error: new BourseError('SERVICE_UNAVAILABLE') });
    this.settledCount += refused.length;
    this.releaseFlushWaiters();
  }

  /** Stops for good: nothing of `batch` was committed, so none of it may be acknowledged. */
  private fail(error: unknown, batch: Submission[]): void {
    this.failed = true;
    this.cancelSchedule();
    for (const submission of batch) submission.settle({ accepted: false, error: new BourseError('INTERNAL') });
    // Never applied, so certainly not executed.
    for (const submission of this.queue) submission.settle({ accepted: false, error: new BourseError('SERVICE_UNAVAILABLE') });
    this.settledCount += batch.length + this.queue.length;
    this.queue = [];
    for (const waiter of this.flushWaiters) waiter.reject(new BourseError('INTERNAL'));
    this.flushWaiters = [];
    this.onFatal(error);
  }
}
