import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Command } from '../../../src/core/types.js';
import { recover } from '../../../src/exchange/recovery.js';
import { stateHash } from '../../../src/exchange/snapshot.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { CoreHarness, createCoreHarness, limit } from '../../support/core-harness.js';

let dir: string;
const opened: (SqliteStore | Database.Database)[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bourse-deferred-rows-'));
});

afterEach(() => {
  for (const handle of opened.splice(0).reverse()) handle.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(rowsEveryCommits: number): SqliteStore {
  const store = openSqliteStore({ path: join(dir, 'bourse.db'), synchronous: 'NORMAL', rowsEveryCommits });
  opened.push(store);
  return store;
}

/** Another connection, as an outside reader (or a crashed writer's successor) sees the file. */
function outsideCount(table: 'orders' | 'trades' | 'flows'): number {
  const reader = new Database(join(dir, 'bourse.db'), { readonly: true });
  try {
    return reader.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  } finally {
    reader.close();
  }
}

/** Applies each command on the harness and commits it to the store as a batch of its own, as the sequencer would. */
function commitEach(h: CoreHarness, store: SqliteStore, commands: readonly Command[]): void {
  for (const command of commands) {
    h.ok(command);
    store.appendBatch([h.accepted[h.accepted.length - 1]], h.lastRows);
  }
}

/** The demo catalogue and a funded buyer and seller, committed as one batch whose rows are then written (nothing queued). */
function market(store: SqliteStore): { h: CoreHarness; buyer: number; seller: number } {
  const h = createCoreHarness();
  const buyer = h.funded({ USDT: '100000' });
  const seller = h.funded({ BTC: '1' });
  store.appendBatch(h.accepted, h.rows);
  store.listOrders({ accountId: buyer, final: false, limit: 1 });
  expect(store.projectedSeq()).toBe(store.lastSeq());
  return { h, buyer, seller };
}

describe('derived rows written with a later commit', () => {
  it('when fewer batches than the limit are committed, then their rows wait, and a read through the store writes them first', () => {
    const store = open(3);
    const { h, buyer } = market(store);
    const mark = store.projectedSeq();
    commitEach(h, store, [limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.1'), limit(buyer, 'BTCUSDT', 'BUY', '29000', '0.1')]);
    expect([store.lastSeq() - mark, outsideCount('orders')]).toEqual([2, 0]);
    expect(store.listOrders({ accountId: buyer, final: false, limit: 10 }).map((o) => o.price)).toEqual(['30000', '29000']);
    expect([store.projectedSeq(), outsideCount('orders')]).toEqual([store.lastSeq(), 2]);
  });

  it('when the limit of batches is reached, then the commit that reaches it writes the rows of all of them', () => {
    const store = open(3);
    const { h, buyer, seller } = market(store);
    commitEach(h, store, [limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.1'), limit(seller, 'BTCUSDT', 'SELL', '30000', '0.1')]);
    const pendingBefore = store.lastSeq() - store.projectedSeq();
    commitEach(h, store, [limit(buyer, 'BTCUSDT', 'BUY', '29000', '0.1')]);
    expect(pendingBefore).toBe(2);
    expect([store.projectedSeq(), outsideCount('orders'), outsideCount('trades')]).toEqual([store.lastSeq(), 3, 2]);
  });

  it('when the writer stops with rows unwritten (a crash), then recovery derives them again, the same rows, and the same state', () => {
    const crashed = open(1000);
    const { h, buyer, seller } = market(crashed);
    const written = [outsideCount('trades'), outsideCount('flows')];
    commitEach(h, crashed, [
      limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.5'),
      limit(seller, 'BTCUSDT', 'SELL', '29000', '0.2'),
      { type: 'cancelOrder', accountId: buyer, orderId: 1 },
    ]);
    expect([outsideCount('trades'), outsideCount('flows')]).toEqual(written);
    expect(h.rows.trades.length).toBe(2);

    // A new process on the same file: the crashed one's memory (its queued rows) is gone.
    const next = open(1);
    const { core } = recover(next);
    expect(stateHash(core)).toBe(stateHash(h.core));
    const tradeQuery = (accountId: number) => ({ accountId, limit: 10 });
    expect(next.listTrades(tradeQuery(buyer))).toEqual(h.rows.trades.filter((t) => t.accountId === buyer));
    expect(next.listTrades(tradeQuery(seller))).toEqual(h.rows.trades.filter((t) => t.accountId === seller));
    expect(next.getOrder(buyer, 1)).toEqual(h.rows.orders.filter((o) => o.orderId === 1).at(-1));
    expect(outsideCount('flows')).toBe(h.rows.flows.length);
    expect(next.projectedSeq()).toBe(next.lastSeq());
  });
});
