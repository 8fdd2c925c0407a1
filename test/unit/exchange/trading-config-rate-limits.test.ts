import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, followTradingConfig, RateLimiter } from '../../../src/api/auth/rate-limiter.js';
import { emptyDerivedRows, type Command, type StampedCommand } from '../../../src/core/types.js';
import { recover, takeSnapshot } from '../../../src/exchange/recovery.js';
import type { CommitInfo } from '../../../src/exchange/sequencer.js';
import { hashState, restoreSnapshot, serializeCore, stateHash } from '../../../src/exchange/snapshot.js';
import { DEFAULT_RATE_LIMIT_SETTINGS, tradingConfigView, type RateLimitSettings } from '../../../src/exchange/trading-config.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { createCoreHarness, replay } from '../../support/core-harness.js';

const PATCH = { requestWeightPerMinute: 7, banStrikes: 3, banBaseMs: 1_800_000 } as const;

/** What the operator's PATCH of PATCH journals. */
const patchCommand: Command = { type: 'setTradingConfig', ...PATCH };

describe('rate limits in the journaled trading config', () => {
  it('when setTradingConfig carries rate limits, then the core holds them and members not named stay as they were', () => {
    const h = createCoreHarness();
    const answer = h.ok(patchCommand);
    const expected: RateLimitSettings = { ...DEFAULT_RATE_LIMIT_SETTINGS, ...PATCH };
    expect(h.core.spot.rateLimits).toEqual(expected);
    expect(answer).toEqual(tradingConfigView(h.core));
    expect(answer).toMatchObject({ ...expected, maxOpenOrdersPerSymbol: 200, defaultMakerFeeRate: '0.001' });
  });

  it('when a setTradingConfig names no rate limit (as every one journaled before them did), then the rate limits stay as they are', () => {
    const h = createCoreHarness();
    h.ok(patchCommand);
    h.ok({ type: 'setTradingConfig', maxOpenOrdersPerSymbol: 150 });
    expect(h.core.spot.rateLimits).toEqual({ ...DEFAULT_RATE_LIMIT_SETTINGS, ...PATCH });
    expect(h.core.spot.limits.maxOpenOrdersPerSymbol).toBe(150);
  });

  it.each([
    ['0', { requestWeightPerMinute: 0 }, 'requestWeightPerMinute'],
    ['a negative count', { banBaseMs: -5 }, 'banBaseMs'],
    ['a fraction', { ordersPerSecond: 1.5 }, 'ordersPerSecond'],
    ['NaN', { listenKeyTtlMs: Number.NaN }, 'listenKeyTtlMs'],
    ['past 2^53', { banMaxMs: 2 ** 53 }, 'banMaxMs'],
    ['a good value next to a bad one', { ordersPerDay: 5, maxOpenOrdersPerSymbol: 9, defaultMakerFeeRate: '0.002', banStrikes: 0 }, 'banStrikes'],
  ])('when a rate limit is %s, then the core refuses the command with -1130 and no setting changes', (_what, members, param) => {
    const h = createCoreHarness();
    const before = stateHash(h.core);
    const refusal = h.refuse({ type: 'setTradingConfig', ...members });
    expect(refusal.toBody()).toEqual({ code: -1130, msg: `Data sent for paramter '${param}' is not valid.` });
    expect(stateHash(h.core)).toBe(before);
  });

  it('when a rate limit changes, then the state hash changes, and a snapshot restores the setting with the same hash', () => {
    const h = createCoreHarness();
    const before = stateHash(h.core);
    h.ok(patchCommand);
    expect(stateHash(h.core)).not.toBe(before);
    const text = serializeCore(h.core);
    expect((JSON.parse(text) as { modules: { spot: { rateLimits: unknown } } }).modules.spot.rateLimits).toEqual({ ...DEFAULT_RATE_LIMIT_SETTINGS, ...PATCH });
    const restored = restoreSnapshot(text);
    expect(restored.current).toBe(true);
    expect(restored.core.spot.rateLimits).toEqual(h.core.spot.rateLimits);
    expect(stateHash(restored.core)).toBe(stateHash(h.core));
  });

  it('when two cores differ only in a rate limit, then their state hashes differ', () => {
    const a = createCoreHarness();
    const b = createCoreHarness();
    a.ok({ type: 'setTradingConfig', banMaxMs: 1000 });
    b.ok({ type: 'setTradingConfig', banMaxMs: 1001 });
    expect(stateHash(a.core)).not.toBe(stateHash(b.core));
  });

  it('when the commands are replayed on a fresh core, then the rate limits and the state hash are the same', () => {
    const h = createCoreHarness();
    h.ok(patchCommand);
    h.ok({ type: 'setTradingConfig', ordersPerDay: 1234 });
    const replayed = replay(h.accepted);
    expect(replayed.spot.rateLimits).toEqual({ ...DEFAULT_RATE_LIMIT_SETTINGS, ...PATCH, ordersPerDay: 1234 });
    expect(stateHash(replayed)).toBe(stateHash(h.core));
  });
});

describe('recovering the rate limits from a store', () => {
  let dir: string;
  let store: SqliteStore;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bourse-rate-limits-'));
    store = openSqliteStore({ path: path.join(dir, 'bourse.db'), synchronous: 'NORMAL' });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const journal = (commands: readonly StampedCommand[]): void => store.appendBatch(commands, emptyDerivedRows());

  it('when the change is only in the journal, then recovery replays it; when it is in a snapshot, then recovery loads it', () => {
    const h = createCoreHarness();
    h.ok(patchCommand);
    journal(h.accepted);
    const fromJournal = recover(store);
    expect(fromJournal.snapshotSeq).toBe(0);
    expect(fromJournal.core.spot.rateLimits).toEqual(h.core.spot.rateLimits);
    expect(stateHash(fromJournal.core)).toBe(stateHash(h.core));

    takeSnapshot(h.core, store);
    const fromSnapshot = recover(store);
    expect({ snapshotSeq: fromSnapshot.snapshotSeq, replayed: fromSnapshot.replayed }).toEqual({ snapshotSeq: h.core.lastSeq, replayed: 0 });
    expect(fromSnapshot.core.spot.rateLimits).toEqual({ ...DEFAULT_RATE_LIMIT_SETTINGS, ...PATCH });
    expect(stateHash(fromSnapshot.core)).toBe(stateHash(h.core));
  });

  it('when the snapshot is of version 3, which had no rate limits, then recovery starts from the defaults and replays a later change', () => {
    const h = createCoreHarness();
    h.ok({ type: 'setTradingConfig', maxOpenOrdersPerSymbol: 150 });
    journal(h.accepted);
    // Version 3 was today's layout without the spot part's rateLimits.
    const today = JSON.parse(serializeCore(h.core)) as { version: number; modules: { spot: Record<string, unknown> } };
    delete today.modules.spot.rateLimits;
    const v3 = JSON.stringify({ ...today, version: 3 });
    store.saveSnapshot({ seq: h.core.lastSeq, hash: hashState(v3), state: v3 });

    const restored = restoreSnapshot(v3);
    expect(restored.current).toBe(false);
    expect(restored.core.spot.rateLimits).toEqual(DEFAULT_RATE_LIMIT_SETTINGS);
    expect(stateHash(restored.core)).toBe(stateHash(h.core));

    const before = h.accepted.length;
    h.ok(patchCommand);
    journal(h.accepted.slice(before));
    const recovered = recover(store);
    expect({ snapshotSeq: recovered.snapshotSeq, replayed: recovered.replayed }).toEqual({ snapshotSeq: h.core.lastSeq - 1, replayed: 1 });
    expect(recovered.core.spot.rateLimits).toEqual({ ...DEFAULT_RATE_LIMIT_SETTINGS, ...PATCH });
    expect(stateHash(recovered.core)).toBe(stateHash(h.core));
  });

  it('when a version 3 snapshot holds members it never had, then they are refused rather than trusted', () => {
    const h = createCoreHarness();
    const today = JSON.parse(serializeCore(h.core)) as { modules: { spot: Record<string, unknown> } };
    today.modules.spot.rateLimits = { ...DEFAULT_RATE_LIMIT_SETTINGS, banStrikes: 0 };
    expect(() => restoreSnapshot(JSON.stringify({ ...today, version: 3 }))).toThrow('snapshot rate limit banStrikes is not a count: 0');
  });
});

describe('the rate limiter follows the committed trading config', () => {
  const batch = (...commands: Command[]): CommitInfo => ({
    size: commands.length,
    commitMs: 0,
    commands: commands.map((command, i) => ({ seq: i + 1, ts: 0, command })),
    rows: emptyDerivedRows(),
    results: commands.map(() => ({})),
  });

  it('when followed, then the limiter takes the committed settings at once and again after a batch holding setTradingConfig', () => {
    let committed: RateLimitSettings = { ...DEFAULT_RATE_LIMIT_SETTINGS, requestWeightPerMinute: 2 };
    const limiter = new RateLimiter({ ...DEFAULT_RATE_LIMITS }, () => 0);
    const config = limiter.config;
    const follower = followTradingConfig(limiter, () => committed);
    expect(limiter.config).toEqual(committed);
    expect([1, 1, 1].map(() => limiter.chargeWeight('ip:a', 1).ok)).toEqual([true, true, false]);

    committed = { ...committed, requestWeightPerMinute: 3, banStrikes: 4 };
    follower.onCommit(batch({ type: 'cancelOrders', accountId: 1 }));
    expect(limiter.config.requestWeightPerMinute).toBe(2);
    follower.onCommit(batch({ type: 'cancelOrders', accountId: 1 }, { type: 'setTradingConfig', requestWeightPerMinute: 3, banStrikes: 4 }));
    expect(limiter.config).toEqual(committed);
    // In place: the registry's exchangeInfo holds this very object.
    expect(limiter.config).toBe(config);
    expect(limiter.chargeWeight('ip:a', 1).ok).toBe(true);
  });

  it('when the committed settings hold a value that is not a count, then the limiter refuses them and keeps its own', () => {
    const limiter = new RateLimiter({ ...DEFAULT_RATE_LIMITS }, () => 0);
    expect(() => followTradingConfig(limiter, () => ({ ...DEFAULT_RATE_LIMIT_SETTINGS, ordersPerDay: 0, banStrikes: 5 }))).toThrow(RangeError);
    expect(limiter.config).toEqual(DEFAULT_RATE_LIMITS);
  });
});
