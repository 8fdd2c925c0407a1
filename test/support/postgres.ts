/**
 * Fresh, empty PostgreSQL databases for tests, on the server of test/support/pg-global-setup.ts
 * (BOURSE_TEST_POSTGRES_URL, or the embedded one it starts). Each database is created for the
 * file (or the call) that asks and dropped, WITH (FORCE), when the file ends.
 */

import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { createDatabase, dropDatabase, withDatabase } from './postgres-admin.js';

/** URL of the server's `postgres` database, where databases are created and dropped. */
export function postgresServerUrl(): string {
  const provided = inject('bourseTestPostgresServer');
  if (provided !== undefined) return provided;
  const given = process.env.BOURSE_TEST_POSTGRES_URL;
  if (given !== undefined && given !== '') return given;
  throw new Error('no PostgreSQL for the tests: add test/support/pg-global-setup.ts to the vitest globalSetup, or set BOURSE_TEST_POSTGRES_URL');
}

/**
 * Databases for the calling file (or describe block): call it while the file is collected, then
 * `await databases.url()` in a hook or a test for each fresh, empty database; every one of them
 * is dropped after the file (or block).
 */
export function postgresDatabases(): { url(): Promise<string> } {
  const created: string[] = [];
  const serverUrl = postgresServerUrl();
  afterAll(async () => {
    for (const name of created.splice(0)) await dropDatabase(serverUrl, name);
  });
  return {
    async url() {
      const prefix = inject('bourseTestDatabasePrefix') ?? 'bourse_t_';
      const name = `${prefix}${randomBytes(6).toString('hex')}`;
      await createDatabase(serverUrl, name);
      created.push(name);
      return withDatabase(serverUrl, name);
    },
  };
}
