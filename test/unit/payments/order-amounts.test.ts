import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFixed, unitsOf } from '../../../src/payments/money.js';
import { fiatToFiatAmounts, offRampAmounts, onRampAmounts, percentageFee, usdValue } from '../../../src/payments/order-amounts.js';

function units(text: string, accuracy: number): bigint {
  const value = unitsOf(text, accuracy);
  if (value === undefined) throw new Error(`bad amount ${text} at ${accuracy}`);
  return value;
}

// Catalogue accuracies (docs/operating.md "Merchant payments settings"): MXN/USD 2, USDT 4, BTC 8, USDTMXN price 4, BTCMXN price 2, fiat pairs 6.
describe('docs/merchant-payments.md "Quotes and orders" worked examples', () => {
  it('f2c: (1000.00 − 1.00) MXN ÷ 19.2639 = 51.85866… → 51.8586 USDT', () => {
    const { cryptoAmount, positive } = onRampAmounts(units('1000.00', 2), units('1.00', 2), 2, units('19.2639', 4), 4, 4);
    expect(formatFixed(cryptoAmount, 4)).toBe('51.8586');
    expect(positive).toBe(true);
  });

  it('c2f: 50.0000 USDT × 19.0542 → G 952.71, fee 5.00 → 947.71 MXN', () => {
    const { gross, fiatAmount, positive } = offRampAmounts(units('50.0000', 4), 4, units('19.0542', 4), 4, units('5.00', 2), 2);
    expect(formatFixed(gross, 2)).toBe('952.71');
    expect(formatFixed(fiatAmount, 2)).toBe('947.71');
    expect(positive).toBe(true);
  });

  it('f2f: (20000.00 − 1.00) MXN × 0.051857 = 1037.088… → 1037.08 USD, fee 15.00 → arrives 1022.08', () => {
    const amounts = fiatToFiatAmounts(units('20000.00', 2), units('1.00', 2), 2, units('0.051857', 6), 6, units('15.00', 2), 2);
    expect(formatFixed(amounts.offRampFiatAmount, 2)).toBe('1037.08');
    expect(formatFixed(amounts.offArriveRampFiatAmount, 2)).toBe('1022.08');
    expect(amounts.positive).toBe(true);
  });
});

describe('rounding direction at exact boundaries', () => {
  it('f2c: an exact quotient stays, one unit of fiat less drops to the unit below', () => {
    // 20.00 ÷ 2.5000 = 8 exactly; 19.99 ÷ 2.5 = 7.996 ↓ 7.9960 — and at crypto accuracy 2, 7.99.
    expect(onRampAmounts(units('21.00', 2), units('1.00', 2), 2, units('2.5000', 4), 4, 4).cryptoAmount).toBe(units('8.0000', 4));
    expect(onRampAmounts(units('20.99', 2), units('1.00', 2), 2, units('2.5000', 4), 4, 2).cryptoAmount).toBe(units('7.99', 2));
    // 1.00 ÷ 3.00 = 0.333… ↓ 0.33333333 BTC (8 decimals).
    expect(onRampAmounts(units('1.00', 2), 0n, 2, units('3.00', 2), 2, 8).cryptoAmount).toBe(units('0.33333333', 8));
  });

  it('c2f: gross rounds down, never up, and an exact product stays', () => {
    // 0.0001 USDT × 19.0542 = 0.00190542 ↓ 0.00; 1.0000 × 19.0542 = 19.0542 ↓ 19.05.
    expect(offRampAmounts(units('0.0001', 4), 4, units('19.0542', 4), 4, 0n, 2).gross).toBe(0n);
    expect(offRampAmounts(units('1.0000', 4), 4, units('19.0542', 4), 4, 0n, 2).gross).toBe(units('19.05', 2));
    expect(offRampAmounts(units('2.5000', 4), 4, units('4.0000', 4), 4, 0n, 2).gross).toBe(units('10.00', 2));
    // 0.00000001 BTC × 1234567.89 MXN = 0.0123456789 ↓ 0.01.
    expect(offRampAmounts(units('0.00000001', 8), 8, units('1234567.89', 2), 2, 0n, 2).gross).toBe(units('0.01', 2));
  });

  it('f2f: exact product stays; a hair below a cent drops', () => {
    expect(fiatToFiatAmounts(units('101.00', 2), units('1.00', 2), 2, units('0.050000', 6), 6, 0n, 2).offRampFiatAmount).toBe(units('5.00', 2));
    // 99.99 × 0.05 = 4.9995 ↓ 4.99
    expect(fiatToFiatAmounts(units('100.99', 2), units('1.00', 2), 2, units('0.050000', 6), 6, 0n, 2).offRampFiatAmount).toBe(units('4.99', 2));
  });

  it('USD value for limits rounds up, and an exact value stays', () => {
    expect(usdValue(units('1000.00', 2), 2, '0.05')).toBe(units('50.00', 2));
    expect(usdValue(units('999.99', 2), 2, '0.05')).toBe(units('50.00', 2)); // 49.9995 ↑
    expect(usdValue(units('0.0001', 4), 4, '1')).toBe(units('0.01', 2)); // 0.0001 ↑
    expect(usdValue(units('0.00000001', 8), 8, '60000')).toBe(units('0.01', 2)); // 0.0006 ↑
    expect(usdValue(units('1.00000000', 8), 8, '60000')).toBe(units('60000.00', 2));
    expect(usdValue(units('100.00', 2), 2, '1.08')).toBe(units('108.00', 2));
    expect(usdValue(0n, 2, '1.08')).toBe(0n);
  });

  it('percentage fee rounds up, and an exact fee stays', () => {
    expect(percentageFee(units('1000.00', 2), '0.001', 2)).toBe(units('1.00', 2));
    expect(percentageFee(units('1000.01', 2), '0.001', 2)).toBe(units('1.01', 2)); // 1.00001 ↑
    expect(percentageFee(units('0.01', 2), '0.001', 2)).toBe(units('0.01', 2)); // 0.00001 ↑
    expect(percentageFee(units('123.45', 2), '0', 2)).toBe(0n);
    expect(percentageFee(units('123.45', 2), '1', 2)).toBe(units('123.45', 2));
  });

  it('rejects a bad rate text, a fraction above 1 and a zero price', () => {
    expect(() => usdValue(1n, 2, '1e3')).toThrow(RangeError);
    expect(() => percentageFee(1n, '-0.1', 2)).toThrow(RangeError);
    expect(() => percentageFee(1n, '1.01', 2)).toThrow(RangeError);
    expect(() => onRampAmounts(100n, 0n, 2, 0n, 4, 4)).toThrow(RangeError);
    expect(() => offRampAmounts(100n, 4, 0n, 4, 0n, 2)).toThrow(RangeError);
    expect(() => fiatToFiatAmounts(100n, 0n, 2, 0n, 6, 0n, 2)).toThrow(RangeError);
  });
});

describe('receive amounts ≤ 0 are flagged (-5050)', () => {
  it('f2c: fee eats the amount, or the rest buys less than one crypto unit', () => {
    expect(onRampAmounts(units('1.00', 2), units('1.00', 2), 2, units('19.2639', 4), 4, 4)).toEqual({ cryptoAmount: 0n, positive: false });
    expect(onRampAmounts(units('0.50', 2), units('1.00', 2), 2, units('19.2639', 4), 4, 4).positive).toBe(false);
    // 0.01 MXN ÷ 60000.00 MXN per BTC = 0.000000166… ↓ 0.00000016 BTC: positive.
    expect(onRampAmounts(units('1.01', 2), units('1.00', 2), 2, units('60000.00', 2), 2, 8)).toEqual({ cryptoAmount: 16n, positive: true });
    // 0.01 MXN at 19.2639 = 0.000519… ↓ 0.0005 USDT; at 200.0000, 0.00005 ↓ 0.0000.
    expect(onRampAmounts(units('1.01', 2), units('1.00', 2), 2, units('200.0000', 4), 4, 4)).toEqual({ cryptoAmount: 0n, positive: false });
  });

  it('c2f: fee equal to or above the gross; the gross is still reported', () => {
    expect(offRampAmounts(units('0.2624', 4), 4, units('19.0542', 4), 4, units('5.00', 2), 2)).toEqual({ gross: 499n, fiatAmount: -1n, positive: false });
    expect(offRampAmounts(units('0.2625', 4), 4, units('19.0542', 4), 4, units('5.00', 2), 2)).toEqual({ gross: 500n, fiatAmount: 0n, positive: false });
    expect(offRampAmounts(units('0.2630', 4), 4, units('19.0542', 4), 4, units('5.00', 2), 2)).toEqual({ gross: 501n, fiatAmount: 1n, positive: true });
  });

  it('f2f: payout fee equal to the converted amount, or on-ramp fee above the amount', () => {
    const exact = fiatToFiatAmounts(units('301.00', 2), units('1.00', 2), 2, units('0.050000', 6), 6, units('15.00', 2), 2);
    expect(exact).toEqual({ offRampFiatAmount: 1500n, offArriveRampFiatAmount: 0n, positive: false });
    expect(fiatToFiatAmounts(units('0.50', 2), units('1.00', 2), 2, units('0.050000', 6), 6, 0n, 2).positive).toBe(false);
    expect(fiatToFiatAmounts(units('301.20', 2), units('1.00', 2), 2, units('0.050000', 6), 6, units('15.00', 2), 2).positive).toBe(true);
  });
});

describe('properties', () => {
  const amountArb = fc.bigInt({ min: 0n, max: 10n ** 14n });
  const priceArb = fc.bigInt({ min: 1n, max: 10n ** 12n });

  it('f2c: the crypto paid out, valued at the price, never exceeds what the client paid net, by less than one crypto unit', () => {
    fc.assert(
      fc.property(amountArb, amountArb, priceArb, (a, f, p) => {
        // crypto 4 + price 4 decimals = 8, fiat 2: compare at 10^-8. crypto × price ≤ A − F < (crypto + 1) × price.
        const { cryptoAmount } = onRampAmounts(a, f, 2, p, 4, 4);
        const net = (a - f) * 10n ** 6n;
        expect(cryptoAmount * p <= net).toBe(true);
        expect((cryptoAmount + 1n) * p > net).toBe(true);
      }),
    );
  });

  it('c2f and f2f: paid out ≤ exact value < paid out + 1 fiat unit', () => {
    fc.assert(
      fc.property(amountArb, priceArb, (q, p) => {
        // crypto 4 + price 4 = 8 decimals exact, fiat 2: gross × 10^6 ≤ q × p < (gross + 1) × 10^6.
        const { gross } = offRampAmounts(q, 4, p, 4, 0n, 2);
        expect(gross * 10n ** 6n <= q * p && q * p < (gross + 1n) * 10n ** 6n).toBe(true);
        const { offRampFiatAmount } = fiatToFiatAmounts(q, 0n, 2, p, 6, 0n, 2);
        expect(offRampFiatAmount * 10n ** 6n <= q * p && q * p < (offRampFiatAmount + 1n) * 10n ** 6n).toBe(true);
      }),
    );
  });

  it('USD value and percentage fee: exact value ≤ result < exact value + 1 unit', () => {
    fc.assert(
      fc.property(amountArb, fc.integer({ min: 0, max: 1_000_000 }), (amount, millionths) => {
        const fractionText = formatFixed(BigInt(millionths), 6);
        // amount (2 decimals) × fraction (6 decimals) exact at 8 decimals; results at 2.
        const exact = amount * BigInt(millionths);
        const fee = percentageFee(amount, fractionText, 2);
        expect(fee * 10n ** 6n >= exact && (fee - 1n) * 10n ** 6n < exact).toBe(true);
        const usd = usdValue(amount, 2, fractionText);
        expect(usd).toBe(fee);
      }),
    );
  });
});
