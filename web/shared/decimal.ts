/**
 * Exact decimal arithmetic on the API's number strings (no floats): enough for filter checks and
 * for showing a product or a percentage. A value is a BigInt of units at a scale (digits after the point).
 */
export interface Dec {
  units: bigint;
  scale: number;
}

const PATTERN = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** Parses "12.50", "-0.1", ".5"; undefined for anything else (exponents, blanks, two points). */
export function parseDec(text: string): Dec | undefined {
  const match = PATTERN.exec(text.trim());
  if (match === null) return undefined;
  const [, sign, whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return undefined;
  const units = BigInt(`${whole || '0'}${fraction}`);
  return { units: sign === '-' ? -units : units, scale: fraction.length };
}

function rescale(value: Dec, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

/** -1, 0 or 1. */
export function cmpDec(a: Dec, b: Dec): number {
  const scale = Math.max(a.scale, b.scale);
  const x = rescale(a, scale);
  const y = rescale(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function mulDec(a: Dec, b: Dec): Dec {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/** True when `value` is a whole number of `step`s (a step of zero accepts anything). */
export function isMultiple(value: Dec, step: Dec): boolean {
  if (step.units === 0n) return true;
  const scale = Math.max(value.scale, step.scale);
  return rescale(value, scale) % rescale(step, scale) === 0n;
}

/** The number of digits after the point that `step` allows ("0.001" → 3, "1" → 0). */
export function decimalsOf(step: string): number {
  const value = parseDec(step);
  if (value === undefined) return 0;
  return formatDec(value).split('.')[1]?.length ?? 0;
}

/** Canonical text: no trailing fractional zeros, no leading zeros, "-" only when below zero. */
export function formatDec(value: Dec): string {
  const negative = value.units < 0n;
  let digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  let text = value.scale === 0 ? digits : `${digits.slice(0, -value.scale)}.${digits.slice(-value.scale)}`;
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  digits = text;
  return negative && digits !== '0' ? `-${digits}` : digits;
}

/** A fraction as a percentage with two decimals and a sign: "0.0196" → "+1.96%" (truncated, not rounded). */
export function fractionToPercent(fraction: string): string {
  const value = parseDec(fraction);
  if (value === undefined) return '—';
  // ×100 then keep two decimals: units at scale (s - 2), truncated to scale 2.
  const hundredths = value.scale >= 4 ? value.units / 10n ** BigInt(value.scale - 4) : value.units * 10n ** BigInt(4 - value.scale);
  const negative = hundredths < 0n;
  const abs = negative ? -hundredths : hundredths;
  const text = `${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
  return `${negative ? '-' : abs === 0n ? '' : '+'}${text}%`;
}

/** The product of two decimal strings, or undefined when either is not a number. */
export function product(a: string, b: string): string | undefined {
  const x = parseDec(a);
  const y = parseDec(b);
  return x === undefined || y === undefined ? undefined : formatDec(mulDec(x, y));
}

/** The sign of a decimal string: -1, 0, 1 (0 for text that is not a number). */
export function signOf(text: string): number {
  const value = parseDec(text);
  return value === undefined ? 0 : value.units < 0n ? -1 : value.units > 0n ? 1 : 0;
}
