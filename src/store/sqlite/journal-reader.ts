/**
 * Streams the journal back for replay, in seq order and in pages, so that a long journal never
 * sits in memory and the connection is free between pages. A long read of a database file (a
 * recovery's replay) is done on a thread of its own instead (journal-read-thread.ts): this thread
 * then only decodes frames while the other reads and parses. What comes back is checked either
 * way: seqs follow each other without a gap and each payload is the command its row says it is.
 */

import type Database from 'better-sqlite3';
import type { StampedCommand } from '../../core/types.js';
import { ChunkReader } from '../journal-chunk.js';
import { decodeJournalRecord, type JournalRecord } from '../journal-codec.js';
import { JournalReadThread } from '../journal-read-thread.js';

export const DEFAULT_JOURNAL_PAGE = 1000;

/**
 * From this many commands on, the journal is read on a thread of its own (while the thread
 * starts, this one reads on): below it, the overlap saves less than a thread costs to start.
 */
export const THREADED_READ_MIN_COMMANDS = 50_000;

/** About one chunk of the reading thread: what it reads while this thread reads the seqs before. */
const HANDOVER_LEAD_COMMANDS = 10_000;

export type JournalRead = (afterSeq: number, batchSize?: number) => Iterable<StampedCommand>;

export function prepareJournalRead(db: Database.Database, threadedReadMinCommands = THREADED_READ_MIN_COMMANDS): JournalRead {
  const page = db.prepare<[number, number], JournalRecord>(
    'SELECT seq, ts, type, payload FROM journal WHERE seq > ? ORDER BY seq LIMIT ?',
  );
  const lastSeq = db.prepare<[], number | null>('SELECT max(seq) FROM journal').pluck();
  // Another connection sees the same data only in a database file.
  const threaded = !db.memory && db.name !== '' && !db.name.startsWith('file:');

  /**
   * Pages after `afterSeq` until the journal ends (then undefined) or, at the end of a page,
   * `enough()` (then the last seq read); never past `untilSeq`.
   */
  function* readPages(afterSeq: number, batchSize: number, enough: (lastRead: number) => boolean, untilSeq = Infinity): Generator<StampedCommand, number | undefined> {
    let lastRead = afterSeq;
    do {
      const limit = Math.min(batchSize, untilSeq - lastRead);
      let read = 0;
      for (const record of page.iterate(lastRead, limit)) {
        const stamped = decodeJournalRecord(record, lastRead);
        lastRead = stamped.seq;
        read++;
        yield stamped;
      }
      if (read < limit) return undefined;
    } while (!enough(lastRead));
    return lastRead;
  }

  /**
   * Read here until the thread is ready, and on while the thread reads its first chunk (up to
   * a seq HANDOVER_LEAD_COMMANDS ahead, where it starts); then by the thread.
   */
  function* readWithThread(afterSeq: number): Generator<StampedCommand> {
    const thread = new JournalReadThread(db.name);
    try {
      const ready = yield* readPages(afterSeq, DEFAULT_JOURNAL_PAGE, () => thread.ready());
      if (ready === undefined) return;
      const handOver = ready + HANDOVER_LEAD_COMMANDS;
      thread.start(handOver);
      const readHere = yield* readPages(ready, DEFAULT_JOURNAL_PAGE, (lastRead) => lastRead === handOver, handOver);
      if (readHere === undefined) return;
      const rows = new ChunkReader(readHere);
      for (let chunk = thread.next(); chunk !== undefined; chunk = thread.next()) {
        rows.load(chunk);
        for (let stamped = rows.next(); stamped !== undefined; stamped = rows.next()) yield stamped;
      }
    } finally {
      thread.close();
    }
  }

  return function readJournal(afterSeq: number, batchSize = DEFAULT_JOURNAL_PAGE): Iterable<StampedCommand> {
    if (!Number.isSafeInteger(afterSeq) || afterSeq < 0) throw new RangeError(`afterSeq must be ≥ 0: ${afterSeq}`);
    if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be ≥ 1: ${batchSize}`);
    if (threaded && (lastSeq.get() ?? 0) - afterSeq >= threadedReadMinCommands) return readWithThread(afterSeq);
    return readPages(afterSeq, batchSize, () => false);
  };
}
