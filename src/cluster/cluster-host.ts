/**
 * The core host of a node of a PostgreSQL deployment (docs/deployment.md "Roles"). Every node keeps
 * the same core, at the journal's state: a follower by replaying what the leader commits, the
 * leader by applying commands through its sequencer, fenced by its term. The core object itself
 * never changes (readers and streams hold it): a change of role moves a recovered state into it.
 */

import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { BourseError } from '../core/errors.js';
import { emptyDerivedRows, type Command, type StampedCommand } from '../core/types.js';
import type { CoreHost, CoreHostOptions } from '../exchange/core-host.js';
import type { ExchangeCore } from '../exchange/exchange-core.js';
import { moveState, recoverAsync, RecoveryError } from '../exchange/recovery.js';
import { Sequencer, type CommitInfo } from '../exchange/sequencer.js';
import { SnapshotSchedule } from '../exchange/snapshot-schedule.js';
import { checkLedger, type VerifyReport } from '../exchange/verify.js';
import { FencedError } from '../store/postgres/fenced-error.js';
import type { PostgresStore } from '../store/postgres/postgres-store.js';
import { JournalTail } from './journal-tail.js';
import { Leadership } from './leadership.js';

export type Role = 'leader' | 'follower';

/** How long a look-up that missed waits for this follower to read the journal's end (a database out of reach must not hold it). */
const CATCH_UP_WAIT_MS = 1000;
/** A step-down's first and longest wait before it reads the journal again. */
const RECOVER_RETRY_MS = 100;
const RECOVER_RETRY_MAX_MS = 5000;

export interface NodeStatus {
  role: Role;
  /** The current term as this node knows it. */
  term: number;
  /** The last journal seq this node applied. */
  seq: number;
  lagMs: number;
}

export interface ClusterHostOptions extends Pick<CoreHostOptions, 'clock' | 'onCommit' | 'onFatal' | 'maxPendingCommands' | 'snapshotEveryCommands'> {
  url: string;
  store: PostgresStore;
  nodeUrl: string;
  leaderTimeoutMs: number;
  logger: Logger;
  /**
   * This node now leads (term) or follows. Leader-only work starts or stops here (deadlines, webhook
   * delivery, the demo market maker); streams of a leader that stepped down are closed (1001).
   */
  onRole: (role: Role, term: number) => Promise<void>;
  /** How often a follower looks at the leadership (default 200 ms; a fifth of a second bounds a takeover after kill -9). */
  campaignMs?: number;
}

/** Recovers the core from the database and starts following; `campaign()` starts contending for the lead. */
export async function startClusterHost(options: ClusterHostOptions): Promise<ClusterHost> {
  const recovered = await recoverAsync(options.store, { deriveRows: false });
  const host = new ClusterHost(options, recovered.core, recovered.snapshotSeq, recovered.replayed);
  await host.follow();
  return host;
}

export class ClusterHost implements CoreHost {
  readonly history: PostgresStore;
  private role: Role = 'follower';
  private knownTerm = 0;
  private leaderUrlSeen = '';
  private sequencer: Sequencer | undefined;
  private snapshots: SnapshotSchedule | undefined;
  private readonly tail: JournalTail;
  private readonly leadership: Leadership;
  private campaignTimer: NodeJS.Timeout | undefined;
  private campaigning = false;
  /** A change of role in progress: the campaign waits for it. */
  private transition: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly options: ClusterHostOptions,
    readonly core: ExchangeCore,
    readonly snapshotSeq: number,
    readonly replayed: number,
  ) {
    this.history = options.store;
    this.tail = new JournalTail({
      url: options.url,
      source: options.store,
      appliedSeq: () => this.core.lastSeq,
      apply: (page) => this.applyCommitted(page),
      clock: options.clock,
      onError: (error) => options.onFatal(error),
    });
    this.leadership = new Leadership({
      url: options.url,
      nodeUrl: options.nodeUrl,
      leaderTimeoutMs: options.leaderTimeoutMs,
      clock: options.clock,
      onLost: (reason) => this.stepDown(`lost the lead: ${reason}`),
    });
  }

  status(): NodeStatus {
    return { role: this.role, term: this.knownTerm, seq: this.core.lastSeq, lagMs: this.role === 'leader' ? 0 : this.tail.lagMs() };
  }

  /** The leader's BOURSE_NODE_URL as last read from the leadership row ('' if none yet, or this node). */
  leaderUrl(): string {
    return this.role === 'leader' ? '' : this.leaderUrlSeen;
  }

  /**
   * A follower reads the journal to its end now (at most `CATCH_UP_WAIT_MS`): what another node
   * committed a moment ago is applied here when this resolves. The leader has it all already.
   */
  async catchUp(): Promise<void> {
    // During a change of role the core is being replaced: the tail resumes after it.
    if (this.role === 'leader' || this.transition !== undefined || this.closed) return;
    await Promise.race([this.tail.catchUp(), delay(CATCH_UP_WAIT_MS, undefined, { ref: false })]);
  }

  /** Reads the leadership row now: a forwarded write that found the last known leader gone asks this. */
  async refreshLeaderUrl(): Promise<string> {
    const row = await this.leadership.readRow();
    this.knownTerm = Math.max(this.knownTerm, row.term);
    this.leaderUrlSeen = row.nodeUrl;
    return this.leaderUrl();
  }

  /** Resolves true once `seq` is applied on this node (false after `timeoutMs`). */
  waitForSeq(seq: number, timeoutMs: number): Promise<boolean> {
    return this.tail.waitForSeq(seq, timeoutMs);
  }

  submit(command: Command): Promise<unknown> {
    // A follower judges no write: the HTTP layer forwards clients' writes, and leader-only work does not run here.
    if (this.sequencer === undefined) return Promise.reject(new BourseError('SERVICE_UNAVAILABLE'));
    return this.sequencer.submit(command);
  }

  /**
   * The ledger check at one seq: the flow sums and the journal's end are read in one transaction,
   * then compared with the core at that seq (this one if it is there, else one recovered to it).
   */
  async verify(options: { replay?: boolean }): Promise<VerifyReport> {
    const { seq, sums } = await this.history.flowSumsAt();
    const replayed = options.replay === true ? (await recoverAsync(this.history, { deriveRows: false, ignoreSnapshots: true, untilSeq: seq })).core : undefined;
    // The live core only if it is at that seq now: nothing awaits between this test and the check, so it cannot move on.
    const atSeq = this.core.lastSeq === seq ? this.core : (await recoverAsync(this.history, { deriveRows: false, untilSeq: seq })).core;
    return checkLedger(atSeq, sums, this.options.clock(), replayed);
  }

  /** Starts (or resumes) reading the journal as a follower. */
  async follow(): Promise<void> {
    await this.tail.start();
    this.knownTerm = (await this.leadership.readRow()).term;
  }

  /**
   * Starts contending for the lead (after the node serves: a new leader is reachable at once);
   * resolves after the first attempt, so a node that found no leader leads, set up, when it resolves.
   */
  campaign(): Promise<void> {
    if (this.campaignTimer !== undefined || this.closed) return Promise.resolve();
    this.campaignTimer = setInterval(() => void this.campaignOnce(), this.options.campaignMs ?? 200);
    this.campaignTimer.unref();
    return this.campaignOnce();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.campaignTimer);
    await this.transition;
    if (this.role === 'leader') {
      await this.sequencer?.close().catch(() => undefined);
      await this.snapshots?.atStop().catch((error: unknown) => this.options.logger.warn({ err: error }, 'no snapshot at stop'));
    }
    await this.leadership.release();
    await this.tail.stop();
    await this.history.close();
  }

  private async campaignOnce(): Promise<void> {
    if (this.campaigning || this.closed || this.transition !== undefined) return;
    this.campaigning = true;
    try {
      if (this.role === 'follower') {
        const row = await this.leadership.readRow();
        this.knownTerm = Math.max(this.knownTerm, row.term);
        this.leaderUrlSeen = row.nodeUrl;
        const term = await this.leadership.tryAcquire();
        if (term !== undefined && !this.closed) await this.runTransition(() => this.lead(term));
      }
    } catch (error) {
      this.options.logger.debug({ err: error }, 'leadership: attempt failed');
    } finally {
      this.campaigning = false;
    }
  }

  private async runTransition(step: () => Promise<void>): Promise<void> {
    await this.transition;
    this.transition = step().finally(() => (this.transition = undefined));
    return this.transition;
  }

  /** Term written: the old leader is fenced. Read the journal to its end, then take writes. */
  private async lead(term: number): Promise<void> {
    const { logger, store } = { logger: this.options.logger, store: this.history };
    try {
      await this.tail.stop();
      await this.tail.catchUp();
      const journalEnd = await store.refreshLastSeq();
      if (journalEnd !== this.core.lastSeq) throw new Error(`the journal ends at ${journalEnd} but this node applied ${this.core.lastSeq}`);
    } catch (error) {
      logger.warn({ err: error, term }, 'leadership: could not catch up; stepping back');
      await this.leadership.release();
      await this.tail.start().catch(() => undefined);
      return;
    }
    store.setTerm(term);
    this.knownTerm = term;
    this.snapshots = new SnapshotSchedule(this.core, store, this.options.snapshotEveryCommands, this.core.lastSeq, (error) =>
      logger.warn({ err: error }, 'a snapshot could not be saved; the journal still holds every command'),
    );
    const sequencer: Sequencer = new Sequencer({
      store,
      applier: this.core,
      clock: this.options.clock,
      maxQueued: this.options.maxPendingCommands,
      onCommit: (info) => {
        // A commit that returned after this node stepped down reaches the streams through the tail instead.
        if (this.sequencer !== sequencer) return;
        this.options.onCommit(info);
        this.tail.applied();
        this.snapshots?.afterCommit();
      },
      onCommitFailure: (error) => {
        void this.stepDown(error instanceof FencedError ? `fenced: ${error.message}` : `a commit failed: ${(error as Error).message}`);
        return 'stop';
      },
      onFatal: (error) => void this.stepDown(`the writer failed: ${(error as Error).message}`),
    });
    this.sequencer = sequencer;
    this.role = 'leader';
    logger.info({ term, seq: this.core.lastSeq }, 'leadership: this node leads');
    await this.options.onRole('leader', term);
  }

  /**
   * The lead ended (fenced, session or heartbeat lost, a commit failed): refuse what waits, stop the
   * leader-only work, bring the core back to what was committed and fed to the streams, and follow.
   */
  private stepDown(reason: string): Promise<void> {
    if (this.role !== 'leader') return Promise.resolve();
    this.role = 'follower';
    return this.runTransition(async () => {
      const { logger } = this.options;
      logger.warn({ reason, term: this.knownTerm }, 'leadership: this node follows now');
      const sequencer = this.sequencer;
      this.snapshots = undefined;
      // Waiting commands are refused now; a commit in flight ends as the database decides, but
      // a database out of reach is not waited for past the leader timeout.
      const inFlight = sequencer?.abandon();
      await Promise.race([inFlight, delay(this.options.leaderTimeoutMs, undefined, { ref: false })]);
      // What was committed and fed to the streams; anything later comes through the tail.
      const fedSeq = sequencer?.lastSeq ?? this.core.lastSeq;
      this.sequencer = undefined;
      this.history.setTerm(undefined);
      await this.leadership.release();
      await this.options.onRole('follower', this.knownTerm);
      await this.followFrom(fedSeq);
    });
  }

  /**
   * Brings the core back to `seq` (what this node committed and fed its streams) and follows from
   * there. A database out of reach (the reason the lead ended, often) is waited for: meanwhile the
   * node serves no write and its lag grows, so /health takes it out of the load balancer.
   */
  private async followFrom(seq: number): Promise<void> {
    for (let attempt = 0; !this.closed; attempt++) {
      try {
        const recovered = await recoverAsync(this.history, { deriveRows: false, untilSeq: seq });
        moveState(recovered.core, this.core);
        await this.tail.start();
        return;
      } catch (error) {
        if (error instanceof RecoveryError) {
          // The journal disagrees with what this node applied: only a restart may decide.
          this.options.onFatal(error);
          return;
        }
        this.options.logger.warn({ err: error, attempt }, 'leadership: cannot read the journal to follow; trying again');
        await delay(Math.min(RECOVER_RETRY_MAX_MS, RECOVER_RETRY_MS * 2 ** Math.min(attempt, 10)), undefined, { ref: false });
      }
    }
  }

  /** A follower's page of committed commands: applied as the leader applied them, then fanned out. */
  private applyCommitted(page: StampedCommand[]): void {
    const rows = emptyDerivedRows();
    const results: unknown[] = [];
    for (const stamped of page) results.push(this.core.apply(stamped, rows, 'fanout'));
    // Follow-ups are journaled commands of their own: they are in the page already.
    rows.followUps.length = 0;
    const info: CommitInfo = { size: page.length, commitMs: 0, commands: page, rows, results };
    this.options.onCommit(info);
  }
}
