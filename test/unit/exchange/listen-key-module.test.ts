import { describe, expect, it } from 'vitest';
import { ListenKeys } from '../../../src/api/ws/listen-keys.js';
import { emptyDerivedRows, type Command } from '../../../src/core/types.js';
import { ListenKeyModule, type OpenListenKeyResult } from '../../../src/exchange/listen-key-module.js';
import { restoreSnapshot, serializeCore, stateHash } from '../../../src/exchange/snapshot.js';
import { CoreHarness, replay, T0 } from '../../support/core-harness.js';

const HOUR_MS = 3_600_000;
const NO_LISTEN_KEY = { code: -1125, msg: 'This listenKey does not exist.' };

/** A 64-character listenKey named by a number (the edge draws them; here they are predictable). */
const name = (n: number): string => `${n}`.padStart(64, 'K');

/** A core with two users, their keys, and a clock the test moves (each command is stamped at `h.now`, then 1 ms later). */
function setUp(): { h: CoreHarness; alice: number; bob: number; aliceKey: string; aliceOtherKey: string; bobKey: string } {
  const h = new CoreHarness();
  // The set-up is stamped before T0: the tests' own commands come at T0 and after, stamps never going back.
  h.now = T0 - 100;
  const key = (userId: number, apiKey: string): void => {
    h.ok({ type: 'createApiKey', userId, accountIndex: 0, apiKey, secretSealed: 's', permissions: ['USER_STREAM'], ipWhitelist: [], label: '' });
  };
  const a = h.ok<{ userId: number; accountId: number }>({ type: 'createUser', email: 'alice@example.com', userType: 'user' });
  const b = h.ok<{ userId: number; accountId: number }>({ type: 'createUser', email: 'bob@example.com', userType: 'user' });
  key(a.userId, 'A'.repeat(64));
  key(a.userId, 'a'.repeat(64));
  key(b.userId, 'B'.repeat(64));
  return { h, alice: a.accountId, bob: b.accountId, aliceKey: 'A'.repeat(64), aliceOtherKey: 'a'.repeat(64), bobKey: 'B'.repeat(64) };
}

/** Stamps the next command exactly at `at`. */
function at(h: CoreHarness, time: number): CoreHarness {
  h.now = time;
  return h;
}

const open = (listenKey: string, accountId: number, apiKey: string): Command => ({ type: 'openListenKey', listenKey, accountId, apiKey });
const keepalive = (listenKey: string, accountId: number): Command => ({ type: 'keepaliveListenKey', listenKey, accountId });
const close = (listenKey: string, accountId: number): Command => ({ type: 'closeListenKey', listenKey, accountId });

/** Is the listenKey live at `time` in this core? */
function liveAt(h: CoreHarness, listenKey: string, time: number): boolean {
  const entry = h.core.listenKeys.entry(listenKey);
  return entry !== undefined && h.core.listenKeys.isLive(entry, time);
}

describe('listenKeys as state of the core', () => {
  it('when a listenKey is opened at stamp t, then it is bound to the account and key and live until exactly t + listenKeyTtlMs', () => {
    const { h, alice, aliceKey } = setUp();
    const t = T0 + 10_000;
    expect(at(h, t).ok(open(name(1), alice, aliceKey))).toEqual({ listenKey: name(1) });
    expect(h.core.listenKeys.entry(name(1))).toEqual({ listenKey: name(1), accountId: alice, apiKey: aliceKey, expiresAt: t + HOUR_MS, openedSeq: h.core.lastSeq });
    expect(liveAt(h, name(1), t + HOUR_MS - 1)).toBe(true);
    expect(liveAt(h, name(1), t + HOUR_MS)).toBe(false);
  });

  it('when kept alive at stamp t2, then it is live until exactly t2 + TTL; a keepalive stamped at its expiry is refused -1125 and changes nothing', () => {
    const { h, alice, aliceKey } = setUp();
    at(h, T0 + 10_000).ok(open(name(1), alice, aliceKey));
    const t2 = T0 + 10_000 + HOUR_MS - 1;
    expect(at(h, t2).ok(keepalive(name(1), alice))).toEqual({ listenKey: name(1), expiresAt: t2 + HOUR_MS });
    expect(liveAt(h, name(1), t2 + HOUR_MS - 1)).toBe(true);
    const before = stateHash(h.core);
    expect(at(h, t2 + HOUR_MS).refuse(keepalive(name(1), alice)).toBody()).toEqual(NO_LISTEN_KEY);
    expect(stateHash(h.core)).toBe(before);
  });

  it('when the trading config changes the TTL, then it applies from the next open or keepalive', () => {
    const { h, alice, aliceKey } = setUp();
    at(h, T0 + 1000).ok(open(name(1), alice, aliceKey));
    at(h, T0 + 2000).ok({ type: 'setTradingConfig', listenKeyTtlMs: 500 });
    at(h, T0 + 3000).ok(open(name(2), alice, aliceKey));
    expect(h.core.listenKeys.entry(name(1))?.expiresAt).toBe(T0 + 1000 + HOUR_MS);
    expect(h.core.listenKeys.entry(name(2))?.expiresAt).toBe(T0 + 3500);
    at(h, T0 + 4000).ok(keepalive(name(1), alice));
    expect(h.core.listenKeys.entry(name(1))?.expiresAt).toBe(T0 + 4500);
  });

  it('when keepalive or close name an unknown, another account’s or a closed listenKey, then -1125 and nothing changes', () => {
    const { h, alice, bob, aliceKey } = setUp();
    h.ok(open(name(1), alice, aliceKey));
    const before = stateHash(h.core);
    for (const command of [keepalive(name(1), bob), close(name(1), bob), keepalive(name(9), alice), close(name(9), alice)]) {
      expect(h.refuse(command).toBody()).toEqual(NO_LISTEN_KEY);
    }
    expect(stateHash(h.core)).toBe(before);
    expect(h.ok(close(name(1), alice))).toEqual({ listenKey: name(1) });
    expect(h.core.listenKeys.entry(name(1))).toBeUndefined();
    expect(h.refuse(close(name(1), alice)).toBody()).toEqual(NO_LISTEN_KEY);
    expect(h.refuse(keepalive(name(1), alice)).toBody()).toEqual(NO_LISTEN_KEY);
  });

  it('when an account opens an 11th live listenKey, then its oldest opened is evicted, even if kept alive since', () => {
    const { h, alice, bob, aliceKey, bobKey } = setUp();
    for (let n = 1; n <= 10; n++) h.ok(open(name(n), alice, aliceKey));
    h.ok(open(name(100), bob, bobKey));
    h.ok(keepalive(name(1), alice));
    expect(h.ok<OpenListenKeyResult>(open(name(11), alice, aliceKey))).toEqual({ listenKey: name(11), evicted: name(1) });
    expect(h.core.listenKeys.entry(name(1))).toBeUndefined();
    for (const n of [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 100]) expect(liveAt(h, name(n), h.now)).toBe(true);
    expect(h.ok<OpenListenKeyResult>(open(name(12), alice, aliceKey)).evicted).toBe(name(2));
  });

  it('when some of an account’s 10 have expired, then an 11th evicts none: only live listenKeys count', () => {
    const { h, alice, aliceKey } = setUp();
    at(h, T0).ok({ type: 'setTradingConfig', listenKeyTtlMs: 1000 });
    at(h, T0 + 100).ok(open(name(1), alice, aliceKey));
    for (let n = 2; n <= 10; n++) at(h, T0 + 600 + n).ok(open(name(n), alice, aliceKey));
    // name(1) expired at T0 + 1100 exactly; the others live until T0 + 1602…1610.
    expect(at(h, T0 + 1100).ok(open(name(11), alice, aliceKey))).toEqual({ listenKey: name(11) });
    expect(h.core.listenKeys.entry(name(1))).toBeUndefined();
    expect(at(h, T0 + 1101).ok<OpenListenKeyResult>(open(name(12), alice, aliceKey)).evicted).toBe(name(2));
  });

  it('when some of an account’s 10 died with their API key behind live ones, then an 11th evicts none', () => {
    const { h, alice, aliceKey, aliceOtherKey } = setUp();
    for (let n = 1; n <= 10; n++) h.ok(open(name(n), alice, n <= 5 ? aliceOtherKey : aliceKey));
    h.ok({ type: 'revokeApiKey', apiKey: aliceKey });
    expect(h.ok(open(name(11), alice, aliceOtherKey))).toEqual({ listenKey: name(11) });
    expect([1, 2, 3, 4, 5, 11].map((n) => liveAt(h, name(n), h.now))).toEqual([true, true, true, true, true, true]);
    expect(h.core.listenKeys.size).toBe(6);
  });

  it('when the API key is revoked, then exactly its listenKeys are dead at once and -1125 to keepalive and close', () => {
    const { h, alice, aliceKey, aliceOtherKey } = setUp();
    h.ok(open(name(1), alice, aliceKey));
    h.ok(open(name(2), alice, aliceKey));
    h.ok(open(name(3), alice, aliceOtherKey));
    h.ok({ type: 'revokeApiKey', apiKey: aliceKey });
    expect([1, 2, 3].map((n) => liveAt(h, name(n), h.now))).toEqual([false, false, true]);
    expect(h.refuse(keepalive(name(1), alice)).toBody()).toEqual(NO_LISTEN_KEY);
    expect(h.refuse(close(name(2), alice)).toBody()).toEqual(NO_LISTEN_KEY);
    expect(h.ok(keepalive(name(3), alice))).toMatchObject({ listenKey: name(3) });
  });

  it('when the issuing key is revoked or another account’s, or the name is malformed or taken, then opening is refused', () => {
    const { h, alice, bob, aliceKey, bobKey } = setUp();
    h.ok(open(name(1), alice, aliceKey));
    const before = stateHash(h.core);
    expect(h.refuse(open(name(2), alice, bobKey)).code).toBe(-2015);
    expect(h.refuse(open(name(2), bob, 'Z'.repeat(64))).code).toBe(-2015);
    expect(h.refuse(open('short', alice, aliceKey)).code).toBe(-1130);
    expect(h.refuse(open(name(1), alice, aliceKey)).code).toBe(-1001);
    expect(stateHash(h.core)).toBe(before);
    h.ok({ type: 'revokeApiKey', apiKey: aliceKey });
    expect(h.refuse(open(name(2), alice, aliceKey)).code).toBe(-2015);
  });

  it('when entries are dead, then later commands prune them from the front of the touch order, at most 4 each, and never a live one', () => {
    const { h, alice, bob, aliceKey, bobKey } = setUp();
    at(h, T0).ok({ type: 'setTradingConfig', listenKeyTtlMs: 1000 });
    for (let n = 1; n <= 9; n++) at(h, T0 + n).ok(open(name(n), alice, aliceKey));
    at(h, T0 + 500).ok(open(name(50), bob, bobKey));
    // At T0 + 1009 names 1–9 are dead; the first command prunes four of them, the next four more.
    at(h, T0 + 1009).ok(keepalive(name(50), bob));
    expect(h.core.listenKeys.size).toBe(6);
    at(h, T0 + 1010).ok(keepalive(name(50), bob));
    expect(h.core.listenKeys.size).toBe(2);
    expect([...Array(9).keys()].map((i) => h.core.listenKeys.entry(name(i + 1)) !== undefined)).toEqual([false, false, false, false, false, false, false, false, true]);
    at(h, T0 + 1011).ok(keepalive(name(50), bob));
    expect(h.core.listenKeys.size).toBe(1);
    expect(liveAt(h, name(50), T0 + 1011)).toBe(true);
  });

  it('when a listenKey is kept alive, then it goes behind the others, so the dead ones after it reach the front and are pruned', () => {
    const { h, alice, bob, aliceKey, bobKey } = setUp();
    at(h, T0).ok({ type: 'setTradingConfig', listenKeyTtlMs: 1000 });
    at(h, T0 + 1).ok(open(name(1), bob, bobKey));
    at(h, T0 + 2).ok(open(name(2), alice, aliceKey));
    // Bob's is kept alive just before Alice's dies: Alice's is first in line now.
    at(h, T0 + 1000).ok(keepalive(name(1), bob));
    expect(h.core.listenKeys.size).toBe(2);
    at(h, T0 + 1002).ok(keepalive(name(1), bob));
    expect(h.core.listenKeys.entry(name(2))).toBeUndefined();
    expect(h.core.listenKeys.size).toBe(1);
  });

  it('when a refused command would have pruned, then it prunes nothing: a refusal changes no state', () => {
    const { h, alice, aliceKey } = setUp();
    at(h, T0).ok(open(name(1), alice, aliceKey));
    const before = stateHash(h.core);
    at(h, T0 + HOUR_MS).refuse(keepalive(name(1), alice));
    expect(stateHash(h.core)).toBe(before);
    expect(h.core.listenKeys.size).toBe(1);
  });

  it('when the journal is replayed or the snapshot restored, then the state hash and every lookup are the same', () => {
    const { h, alice, bob, aliceKey, aliceOtherKey, bobKey } = setUp();
    for (let n = 1; n <= 11; n++) at(h, T0 + n * 1000).ok(open(name(n), alice, n % 2 === 0 ? aliceKey : aliceOtherKey));
    h.ok(open(name(50), bob, bobKey));
    h.ok(keepalive(name(5), alice));
    h.ok(close(name(6), alice));
    h.ok({ type: 'revokeApiKey', apiKey: aliceKey });
    const replayed = replay(h.accepted);
    const restored = restoreSnapshot(serializeCore(h.core));
    expect(restored.current).toBe(true);
    expect(stateHash(replayed)).toBe(stateHash(h.core));
    expect(stateHash(restored.core)).toBe(stateHash(h.core));
    for (const n of [1, 2, 3, 5, 6, 7, 11, 50]) {
      for (const time of [h.now, T0 + 5000 + HOUR_MS, T0 + 11_000 + HOUR_MS]) {
        const expected = liveAt(h, name(n), time);
        for (const core of [replayed, restored.core]) {
          const entry = core.listenKeys.entry(name(n));
          expect(entry).toEqual(h.core.listenKeys.entry(name(n)));
          expect(entry !== undefined && core.listenKeys.isLive(entry, time)).toBe(expected);
        }
      }
    }
    // The restored core goes on as the original: the 11th of Bob evicts the same oldest.
    const next = new CoreHarness(restored.core);
    for (let n = 51; n <= 60; n++) expect(next.ok<OpenListenKeyResult>(open(name(n), bob, bobKey)).evicted).toBe(n === 60 ? name(50) : undefined);
  });

  it('when a follower’s core is fed the leader’s journal, then every node’s view finds the same listenKeys at every moment', () => {
    const { h, alice, bob, aliceKey, bobKey } = setUp();
    const follower = replay(h.accepted);
    let now = T0;
    const nodes = [h.core, follower].map((core) => new ListenKeys({ core, clock: () => now }));
    const names = [1, 2, 3, 4, 50].map(name);
    const steps: [number, Command][] = [
      [T0, open(name(1), alice, aliceKey)],
      [T0 + 10, open(name(2), alice, aliceKey)],
      [T0 + 20, open(name(50), bob, bobKey)],
      [T0 + 30, { type: 'setTradingConfig', listenKeyTtlMs: 1000 }],
      [T0 + 40, open(name(3), alice, aliceKey)],
      [T0 + 500, keepalive(name(2), alice)],
      [T0 + 600, close(name(1), alice)],
      [T0 + 1040, open(name(4), bob, bobKey)],
      [T0 + 1100, { type: 'revokeApiKey', apiKey: bobKey }],
    ];
    try {
      for (const [time, command] of steps) {
        at(h, time).ok(command);
        follower.apply(h.accepted[h.accepted.length - 1], emptyDerivedRows(), 'fanout');
        expect(stateHash(follower)).toBe(stateHash(h.core));
        for (now = time; now <= time + 1200; now += 100) {
          const [leaderView, followerView] = nodes.map((node) => names.map((listenKey) => node.find(listenKey) ?? null));
          expect(followerView).toEqual(leaderView);
        }
      }
      now = T0 + 1100;
      expect(nodes.map((node) => names.map((listenKey) => node.find(listenKey)?.accountId ?? 0))).toEqual([
        [0, alice, 0, 0, 0],
        [0, alice, 0, 0, 0],
      ]);
    } finally {
      for (const node of nodes) node.stop();
    }
  });

  it('when a snapshot is of version 4, from before listenKeys were state, then it loads with none', () => {
    const { h, alice, aliceKey } = setUp();
    const v4 = JSON.parse(serializeCore(h.core)) as { version: number; modules: Record<string, unknown> };
    delete v4.modules.listenKeys;
    const restored = restoreSnapshot(JSON.stringify({ ...v4, version: 4 }));
    expect(restored.current).toBe(false);
    expect(restored.core.listenKeys.size).toBe(0);
    expect(stateHash(restored.core)).toBe(stateHash(h.core));
    expect(new CoreHarness(restored.core).ok(open(name(1), alice, aliceKey))).toEqual({ listenKey: name(1) });
  });

  it('when a snapshot holds more than 10 listenKeys of one account, then it is refused rather than trusted', () => {
    const { h, alice, aliceKey } = setUp();
    for (let n = 1; n <= 10; n++) h.ok(open(name(n), alice, aliceKey));
    const image = JSON.parse(serializeCore(h.core)) as { modules: { listenKeys: { entries: { listenKey: string; openedSeq: number }[] } } };
    const entries = image.modules.listenKeys.entries;
    entries.push({ ...entries[0], listenKey: name(11), openedSeq: entries[9].openedSeq + 1 });
    expect(() => restoreSnapshot(JSON.stringify(image))).toThrow(`snapshot holds 11 listenKeys of account ${alice}`);
    expect(ListenKeyModule.MAX_PER_ACCOUNT).toBe(10);
  });
});
