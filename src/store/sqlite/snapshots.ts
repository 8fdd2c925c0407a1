/** Snapshot rows: the latest two are kept, so a damaged newest one still leaves one to start from. */

import type Database from 'better-sqlite3';
import type { Snapshot } from '../store.js';

const SNAPSHOTS_KEPT = 2;

export interface SnapshotTable {
  save(snapshot: Snapshot): void;
  loadLatest(): Snapshot | undefined;
}

export function prepareSnapshotTable(db: Database.Database): SnapshotTable {
  const insert = db.prepare<[number, string, string]>(
    'INSERT OR REPLACE INTO snapshots (seq, hash, state) VALUES (?, ?, ?)',
  );
  const prune = db.prepare<[number]>(
    'DELETE FROM snapshots WHERE seq NOT IN (SELECT seq FROM snapshots ORDER BY seq DESC LIMIT ?)',
  );
  const latest = db.prepare<[], Snapshot>('SELECT seq, hash, state FROM snapshots ORDER BY seq DESC LIMIT 1');
  const save = db.transaction((snapshot: Snapshot): void => {
    insert.run(snapshot.seq, snapshot.hash, snapshot.state);
    prune.run(SNAPSHOTS_KEPT);
  });
  return { save, loadLatest: () => latest.get() };
}
