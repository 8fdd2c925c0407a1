/**
 * What followers and a new leader use of the PostgreSQL journal (docs/deployment.md "Roles"): pages by
 * seq, the journal's end re-read, a notification per committed batch; and the writer's own
 * connection: appends in call order, a lost connection replaced.
 */

import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyDerivedRows, type DerivedRows, type StampedCommand, type TradeRow } from '../../../src/core/types.js';
import { JOURNAL_CHANNEL, WRITER_APPLICATION_NAME, openPostgresStore, type PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { postgresDatabases } from '../../support/postgres.js';

const databases = postgresDatabases();

function stamp(seq: number): StampedCommand {
  return { seq, ts: 1000 + seq, command: { type: 'deposit', accountId: 1, asset: 'USDT', amount: String(seq), txId: `tx-${seq}` } };
}

const stamps = (from: number, to: number): StampedCommand[] => Array.from({ length: to - from + 1 }, (_, i) => stamp(from + i));

function withTrade(tradeId: number): DerivedRows {
  const trade: TradeRow = { tradeId, accountId: 1, symbol: 'BTCUSDT', orderId: 1, matchOrderId: 2, price: '1', qty: '1', quoteQty: '1', commission: '0', commissionAsset: 'BTC', isBuyer: true, isMaker: false, time: 1 };
  return { ...emptyDerivedRows(), trades: [trade] };
}

describe('PostgreSQL store: the journal as followers read it', () => {
  let url: string;
  let writer: PostgresStore;
  let follower: PostgresStore;

  beforeEach(async () => {
    url = await databases.url();
    writer = await openPostgresStore({ url });
    follower = await openPostgresStore({ url });
  });
  afterEach(async () => {
    await Promise.all([writer.close(), follower.close()]);
  });

  it('when a follower reads pages after a seq, then it gets at most the limit, in seq order, and nothing past the end', async () => {
    await writer.appendBatch(stamps(1, 5), emptyDerivedRows());

    expect(await follower.readJournalPage(0, 2)).toEqual(stamps(1, 2));
    expect(await follower.readJournalPage(2, 10)).toEqual(stamps(3, 5));
    expect(await follower.readJournalPage(5, 10)).toEqual([]);
    await expect(follower.readJournalPage(-1, 10)).rejects.toThrow(RangeError);
  });

  it('when another node appends, then lastSeq moves only when the journal\'s end is re-read', async () => {
    await writer.appendBatch(stamps(1, 3), emptyDerivedRows());
    expect(follower.lastSeq()).toBe(0);

    expect(await follower.refreshLastSeq()).toBe(3);

    expect([follower.lastSeq(), follower.lastTs(), follower.projectedSeq()]).toEqual([3, 1003, 3]);
    await follower.appendBatch([stamp(4)], emptyDerivedRows());
    expect(await writer.refreshLastSeq()).toBe(4);
  });

  it('when a stale writer appends seqs already in the journal, then the journal\'s key refuses them', async () => {
    await writer.appendBatch(stamps(1, 2), emptyDerivedRows());

    await expect(follower.appendBatch([stamp(1)], emptyDerivedRows())).rejects.toThrow(/duplicate key value violates unique constraint "journal_pkey"/);
    expect(await follower.readJournalPage(0, 10)).toEqual(stamps(1, 2));
  });

  it('when batches commit, then each notifies its last seq on the journal channel after its commit; a failed batch notifies nothing', async () => {
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => {
      if (message.channel === JOURNAL_CHANNEL) heard.push(message.payload ?? '');
    });
    try {
      await listener.query(`LISTEN ${JOURNAL_CHANNEL}`);
      await writer.appendBatch([stamp(1)], withTrade(1));
      await expect(writer.appendBatch(stamps(2, 3), withTrade(1))).rejects.toThrow(/duplicate key/);
      await writer.appendBatch(stamps(2, 3), withTrade(2));

      await vi.waitUntil(() => heard.length >= 2, { timeout: 5000, interval: 10 });
      expect(heard).toEqual(['1', '3']);
    } finally {
      await listener.end();
    }
  });

  it('when batches are handed over without waiting, then they commit in the order given', async () => {
    const appends = [writer.appendBatch(stamps(1, 2), emptyDerivedRows()), writer.appendBatch(stamps(3, 3), emptyDerivedRows()), writer.appendBatch(stamps(4, 6), emptyDerivedRows())];
    await Promise.all(appends);

    expect(writer.lastSeq()).toBe(6);
    expect(await follower.readJournalPage(0, 10)).toEqual(stamps(1, 6));
  });

  it('when a batch handed over fails, then those handed over after it are refused too, and the journal keeps no gap', async () => {
    await writer.appendBatch([stamp(1)], withTrade(1));

    const failing = writer.appendBatch([stamp(2)], withTrade(1));
    const behind = writer.appendBatch([stamp(3)], emptyDerivedRows());

    await expect(failing).rejects.toThrow(/duplicate key/);
    await expect(behind).rejects.toThrow('appendBatch: seq 3 does not follow 1');
    expect(await follower.readJournalPage(0, 10)).toEqual([stamp(1)]);
  });

  it('when the journal has a gap, then reading it fails rather than skip a command', async () => {
    await writer.appendBatch(stamps(1, 3), emptyDerivedRows());
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query("INSERT INTO bourse.journal (seq, ts, type, payload) VALUES (5, 1005, 'deposit', $1)", [JSON.stringify(stamp(5).command)]);
    } finally {
      await other.end();
    }

    await expect(follower.readJournalPage(0, 10)).rejects.toThrow('journal gap: seq 5 follows 3');
  });

  it('when the writer\'s connection is lost, then the loss is reported and the next append connects again', async () => {
    const lost: Error[] = [];
    const store = await openPostgresStore({ url, onConnectionError: (error) => lost.push(error) });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await store.appendBatch([stamp(1)], emptyDerivedRows());
      const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [WRITER_APPLICATION_NAME]);
      expect(rows).toHaveLength(1);
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      await vi.waitUntil(() => lost.length > 0, { timeout: 5000, interval: 10 });

      await store.appendBatch([stamp(2)], emptyDerivedRows());

      expect(await follower.readJournalPage(0, 10)).toEqual(stamps(1, 2));
    } finally {
      await admin.end();
      await store.close();
    }
  });
});
