/**
 * Fencing (docs/deployment.md "Fencing"): every append checks, in its own transaction, that the
 * leadership row still holds the writer's term. A writer whose term has passed writes nothing; a
 * change of leadership waits for the append in flight, so an append either commits before the
 * new term or is refused after it.
 */

import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyDerivedRows, type DerivedRows, type OrderRow, type StampedCommand, type TradeRow } from '../../../src/core/types.js';
import { FencedError } from '../../../src/store/postgres/fenced-error.js';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { postgresDatabases } from '../../support/postgres.js';

const databases = postgresDatabases();

function stamp(seq: number): StampedCommand {
  return { seq, ts: 1000 + seq, command: { type: 'deposit', accountId: 1, asset: 'USDT', amount: String(seq), txId: `tx-${seq}` } };
}

function orderRow(orderId: number): OrderRow {
  return {
    orderId,
    accountId: 1,
    symbol: 'BTCUSDT',
    clientOrderId: `c-${orderId}`,
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    price: '30000',
    origQty: '1',
    executedQty: '0',
    cummulativeQuoteQty: '0',
    status: 'NEW',
    stopPrice: '0',
    icebergQty: '0',
    isWorking: true,
    time: 1,
    updateTime: 1,
  };
}

function tradeRow(tradeId: number): TradeRow {
  return { tradeId, accountId: 1, symbol: 'BTCUSDT', orderId: tradeId, matchOrderId: 0, price: '1', qty: '1', quoteQty: '1', commission: '0', commissionAsset: 'BTC', isBuyer: true, isMaker: false, time: 1 };
}

function rows(orderId: number): DerivedRows {
  return { ...emptyDerivedRows(), orders: [orderRow(orderId)], trades: [tradeRow(orderId)] };
}

describe('PostgreSQL store: fencing by the leadership term', () => {
  let url: string;
  let store: PostgresStore;
  /** Another node's connection: it changes the leadership row and looks at the tables. */
  let other: pg.Client;

  async function count(table: string): Promise<number> {
    return Number((await other.query<{ n: string }>(`SELECT count(*) AS n FROM bourse.${table}`)).rows[0].n);
  }

  /** Resolves once a session of this database other than `other` waits for a lock. */
  async function someoneWaitsForALock(): Promise<void> {
    await vi.waitUntil(
      async () => {
        const { rows } = await other.query(
          "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
        );
        return rows.length > 0;
      },
      { timeout: 10_000, interval: 20 },
    );
  }

  beforeEach(async () => {
    url = await databases.url();
    store = await openPostgresStore({ url, term: 1 });
    other = new pg.Client({ connectionString: url });
    await other.connect();
    await other.query("UPDATE bourse.leadership SET term = 1, node_url = 'http://node-a' WHERE id = 1");
  });
  afterEach(async () => {
    await other.end();
    await store.close();
  });

  it('when the writer holds the row\'s term, then its appends commit', async () => {
    await store.appendBatch([stamp(1)], rows(1));

    expect(store.lastSeq()).toBe(1);
    expect(await count('journal')).toBe(1);
    expect(await count('orders')).toBe(1);
  });

  it('when another node has taken a newer term, then the next append is refused with FencedError and writes nothing', async () => {
    await store.appendBatch([stamp(1)], rows(1));
    await other.query('UPDATE bourse.leadership SET term = 2 WHERE id = 1');

    const refusal = await store.appendBatch([stamp(2)], rows(2)).catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(FencedError);
    expect(refusal).toMatchObject({ ourTerm: 1, currentTerm: 2, message: 'append fenced: this writer holds term 1, the leadership row term 2' });
    expect(store.lastSeq()).toBe(1);
    expect([await count('journal'), await count('orders'), await count('trades')]).toEqual([1, 1, 1]);
    // Every later append is refused alike: the writer must stop.
    await expect(store.appendBatch([stamp(2)], rows(2))).rejects.toBeInstanceOf(FencedError);
  });

  it('when the writer is given the row\'s new term, then it appends again', async () => {
    await other.query('UPDATE bourse.leadership SET term = 2 WHERE id = 1');
    await expect(store.appendBatch([stamp(1)], rows(1))).rejects.toBeInstanceOf(FencedError);

    store.setTerm(2);
    await store.appendBatch([stamp(1)], rows(1));

    expect(store.writerTerm()).toBe(2);
    expect(await count('journal')).toBe(1);
  });

  it('when a store has no term, then its appends are not fenced', async () => {
    await other.query('UPDATE bourse.leadership SET term = 7 WHERE id = 1');
    store.setTerm(undefined);

    await store.appendBatch([stamp(1)], rows(1));

    expect(await count('journal')).toBe(1);
  });

  it('when the term changes while an append is in its transaction, then the change waits and the append commits first', async () => {
    // Holds the append inside its transaction after its term check: its trades insert waits for this lock.
    const blocker = new pg.Client({ connectionString: url });
    const bumper = new pg.Client({ connectionString: url });
    await Promise.all([blocker.connect(), bumper.connect()]);
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE bourse.trades IN EXCLUSIVE MODE');
      const append = store.appendBatch([stamp(1)], rows(1));
      await someoneWaitsForALock();
      let bumped = false;
      const bump = bumper.query('UPDATE bourse.leadership SET term = 2 WHERE id = 1').then(() => (bumped = true));
      // The bump waits for the append's FOR SHARE lock on the row: two sessions wait now.
      await vi.waitUntil(async () => (await other.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows.length === 2, { timeout: 10_000, interval: 20 });
      expect(bumped).toBe(false);

      await blocker.query('COMMIT');

      // The append was not refused: it committed under term 1, and the bump only then.
      await expect(append).resolves.toBeUndefined();
      await bump;
      expect((await other.query('SELECT term FROM bourse.leadership')).rows).toEqual([{ term: '2' }]);
      expect(await count('journal')).toBe(1);
      await expect(store.appendBatch([stamp(2)], rows(2))).rejects.toBeInstanceOf(FencedError);
    } finally {
      await Promise.all([blocker.end(), bumper.end()]);
    }
  });

  it('when the term change is in flight before the append, then the append waits for it and is refused', async () => {
    const bumper = new pg.Client({ connectionString: url });
    await bumper.connect();
    try {
      await bumper.query('BEGIN');
      await bumper.query('UPDATE bourse.leadership SET term = 2 WHERE id = 1');
      const append = store.appendBatch([stamp(1)], rows(1)).catch((error: unknown) => error);
      await someoneWaitsForALock();

      await bumper.query('COMMIT');

      expect(await append).toMatchObject({ name: 'FencedError', ourTerm: 1, currentTerm: 2 });
      expect([await count('journal'), await count('orders'), await count('trades')]).toEqual([0, 0, 0]);
      expect(store.lastSeq()).toBe(0);
    } finally {
      await bumper.end();
    }
  });

  it('when the term change in flight is rolled back, then the waiting append commits under the writer\'s term', async () => {
    const bumper = new pg.Client({ connectionString: url });
    await bumper.connect();
    try {
      await bumper.query('BEGIN');
      await bumper.query('UPDATE bourse.leadership SET term = 2 WHERE id = 1');
      const append = store.appendBatch([stamp(1)], rows(1));
      await someoneWaitsForALock();

      await bumper.query('ROLLBACK');
      await append;

      expect(await count('journal')).toBe(1);
      expect(store.lastSeq()).toBe(1);
    } finally {
      await bumper.end();
    }
  });
});
