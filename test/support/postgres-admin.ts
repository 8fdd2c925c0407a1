/**
 * Creating and dropping PostgreSQL databases on a server, by the URL of a database there that
 * may create them (`postgres`): what the tests' databases (postgres.ts) and the benchmarks'
 * (bench/postgres-database.ts) share. No vitest here, so a benchmark may import it.
 */

import pg from 'pg';

/** `work` on a connection of its own to `serverUrl`, ended after. */
export async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `url` with its database replaced by `database`. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export function createDatabase(serverUrl: string, name: string): Promise<void> {
  return onServer(serverUrl, async (client) => {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  });
}

/** Drops the database, ending its sessions (WITH (FORCE), PostgreSQL 13+). */
export function dropDatabase(serverUrl: string, name: string): Promise<void> {
  return onServer(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
  });
}
