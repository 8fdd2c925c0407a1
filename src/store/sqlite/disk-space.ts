/**
 * Running out of space, as the writer sees it. SQLite reports SQLITE_FULL when a write finds no
 * room (ENOSPC, or the connection's `max_page_count` reached) and rolls the transaction back:
 * nothing of it is in the database. Other I/O errors (EIO, a failed fsync) leave the file's state
 * unknown, so they are not waited out.
 */

import type Database from 'better-sqlite3';

/** True when `error` is SQLite's "database or disk is full". */
export function isDiskFull(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SQLITE_FULL';
}

/**
 * What a probe writes and commits before deleting it again: the room a batch usually needs (its
 * journal entries and rows). A probe that commits leaves that much free space in the file for the
 * batches that follow.
 */
export const WRITE_PROBE_BYTES = 1 << 20;

/**
 * A write that needs room: a row of WRITE_PROBE_BYTES committed, then deleted in a commit of its
 * own (a row left by a crash between the two is replaced by the next probe). Throws SQLITE_FULL
 * while there is no room.
 */
export function prepareWriteProbe(db: Database.Database): () => void {
  const fill = db.prepare<[number]>('INSERT OR REPLACE INTO write_probe (id, filler) VALUES (1, zeroblob(?))');
  const clear = db.prepare('DELETE FROM write_probe');
  return () => {
    fill.run(WRITE_PROBE_BYTES);
    clear.run();
  };
}
