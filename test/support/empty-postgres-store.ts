/**
 * A PostgreSQL store with nothing in it, on a database that a later call empties again: schema
 * `bourse`, where the store keeps everything, is dropped and migrated anew. For property tests that
 * need an empty store for each of many runs: far cheaper than a database per run, each of whose
 * DROP DATABASE waits for a checkpoint.
 */
import pg from 'pg';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/postgres-store.js';

export async function openEmptyPostgresStore(url: string): Promise<PostgresStore> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('DROP SCHEMA IF EXISTS bourse CASCADE');
  } finally {
    await client.end();
  }
  return openPostgresStore({ url });
}
