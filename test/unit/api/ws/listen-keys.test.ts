import { afterEach, describe, expect, it } from 'vitest';
import { ListenKeys, type ListenKeyBinding, type ListenKeyEnd } from '../../../../src/api/ws/listen-keys.js';
import { ListenKeyCore } from '../../../support/listen-key-core.js';

const T0 = 1_700_000_000_000;
const HOUR_MS = 3_600_000;
const KEY_A = 'A'.repeat(64);
const KEY_B = 'B'.repeat(64);

describe('ListenKeys, a node’s view of the core’s listenKeys', () => {
  let now = T0;
  let made: ListenKeys[] = [];
  const ended: [string, ListenKeyEnd][] = [];

  /** A core holding keys A (account 7) and B (account 8), and this node's view of it. */
  const setUp = (options: { sweepIntervalMs?: number; randomBytes?: (size: number) => Buffer } = {}): { core: ListenKeyCore; keys: ListenKeys } => {
    now = T0;
    ended.length = 0;
    const core = new ListenKeyCore(
      new Map([
        [KEY_A, { accountId: 7, revoked: false }],
        [KEY_B, { accountId: 8, revoked: false }],
      ]),
      () => now,
    );
    const keys = new ListenKeys({ core, clock: () => now, ...options });
    keys.onEnd((binding, reason) => ended.push([binding.listenKey, reason]));
    made.push(keys);
    return { core, keys };
  };

  afterEach(() => {
    for (const keys of made) keys.stop();
    made = [];
  });

  it('when a name is drawn, then it is 64 characters of [A-Za-z0-9], new each time', () => {
    const { keys } = setUp();
    const first = keys.draw();
    const second = keys.draw();
    expect(first).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(second).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(second).not.toBe(first);
  });

  it('when random bytes would bias the alphabet (≥ 248), then they are skipped and the rest map onto A–Z, a–z, 0–9', () => {
    const bytes = Buffer.from([...Array<number>(10).fill(255), ...Array.from({ length: 118 }, (_, i) => i)]);
    const { keys } = setUp({ randomBytes: () => bytes });
    expect(keys.draw()).toBe('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789AB');
  });

  it('when the random source repeats a name the core holds, then drawing fails rather than naming a listenKey twice', () => {
    const bytes = Buffer.alloc(128, 3);
    const { core, keys } = setUp({ randomBytes: () => bytes });
    const listenKey = keys.draw();
    core.commit([{ type: 'openListenKey', listenKey, accountId: 7, apiKey: KEY_A }]);
    expect(() => keys.draw()).toThrow('listenKey draws keep failing');
  });

  it('when a committed listenKey is looked up, then it is found bound to its account and key; an unknown one is not', () => {
    const { core, keys } = setUp();
    const { listenKey } = core.open(7, KEY_A);
    expect(keys.find(listenKey)).toEqual({ listenKey, accountId: 7, apiKey: KEY_A });
    expect(keys.find('x'.repeat(64))).toBeUndefined();
  });

  it('when this node’s clock reaches the expiry, then the listenKey is not found and its end is told as expired, once', () => {
    const { core, keys } = setUp();
    const { listenKey } = core.open(7, KEY_A);
    now = T0 + HOUR_MS - 1;
    expect(keys.find(listenKey)?.accountId).toBe(7);
    now = T0 + HOUR_MS;
    expect(keys.find(listenKey)).toBeUndefined();
    keys.sweep();
    expect(ended).toEqual([[listenKey, 'expired']]);
  });

  it('when a keepalive commits, then the validity read here restarts from its stamp', () => {
    const { core, keys } = setUp();
    const { listenKey } = core.open(7, KEY_A);
    expect(keys.find(listenKey)).toBeDefined();
    now = T0 + 50 * 60_000;
    core.commit([{ type: 'keepaliveListenKey', listenKey, accountId: 7 }]);
    now = T0 + 50 * 60_000 + HOUR_MS - 1;
    keys.sweep();
    expect(keys.find(listenKey)?.listenKey).toBe(listenKey);
    now += 1;
    expect(keys.find(listenKey)).toBeUndefined();
    expect(ended).toEqual([[listenKey, 'expired']]);
  });

  it('when a committed batch closes a listenKey in use, then its end is told as closed, once', () => {
    const { core, keys } = setUp();
    const { listenKey } = core.open(7, KEY_A);
    keys.find(listenKey);
    const closed = core.commit([{ type: 'closeListenKey', listenKey, accountId: 7 }]);
    expect(keys.find(listenKey)).toBeUndefined();
    keys.onCommit(closed);
    keys.onCommit(closed);
    keys.sweep();
    expect(ended).toEqual([[listenKey, 'closed']]);
  });

  it('when a listenKey nobody here looked up ends, then no end is told: no socket of this node uses it', () => {
    const { core, keys } = setUp();
    const { listenKey } = core.open(7, KEY_A);
    keys.onCommit(core.commit([{ type: 'closeListenKey', listenKey, accountId: 7 }]));
    expect(ended).toEqual([]);
  });

  it('when an account’s 11th listenKey commits, then the end of the evicted oldest is told as closed', () => {
    const { core, keys } = setUp();
    const issued = Array.from({ length: 10 }, () => core.open(7, KEY_A).listenKey);
    for (const listenKey of issued) keys.find(listenKey);
    const eleventh = core.open(7, KEY_A);
    expect(eleventh.result.evicted).toBe(issued[0]);
    keys.onCommit(eleventh.info);
    expect(ended).toEqual([[issued[0], 'closed']]);
    for (const listenKey of [...issued.slice(1), eleventh.listenKey]) expect(keys.find(listenKey)).toBeDefined();
  });

  it('when a committed batch revokes an API key, then exactly its listenKeys end as closed', () => {
    const { core, keys } = setUp();
    const a1 = core.open(7, KEY_A).listenKey;
    const a2 = core.open(7, KEY_A).listenKey;
    const b = core.open(8, KEY_B).listenKey;
    for (const listenKey of [a1, a2, b]) keys.find(listenKey);
    keys.onCommit(core.commit([{ type: 'revokeApiKey', apiKey: KEY_A }]));
    expect(ended).toEqual([
      [a1, 'closed'],
      [a2, 'closed'],
    ]);
    expect(keys.find(a1)).toBeUndefined();
    expect(keys.find(b)?.apiKey).toBe(KEY_B);
  });

  it('when the sweep runs, then every expired listenKey in use ends and the live ones stay', () => {
    const { core, keys } = setUp();
    const early = core.open(7, KEY_A).listenKey;
    now = T0 + 10;
    const late = core.open(8, KEY_B).listenKey;
    keys.find(early);
    keys.find(late);
    now = T0 + HOUR_MS;
    keys.sweep();
    expect(ended).toEqual([[early, 'expired']]);
    expect(keys.find(late)?.accountId).toBe(8);
  });

  it('when the core pruned a listenKey at a stamp ahead of this node’s clock, then its end is told once this clock passes its expiry', () => {
    const { core, keys } = setUp();
    const pruned = core.open(7, KEY_A).listenKey;
    keys.find(pruned);
    // The leader's clock is a second ahead: its next command prunes the listenKey that expired there.
    now = T0 + HOUR_MS + 1000;
    core.open(8, KEY_B);
    expect(core.listenKeys.entry(pruned)).toBeUndefined();
    now = T0 + HOUR_MS - 1;
    keys.sweep();
    expect(ended).toEqual([]);
    now = T0 + HOUR_MS;
    keys.sweep();
    expect(ended).toEqual([[pruned, 'expired']]);
  });

  it('when nobody looks a listenKey up, then the sweep timer still ends it after its TTL', async () => {
    const { core, keys } = setUp({ sweepIntervalMs: 5 });
    const { listenKey } = core.open(7, KEY_A);
    keys.find(listenKey);
    const end = new Promise<[ListenKeyBinding, ListenKeyEnd]>((resolve) => keys.onEnd((binding, reason) => resolve([binding, reason])));
    now = T0 + HOUR_MS;
    expect(await end).toEqual([{ listenKey, accountId: 7, apiKey: KEY_A }, 'expired']);
  });

  it('when a listener unsubscribes, then it hears of no further ends', () => {
    const { core, keys } = setUp();
    const heard: string[] = [];
    const unsubscribe = keys.onEnd((binding) => heard.push(binding.listenKey));
    const first = core.open(7, KEY_A).listenKey;
    const second = core.open(7, KEY_A).listenKey;
    keys.find(first);
    keys.find(second);
    keys.onCommit(core.commit([{ type: 'closeListenKey', listenKey: first, accountId: 7 }]));
    unsubscribe();
    keys.onCommit(core.commit([{ type: 'closeListenKey', listenKey: second, accountId: 7 }]));
    expect(heard).toEqual([first]);
  });

  it('when the core’s state is replaced (a rollback), then lookups read the new state', () => {
    const first = new ListenKeyCore(new Map([[KEY_A, { accountId: 7, revoked: false }]]), () => now);
    const second = new ListenKeyCore(new Map([[KEY_A, { accountId: 7, revoked: false }]]), () => now);
    const holder = { listenKeys: first.listenKeys };
    const keys = new ListenKeys({ core: holder, clock: () => now });
    made.push(keys);
    const { listenKey } = first.open(7, KEY_A);
    expect(keys.find(listenKey)).toBeDefined();
    holder.listenKeys = second.listenKeys;
    expect(keys.find(listenKey)).toBeUndefined();
  });
});
