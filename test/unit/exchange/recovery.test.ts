import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyDerivedRows, type StampedCommand } from '../../../src/core/types.js';
import { RecoveryError, recover, takeSnapshot } from '../../../src/exchange/recovery.js';
import { hashState, serializeCore, stateHash } from '../../../src/exchange/snapshot.js';
import { startServer } from '../../../src/main.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { SpotClient } from '../../support/clients.js';
import { createCoreHarness, limit, type CoreHarness } from '../../support/core-harness.js';
import { startTestServer } from '../../support/server.js';

/** What a story leaves: the journal is in the store, the snapshot taken halfway. */
interface Journaled {
  h: CoreHarness;
  snapshot: { seq: number; hash: string; state: string };
  /** Commands journaled after the snapshot. */
  after: number;
}

function journal(store: SqliteStore, commands: readonly StampedCommand[]): void {
  // Recovery rebuilds state from commands alone; the read-model rows play no part here.
  store.appendBatch(commands, emptyDerivedRows());
}

/** Catalogue, two funded traders, resting orders and a trade; a snapshot; then more orders and a cancel. */
function journaledStory(store: SqliteStore): Journaled {
  const h = createCoreHarness();
  const seller = h.funded({ BTC: '2' });
  const buyer = h.funded({ USDT: '100000' });
  h.place(limit(seller, 'BTCUSDT', 'SELL', '30000', '1'));
  h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.25'));
  journal(store, h.accepted);
  const taken = takeSnapshot(h.core, store);
  const state = serializeCore(h.core);
  const before = h.accepted.length;
  h.place(limit(buyer, 'BTCUSDT', 'BUY', '29000', '0.5'));
  h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.1'));
  h.ok({ type: 'cancelOrder', accountId: buyer, orderId: 3 });
  journal(store, h.accepted.slice(before));
  return { h, snapshot: { ...taken, state }, after: h.accepted.length - before };
}

/** A refused command: no account has an order 999. */
function refusedCancel(seq: number, ts: number, accountId: number): StampedCommand {
  return { seq, ts, command: { type: 'cancelOrder', accountId, orderId: 999 } };
}

describe('recover (docs/running.md "Durability and recovery")', () => {
  let dir: string;
  let store: SqliteStore;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bourse-recovery-'));
    store = openSqliteStore({ path: path.join(dir, 'bourse.db'), synchronous: 'NORMAL' });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when the snapshot and journal are intact, then the state is rebuilt from the snapshot plus the commands after it', () => {
    const { h, snapshot, after } = journaledStory(store);
    const recovered = recover(store);
    expect({ snapshotSeq: recovered.snapshotSeq, replayed: recovered.replayed, lastSeq: recovered.core.lastSeq }).toEqual({
      snapshotSeq: snapshot.seq,
      replayed: after,
      lastSeq: h.core.lastSeq,
    });
    expect(stateHash(recovered.core)).toBe(stateHash(h.core));
  });

  it('when the snapshot is of version 1, which listed every client order id, then recovery reads it and reaches the same state', () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '2' });
    const buyer = h.funded({ USDT: '100000' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30000', '1', { clientOrderId: 'ask-1' }));
    // The buyer takes the number the next order will have, which then gets "3-1".
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.25', { clientOrderId: '3' }));
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '29000', '0.25'));
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '29000', '0.25'));
    journal(store, h.accepted);
    const ids = new Map<number, Map<string, number>>();
    for (const row of h.rows.orders) {
      const own = ids.get(row.accountId) ?? new Map<string, number>();
      own.set(row.clientOrderId, row.orderId);
      ids.set(row.accountId, own);
    }
    expect([...(ids.get(buyer) ?? [])]).toEqual([['3', 2], ['3-1', 3], ['4', 4]]);
    // Version 1 was one flat object: today's image with its ledger and module parts merged.
    const today = JSON.parse(serializeCore(h.core)) as { lastSeq: number; lastTs: number; ledger: Record<string, object>; modules: Record<string, Record<string, object>> };
    const { catalogue, spot, funds } = today.modules;
    const v1 = JSON.stringify({
      ...today.ledger,
      ...catalogue,
      ...spot,
      ...funds,
      lastSeq: today.lastSeq,
      lastTs: today.lastTs,
      counters: { ...today.ledger.counters, ...spot.counters, ...funds.counters },
      version: 1,
      clientOrderIds: [...ids].sort((a, b) => a[0] - b[0]).map(([accountId, own]) => [accountId, [...own].sort()]),
    });
    store.saveSnapshot({ seq: h.core.lastSeq, hash: hashState(v1), state: v1 });
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '28000', '0.1'));
    journal(store, h.accepted.slice(-1));

    const recovered = recover(store);
    expect({ snapshotSeq: recovered.snapshotSeq, replayed: recovered.replayed }).toEqual({ snapshotSeq: h.core.lastSeq - 1, replayed: 1 });
    expect(stateHash(recovered.core)).toBe(stateHash(h.core));
    expect(['ask-1', '3', '3-1', '4', '5'].map((id) => recovered.core.spot.clientOrderIds.orderIdOf(id === 'ask-1' ? seller : buyer, id))).toEqual([1, 2, 3, 4, 5]);
  });

  it('when the snapshot text is changed, then recovery refuses it as corrupt', () => {
    const { snapshot } = journaledStory(store);
    const edited = snapshot.state.replace('"lastSeq":', '"lastSeq": ');
    expect(edited).not.toBe(snapshot.state);
    store.saveSnapshot({ seq: snapshot.seq, hash: snapshot.hash, state: edited });
    expect(() => recover(store)).toThrow(RecoveryError);
    expect(() => recover(store)).toThrow(`snapshot at seq ${snapshot.seq} is corrupt: its state does not hash to the recorded ${snapshot.hash}`);
  });

  it('when the snapshot text is cut short, then recovery refuses it as corrupt before parsing it', () => {
    const { snapshot } = journaledStory(store);
    store.saveSnapshot({ seq: snapshot.seq, hash: snapshot.hash, state: snapshot.state.slice(0, -1) });
    expect(() => recover(store)).toThrow(`snapshot at seq ${snapshot.seq} is corrupt`);
  });

  it('when the snapshot holds a different valid state under the original hash, then recovery refuses it on the hash', () => {
    const { snapshot } = journaledStory(store);
    const other = createCoreHarness();
    other.funded({ BTC: '1000' });
    const otherState = serializeCore(other.core);
    expect(JSON.parse(otherState)).not.toEqual(JSON.parse(snapshot.state));
    store.saveSnapshot({ seq: snapshot.seq, hash: snapshot.hash, state: otherState });
    expect(() => recover(store)).toThrow(RecoveryError);
    expect(() => recover(store)).toThrow(`does not hash to the recorded ${snapshot.hash}`);
  });

  it('when the snapshot text matches its hash but does not rebuild to it, then recovery reports the hash mismatch', () => {
    const { snapshot } = journaledStory(store);
    // A field the state cannot hold: the text hashes right, the rebuilt state serialises without it.
    const forged = JSON.stringify({ ...(JSON.parse(snapshot.state) as object), forged: true });
    const forgedHash = hashState(forged);
    store.saveSnapshot({ seq: snapshot.seq, hash: forgedHash, state: forged });
    expect(() => recover(store)).toThrow(
      `state hash mismatch after loading the snapshot at seq ${snapshot.seq}: recorded ${forgedHash}, rebuilt ${snapshot.hash}`,
    );
  });

  it('when a journaled command after the snapshot is refused on replay, then recovery stops at its seq', () => {
    const { h } = journaledStory(store);
    const seq = h.core.lastSeq + 1;
    journal(store, [refusedCancel(seq, h.core.lastTs + 1, 1)]);
    expect(() => recover(store)).toThrow(RecoveryError);
    expect(() => recover(store)).toThrow(`journal replay diverged at seq ${seq} (cancelOrder): Order does not exist.`);
  });

  it('when the journal is replayed without snapshots, then the same refused command stops it at the same seq', () => {
    const { h } = journaledStory(store);
    const seq = h.core.lastSeq + 1;
    journal(store, [refusedCancel(seq, h.core.lastTs + 1, 1)]);
    expect(() => recover(store, { ignoreSnapshots: true })).toThrow(`journal replay diverged at seq ${seq} (cancelOrder)`);
  });
});

describe('startServer on a damaged data directory', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bourse-recovery-server-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const env = (): Record<string, string> => ({ PORT: '0', BOURSE_DATA: dir, LOG_LEVEL: 'silent', BOURSE_DEMO: '0' });

  /** Writes a journal and snapshot with `damage` applied, then closes the file as a stopped server would. */
  function damagedDataDir(damage: (store: SqliteStore, story: Journaled) => void): Journaled {
    const store = openSqliteStore({ path: path.join(dir, 'bourse.db'), synchronous: 'NORMAL' });
    try {
      const story = journaledStory(store);
      damage(store, story);
      return story;
    } finally {
      store.close();
    }
  }

  it('when the journal holds a command the state refuses, then the server refuses to start with the replay error', async () => {
    const { h } = damagedDataDir((store, { h: story }) => journal(store, [refusedCancel(story.core.lastSeq + 1, story.core.lastTs + 1, 1)]));
    await expect(startServer(env())).rejects.toThrow(`journal replay diverged at seq ${h.core.lastSeq + 1} (cancelOrder)`);
  });

  it('when the latest snapshot is corrupt, then the server refuses to start', async () => {
    const { snapshot } = damagedDataDir((store, { snapshot: s }) => store.saveSnapshot({ seq: s.seq, hash: s.hash, state: `${s.state} ` }));
    await expect(startServer(env())).rejects.toThrow(`snapshot at seq ${snapshot.seq} is corrupt`);
  });

  it('when a real server stopped cleanly and its snapshot was then altered, then the next start is refused', async () => {
    const first = await startTestServer({ BOURSE_DATA: dir });
    const client = new SpotClient(first.url, first.demo.apiKey, first.demo.secretKey);
    expect((await client.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '1', price: '2000' })).status).toBe(200);
    await first.stop();

    const store = openSqliteStore({ path: path.join(dir, 'bourse.db'), synchronous: 'NORMAL' });
    const latest = store.loadLatestSnapshot();
    try {
      if (latest === undefined) throw new Error('a clean stop leaves a snapshot');
      expect(latest.seq).toBe(store.lastSeq());
      // The demo user's free 99 ETH (precision 8) become 999 ETH: a balance nobody deposited.
      const edited = latest.state.replace('["ETH","9900000000",', '["ETH","99900000000",');
      expect(edited).not.toBe(latest.state);
      store.saveSnapshot({ ...latest, state: edited });
    } finally {
      store.close();
    }
    await expect(startServer({ PORT: '0', BOURSE_DATA: dir, LOG_LEVEL: 'silent', BOURSE_DEMO: '1', BOURSE_DEMO_MARKET_MAKER: '0' })).rejects.toThrow(
      `snapshot at seq ${latest.seq} is corrupt`,
    );
  });
});
