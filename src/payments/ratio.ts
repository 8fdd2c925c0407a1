/**
 * Exact rationals for area B pricing (docs/merchant-payments.md "Values and rounding", docs/merchant-payments.md "Quotes and orders"). A raw price is a quotient of book
 * amounts (X ÷ crypto obtained), which rarely terminates in decimal; holding it as num/den keeps it
 * exact until the one rounding docs/merchant-payments.md "Values and rounding" allows. Bigints only: money is never a float.
 */
import { ATTO_ONE, pow10 } from '../core/decimal.js';

/** num/den, always reduced with den > 0, so equal values have equal fields. */
export interface Ratio {
  readonly num: bigint;
  readonly den: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** The reduced ratio num/den; a zero denominator is a programming error. */
export function ratio(num: bigint, den: bigint = 1n): Ratio {
  if (den === 0n) throw new RangeError('ratio needs a non-zero denominator');
  if (den < 0n) [num, den] = [-num, -den];
  const g = gcd(num, den);
  // g is 0 only when num is 0 and den is 0, excluded above; num 0 gives g = den, so 0/1.
  return { num: num / g, den: den / g };
}

/** The value of an atto amount (atto ÷ 10^18). */
export function ratioOfAtto(atto: bigint): Ratio {
  return ratio(atto, ATTO_ONE);
}

/** The value of `units` at `accuracy` decimals (units ÷ 10^accuracy). */
export function ratioOfUnits(units: bigint, accuracy: number): Ratio {
  return ratio(units, pow10(accuracy));
}

export function mulRatio(a: Ratio, b: Ratio): Ratio {
  return ratio(a.num * b.num, a.den * b.den);
}

/** a ÷ b; b must be non-zero. */
export function divRatio(a: Ratio, b: Ratio): Ratio {
  return ratio(a.num * b.den, a.den * b.num);
}

/** -1, 0 or 1 as a is below, equal to or above b (dens are positive, so cross-multiplying keeps order). */
export function compareRatio(a: Ratio, b: Ratio): -1 | 0 | 1 {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** floor(n ÷ d) for any sign of n and d > 0 (bigint `/` truncates toward zero instead). */
export function floorDiv(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('floorDiv needs a positive denominator');
  const q = n / d;
  return n < 0n && q * d !== n ? q - 1n : q;
}

/** ceil(n ÷ d) for any sign of n and d > 0. */
export function ceilDiv(n: bigint, d: bigint): bigint {
  return -floorDiv(-n, d);
}

/** The value rounded down to `accuracy` decimals, as units (value × 10^accuracy). */
export function floorUnits(value: Ratio, accuracy: number): bigint {
  return floorDiv(value.num * pow10(accuracy), value.den);
}

/** The value rounded up to `accuracy` decimals, as units (value × 10^accuracy). */
export function ceilUnits(value: Ratio, accuracy: number): bigint {
  return ceilDiv(value.num * pow10(accuracy), value.den);
}
