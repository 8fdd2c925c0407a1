import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATTO_ONE, parseDecimal } from '../../../src/core/decimal.js';
import { formatFixed } from '../../../src/payments/money.js';
import {
  type BookLevel,
  type Ratio,
  clientBuyPrice,
  clientFiatRate,
  clientSellPrice,
  compareRatio,
  inverseQuote,
  mulRatio,
  ratio,
  ratioOfUnits,
  rawBuyPrice,
  rawFiatRate,
  rawSellPrice,
  walkAsksSpending,
  walkBidsSelling,
  walkBidsSellingExact,
} from '../../../src/payments/pricing.js';

function atto(text: string): bigint {
  const value = parseDecimal(text);
  if (value === null) throw new Error(`bad decimal ${text}`);
  return value;
}

function level(price: string, qty: string): BookLevel {
  return { priceAtto: atto(price), qtyAtto: atto(qty) };
}

/** An exact atto amount n/d (in whole units) as the Ratio a walk returns. */
function attoRatio(num: bigint, den: bigint = 1n): Ratio {
  return ratio(num * ATTO_ONE, den);
}

describe('docs/merchant-payments.md "Quotes and orders" worked example (spread 50 bps)', () => {
  const usdtMxnAsks = [level('19.1680', '100000')];
  const usdtMxnBids = [level('19.1500', '100000')];
  const usdtUsdAsks = [level('1.0010', '100000')];
  const usdtUsdBids = [level('0.9990', '100000')];

  it('USDT → MXN sells at 19.1500 × 0.995 = 19.05425 ↓ 19.0542', () => {
    expect(formatFixed(clientSellPrice(rawSellPrice(usdtMxnBids)!, 50, 4), 4)).toBe('19.0542');
    // The order's own size (c2f Q = 50.0000) inside the top level prices the same.
    expect(formatFixed(clientSellPrice(rawSellPrice(usdtMxnBids, atto('50'))!, 50, 4), 4)).toBe('19.0542');
  });

  it('MXN → USDT buys at 19.1680 × 1.005 = 19.26384 ↑ 19.2639, quoted inverse 0.05191056', () => {
    const buy = clientBuyPrice(rawBuyPrice(usdtMxnAsks)!, 50, 4);
    expect(formatFixed(buy, 4)).toBe('19.2639');
    expect(formatFixed(clientBuyPrice(rawBuyPrice(usdtMxnAsks, atto('999'))!, 50, 4), 4)).toBe('19.2639');
    expect(formatFixed(inverseQuote(buy, 4), 8)).toBe('0.05191056');
    expect(formatFixed(inverseQuote(buy, 4, 8), 8)).toBe('0.05191056');
  });

  it('MXN → USD is 0.9990 ÷ 19.1680 × 0.995 = 0.05185752… ↓ 0.051857', () => {
    expect(rawFiatRate(usdtMxnAsks, usdtUsdBids)).toEqual(ratio(9990n, 191680n));
    expect(formatFixed(clientFiatRate(rawFiatRate(usdtMxnAsks, usdtUsdBids)!, 50, 6), 6)).toBe('0.051857');
    // Sized as the f2f example of docs/merchant-payments.md "Quotes and orders": X = 20000.00 − 1.00 MXN, well inside both top levels.
    expect(formatFixed(clientFiatRate(rawFiatRate(usdtMxnAsks, usdtUsdBids, atto('19999'))!, 50, 6), 6)).toBe('0.051857');
    // The other way uses the other sides: USD → MXN = 19.1500 ÷ 1.0010.
    expect(rawFiatRate(usdtUsdAsks, usdtMxnBids)).toEqual(ratio(191500n, 10010n));
  });
});

describe('walks over several levels', () => {
  const asks = [level('10', '2'), level('11', '3'), level('12', '5')];
  const bids = [level('12', '2'), level('11', '3'), level('10', '5')];

  it('spends across levels, the last one partially: 60 = 2×10 + 3×11 + 7 → 5 + 7/12 base', () => {
    expect(walkAsksSpending(asks, atto('60'))).toEqual(attoRatio(67n, 12n));
    expect(rawBuyPrice(asks, atto('60'))).toEqual(ratio(720n, 67n));
    // 720/67 × 1.005 is exactly 10.8: an exact result must not be rounded up a unit.
    expect(formatFixed(clientBuyPrice(rawBuyPrice(asks, atto('60'))!, 50, 4), 4)).toBe('10.8000');
  });

  it('a spend ending exactly on a level boundary takes whole levels only', () => {
    expect(walkAsksSpending(asks, atto('53'))).toEqual(attoRatio(5n));
    expect(walkAsksSpending(asks, atto('113'))).toEqual(attoRatio(10n));
    expect(rawBuyPrice(asks, atto('113'))).toEqual(ratio(113n, 10n));
  });

  it('sells across levels, the last one partially: 6 = 2 + 3 + 1 → 24 + 33 + 10 = 67 quote', () => {
    expect(walkBidsSelling(bids, atto('6'))).toEqual(attoRatio(67n));
    expect(rawSellPrice(bids, atto('6'))).toEqual(ratio(67n, 6n));
    // 67/6 × 0.995 = 11.11083… ↓
    expect(formatFixed(clientSellPrice(rawSellPrice(bids, atto('6'))!, 50, 4), 4)).toBe('11.1108');
    expect(walkBidsSelling(bids, atto('10'))).toEqual(attoRatio(107n));
  });

  it('keeps sub-atto fractions exact: 1 atto of quote at price 3 buys 1/3 atto', () => {
    expect(walkAsksSpending([level('3', '1')], 1n)).toEqual(ratio(1n, 3n));
    // 0.000000000000000001 × 0.000000000000000001 base at a tiny price: 1 atto × 1e-18 = 1e-18 atto.
    expect(walkBidsSelling([level('0.000000000000000001', '1')], 1n)).toEqual(ratio(1n, ATTO_ONE));
  });

  it('routes fiat → fiat through an inexact USDT amount without rounding it', () => {
    // Spend 9 A: 1 USDT for 3, then 6 ÷ 7 → u = 13/7 USDT; sell u: 1 × 2 + 6/7 × 1 = 20/7 B.
    const asksA = [level('3', '1'), level('7', '10')];
    const bidsB = [level('2', '1'), level('1', '10')];
    expect(walkAsksSpending(asksA, atto('9'))).toEqual(attoRatio(13n, 7n));
    expect(rawFiatRate(asksA, bidsB, atto('9'))).toEqual(ratio(20n, 63n));
    // 20/63 × 0.995 = 0.3158730… ↓ 6 decimals
    expect(formatFixed(clientFiatRate(ratio(20n, 63n), 50, 6), 6)).toBe('0.315873');
  });
});

describe('no price', () => {
  const asks = [level('10', '2'), level('11', '3')];
  const bids = [level('11', '2'), level('10', '3')];

  it('depth short by one atto → undefined', () => {
    expect(walkAsksSpending(asks, atto('53'))).toEqual(attoRatio(5n));
    expect(walkAsksSpending(asks, atto('53') + 1n)).toBeUndefined();
    expect(rawBuyPrice(asks, atto('53') + 1n)).toBeUndefined();
    expect(walkBidsSelling(bids, atto('5'))).toEqual(attoRatio(52n));
    expect(walkBidsSelling(bids, atto('5') + 1n)).toBeUndefined();
    expect(rawSellPrice(bids, atto('5') + 1n)).toBeUndefined();
  });

  it('fiat → fiat short on either leg → undefined', () => {
    // 53 A buys 5 USDT; B's bids hold 5: fine at 53, short when A's asks or B's bids run out.
    expect(rawFiatRate(asks, bids, atto('53'))).toEqual(ratio(52n, 53n));
    expect(rawFiatRate(asks, bids, atto('54'))).toBeUndefined();
    expect(rawFiatRate(asks, [level('11', '4')], atto('53'))).toBeUndefined();
  });

  it('empty side → undefined, sized or not', () => {
    expect(rawBuyPrice([])).toBeUndefined();
    expect(rawBuyPrice([], atto('1'))).toBeUndefined();
    expect(rawSellPrice([])).toBeUndefined();
    expect(rawSellPrice([], atto('1'))).toBeUndefined();
    expect(rawFiatRate([], bids)).toBeUndefined();
    expect(rawFiatRate(asks, [])).toBeUndefined();
    expect(walkAsksSpending([], atto('1'))).toBeUndefined();
    expect(walkBidsSelling([], atto('1'))).toBeUndefined();
  });

  it('levels with nothing resting give no price for a positive size', () => {
    expect(rawBuyPrice([level('10', '0')], atto('1'))).toBeUndefined();
  });
});

describe('sizes and inputs', () => {
  const asks = [level('10', '2'), level('11', '3')];
  const bids = [level('11', '2'), level('10', '3')];

  it('no size or a size ≤ 0 prices at the top of the book', () => {
    expect(rawBuyPrice(asks)).toEqual(ratio(10n));
    expect(rawBuyPrice(asks, 0n)).toEqual(ratio(10n));
    expect(rawBuyPrice(asks, -5n)).toEqual(ratio(10n));
    expect(rawSellPrice(bids, 0n)).toEqual(ratio(11n));
    expect(rawFiatRate(asks, bids, 0n)).toEqual(ratio(11n, 10n));
    expect(walkAsksSpending(asks, 0n)).toEqual(ratio(0n));
  });

  it('rejects a non-positive book price and a spread outside 0..10000', () => {
    expect(() => walkAsksSpending([{ priceAtto: 0n, qtyAtto: 1n }], 1n)).toThrow(RangeError);
    expect(() => clientBuyPrice(ratio(1n), -1, 4)).toThrow(RangeError);
    expect(() => clientSellPrice(ratio(1n), 10_001, 4)).toThrow(RangeError);
    expect(() => clientSellPrice(ratio(1n), 0.5, 4)).toThrow(RangeError);
    expect(() => inverseQuote(0n, 4)).toThrow(RangeError);
  });

  it('rounds exact results without moving them and inexact ones by one unit', () => {
    expect(clientBuyPrice(ratio(192639n, 10_000n), 0, 4)).toBe(192639n);
    expect(clientSellPrice(ratio(192639n, 10_000n), 0, 4)).toBe(192639n);
    expect(clientBuyPrice(ratio(1n, 3n), 0, 4)).toBe(3334n);
    expect(clientSellPrice(ratio(1n, 3n), 0, 4)).toBe(3333n);
    expect(inverseQuote(4n, 0, 8)).toBe(25_000_000n);
    expect(inverseQuote(3n, 0, 8)).toBe(33_333_333n);
  });
});

const rawArb = fc
  .record({ num: fc.bigInt({ min: 1n, max: 10n ** 30n }), den: fc.bigInt({ min: 1n, max: 10n ** 24n }) })
  .map(({ num, den }) => ratio(num, den));
const bpsArb = fc.integer({ min: 0, max: 2_000 });
const accuracyArb = fc.integer({ min: 0, max: 10 });

/** One book side, best first: each level `step` worse than the one before (prices stay > 0). */
function sideArb(direction: 1n | -1n) {
  return fc
    .record({
      top: fc.bigInt({ min: 10n ** 19n, max: 10n ** 22n }),
      levels: fc.array(fc.record({ step: fc.bigInt({ min: 0n, max: 10n ** 18n }), qty: fc.bigInt({ min: 1n, max: 10n ** 21n }) }), { minLength: 1, maxLength: 8 }),
    })
    .map(({ top, levels }) => {
      let price = top;
      return levels.map(({ step, qty }): BookLevel => {
        price += direction * step;
        return { priceAtto: price, qtyAtto: qty };
      });
    });
}

describe('properties', () => {
  it('client buy price is ≥ raw × (1 + s) and less than that + 1 unit', () => {
    fc.assert(
      fc.property(rawArb, bpsArb, accuracyArb, (raw, bps, accuracy) => {
        const exact = mulRatio(raw, ratio(10_000n + BigInt(bps), 10_000n));
        const price = ratioOfUnits(clientBuyPrice(raw, bps, accuracy), accuracy);
        const priceLessOneUnit = ratioOfUnits(clientBuyPrice(raw, bps, accuracy) - 1n, accuracy);
        expect(compareRatio(price, exact)).toBeGreaterThanOrEqual(0);
        expect(compareRatio(priceLessOneUnit, exact)).toBe(-1);
      }),
    );
  });

  it('client sell price and fiat rate are ≤ raw × (1 − s) and more than that − 1 unit', () => {
    fc.assert(
      fc.property(rawArb, bpsArb, accuracyArb, (raw, bps, accuracy) => {
        const exact = mulRatio(raw, ratio(10_000n - BigInt(bps), 10_000n));
        for (const units of [clientSellPrice(raw, bps, accuracy), clientFiatRate(raw, bps, accuracy)]) {
          expect(compareRatio(ratioOfUnits(units, accuracy), exact)).toBeLessThanOrEqual(0);
          expect(compareRatio(ratioOfUnits(units + 1n, accuracy), exact)).toBe(1);
        }
      }),
    );
  });

  it('a bigger buy never gets a lower raw price on the same book, and none beats the best ask', () => {
    fc.assert(
      fc.property(sideArb(1n), fc.bigInt({ min: 1n, max: 10n ** 25n }), fc.bigInt({ min: 0n, max: 10n ** 25n }), (asks, small, extra) => {
        const smaller = rawBuyPrice(asks, small);
        const larger = rawBuyPrice(asks, small + extra);
        if (smaller !== undefined) expect(compareRatio(smaller, rawBuyPrice(asks)!)).toBeGreaterThanOrEqual(0);
        if (larger === undefined) return;
        // Depth that covers the larger spend covers the smaller one.
        expect(smaller).toBeDefined();
        expect(compareRatio(larger, smaller!)).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('a bigger sell never gets a higher raw price on the same book', () => {
    fc.assert(
      fc.property(sideArb(-1n), fc.bigInt({ min: 1n, max: 10n ** 21n }), fc.bigInt({ min: 0n, max: 10n ** 21n }), (bids, small, extra) => {
        const smaller = rawSellPrice(bids, small);
        const larger = rawSellPrice(bids, small + extra);
        if (larger === undefined) return;
        expect(smaller).toBeDefined();
        expect(compareRatio(larger, smaller!)).toBeLessThanOrEqual(0);
        expect(compareRatio(smaller!, rawSellPrice(bids)!)).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('walks are exact: selling back what a spend bought, level for level, returns the spend', () => {
    fc.assert(
      fc.property(sideArb(1n), fc.bigInt({ min: 1n, max: 10n ** 25n }), (asks, spendAtto) => {
        const baseAtto = walkAsksSpending(asks, spendAtto);
        if (baseAtto === undefined) return;
        expect(walkBidsSellingExact(asks, baseAtto)).toEqual(ratio(spendAtto));
      }),
    );
  });
});

describe('lazy book sides', () => {
  it('when a side is a lazy re-iterable sequence, then a walk reads only the levels it needs and the best level is read afresh', () => {
    let read = 0;
    const levels = [19.168, 19.2, 19.3, 19.4].map((p) => ({ priceAtto: BigInt(Math.round(p * 10_000)) * 10n ** 14n, qtyAtto: 100n * 10n ** 18n }));
    const side: Iterable<{ priceAtto: bigint; qtyAtto: bigint }> = {
      *[Symbol.iterator]() {
        for (const level of levels) {
          read++;
          yield level;
        }
      },
    };
    // 1000 MXN at 19.168 buys 52.17… USDT, within the first level of 100.
    expect(rawBuyPrice(side, 1000n * 10n ** 18n)).toEqual(ratio(19_168n, 1000n));
    expect(read).toBe(2);
  });
});
