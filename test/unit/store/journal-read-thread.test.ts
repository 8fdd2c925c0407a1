import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyDerivedRows, type Command, type StampedCommand } from '../../../src/core/types.js';
import { ChunkReader } from '../../../src/store/journal-chunk.js';
import { isFrameText } from '../../../src/store/journal-frame.js';
import { JournalReadThread } from '../../../src/store/journal-read-thread.js';
import { prepareJournalRead } from '../../../src/store/sqlite/journal-reader.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

const dirs: string[] = [];
const dbs: Database.Database[] = [];

afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Command i of a journal: mostly orders and cancels (framed), a deposit now and then (JSON). */
function commandOf(i: number): Command {
  if (i % 7 === 0) return { type: 'deposit', accountId: 1, asset: 'USDT', amount: `${i}.5`, txId: `tx-${i}` };
  if (i % 3 === 0) return { type: 'cancelOrder', accountId: 2, orderId: i };
  return { type: 'placeOrder', accountId: 2, symbol: 'BTCUSDT', side: i % 2 === 0 ? 'BUY' : 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', quantity: '0.10', price: `${i}.00`, timestamp: 1_700_000_000_000 + i };
}

const stampedOf = (seq: number): StampedCommand => ({ seq, ts: 1_700_000_000_000 + seq, command: commandOf(seq) });

/**
 * A journal file of `count` commands written by the store (frames and JSON), the first
 * `jsonBefore` of them rewritten as JSON text, as rows written before frames are. Returns a
 * connection of its own to read it with.
 */
function journalFile(count: number, jsonBefore = 0): { db: Database.Database; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bourse-journal-read-'));
  dirs.push(dir);
  const path = join(dir, 'bourse.db');
  const store = openSqliteStore({ path, synchronous: 'NORMAL' });
  for (let seq = 1; seq <= count; seq += 1000) {
    const batch: StampedCommand[] = [];
    for (let s = seq; s < seq + 1000 && s <= count; s++) batch.push(stampedOf(s));
    store.appendBatch(batch, emptyDerivedRows());
  }
  store.close();
  const db = new Database(path);
  dbs.push(db);
  const rewrite = db.prepare<[string, number]>('UPDATE journal SET payload = ? WHERE seq = ?');
  db.transaction(() => {
    for (let seq = 1; seq <= jsonBefore; seq++) rewrite.run(JSON.stringify(commandOf(seq)), seq);
  })();
  return { db, path };
}

/** What the reading thread hands over after `afterSeq`, decoded here. */
function readOnThread(path: string, afterSeq: number): StampedCommand[] {
  const thread = new JournalReadThread(path);
  const read: StampedCommand[] = [];
  try {
    thread.start(afterSeq);
    const rows = new ChunkReader(afterSeq);
    for (let chunk = thread.next(); chunk !== undefined; chunk = thread.next()) {
      rows.load(chunk);
      for (let stamped = rows.next(); stamped !== undefined; stamped = rows.next()) read.push(stamped);
    }
  } finally {
    thread.close();
  }
  return read;
}

describe('the journal read on a thread of its own', () => {
  it('when the store writes orders and cancels, then their payloads are frames and the others JSON', () => {
    const { db } = journalFile(14);
    const payloads = db.prepare<[], { type: string; payload: string }>('SELECT type, payload FROM journal ORDER BY seq').all();
    expect(payloads.map((row) => [row.type, isFrameText(row.payload)])).toEqual(payloads.map((row) => [row.type, row.type !== 'deposit']));
  });

  it('when a long journal of frames and old JSON rows is read on the thread, then it is the same as read here, from any seq', () => {
    const { db, path } = journalFile(30_000, 12_345);
    const expected = Array.from({ length: 30_000 }, (_, i) => stampedOf(i + 1));
    expect(readOnThread(path, 0)).toStrictEqual(expected);
    expect(readOnThread(path, 29_990)).toStrictEqual(expected.slice(29_990));
    expect(readOnThread(path, 30_000)).toEqual([]);
    expect([...prepareJournalRead(db, Infinity)(0)]).toStrictEqual(expected);
  });

  it('when the store reads a long journal (here, then on the thread once it has started), then every command comes once, in order', () => {
    const { db } = journalFile(30_000, 12_345);
    const expected = Array.from({ length: 30_000 }, (_, i) => stampedOf(i + 1));
    const read = prepareJournalRead(db, 1);
    expect([...read(0)]).toStrictEqual(expected);
    expect([...read(25_000)]).toStrictEqual(expected.slice(25_000));
  });

  it('when the replay stops early, then the thread stops and the journal reads again from the start', () => {
    const { db } = journalFile(20_000);
    const read = prepareJournalRead(db, 1);
    let seen = 0;
    for (const stamped of read(0)) {
      if (stamped.seq === 100) break;
      seen++;
    }
    expect(seen).toBe(99);
    expect([...read(19_000)].map((stamped) => stamped.seq)).toEqual(Array.from({ length: 1000 }, (_, i) => 19_001 + i));
  });

  it('when a seq is missing, then the read stops at the gap', () => {
    const { db, path } = journalFile(3000);
    db.prepare('DELETE FROM journal WHERE seq = 2500').run();
    expect(() => readOnThread(path, 0)).toThrow(/journal gap: seq 2501 follows 2499/);
    expect(() => [...prepareJournalRead(db, 1)(0)]).toThrow(/journal gap: seq 2501 follows 2499/);
  });

  it('when a row says another type than its payload, JSON or frame, then the reading thread stops there', () => {
    const { db, path } = journalFile(3000, 10);
    db.prepare("UPDATE journal SET type = 'deposit' WHERE seq IN (5, 2000)").run();
    expect(() => readOnThread(path, 0)).toThrow(/journal read thread: journal seq 5: payload type placeOrder differs from deposit/);
    expect(() => readOnThread(path, 10)).toThrow(/journal read thread: journal seq 2000: payload type placeOrder differs from deposit/);
  });

  it('when the database file is not there, then the reading thread says so', () => {
    expect(() => readOnThread(join(tmpdir(), 'bourse-no-such-dir', 'bourse.db'), 0)).toThrow(/journal read thread: .*(directory|unable to open)/i);
  });

  it('when the database is in memory, then it is read here, a page at a time', () => {
    const db = new Database(':memory:');
    dbs.push(db);
    db.exec('CREATE TABLE journal (seq INTEGER PRIMARY KEY, ts INTEGER NOT NULL, type TEXT NOT NULL, payload TEXT NOT NULL) STRICT');
    const insert = db.prepare<[number, number, string, string]>('INSERT INTO journal VALUES (?, ?, ?, ?)');
    for (let seq = 1; seq <= 5; seq++) insert.run(seq, seq, 'cancelOrder', JSON.stringify({ type: 'cancelOrder', accountId: 1, orderId: seq }));
    expect([...prepareJournalRead(db, 1)(0, 2)].map((stamped) => stamped.seq)).toEqual([1, 2, 3, 4, 5]);
  });
});
