/** Snapshot rows: the latest two are kept, so a damaged newest one still leaves one to start from. */

import type pg from 'pg';
import type { Snapshot } from '../store.js';

const SNAPSHOTS_KEPT = 2;

/** Stores `snapshot` and drops all but the latest two, in one transaction of a pool connection (appends go on meanwhile). */
export async function saveSnapshot(pool: pg.Pool, snapshot: Snapshot): Promise<void> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    await client.query(
      'INSERT INTO bourse.snapshots (seq, hash, state) VALUES ($1, $2, $3) ON CONFLICT (seq) DO UPDATE SET hash = excluded.hash, state = excluded.state',
      [snapshot.seq, snapshot.hash, snapshot.state],
    );
    await client.query('DELETE FROM bourse.snapshots WHERE seq NOT IN (SELECT seq FROM bourse.snapshots ORDER BY seq DESC LIMIT $1)', [SNAPSHOTS_KEPT]);
    await client.query('COMMIT');
  } catch (error) {
    // A connection that cannot even roll back goes, rather than back to the pool.
    await client.query('ROLLBACK').catch(() => (broken = true));
    throw error;
  } finally {
    client.release(broken);
  }
}

export async function loadLatestSnapshot(pool: pg.Pool): Promise<Snapshot | undefined> {
  const { rows } = await pool.query<Snapshot>('SELECT seq, hash, state FROM bourse.snapshots ORDER BY seq DESC LIMIT 1');
  return rows[0];
}
