import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyDerivedRows } from '../../../src/core/types.js';
import { isDiskFull, WRITE_PROBE_BYTES } from '../../../src/store/sqlite/disk-space.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

describe('SqliteStore when the disk is full', () => {
  let dir: string;
  let store: SqliteStore;
  const path = (): string => join(dir, 'bourse.db');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bourse-disk-space-'));
    store = openSqliteStore({ path: path(), synchronous: 'NORMAL' });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A batch of `count` deposits with long payloads after the journal's last seq. */
  function append(count: number): void {
    const from = store.lastSeq();
    const commands = Array.from({ length: count }, (_, i) => ({
      seq: from + i + 1,
      ts: 1000,
      command: { type: 'deposit' as const, accountId: 1, asset: 'USDT', amount: '1', txId: `tx-${from + i}-${'x'.repeat(500)}` },
    }));
    store.appendBatch(commands, emptyDerivedRows());
  }

  it('when the file is capped at its size, then a commit that needs a page fails with SQLITE_FULL and leaves nothing', () => {
    append(1);
    const cap = store.setMaxPageCount(1);
    expect(cap).toBeGreaterThan(1);

    let failure: unknown;
    try {
      append(100);
    } catch (error) {
      failure = error;
    }
    expect(isDiskFull(failure)).toBe(true);
    expect(store.lastSeq()).toBe(1);
    expect([...store.readJournal(0)].map((s) => s.seq)).toEqual([1]);
  });

  it('when there is no room for the probe, then it throws SQLITE_FULL; with room, it commits and leaves no row', () => {
    const cap = store.setMaxPageCount(1);
    expect(() => store.probeWrite()).toThrow(expect.objectContaining({ code: 'SQLITE_FULL' }));
    // Not even a probe's worth of room, as a batch usually needs.
    store.setMaxPageCount(cap + 16);
    expect(() => store.probeWrite()).toThrow(expect.objectContaining({ code: 'SQLITE_FULL' }));

    store.setMaxPageCount(null);
    store.probeWrite();

    const reader = new Database(path(), { readonly: true });
    try {
      expect(reader.prepare('SELECT count(*) FROM write_probe').pluck().get()).toBe(0);
      // The probe's pages stay free in the file for the batches that follow.
      const pageSize = reader.pragma('page_size', { simple: true }) as number;
      expect(reader.pragma('freelist_count', { simple: true })).toBeGreaterThanOrEqual(WRITE_PROBE_BYTES / pageSize);
    } finally {
      reader.close();
    }
    append(100);
    expect(store.lastSeq()).toBe(100);
  });

  it('when errors other than a full disk are met, then they are not taken for one', () => {
    expect(isDiskFull(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }))).toBe(false);
    expect(isDiskFull(new Error('database or disk is full'))).toBe(false);
    expect(isDiskFull(undefined)).toBe(false);
  });
});
