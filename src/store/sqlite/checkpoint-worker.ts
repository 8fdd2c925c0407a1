/**
 * The WAL checkpointer's thread: its own connection copies committed WAL frames into the database
 * file (PRAGMA wal_checkpoint(PASSIVE): never waits for, nor blocks, the writer or readers), so the
 * copying and its fsyncs leave the writer's thread. Runs until asked to stop, then says it closed.
 */

import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';
import { CHECKPOINTER_CLOSED, CHECKPOINTER_STOP, type CheckpointWorkerData } from './wal-checkpointer.js';

interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

const { path, flags, idleMs } = workerData as CheckpointWorkerData;
const flag = new Int32Array(flags);
let db: Database.Database | undefined;
try {
  db = new Database(path);
  while (Atomics.load(flag, CHECKPOINTER_STOP) === 0) {
    let copied = 0;
    try {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[];
      copied = result.checkpointed;
    } catch {
      // A full disk or a transient I/O error: the writer's backstop still bounds the WAL; try again later.
    }
    // Asleep until the idle time passes or stop wakes it; barely a pause while checkpoints find work.
    Atomics.wait(flag, CHECKPOINTER_STOP, 0, copied === 0 ? idleMs : 1);
  }
} finally {
  db?.close();
  Atomics.store(flag, CHECKPOINTER_CLOSED, 1);
  Atomics.notify(flag, CHECKPOINTER_CLOSED);
}
