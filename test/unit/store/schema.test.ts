import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate, type Migration } from '../../../src/store/sqlite/schema.js';

describe('schema migrations', () => {
  let db: Database.Database;

  beforeEach(() => {
    db = new Database(':memory:');
  });
  afterEach(() => {
    db.close();
  });

  it('when a database already has the first migrations, then only the new ones run', () => {
    migrate(db);
    const next: Migration = { version: MIGRATIONS.length + 1, name: 'kline cache', sql: 'CREATE TABLE klines (id INTEGER PRIMARY KEY) STRICT' };
    migrate(db, [...MIGRATIONS, next]);
    migrate(db, [...MIGRATIONS, next]);

    expect(db.prepare('SELECT version FROM schema_version ORDER BY version').pluck().all()).toEqual([...MIGRATIONS.map((m) => m.version), next.version]);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'klines'").pluck().get()).toBe(1);
  });

  it('when migrations are not numbered 1, 2, 3 …, then migrate refuses them', () => {
    const skipping: Migration[] = [...MIGRATIONS, { version: MIGRATIONS.length + 2, name: 'gap', sql: 'SELECT 1' }];

    expect(() => migrate(db, skipping)).toThrow(`migrations must be numbered 1, 2, 3 …: found ${MIGRATIONS.length + 2} after ${MIGRATIONS.length}`);
  });

  it('when a migration fails, then its version is not recorded and its changes are rolled back', () => {
    const broken: Migration = { version: MIGRATIONS.length + 1, name: 'broken', sql: 'CREATE TABLE half (id INTEGER); INSERT INTO nowhere VALUES (1);' };

    expect(() => migrate(db, [...MIGRATIONS, broken])).toThrow(/no such table: nowhere/);
    expect(db.prepare('SELECT version FROM schema_version').pluck().all()).toEqual(MIGRATIONS.map((m) => m.version));
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half'").pluck().get()).toBe(0);
  });
});
