/**
 * Order amounts (docs/merchant-payments.md "Quotes and orders"), USD values for limits (docs/merchant-payments.md "Amount limits") and percentage fees (docs/operating.md "Merchant payments settings",
 * B19). Everything is units: bigint value × 10^accuracy. Each amount is computed exactly and
 * rounded once (docs/merchant-payments.md "Values and rounding"), in the platform's favour: what the client receives rounds down, what the
 * client is charged or counted rounds up.
 */
import { ATTO_ONE, parseDecimal, pow10 } from '../core/decimal.js';
import { ceilDiv, floorDiv } from './ratio.js';

/** Decimals of a USD value compared with limits (docs/merchant-payments.md "Values and rounding", docs/merchant-payments.md "Amount limits"). */
export const USD_VALUE_ACCURACY = 2;

/**
 * `positive` is false when the amount the client receives is ≤ 0: the caller answers -5050 (docs/merchant-payments.md "Quotes and orders").
 * The amounts are still returned (c2f's gross G feeds the docs/operating.md "Merchant payments settings" minimum check either way).
 */
export interface OnRampAmounts {
  /** Crypto units at the crypto's accuracy, = (A − F) ÷ price, rounded down. */
  readonly cryptoAmount: bigint;
  readonly positive: boolean;
}

export interface OffRampAmounts {
  /** Gross fiat units, G = Q × price, rounded down; compared with the order min–max (docs/operating.md "Merchant payments settings"). */
  readonly gross: bigint;
  /** Fiat units paid out, G − F. */
  readonly fiatAmount: bigint;
  readonly positive: boolean;
}

export interface FiatToFiatAmounts {
  /** Off-ramp fiat units, (X − Fo) × rate, rounded down. */
  readonly offRampFiatAmount: bigint;
  /** What the beneficiary receives: offRampFiatAmount − Ff. */
  readonly offArriveRampFiatAmount: bigint;
  readonly positive: boolean;
}

function checkPrice(priceUnits: bigint): void {
  // A price of 0 would divide by zero (f2c) or give nothing (c2f, f2f); the caller must not get here with one.
  if (priceUnits <= 0n) throw new RangeError('order amounts need a positive price');
}

/** f2c (docs/merchant-payments.md "Quotes and orders"): cryptoAmount = (fiatAmount − fiatFee) ÷ price, down to `cryptoAccuracy`. */
export function onRampAmounts(
  fiatAmount: bigint,
  fiatFee: bigint,
  fiatAccuracy: number,
  priceUnits: bigint,
  priceAccuracy: number,
  cryptoAccuracy: number,
): OnRampAmounts {
  checkPrice(priceUnits);
  // ((A − F) / 10^fa) ÷ (P / 10^pa) × 10^ca, as one integer quotient so it is rounded once.
  const cryptoAmount = floorDiv((fiatAmount - fiatFee) * pow10(priceAccuracy + cryptoAccuracy), priceUnits * pow10(fiatAccuracy));
  return { cryptoAmount, positive: cryptoAmount > 0n };
}

/** c2f (docs/merchant-payments.md "Quotes and orders"): G = cryptoAmount × price, down to `fiatAccuracy`; fiatAmount = G − fiatFee. */
export function offRampAmounts(
  cryptoAmount: bigint,
  cryptoAccuracy: number,
  priceUnits: bigint,
  priceAccuracy: number,
  fiatFee: bigint,
  fiatAccuracy: number,
): OffRampAmounts {
  checkPrice(priceUnits);
  const gross = floorDiv(cryptoAmount * priceUnits * pow10(fiatAccuracy), pow10(cryptoAccuracy + priceAccuracy));
  const fiatAmount = gross - fiatFee;
  return { gross, fiatAmount, positive: fiatAmount > 0n };
}

/**
 * f2f (docs/merchant-payments.md "Quotes and orders"): offRampFiatAmount = (onRampAmount − onRampFee) × rate, down to `offAccuracy`;
 * offArriveRampFiatAmount = that − offRampFee.
 */
export function fiatToFiatAmounts(
  onRampAmount: bigint,
  onRampFee: bigint,
  onAccuracy: number,
  rateUnits: bigint,
  rateAccuracy: number,
  offRampFee: bigint,
  offAccuracy: number,
): FiatToFiatAmounts {
  checkPrice(rateUnits);
  const offRampFiatAmount = floorDiv((onRampAmount - onRampFee) * rateUnits * pow10(offAccuracy), pow10(onAccuracy + rateAccuracy));
  const offArriveRampFiatAmount = offRampFiatAmount - offRampFee;
  // offRampFiatAmount > 0 is implied when fees are ≥ 0; checked anyway so a negative fee cannot slip through.
  return { offRampFiatAmount, offArriveRampFiatAmount, positive: offRampFiatAmount > 0n && offArriveRampFiatAmount > 0n };
}

function parseRate(text: string, what: string): bigint {
  const atto = parseDecimal(text);
  if (atto === null) throw new RangeError(`${what} is not a plain decimal: ${JSON.stringify(text)}`);
  return atto;
}

/**
 * USD value for limits (docs/merchant-payments.md "Amount limits"): amount × `rateText` (a `limitRates` entry, USD per unit), rounded UP
 * to 2 decimals so usage is never under-counted; units of 0.01 USD.
 */
export function usdValue(amountUnits: bigint, accuracy: number, rateText: string): bigint {
  const rateAtto = parseRate(rateText, 'limit rate');
  return ceilDiv(amountUnits * rateAtto * pow10(USD_VALUE_ACCURACY), pow10(accuracy) * ATTO_ONE);
}

/**
 * Percentage transfer fee (B19 `feeType` 1): amount × `fractionText` (0–1, "0.001" = 0.1 %),
 * rounded UP to `accuracy` (the amount's fiat accuracy); units at that accuracy.
 */
export function percentageFee(amountUnits: bigint, fractionText: string, accuracy: number): bigint {
  const fractionAtto = parseRate(fractionText, 'fee fraction');
  if (fractionAtto > ATTO_ONE) throw new RangeError(`fee fraction above 1: ${fractionText}`);
  // (amount ÷ 10^acc) × fraction, up to acc decimals. The 10^acc factors cancel, since the fee is
  // in the amount's own fiat; written out so the formula reads as docs/merchant-payments.md "Values and rounding" states it.
  return ceilDiv(amountUnits * fractionAtto * pow10(accuracy), pow10(accuracy) * ATTO_ONE);
}
