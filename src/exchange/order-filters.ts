import { ATTO_ONE, parseDecimal } from '../core/decimal.js';
import { reject, type ErrorName } from '../core/errors.js';
import type { SymbolSpec } from '../engine/symbol-spec.js';
import { perSpec } from './per-spec.js';

/** A value's bounds and step, in atto, with the refusal for each rule it can break. */
interface RangeFilter {
  min: bigint;
  max: bigint;
  step: bigint;
  belowMin: ErrorName;
  aboveMax: ErrorName;
  offStep: ErrorName;
}

/** Texts a cache holds before it starts afresh: a bound on memory, far above a market's working set. */
const CACHE_LIMIT = 4096;

/**
 * One symbol's price and quantity filters (docs/spot-api.md "Symbol filters"), with the texts that
 * already passed them. Clients send the same few hundred prices and sizes over and over; a text
 * that passed once passes again (a spec's filters never change), so it skips the parse and the
 * bigint checks. Only passes are kept: a refusal is always decided afresh.
 */
export class OrderFilters {
  private readonly priceTicksByText = new Map<string, number>();
  private readonly lotsByText = new Map<string, number>();
  /** Least price ticks × lots of a LIMIT order: minNotional over tickSize × stepSize, rounded up. */
  private readonly minNotionalTickLots: bigint;
  private readonly priceFilter: RangeFilter;
  private readonly quantityFilter: RangeFilter;

  constructor(spec: SymbolSpec) {
    const unit = spec.tickSizeAtto * spec.stepSizeAtto;
    this.minNotionalTickLots = (spec.minNotionalAtto * ATTO_ONE + unit - 1n) / unit;
    this.priceFilter = {
      min: spec.minPriceAtto,
      max: spec.maxPriceAtto,
      step: spec.tickSizeAtto,
      belowMin: 'PRICE_TOO_LOW',
      aboveMax: 'PRICE_TOO_HIGH',
      offStep: 'PRICE_OFF_TICK',
    };
    this.quantityFilter = {
      min: spec.minQtyAtto,
      max: spec.maxQtyAtto,
      step: spec.stepSizeAtto,
      belowMin: 'QTY_TOO_SMALL',
      aboveMax: 'QTY_TOO_LARGE',
      offStep: 'QTY_OFF_STEP',
    };
  }

  /** The price (or stop price) in ticks, or the order's refusal: malformed (-1102), or the price filter it breaks. */
  priceTicks(text: string, param = 'price'): number {
    return this.priceTicksByText.get(text) ?? remember(this.priceTicksByText, text, this.units(text, this.priceFilter, param));
  }

  /** The base quantity (or iceberg part) in lots, or the order's refusal: malformed (-1102), or the quantity filter it breaks. */
  lots(text: string, param = 'quantity'): number {
    return this.lotsByText.get(text) ?? remember(this.lotsByText, text, this.units(text, this.quantityFilter, param));
  }

  /** `text` in whole steps of its filter, checked against its bounds in the order of docs/spot-api.md "Order validation". */
  private units(text: string, filter: RangeFilter, param: string): number {
    const atto = parseDecimal(text) ?? reject('MANDATORY_PARAM', [param]);
    if (atto < filter.min) reject(filter.belowMin);
    if (atto > filter.max) reject(filter.aboveMax);
    if (atto % filter.step !== 0n) reject(filter.offStep);
    return Number(atto / filter.step);
  }

  /** True when `lots` at `priceTicks` are worth less than minNotional. */
  belowMinNotional(priceTicks: number, lots: number): boolean {
    const least = this.minNotionalTickLots;
    // Exact in doubles while the bound is a safe integer: a product at or above it rounds to at or
    // above it, and one below it is below 2^53, so it is exact.
    if (least <= BigInt(Number.MAX_SAFE_INTEGER)) return priceTicks * lots < Number(least);
    return BigInt(priceTicks) * BigInt(lots) < least;
  }
}

function remember(cache: Map<string, number>, text: string, value: number): number {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, value);
  return value;
}

/** The symbol's order filters. */
export const orderFilters = perSpec((spec) => new OrderFilters(spec));
