/**
 * The HTTP thread's side of the core worker (the one-writer core, with the writer moved off this thread).
 * Commands of one event-loop turn go to the worker in one message; each committed batch comes back
 * as stamps and refusals. The accepted commands are applied here, in seq order, to a replica of the
 * core: the state machine is deterministic, so the replica reaches the worker's state and computes
 * the same results, rows and stream events without them crossing the thread boundary. Reads see
 * the replica, i.e. committed state only.
 */

import type { Worker } from 'node:worker_threads';
import { BourseError } from '../../core/errors.js';
import { reviveRefusal } from '../../core/revive.js';
import { emptyDerivedRows, type Command, type StampedCommand } from '../../core/types.js';
import { openSqliteStore, type SqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { CoreHost, CoreHostOptions } from '../core-host.js';
import { DEFAULT_MAX_QUEUED } from '../sequencer.js';
import type { ExchangeCore } from '../exchange-core.js';
import { recover, RecoveryError } from '../recovery.js';
import { stateHash } from '../snapshot.js';
import type { VerifyReport } from '../verify.js';
import { startWorker } from '../../worker-thread.js';
import { YOUNG_GENERATION_MB } from '../../young-generation.js';
import type { CoreWorkerData, FromCoreWorker, SubmitItem, ToCoreWorker } from './messages.js';

interface Pending {
  command: Command;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

function spawnCoreWorker(data: CoreWorkerData): Worker {
  return startWorker('exchange/core-thread/core-worker', { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
}

/** The first answer of a worker: ready at its recovered seq, or why it could not start. */
function whenReady(worker: Worker): Promise<number> {
  return new Promise((resolve, reject) => {
    const settle = (outcome: () => void): void => {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      outcome();
    };
    const onMessage = (message: FromCoreWorker): void => {
      if (message.type === 'ready') settle(() => resolve(message.lastSeq));
      else if (message.type === 'fatal') settle(() => reject(new RecoveryError(message.message)));
    };
    const onError = (error: Error): void => settle(() => reject(error));
    const onExit = (code: number): void => settle(() => reject(new Error(`core worker exited with code ${code} before it was ready`)));
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

/** Starts the worker and, meanwhile, recovers the replica from the same store. */
export async function startWorkerCore(options: CoreHostOptions): Promise<CoreHost> {
  // Opened (and migrated) before the worker opens it: reads of history use this connection.
  const history = openSqliteStore({ path: options.dbPath, synchronous: options.synchronous });
  const worker = spawnCoreWorker({
    dbPath: options.dbPath,
    synchronous: options.synchronous,
    snapshotEveryCommands: options.snapshotEveryCommands,
    maxPendingCommands: options.maxPendingCommands,
    writeProbeMs: options.writeProbeMs,
  });
  const ready = whenReady(worker);
  ready.catch(() => undefined);
  try {
    // The worker derives and writes the rows its journal's tail lacks; the replica only rebuilds state.
    const recovered = recover(history, { deriveRows: false });
    const workerSeq = await ready;
    if (workerSeq !== recovered.core.lastSeq) {
      throw new RecoveryError(`the core worker recovered to seq ${workerSeq} but its replica to ${recovered.core.lastSeq}`);
    }
    return new WorkerCore(worker, history, recovered, options);
  } catch (error) {
    await worker.terminate();
    history.close();
    throw error;
  }
}

class WorkerCore implements CoreHost {
  readonly core: ExchangeCore;
  readonly snapshotSeq: number;
  readonly replayed: number;
  /** Submitted and not yet settled by the worker: at most `maxPending`. */
  private readonly pending = new Map<number, Pending>();
  private readonly maxPending: number;
  private outbox: SubmitItem[] = [];
  private nextId = 1;
  private readonly verifying = new Map<number, { resolve: (report: VerifyReport) => void; reject: (error: unknown) => void }>();
  private readonly limitingPages = new Map<number, { resolve: (pages: number) => void; reject: (error: unknown) => void }>();
  private closing: Promise<void> | undefined;
  private whenDrained: (() => void) | undefined;
  private failed = false;
  private stopped = false;
  private readonly exited: Promise<void>;

  constructor(
    private readonly worker: Worker,
    readonly history: SqliteStore,
    recovered: { core: ExchangeCore; snapshotSeq: number; replayed: number },
    private readonly options: CoreHostOptions,
  ) {
    this.core = recovered.core;
    this.snapshotSeq = recovered.snapshotSeq;
    this.replayed = recovered.replayed;
    this.maxPending = options.maxPendingCommands ?? DEFAULT_MAX_QUEUED;
    worker.on('message', (message: FromCoreWorker) => this.onMessage(message));
    worker.on('error', (error) => this.fail(error));
    this.exited = new Promise((resolve) => {
      worker.on('exit', (code) => {
        if (!this.stopped) this.fail(new Error(`core worker exited with code ${code}`));
        resolve();
      });
    });
  }

  submit(command: Command): Promise<unknown> {
    if (this.closing !== undefined || this.failed) return Promise.reject(new BourseError('SERVICE_UNAVAILABLE'));
    // Refused here, before it crosses to the worker: it is neither applied nor journaled.
    if (this.pending.size >= this.maxPending) return Promise.reject(new BourseError('ENGINE_BUSY', [this.maxPending]));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { command, resolve, reject });
      // The commands of one event-loop turn travel together.
      if (this.outbox.push([id, command, this.options.clock()]) === 1) setImmediate(() => this.post());
    });
  }

  verify(options: { replay?: boolean }): Promise<VerifyReport> {
    if (this.failed || this.stopped) return Promise.reject(new BourseError('SERVICE_UNAVAILABLE'));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.verifying.set(id, { resolve, reject });
      this.send({ type: 'verify', id, replay: options.replay === true, now: this.options.clock() });
    });
  }

  limitDatabasePages(pages: number | null): Promise<number> {
    if (pages !== null && (!Number.isSafeInteger(pages) || pages < 1)) return Promise.reject(new RangeError(`max page count must be a positive integer: ${pages}`));
    if (this.failed || this.stopped) return Promise.reject(new BourseError('SERVICE_UNAVAILABLE'));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.limitingPages.set(id, { resolve, reject });
      this.send({ type: 'limitPages', id, pages });
    });
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.pending.size > 0 && !this.failed) await new Promise<void>((resolve) => (this.whenDrained = resolve));
      if (!this.failed) {
        this.stopped = true;
        this.send({ type: 'close' });
      }
      // Failed or not, the worker's connection to the store is gone before this thread's closes.
      await this.exited;
      this.history.close();
    })();
    return this.closing;
  }

  private post(): void {
    const items = this.outbox;
    this.outbox = [];
    if (!this.failed) this.send({ type: 'submit', items: JSON.stringify(items) });
  }

  private send(message: ToCoreWorker): void {
    this.worker.postMessage(message);
  }

  private onMessage(message: FromCoreWorker): void {
    switch (message.type) {
      case 'settled':
        this.onSettled(message.settled, message.commitMs);
        break;
      case 'verified':
        this.verifying.get(message.id)?.resolve(this.withReplicaHash(message.report));
        this.verifying.delete(message.id);
        break;
      case 'pagesLimited': {
        const waiter = this.limitingPages.get(message.id);
        this.limitingPages.delete(message.id);
        if ('error' in message) waiter?.reject(new Error(message.error));
        else waiter?.resolve(message.pages);
        break;
      }
      case 'writeEvent':
        this.options.onWriteEvent?.(message.event);
        break;
      case 'fatal':
        this.fail(new Error(message.message));
        break;
      case 'ready':
      case 'closed':
        break;
    }
  }

  /**
   * The worker sent every batch it had committed before the report, so the replica is now at the
   * state the worker hashed: the three hashes must agree.
   */
  private withReplicaHash(report: VerifyReport): VerifyReport {
    if (report.replay === undefined) return report;
    const replicaHash = stateHash(this.core);
    const ok = report.replay.ok && replicaHash === report.replay.stateHash;
    return { ...report, ok: report.ok && ok, replay: { ...report.replay, ok, replicaHash } };
  }

  private onSettled(settled: Extract<FromCoreWorker, { type: 'settled' }>['settled'], commitMs: number): void {
    const rows = emptyDerivedRows();
    const commands: StampedCommand[] = [];
    const results: unknown[] = [];
    const answers: (() => void)[] = [];
    for (const entry of settled) {
      const id = entry[0];
      const pending = this.pending.get(id);
      if (pending === undefined) {
        for (const answer of answers) answer();
        this.fail(new Error(`the core worker settled unknown command ${id}`));
        return;
      }
      this.pending.delete(id);
      if (typeof entry[1] === 'number') {
        const [, seq, ts, followUps] = entry as [number, number, number, Command[]?];
        // The submission, then its follow-ups: consecutive seqs, the same stamp.
        const applied = [pending.command, ...(followUps ?? [])].map((command, i): StampedCommand => ({ seq: seq + i, ts, command }));
        const firstResult = results.length;
        for (const stamped of applied) {
          try {
            results.push(this.core.apply(stamped, rows, 'fanout'));
          } catch (error) {
            // What the replica applied before is committed and answered; this one and the rest are not known.
            for (const answer of answers) answer();
            pending.reject(new BourseError('INTERNAL'));
            this.fail(new Error(`the replica refused committed seq ${stamped.seq} (${stamped.command.type}): ${(error as Error).message}`));
            return;
          }
          commands.push(stamped);
        }
        // Follow-ups the replica's modules derived again are the ones just applied from the worker.
        rows.followUps.length = 0;
        const result = results[firstResult];
        answers.push(() => pending.resolve(result));
      } else {
        const error = reviveRefusal(entry[1], String(entry[2]));
        answers.push(() => pending.reject(error));
      }
    }
    for (const answer of answers) answer();
    if (commands.length > 0) {
      try {
        this.options.onCommit({ size: commands.length, commitMs, commands, rows, results });
      } catch (error) {
        // The batch is durable, but what follows a commit (streams, read models) is now behind.
        this.fail(error);
        return;
      }
    }
    if (this.pending.size === 0) this.whenDrained?.();
  }

  /** Stops for good: what is not settled may or may not be committed, and is answered INTERNAL. */
  private fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    for (const pending of this.pending.values()) pending.reject(new BourseError('INTERNAL'));
    this.pending.clear();
    for (const waiter of this.verifying.values()) waiter.reject(new BourseError('INTERNAL'));
    this.verifying.clear();
    for (const waiter of this.limitingPages.values()) waiter.reject(new BourseError('INTERNAL'));
    this.limitingPages.clear();
    this.whenDrained?.();
    void this.worker.terminate();
    this.options.onFatal(error);
  }
}
