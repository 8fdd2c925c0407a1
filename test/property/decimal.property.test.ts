import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import {
  ATTO_SCALE,
  attoToUnits,
  divCeil,
  divRoundHalfAway,
  formatAtto,
  formatUnits,
  fractionDigits,
  parseDecimal,
  parseSignedDecimal,
  unitsToAtto,
} from '../../src/core/decimal.js';

// The oracle must never round on its own: operands stay far below 500 significant digits.
const Exact = Decimal.clone({ precision: 500 });

const RUNS = { numRuns: 2_000, seed: 42 } as const;

const digits = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });

/** Text of the wire DECIMAL form (docs/spot-api.md "Methods and parameters"), leading and trailing zeros included. */
const decimalText: fc.Arbitrary<string> = fc
  .tuple(digits(1, 20), fc.option(digits(1, 18), { nil: undefined }))
  .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`));

const signedDecimalText: fc.Arbitrary<string> = fc
  .tuple(fc.boolean(), decimalText)
  .map(([negative, text]) => (negative ? `-${text}` : text));

const HUGE = 2n ** 512n;
const anyUnits = fc.bigInt({ min: -HUGE, max: HUGE });
const scale = fc.integer({ min: 0, max: ATTO_SCALE });
const operand = fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n });
const nonZeroOperand = operand.filter((value) => value !== 0n);

/** docs/spot-api.md "Value formats" canonical text as decimal.js gives it: plain notation, no trailing zeros, "0". */
function canonical(value: Decimal): string {
  if (value.isZero()) return '0';
  const text = value.toFixed();
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

function oracleQuotient(numerator: bigint, denominator: bigint, rounding: Decimal.Rounding): bigint {
  const quotient = new Exact(numerator.toString()).div(denominator.toString());
  return BigInt(quotient.toDecimalPlaces(0, rounding).toFixed());
}

describe('decimal module against decimal.js', () => {
  it('when a DECIMAL text is parsed and formatted, then the text is the canonical form of its value', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        const atto = parseDecimal(text);
        expect(atto).not.toBeNull();
        expect(formatAtto(atto!)).toBe(canonical(new Exact(text)));
      }),
      RUNS,
    );
  });

  it('when a signed DECIMAL text is parsed and formatted, then the text is the canonical form of its value', () => {
    fc.assert(
      fc.property(signedDecimalText, (text) => {
        const atto = parseSignedDecimal(text);
        expect(atto).not.toBeNull();
        expect(formatAtto(atto!)).toBe(canonical(new Exact(text)));
      }),
      RUNS,
    );
  });

  it('when units are converted to atto and back at the same scale, then they are unchanged', () => {
    fc.assert(
      fc.property(anyUnits, scale, (units, unitScale) => {
        expect(attoToUnits(unitsToAtto(units, unitScale), unitScale)).toBe(units);
      }),
      RUNS,
    );
  });

  it('when an atto value is converted to units, then it succeeds exactly when its decimals fit the scale', () => {
    fc.assert(
      fc.property(anyUnits, scale, (atto, unitScale) => {
        const units = attoToUnits(atto, unitScale);
        const fits = new Exact(atto.toString()).div(new Exact(10).pow(ATTO_SCALE)).decimalPlaces() <= unitScale;
        expect(units !== null).toBe(fits);
        if (units !== null) expect(unitsToAtto(units, unitScale)).toBe(atto);
      }),
      RUNS,
    );
  });

  it('when units are formatted at a scale, then the text equals decimal.js units / 10^scale in canonical form', () => {
    fc.assert(
      fc.property(anyUnits, scale, (units, unitScale) => {
        const expected = canonical(new Exact(units.toString()).div(new Exact(10).pow(unitScale)));
        expect(formatUnits(units, unitScale)).toBe(expected);
      }),
      RUNS,
    );
  });

  it('when the fraction digits of a value are counted, then they equal decimal.js decimal places', () => {
    fc.assert(
      fc.property(anyUnits, scale, (units, unitScale) => {
        const expected = new Exact(units.toString()).div(new Exact(10).pow(unitScale)).decimalPlaces();
        expect(fractionDigits(units, unitScale)).toBe(expected);
      }),
      RUNS,
    );
  });

  it('when a non-negative numerator is divided with divCeil, then it equals decimal.js ROUND_CEIL division', () => {
    const numerator = fc.bigInt({ min: 0n, max: 10n ** 40n });
    const denominator = fc.bigInt({ min: 1n, max: 10n ** 40n });
    fc.assert(
      fc.property(numerator, denominator, (n, d) => {
        expect(divCeil(n, d)).toBe(oracleQuotient(n, d, Decimal.ROUND_CEIL));
      }),
      RUNS,
    );
  });

  it('when a negative numerator is divided by a positive denominator with divCeil, then it equals ROUND_CEIL division', () => {
    const numerator = fc.bigInt({ min: -(10n ** 40n), max: -1n });
    const denominator = fc.bigInt({ min: 1n, max: 10n ** 40n });
    fc.assert(
      fc.property(numerator, denominator, (n, d) => {
        expect(divCeil(n, d)).toBe(oracleQuotient(n, d, Decimal.ROUND_CEIL));
      }),
      RUNS,
    );
  });

  it('when operands of any signs are divided with divRoundHalfAway, then it equals decimal.js ROUND_HALF_UP division', () => {
    fc.assert(
      fc.property(operand, nonZeroOperand, (n, d) => {
        expect(divRoundHalfAway(n, d)).toBe(oracleQuotient(n, d, Decimal.ROUND_HALF_UP));
      }),
      RUNS,
    );
  });

  it('when an exact half is divided with divRoundHalfAway, then it rounds away from zero like ROUND_HALF_UP', () => {
    const halfway = fc
      .tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: 1n, max: 10n ** 10n }), fc.boolean())
      .map(([whole, half, flip]) => {
        const denominator = 2n * half * (flip ? -1n : 1n);
        return { n: whole * denominator + (whole < 0n ? -half : half), d: denominator };
      });
    fc.assert(
      fc.property(halfway, ({ n, d }) => {
        expect(divRoundHalfAway(n, d)).toBe(oracleQuotient(n, d, Decimal.ROUND_HALF_UP));
      }),
      RUNS,
    );
  });

  it('when two DECIMAL texts are parsed, then their order equals decimal.js comparison', () => {
    fc.assert(
      fc.property(signedDecimalText, signedDecimalText, (left, right) => {
        const a = parseSignedDecimal(left)!;
        const b = parseSignedDecimal(right)!;
        const order = a < b ? -1 : a > b ? 1 : 0;
        expect(order).toBe(new Exact(left).cmp(new Exact(right)));
      }),
      RUNS,
    );
  });

  it('when two DECIMAL texts share a prefix, then their order still equals decimal.js comparison', () => {
    // Independent random texts almost never tie; this draws near neighbours and equal values.
    const neighbours = fc
      .tuple(digits(1, 20), digits(0, 18), digits(0, 18))
      .map(([whole, left, right]) => [
        left.length > 0 ? `${whole}.${left}` : whole,
        right.length > 0 ? `${whole}.${right}` : whole,
      ]);
    fc.assert(
      fc.property(neighbours, ([left, right]) => {
        const a = parseDecimal(left)!;
        const b = parseDecimal(right)!;
        const order = a < b ? -1 : a > b ? 1 : 0;
        expect(order).toBe(new Exact(left).cmp(new Exact(right)));
      }),
      RUNS,
    );
  });
});
