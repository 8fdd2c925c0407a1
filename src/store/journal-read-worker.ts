/**
 * The journal-reading thread (journal-read-thread.ts): once its connection is open it says it is
 * ready and waits for the seq to read after; then it reads the journal after it in one statement,
 * in seq order, and posts it as chunks of frames, at most `maxChunksInFlight` of them unread.
 * Stops at the journal's end, on a failure (posted), or when the replay asks it to.
 */

import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';
import { ChunkWriter } from './journal-chunk.js';
import { AFTER_SEQ_BYTE, READ_READY, READ_SENT, READ_START, READ_STOP, READ_TAKEN, type JournalReadMessage, type JournalReadWorkerData } from './journal-read-thread.js';

type Row = [seq: number, ts: number, type: string, payload: string];

const { path, chunkBytes, maxChunksInFlight, flags, port } = workerData as JournalReadWorkerData;
const flag = new Int32Array(flags);
const stopped = (): boolean => Atomics.load(flag, READ_STOP) !== 0;

/** Posts a message once fewer than maxChunksInFlight wait; false when the replay stopped. */
function post(message: JournalReadMessage): boolean {
  for (;;) {
    if (stopped()) return false;
    const taken = Atomics.load(flag, READ_TAKEN);
    if (Atomics.load(flag, READ_SENT) - taken < maxChunksInFlight) break;
    Atomics.wait(flag, READ_TAKEN, taken);
  }
  port.postMessage(message, 'chunk' in message ? [message.chunk] : []);
  Atomics.add(flag, READ_SENT, 1);
  Atomics.notify(flag, READ_SENT);
  return true;
}

/** Posts the rows after `afterSeq` chunk by chunk, the last one marked; stops early if the replay does. */
function postRowsAfter(rows: Iterable<Row>): void {
  const chunk = new ChunkWriter(chunkBytes);
  for (const [seq, ts, type, payload] of rows) {
    chunk.add({ seq, ts, type, payload });
    if (chunk.bytes >= chunkBytes && !post({ chunk: chunk.take(), last: false })) return;
  }
  post({ chunk: chunk.take(), last: true });
}

let db: Database.Database | undefined;
try {
  db = new Database(path, { readonly: true, fileMustExist: true });
  const statement = db.prepare<[number], Row>('SELECT seq, ts, type, payload FROM journal WHERE seq > ? ORDER BY seq').raw();
  Atomics.store(flag, READ_READY, 1);
  while (Atomics.load(flag, READ_START) === 0 && !stopped()) Atomics.wait(flag, READ_START, 0);
  if (!stopped()) postRowsAfter(statement.iterate(new Float64Array(flags, AFTER_SEQ_BYTE, 1)[0]));
} catch (error) {
  post({ error: error instanceof Error ? error.message : String(error) });
} finally {
  db?.close();
  port.close();
}
