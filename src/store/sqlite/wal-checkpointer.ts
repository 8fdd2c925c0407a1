import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../worker-thread.js';

export interface CheckpointWorkerData {
  path: string;
  /** Two Int32 flags: CHECKPOINTER_STOP (set by the owner) and CHECKPOINTER_CLOSED (by the thread). */
  flags: SharedArrayBuffer;
  /** Pause after a checkpoint that found nothing to copy. */
  idleMs: number;
}

export const CHECKPOINTER_STOP = 0;
export const CHECKPOINTER_CLOSED = 1;

/** How long the checkpointer rests when the WAL had nothing new: a few commits' worth of frames. */
const IDLE_MS = 5;
/** The longest `stop` waits for a checkpoint in progress to end and the thread's connection to close. */
const STOP_WAIT_MS = 2000;

/**
 * Checkpoints of one database's WAL on a thread of their own (checkpoint-worker.ts), off the
 * writer's thread. The writer keeps its autocheckpoint as a backstop, for when this thread falls
 * behind or fails; it then finds most frames copied already.
 */
export class WalCheckpointer {
  private readonly flags = new Int32Array(new SharedArrayBuffer(8));
  private readonly worker: Worker;
  private failed = false;

  constructor(path: string) {
    const data: CheckpointWorkerData = { path, flags: this.flags.buffer as SharedArrayBuffer, idleMs: IDLE_MS };
    this.worker = startWorker('store/sqlite/checkpoint-worker', { workerData: data });
    // A checkpointer that could not start costs only speed: the backstop keeps the WAL bounded.
    this.worker.on('error', () => {
      this.failed = true;
    });
    this.worker.unref();
  }

  /**
   * Stops the thread and waits (synchronously, at most STOP_WAIT_MS) until its connection is
   * closed, so that the database's files are the owner's alone afterwards.
   */
  stop(): void {
    Atomics.store(this.flags, CHECKPOINTER_STOP, 1);
    Atomics.notify(this.flags, CHECKPOINTER_STOP);
    if (!this.failed) Atomics.wait(this.flags, CHECKPOINTER_CLOSED, 0, STOP_WAIT_MS);
  }
}
