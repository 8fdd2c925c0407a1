/**
 * Streams the journal back for replay, in seq order and in pages, so that a long journal never
 * sits in memory and the connection is free between pages. What comes back is checked: seqs
 * follow each other without a gap and each payload is the command its row says it is.
 */

import type Database from 'better-sqlite3';
import type { StampedCommand } from '../../core/types.js';
import { decodeJournalRecord, type JournalRecord } from '../journal-codec.js';

export const DEFAULT_JOURNAL_PAGE = 1000;

export type JournalRead = (afterSeq: number, batchSize?: number) => Iterable<StampedCommand>;

export function prepareJournalRead(db: Database.Database): JournalRead {
  const page = db.prepare<[number, number], JournalRecord>(
    'SELECT seq, ts, type, payload FROM journal WHERE seq > ? ORDER BY seq LIMIT ?',
  );

  return function* readJournal(afterSeq: number, batchSize = DEFAULT_JOURNAL_PAGE): Generator<StampedCommand> {
    if (!Number.isSafeInteger(afterSeq) || afterSeq < 0) throw new RangeError(`afterSeq must be ≥ 0: ${afterSeq}`);
    if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be ≥ 1: ${batchSize}`);
    let lastSeq = afterSeq;
    while (true) {
      let read = 0;
      for (const record of page.iterate(lastSeq, batchSize)) {
        const stamped = decodeJournalRecord(record, lastSeq);
        lastSeq = stamped.seq;
        read++;
        yield stamped;
      }
      if (read < batchSize) return;
    }
  };
}
