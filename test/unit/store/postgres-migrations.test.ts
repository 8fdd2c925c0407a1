/**
 * The PostgreSQL schema (docs/deployment.md "Upgrades"): everything in schema `bourse`, versioned
 * migrations run at open under an advisory lock (nodes starting together migrate once), a schema
 * newer than the code refused.
 */

import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { MIGRATION_LOCK_KEY, PG_MIGRATIONS, migratePostgres, type PgMigration } from '../../../src/store/postgres/schema.js';
import { postgresDatabases } from '../../support/postgres.js';

const databases = postgresDatabases();

describe('PostgreSQL store: schema and migrations', () => {
  let url: string;
  let client: pg.Client;

  beforeEach(async () => {
    url = await databases.url();
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterEach(async () => {
    await client.end();
  });

  const versions = async (): Promise<string[][]> =>
    (await client.query<{ version: string; name: string }>('SELECT version, name FROM bourse.schema_version ORDER BY version')).rows.map((r) => [r.version, r.name]);

  it('when a store opens an empty database, then schema bourse holds every table, the leadership row at term 0 and the schema version', async () => {
    await (await openPostgresStore({ url })).close();

    const { rows } = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'bourse' ORDER BY table_name COLLATE \"C\"",
    );
    expect(rows.map((r) => r.table_name)).toEqual([
      'deployment', 'deposits', 'documents', 'flows', 'funding_records', 'journal', 'leader_heartbeat', 'leadership', 'nodes', 'orders', 'payment_orders',
      'schema_version', 'snapshots', 'trades', 'webhook_deliveries', 'webhook_events', 'webhooks', 'withdrawals',
    ]);
    expect((await client.query('SELECT id, term, node_url FROM bourse.leadership')).rows).toEqual([
      { id: 1, term: '0', node_url: '' },
    ]);
    expect(await versions()).toEqual(PG_MIGRATIONS.map((m) => [String(m.version), m.name]));
  });

  it('when several nodes open the same empty database at once, then it is migrated once and all of them open', async () => {
    const stores = await Promise.all([1, 2, 3, 4].map(() => openPostgresStore({ url })));
    await Promise.all(stores.map((store) => store.close()));

    expect(await versions()).toEqual(PG_MIGRATIONS.map((m) => [String(m.version), m.name]));
    expect((await client.query('SELECT count(*)::int AS n FROM bourse.leadership')).rows).toEqual([{ n: 1 }]);
  });

  it('when the database was migrated by a newer version, then opening it is refused with the versions named', async () => {
    await (await openPostgresStore({ url })).close();
    await client.query("INSERT INTO bourse.schema_version (version, name) VALUES (99, 'future')");

    await expect(openPostgresStore({ url })).rejects.toThrow(`database schema version 99 is newer than this server knows (${PG_MIGRATIONS.length})`);
  });

  it('when a store is opened again, then no migration runs twice', async () => {
    await (await openPostgresStore({ url })).close();
    await (await openPostgresStore({ url })).close();

    expect(await versions()).toEqual(PG_MIGRATIONS.map((m) => [String(m.version), m.name]));
  });

  it('when a database of version 1 (before uploaded documents) is opened, then migration 2 adds bourse.documents and its data stays', async () => {
    await migratePostgres(client, PG_MIGRATIONS.slice(0, 1));
    await client.query("INSERT INTO bourse.nodes (node_url, role) VALUES ('http://node-a:8080', 'leader')");
    expect((await client.query("SELECT to_regclass('bourse.documents') IS NULL AS absent")).rows).toEqual([{ absent: true }]);

    const store = await openPostgresStore({ url });
    try {
      await store.documents.put(3, 'a'.repeat(64), 'pdf', Buffer.from('%PDF-1.4', 'latin1'));
    } finally {
      await store.close();
    }

    expect(await versions()).toEqual(PG_MIGRATIONS.map((m) => [String(m.version), m.name]));
    expect((await client.query('SELECT node_url FROM bourse.nodes')).rows).toEqual([{ node_url: 'http://node-a:8080' }]);
    expect((await client.query('SELECT order_id, ext FROM bourse.documents')).rows).toEqual([{ order_id: '3', ext: 'pdf' }]);
  });

  it('when a later migration is added, then only it runs', async () => {
    await migratePostgres(client);
    const next: PgMigration = { version: PG_MIGRATIONS.length + 1, name: 'kline cache', sql: 'CREATE TABLE bourse.klines (id BIGINT PRIMARY KEY)' };
    await migratePostgres(client, [...PG_MIGRATIONS, next]);
    await migratePostgres(client, [...PG_MIGRATIONS, next]);

    expect((await versions()).map(([version]) => Number(version))).toEqual([...PG_MIGRATIONS.map((m) => m.version), next.version]);
    expect((await client.query("SELECT to_regclass('bourse.klines') IS NOT NULL AS present")).rows).toEqual([{ present: true }]);
  });

  it('when a migration fails, then its changes are rolled back, its version is not recorded and the lock is released', async () => {
    const broken: PgMigration = { version: PG_MIGRATIONS.length + 1, name: 'broken', sql: 'CREATE TABLE bourse.half (id BIGINT); INSERT INTO bourse.nowhere VALUES (1);' };

    await expect(migratePostgres(client, [...PG_MIGRATIONS, broken])).rejects.toThrow('relation "bourse.nowhere" does not exist');

    expect((await versions()).map(([version]) => Number(version))).toEqual(PG_MIGRATIONS.map((m) => m.version));
    expect((await client.query("SELECT to_regclass('bourse.half') IS NULL AS absent")).rows).toEqual([{ absent: true }]);
    const locks = await client.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND ((classid::bigint << 32) | objid::bigint) = $1", [MIGRATION_LOCK_KEY.toString()]);
    expect(locks.rows).toEqual([]);
  });

  it('when migrations are not numbered 1, 2, 3 …, then they are refused', async () => {
    const skipping: PgMigration[] = [...PG_MIGRATIONS, { version: PG_MIGRATIONS.length + 2, name: 'gap', sql: 'SELECT 1' }];

    await expect(migratePostgres(client, skipping)).rejects.toThrow(`migrations must be numbered 1, 2, 3 …: found ${PG_MIGRATIONS.length + 2} after ${PG_MIGRATIONS.length}`);
  });
});
