/**
 * What only the SQLite store does with its file: WAL mode and the schema versions it records.
 * The journal, rows, snapshots and history queries are store-contract.test.ts's, run on both stores.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

describe('SqliteStore on a file', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bourse-store-test-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('when a file store is opened, then it is in WAL mode and records its schema version', () => {
    const path = join(dir, 'bourse.db');
    openSqliteStore({ path, synchronous: 'NORMAL' }).close();

    const reader = new Database(path, { readonly: true });
    try {
      expect(reader.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(reader.prepare('SELECT version, name FROM schema_version').all()).toEqual([
        { version: 1, name: 'journal, read models, snapshots' },
        { version: 2, name: 'drop orders_by_client_id' },
        { version: 3, name: 'area B funding records' },
        { version: 4, name: 'area B payment orders' },
        { version: 5, name: 'area B webhooks and their outbox' },
        { version: 6, name: 'write probe' },
        { version: 7, name: 'projection mark' },
        { version: 8, name: 'stop and iceberg orders' },
        { version: 9, name: 'journal frames' },
      ]);
    } finally {
      reader.close();
    }
  });

  it('when the file was written by a newer schema, then opening it fails', () => {
    const path = join(dir, 'bourse.db');
    openSqliteStore({ path, synchronous: 'NORMAL' }).close();
    const writer = new Database(path);
    writer.prepare("INSERT INTO schema_version (version, name) VALUES (99, 'future')").run();
    writer.close();

    expect(() => openSqliteStore({ path, synchronous: 'NORMAL' })).toThrow(
      'database schema version 99 is newer than this server knows (9)',
    );
  });
});
