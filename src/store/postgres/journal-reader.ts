/**
 * The journal read back by seq, a page at a time (keyset paging: each page starts after the last
 * seq of the one before, so a page costs the same however far into the journal it is). What
 * comes back is checked by the shared codec: no gap, each payload the command its row names.
 */

import type pg from 'pg';
import type { StampedCommand } from '../../core/types.js';
import { decodeJournalRecord, type JournalRecord } from '../journal-codec.js';

export const DEFAULT_JOURNAL_PAGE = 1000;

/** Up to `limit` commands with seq > afterSeq, in seq order. */
export async function readJournalPage(pool: pg.Pool, afterSeq: number, limit: number): Promise<StampedCommand[]> {
  if (!Number.isSafeInteger(afterSeq) || afterSeq < 0) throw new RangeError(`afterSeq must be ≥ 0: ${afterSeq}`);
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`batchSize must be ≥ 1: ${limit}`);
  const { rows } = await pool.query<JournalRecord>('SELECT seq, ts, type, payload FROM bourse.journal WHERE seq > $1 ORDER BY seq LIMIT $2', [afterSeq, limit]);
  const page: StampedCommand[] = [];
  let previous = afterSeq;
  for (const record of rows) {
    const stamped = decodeJournalRecord(record, previous);
    previous = stamped.seq;
    page.push(stamped);
  }
  return page;
}

/** Every command with seq > afterSeq, in seq order, read `batchSize` at a time. */
export async function* readJournal(pool: pg.Pool, afterSeq: number, batchSize = DEFAULT_JOURNAL_PAGE): AsyncGenerator<StampedCommand> {
  let after = afterSeq;
  while (true) {
    const page = await readJournalPage(pool, after, batchSize);
    yield* page;
    if (page.length < batchSize) return;
    after = page[page.length - 1].seq;
  }
}
