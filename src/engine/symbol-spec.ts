import { ATTO_SCALE, attoToUnits, fractionDigits, pow10 } from '../core/decimal.js';
import type { SymbolStatus } from '../core/types.js';

/** A listed symbol's rules, in atto values (10^-18) as listed and in the integer units the book uses. */
export interface SymbolSpec {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  basePrecision: number;
  quotePrecision: number;
  status: SymbolStatus;
  tickSizeAtto: bigint;
  stepSizeAtto: bigint;
  minPriceAtto: bigint;
  maxPriceAtto: bigint;
  minQtyAtto: bigint;
  maxQtyAtto: bigint;
  minNotionalAtto: bigint;
  /** Base atoms in one lot (one stepSize). */
  baseAtomsPerLot: bigint;
  /** Quote atoms of one tick × one lot: a trade of q lots at p ticks moves p × q × this. */
  quoteAtomsPerTickLot: bigint;
  /** Decimals of tickSize: the MARKET BUY amount step (docs/spot-api.md "MARKET BUY amount"). */
  tickDecimals: number;
}

export interface SymbolListing {
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  basePrecision: number;
  quotePrecision: number;
  tickSizeAtto: bigint;
  stepSizeAtto: bigint;
  minPriceAtto: bigint;
  maxPriceAtto: bigint;
  minQtyAtto: bigint;
  maxQtyAtto: bigint;
  minNotionalAtto: bigint;
}

/**
 * Builds a symbol's spec, or names the rule of the listing (docs/operating.md "Trading settings and listings") it breaks. Ticks and lots
 * must stay safe integers, so the price and quantity ranges are bounded here once.
 */
export function buildSymbolSpec(listing: SymbolListing): SymbolSpec | string {
  const { tickSizeAtto: tick, stepSizeAtto: step } = listing;
  const positive: [string, bigint][] = [
    ['tickSize', tick],
    ['stepSize', step],
    ['minPrice', listing.minPriceAtto],
    ['maxPrice', listing.maxPriceAtto],
    ['minQty', listing.minQtyAtto],
    ['maxQty', listing.maxQtyAtto],
    ['minNotional', listing.minNotionalAtto],
  ];
  for (const [name, value] of positive) if (value <= 0n) return `${name} must be > 0`;
  if (listing.minPriceAtto % tick !== 0n || listing.maxPriceAtto % tick !== 0n) return 'minPrice and maxPrice must be multiples of tickSize';
  if (listing.minQtyAtto % step !== 0n || listing.maxQtyAtto % step !== 0n) return 'minQty and maxQty must be multiples of stepSize';
  if (listing.minPriceAtto > listing.maxPriceAtto) return 'minPrice must not exceed maxPrice';
  if (listing.minQtyAtto > listing.maxQtyAtto) return 'minQty must not exceed maxQty';
  const tickDecimals = fractionDigits(tick);
  const stepDecimals = fractionDigits(step);
  if (stepDecimals > listing.basePrecision) return 'stepSize has more decimals than the base asset precision';
  if (tickDecimals + stepDecimals > listing.quotePrecision) {
    return 'decimals of tickSize plus stepSize exceed the quote asset precision';
  }
  if (listing.maxPriceAtto / tick > BigInt(Number.MAX_SAFE_INTEGER)) return 'maxPrice / tickSize is too large';
  if (listing.maxQtyAtto / step > BigInt(Number.MAX_SAFE_INTEGER)) return 'maxQty / stepSize is too large';
  const baseAtomsPerLot = attoToUnits(step, listing.basePrecision);
  if (baseAtomsPerLot === null) throw new Error('stepSize decimals were checked above');
  const quoteAtomsPerTickLot = (tick * step * pow10(listing.quotePrecision)) / pow10(2 * ATTO_SCALE);
  return {
    ...listing,
    status: 'TRADING',
    baseAtomsPerLot,
    quoteAtomsPerTickLot,
    tickDecimals,
  };
}
