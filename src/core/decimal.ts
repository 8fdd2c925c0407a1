/**
 * The one place where decimal text becomes integers and back. Nothing else in Bourse parses or
 * formats money. Values travel inside as:
 *  - `Atto` (bigint): an exact value scaled by 10^18, used for wire values before they are bound
 *    to an asset or a symbol (the wire form allows at most 18 fractional digits);
 *  - atomic units (bigint) of an asset with its precision p: value × 10^p;
 *  - ticks and lots (safe integer numbers) of a symbol, for prices and quantities in the book.
 */

export const ATTO_SCALE = 18;
export const ATTO_ONE = 10n ** 18n;

/** Wire DECIMAL form of docs/spot-api.md "Methods and parameters": no sign, exponent or separators. */
const DECIMAL_PATTERN = /^[0-9]{1,20}(\.[0-9]{1,18})?$/;
/** Signed form accepted where a field may be negative (never for request amounts). */
const SIGNED_DECIMAL_PATTERN = /^-?[0-9]{1,20}(\.[0-9]{1,18})?$/;

const POWERS_OF_TEN: bigint[] = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));

/** 10^n as a bigint, for n in 0..39. */
export function pow10(n: number): bigint {
  const value = POWERS_OF_TEN[n];
  if (value === undefined) throw new RangeError(`pow10 out of range: ${n}`);
  return value;
}

/** Parses a wire DECIMAL into atto units, or null when the text is not of the DECIMAL form. */
export function parseDecimal(text: string): bigint | null {
  if (!DECIMAL_PATTERN.test(text)) return null;
  return parseValidated(text);
}

/** As parseDecimal, but a leading '-' is allowed (operator inputs of signed values, tests). */
export function parseSignedDecimal(text: string): bigint | null {
  if (!SIGNED_DECIMAL_PATTERN.test(text)) return null;
  if (text.startsWith('-')) return -parseValidated(text.slice(1));
  return parseValidated(text);
}

function parseValidated(text: string): bigint {
  const point = text.indexOf('.');
  if (point < 0) return BigInt(text) * ATTO_ONE;
  const whole = text.slice(0, point);
  const fraction = text.slice(point + 1);
  return BigInt(whole) * ATTO_ONE + BigInt(fraction) * pow10(ATTO_SCALE - fraction.length);
}

/** Number of fractional digits a value needs at the given scale (trailing zeros dropped). */
export function fractionDigits(value: bigint, scale: number = ATTO_SCALE): number {
  let v = value < 0n ? -value : value;
  let digits = scale;
  while (digits > 0 && v % 10n === 0n) {
    v /= 10n;
    digits--;
  }
  return digits;
}

/**
 * Converts atto units to units of the given scale, or null if the value has more decimals than
 * the scale holds ("0.10" at scale 1 is fine, "0.15" is not).
 */
export function attoToUnits(atto: bigint, scale: number): bigint | null {
  const divisor = pow10(ATTO_SCALE - scale);
  if (atto % divisor !== 0n) return null;
  return atto / divisor;
}

/** Converts units of the given scale to atto units. */
export function unitsToAtto(units: bigint, scale: number): bigint {
  return units * pow10(ATTO_SCALE - scale);
}

/** Canonical decimal text (docs/spot-api.md "Value formats") of `units` scaled by 10^scale: no trailing zeros, "0" for zero. */
export function formatUnits(units: bigint, scale: number): string {
  if (scale < 0 || scale >= POWERS_OF_TEN.length) throw new RangeError(`formatUnits scale out of range: ${scale}`);
  // Most rows carry some zero amount (an order not yet filled, a fee-free fill).
  if (units === 0n) return '0';
  const negative = units < 0n;
  // String slicing instead of bigint division: this runs for every row the ledger writes.
  let digits = (negative ? -units : units).toString();
  if (digits === '0') return '0';
  if (scale > 0) {
    if (digits.length <= scale) digits = digits.padStart(scale + 1, '0');
    const point = digits.length - scale;
    let end = digits.length;
    while (end > point && digits.charCodeAt(end - 1) === 48) end--;
    digits = end === point ? digits.slice(0, point) : `${digits.slice(0, point)}.${digits.slice(point, end)}`;
  }
  return negative ? `-${digits}` : digits;
}

/** Canonical decimal text of an atto value. */
export function formatAtto(atto: bigint): string {
  return formatUnits(atto, ATTO_SCALE);
}

/** floor(numerator / denominator) as units of the given scale, for non-negative atto values. */
export function quotientUnits(numeratorAtto: bigint, denominatorAtto: bigint, scale: number): bigint {
  if (denominatorAtto <= 0n || numeratorAtto < 0n) throw new RangeError('quotientUnits needs a non-negative numerator and a positive denominator');
  return (numeratorAtto * pow10(scale)) / denominatorAtto;
}

/** Integer division rounding toward +infinity, for a positive denominator. */
export function divCeil(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('divCeil needs a positive denominator');
  if (numerator <= 0n) return numerator / denominator;
  return (numerator + denominator - 1n) / denominator;
}

/** Integer division rounding half away from zero. */
export function divRoundHalfAway(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (n * 2n + d) / (2n * d);
  return negative ? -q : q;
}

/** True for a safe non-negative integer number (ticks, lots, ids). */
export function isSafeCount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}
