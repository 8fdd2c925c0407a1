import { ATTO_ONE, parseDecimal } from '../core/decimal.js';
import { reject } from '../core/errors.js';
import type { SymbolSpec } from '../engine/symbol-spec.js';

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

  constructor(private readonly spec: SymbolSpec) {
    const unit = spec.tickSizeAtto * spec.stepSizeAtto;
    this.minNotionalTickLots = (spec.minNotionalAtto * ATTO_ONE + unit - 1n) / unit;
  }

  /** The price in ticks, or the order's refusal: malformed (-1102), or the price filter it breaks. */
  priceTicks(text: string): number {
    const known = this.priceTicksByText.get(text);
    if (known !== undefined) return known;
    const spec = this.spec;
    const priceAtto = parseDecimal(text) ?? reject('MANDATORY_PARAM', ['price']);
    if (priceAtto < spec.minPriceAtto) reject('PRICE_TOO_LOW');
    if (priceAtto > spec.maxPriceAtto) reject('PRICE_TOO_HIGH');
    if (priceAtto % spec.tickSizeAtto !== 0n) reject('PRICE_OFF_TICK');
    return remember(this.priceTicksByText, text, Number(priceAtto / spec.tickSizeAtto));
  }

  /** The base quantity in lots, or the order's refusal: malformed (-1102), or the quantity filter it breaks. */
  lots(text: string): number {
    const known = this.lotsByText.get(text);
    if (known !== undefined) return known;
    const spec = this.spec;
    const qtyAtto = parseDecimal(text) ?? reject('MANDATORY_PARAM', ['quantity']);
    if (qtyAtto < spec.minQtyAtto) reject('QTY_TOO_SMALL');
    if (qtyAtto > spec.maxQtyAtto) reject('QTY_TOO_LARGE');
    if (qtyAtto % spec.stepSizeAtto !== 0n) reject('QTY_OFF_STEP');
    return remember(this.lotsByText, text, Number(qtyAtto / spec.stepSizeAtto));
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

const filtersBySpec = new WeakMap<SymbolSpec, OrderFilters>();

/** The symbol's order filters (one per spec, made when first used). */
export function orderFilters(spec: SymbolSpec): OrderFilters {
  let filters = filtersBySpec.get(spec);
  if (filters === undefined) {
    filters = new OrderFilters(spec);
    filtersBySpec.set(spec, filters);
  }
  return filters;
}
