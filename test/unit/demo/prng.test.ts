import { describe, expect, it } from 'vitest';
import { drawInt, hash32 } from '../../../src/demo/prng.js';

describe('prng', () => {
  it('when a key is hashed, then the hash is a fixed 32-bit value', () => {
    expect(hash32([1, 'a'])).toBe(1900985692);
    expect(hash32([1, 'a'])).toBe(hash32([1, 'a']));
  });

  it('when keys differ only in how parts are split, then their hashes differ', () => {
    expect(hash32(['ab', 'c'])).not.toBe(hash32(['a', 'bc']));
    expect(hash32([1])).not.toBe(hash32(['1']));
    expect(hash32([2 ** 32])).not.toBe(hash32([0]));
  });

  it('when an integer is drawn, then it is fixed by its key', () => {
    expect(drawInt([1, 'a'], 0, 9)).toBe(2);
    expect(drawInt([42, 'walk', 'BTCUSDT', 1], -500, 500)).toBe(-233);
  });

  it('when many integers are drawn from a small range, then every value occurs and none falls outside', () => {
    const counts = new Map<number, number>();
    for (let i = 0; i < 2000; i++) {
      const value = drawInt([7, i], -2, 2);
      counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual([-2, -1, 0, 1, 2]);
    for (const count of counts.values()) expect(count).toBeGreaterThan(300);
  });

  it('when the range is empty or the key holds a fraction, then it throws', () => {
    expect(() => drawInt([1], 5, 4)).toThrow(RangeError);
    expect(() => hash32([1.5])).toThrow(RangeError);
  });
});
