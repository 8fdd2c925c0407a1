import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BookSide } from '../../src/engine/book-side.js';
import { RestingOrder } from '../../src/engine/resting-order.js';

const RUNS = { numRuns: 300, seed: 7 } as const;

/**
 * Prices where the side's buckets of 64 ticks meet (…63 | 64…) and where a bucket's two words of
 * slots meet (…31 | 32…), dense near a touch, and far apart
 * (up to the largest safe tick count), so that levels share buckets, fill and empty them.
 */
const price: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: 1, max: 300 }),
  fc.integer({ min: 0, max: 20 }).map((k) => 64 * k + 63),
  fc.integer({ min: 0, max: 20 }).map((k) => 64 * k),
  fc.tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom(30, 31, 32, 33)).map(([k, slot]) => 64 * k + slot),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 63, 2 ** 40, 2 ** 32 - 1, 2 ** 32, 2 ** 31),
);

type Step = { add: number } | { removeNth: number };
const step: fc.Arbitrary<Step> = fc.oneof(
  price.map((p) => ({ add: p })),
  fc.nat(1000).map((n) => ({ removeNth: n })),
);

describe('BookSide against a sorted list of its orders', () => {
  for (const isBid of [true, false]) {
    it(`when orders are added and removed in any order (${isBid ? 'bids' : 'asks'}), then levels, best and orders come best price first, oldest first within a price`, () => {
      fc.assert(
        fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
          const side = new BookSide(isBid);
          const live: RestingOrder[] = [];
          let nextId = 1;
          for (const s of steps) {
            if ('add' in s) {
              const order = new RestingOrder(nextId++, 1, isBid, s.add, 1);
              side.add(order);
              live.push(order);
            } else if (live.length > 0) {
              const [order] = live.splice(s.removeNth % live.length, 1);
              side.remove(order);
            }
          }
          // Best price first; within a price, the order they were added in (ids grow with time).
          const expected = [...live].sort((a, b) => (a.priceTicks === b.priceTicks ? a.orderId - b.orderId : isBid ? b.priceTicks - a.priceTicks : a.priceTicks - b.priceTicks));
          const prices = [...new Set(expected.map((o) => o.priceTicks))];
          expect([...side.orders()].map((o) => o.orderId)).toEqual(expected.map((o) => o.orderId));
          expect(side.topLevels(Infinity).map((l) => l.priceTicks)).toEqual(prices);
          expect(side.topLevels(3).map((l) => l.priceTicks)).toEqual(prices.slice(0, 3));
          expect(side.best()?.priceTicks).toBe(prices[0]);
          expect(side.levelCount()).toBe(prices.length);
          for (const level of side.levelsBestFirst()) expect(level.orderCount).toBe(live.filter((o) => o.priceTicks === level.priceTicks).length);
        }),
        RUNS,
      );
    });
  }
});
