import { afterEach, describe, expect, it } from 'vitest';
import { ListenKeys, type ListenKeyBinding, type ListenKeyEnd } from '../../../../src/api/ws/listen-keys.js';

const T0 = 1_700_000_000_000;
const HOUR_MS = 3_600_000;
const KEY_A = 'A'.repeat(64);
const KEY_B = 'B'.repeat(64);

describe('ListenKeys', () => {
  let now = T0;
  let ttlMs = HOUR_MS;
  let made: ListenKeys[] = [];
  const ended: [string, ListenKeyEnd][] = [];

  const listenKeys = (options: { sweepIntervalMs?: number; randomBytes?: (size: number) => Buffer } = {}): ListenKeys => {
    now = T0;
    ttlMs = HOUR_MS;
    ended.length = 0;
    const keys = new ListenKeys({ ttlMs: () => ttlMs, clock: () => now, ...options });
    keys.onEnd((binding, reason) => ended.push([binding.listenKey, reason]));
    made.push(keys);
    return keys;
  };

  afterEach(() => {
    for (const keys of made) keys.stop();
    made = [];
  });

  it('when a listenKey is issued, then it is 64 characters of [A-Za-z0-9], new each time, bound to the account and key', () => {
    const keys = listenKeys();
    const first = keys.issue(7, KEY_A);
    const second = keys.issue(7, KEY_A);
    expect(first).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(second).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(second).not.toBe(first);
    expect(keys.find(first)).toEqual({ listenKey: first, accountId: 7, apiKey: KEY_A });
    expect(keys.size).toBe(2);
  });

  it('when random bytes would bias the alphabet (≥ 248), then they are skipped and the rest map onto A–Z, a–z, 0–9', () => {
    const bytes = Buffer.from([...Array<number>(10).fill(255), ...Array.from({ length: 118 }, (_, i) => i)]);
    const keys = listenKeys({ randomBytes: () => bytes });
    expect(keys.issue(1, KEY_A)).toBe('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789AB');
  });

  it('when the random source repeats itself, then issuing fails rather than handing out a live listenKey twice', () => {
    const bytes = Buffer.alloc(128, 3);
    const keys = listenKeys({ randomBytes: () => bytes });
    keys.issue(1, KEY_A);
    expect(() => keys.issue(1, KEY_A)).toThrow('listenKey draws keep failing');
  });

  it('when the TTL passes without keepalive, then the listenKey is not found and its end is told as expired', () => {
    const keys = listenKeys();
    const listenKey = keys.issue(7, KEY_A);
    now = T0 + HOUR_MS - 1;
    expect(keys.find(listenKey)?.accountId).toBe(7);
    now = T0 + HOUR_MS;
    expect(keys.find(listenKey)).toBeUndefined();
    expect(ended).toEqual([[listenKey, 'expired']]);
    expect(keys.size).toBe(0);
  });

  it('when kept alive, then the validity restarts from the keepalive', () => {
    const keys = listenKeys();
    const listenKey = keys.issue(7, KEY_A);
    now = T0 + 50 * 60_000;
    expect(keys.keepalive(listenKey, 7)).toBe(true);
    now = T0 + 50 * 60_000 + HOUR_MS - 1;
    expect(keys.find(listenKey)?.listenKey).toBe(listenKey);
    now += 1;
    expect(keys.find(listenKey)).toBeUndefined();
  });

  it('when the TTL setting changes, then it applies from the next issue or keepalive', () => {
    const keys = listenKeys();
    const old = keys.issue(7, KEY_A);
    ttlMs = 1000;
    const fresh = keys.issue(7, KEY_A);
    now = T0 + 1000;
    expect(keys.find(fresh)).toBeUndefined();
    expect(keys.find(old)?.listenKey).toBe(old);
    expect(keys.keepalive(old, 7)).toBe(true);
    now = T0 + 2000;
    expect(keys.find(old)).toBeUndefined();
  });

  it('when keepalive or close name another account’s, an unknown or an expired listenKey, then they answer false and change nothing', () => {
    const keys = listenKeys();
    const listenKey = keys.issue(7, KEY_A);
    expect(keys.keepalive(listenKey, 8)).toBe(false);
    expect(keys.close(listenKey, 8)).toBe(false);
    expect(keys.keepalive('x'.repeat(64), 7)).toBe(false);
    expect(keys.find(listenKey)?.accountId).toBe(7);
    expect(ended).toEqual([]);
    now = T0 + HOUR_MS;
    expect(keys.keepalive(listenKey, 7)).toBe(false);
    expect(ended).toEqual([[listenKey, 'expired']]);
  });

  it('when closed, then the listenKey dies at once, its end is told as closed, and a second close answers false', () => {
    const keys = listenKeys();
    const listenKey = keys.issue(7, KEY_A);
    expect(keys.close(listenKey, 7)).toBe(true);
    expect(keys.find(listenKey)).toBeUndefined();
    expect(ended).toEqual([[listenKey, 'closed']]);
    expect(keys.close(listenKey, 7)).toBe(false);
  });

  it('when an account issues an 11th listenKey, then its oldest is closed and the other 10 live', () => {
    const keys = listenKeys();
    const issued = Array.from({ length: 10 }, () => keys.issue(7, KEY_A));
    const other = keys.issue(8, KEY_B);
    const eleventh = keys.issue(7, KEY_A);
    expect(ended).toEqual([[issued[0], 'closed']]);
    expect(keys.find(issued[0])).toBeUndefined();
    for (const listenKey of [...issued.slice(1), eleventh, other]) expect(keys.find(listenKey)).toBeDefined();
    expect(keys.size).toBe(11);
  });

  it('when an API key is revoked, then exactly its listenKeys are closed', () => {
    const keys = listenKeys();
    const a1 = keys.issue(7, KEY_A);
    const a2 = keys.issue(7, KEY_A);
    const b = keys.issue(7, KEY_B);
    expect(keys.revokeApiKey(KEY_A)).toBe(2);
    expect(ended).toEqual([
      [a1, 'closed'],
      [a2, 'closed'],
    ]);
    expect(keys.find(b)?.apiKey).toBe(KEY_B);
    expect(keys.revokeApiKey(KEY_A)).toBe(0);
  });

  it('when the sweep runs, then every expired listenKey ends and the live ones stay', () => {
    const keys = listenKeys();
    const early = keys.issue(7, KEY_A);
    now = T0 + 10;
    const late = keys.issue(8, KEY_B);
    now = T0 + HOUR_MS;
    keys.sweep();
    expect(ended).toEqual([[early, 'expired']]);
    expect(keys.size).toBe(1);
    expect(keys.find(late)?.accountId).toBe(8);
  });

  it('when nobody looks a listenKey up, then the sweep timer still ends it after its TTL', async () => {
    const keys = listenKeys({ sweepIntervalMs: 5 });
    const listenKey = keys.issue(7, KEY_A);
    const end = new Promise<[ListenKeyBinding, ListenKeyEnd]>((resolve) => keys.onEnd((binding, reason) => resolve([binding, reason])));
    now = T0 + HOUR_MS;
    expect(await end).toEqual([{ listenKey, accountId: 7, apiKey: KEY_A }, 'expired']);
  });

  it('when a listener unsubscribes, then it hears of no further ends', () => {
    const keys = listenKeys();
    const heard: string[] = [];
    const unsubscribe = keys.onEnd((binding) => heard.push(binding.listenKey));
    const first = keys.issue(7, KEY_A);
    keys.close(first, 7);
    unsubscribe();
    keys.close(keys.issue(7, KEY_A), 7);
    expect(heard).toEqual([first]);
  });

  it('when the TTL setting is not a positive whole number of ms, then issuing refuses', () => {
    const keys = listenKeys();
    ttlMs = 0;
    expect(() => keys.issue(7, KEY_A)).toThrow(RangeError);
    expect(keys.size).toBe(0);
  });
});
