/**
 * The PostgreSQL a benchmark runs on: the server at BOURSE_BENCH_POSTGRES_URL when it is set (its
 * `postgres` database or any other it can create databases from), else a durable embedded one
 * (bench/embedded-postgres.ts) started for the benchmark. Either way the benchmark gets a fresh
 * database of its own, dropped (WITH (FORCE)) at the end, and a line that says what it ran on.
 */

import { randomBytes } from 'node:crypto';
import { createDatabase, dropDatabase, onServer, withDatabase } from '../test/support/postgres-admin.js';
import { startEmbeddedPostgres, type PostgresServer } from './embedded-postgres.js';

export const POSTGRES_URL_ENV = 'BOURSE_BENCH_POSTGRES_URL';

export interface BenchDatabase {
  /** URL of the benchmark's own database. */
  url: string;
  /** "PostgreSQL 15.20 at 127.0.0.1:5432 (BOURSE_BENCH_POSTGRES_URL), fsync=on, synchronous_commit=on". */
  description: string;
  /** Drops the database, then stops the embedded server if one was started. */
  close(): Promise<void>;
}

/** What a reader of the figures needs to know of the server: its version and whether a commit waits for the disk. */
async function describeServer(serverUrl: string, origin: string): Promise<string> {
  const settings = await onServer(serverUrl, async (client) => {
    const show = async (name: string): Promise<string> => (await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0][name];
    return { version: await show('server_version'), fsync: await show('fsync'), synchronousCommit: await show('synchronous_commit') };
  });
  const { host } = new URL(serverUrl);
  return `PostgreSQL ${settings.version.split(' ')[0]} at ${host} (${origin}), fsync=${settings.fsync}, synchronous_commit=${settings.synchronousCommit}`;
}

/** A fresh database named `bourse_bench_<label>_<random>` on the benchmark's server. */
export async function openBenchDatabase(label: string): Promise<BenchDatabase> {
  const given = process.env[POSTGRES_URL_ENV];
  const embedded: PostgresServer | undefined =
    given === undefined || given === '' ? await startEmbeddedPostgres({ name: 'bourse-bench-pg', password: 'bourse-bench', durable: true }) : undefined;
  const serverUrl = embedded?.url ?? (given as string);
  const name = `bourse_bench_${label}_${randomBytes(4).toString('hex')}`;
  try {
    const description = await describeServer(serverUrl, embedded === undefined ? POSTGRES_URL_ENV : 'embedded, started for the benchmark');
    await createDatabase(serverUrl, name);
    return {
      url: withDatabase(serverUrl, name),
      description,
      close: async () => {
        try {
          await dropDatabase(serverUrl, name);
        } finally {
          await embedded?.stop();
        }
      },
    };
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
}
