import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyDerivedRows, type StampedCommand } from '../../../src/core/types.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

const dirs: string[] = [];
const stores: SqliteStore[] = [];

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(synchronous: 'NORMAL' | 'FULL', checkpoints: 'writer' | 'background'): { store: SqliteStore; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bourse-checkpointer-'));
  dirs.push(dir);
  const path = join(dir, 'bourse.db');
  const store = openSqliteStore({ path, synchronous, checkpoints });
  stores.push(store);
  return { store, path };
}

/** 200 journal entries with a payload of 2 KB each: about 100 pages, far below the writer's autocheckpoint. */
function appendSome(store: SqliteStore): void {
  const commands: StampedCommand[] = [];
  for (let i = 1; i <= 200; i++) {
    commands.push({ seq: store.lastSeq() + i, ts: 1_700_000_000_000, command: { type: 'deposit', accountId: 1, asset: 'USDT', amount: '1', txId: `tx-${i}-${'x'.repeat(2000)}` } });
  }
  store.appendBatch(commands, emptyDerivedRows());
}

const fileSize = (path: string): number => (existsSync(path) ? statSync(path).size : 0);

describe('WAL checkpoints', () => {
  it('when the writer checkpoints, then commits below its autocheckpoint stay in the WAL, the database file unchanged', async () => {
    const { store, path } = open('NORMAL', 'writer');
    const before = fileSize(path);
    appendSome(store);
    // Kept on purpose: a checkpoint that must not come can only be watched for over time; the
    // background case below is seen within this time.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([fileSize(path), fileSize(`${path}-wal`) > 400_000]).toEqual([before, true]);
  });

  it('when a thread checkpoints (NORMAL), then the committed frames reach the database file without the writer', async () => {
    const { store, path } = open('NORMAL', 'background');
    const before = fileSize(path);
    appendSome(store);
    await vi.waitFor(() => expect(fileSize(path)).toBeGreaterThan(before + 400_000), { timeout: 5_000, interval: 20 });
    expect([...store.readJournal(0)].length).toBe(200);
  });

  it('when the store closes, then the thread has closed its connection first: the last one removes the WAL', () => {
    const { store, path } = open('NORMAL', 'background');
    appendSome(store);
    stores.splice(stores.indexOf(store), 1);
    store.close();
    expect([existsSync(`${path}-wal`), existsSync(path)]).toEqual([false, true]);
  });

  it('when synchronous is FULL, then the writer keeps its checkpoints even if a thread was asked for', async () => {
    const { store, path } = open('FULL', 'background');
    const before = fileSize(path);
    appendSome(store);
    // Kept on purpose, as in the first test: the absence of a thread's checkpoint takes time to see.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fileSize(path)).toBe(before);
  });
});
