/**
 * Area B amounts (docs/merchant-payments.md "Requests", docs/merchant-payments.md "Values and rounding"): plain decimals bound to a currency's accuracy, held as
 * bigint units (value × 10^accuracy) and shown with exactly `accuracy` decimals.
 */
import { attoToUnits, parseDecimal, pow10 } from '../core/decimal.js';

/** Units of `text` at `accuracy`; `undefined` when it is not a plain decimal or has more decimals. */
export function unitsOf(text: string, accuracy: number): bigint | undefined {
  const atto = parseDecimal(text);
  if (atto === null) return undefined;
  return attoToUnits(atto, accuracy) ?? undefined;
}

/** `units` with exactly `accuracy` decimals ("1000.00"), so equal amounts compare as equal strings. */
export function formatFixed(units: bigint, accuracy: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(accuracy + 1, '0');
  const text = accuracy === 0 ? digits : `${digits.slice(0, digits.length - accuracy)}.${digits.slice(digits.length - accuracy)}`;
  return negative ? `-${text}` : text;
}

/** Converts units between accuracies; going down, the remainder must be zero (else undefined). */
export function rescale(units: bigint, from: number, to: number): bigint | undefined {
  if (to >= from) return units * pow10(to - from);
  const divisor = pow10(from - to);
  return units % divisor === 0n ? units / divisor : undefined;
}
