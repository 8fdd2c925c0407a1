import { ATTO_ONE, divCeil, parseDecimal } from '../core/decimal.js';

/** What the demo market maker needs to know of one symbol: its filters and where to quote. */
export interface MarketMakerSymbol {
  symbol: string;
  tickSize: string;
  stepSize: string;
  minPrice: string;
  maxPrice: string;
  minQty: string;
  maxQty: string;
  minNotional: string;
  /** Where the reference price starts (tick 0); a multiple of tickSize inside PRICE_FILTER. */
  referencePrice: string;
  /** Mean base quantity of one ladder level; each level draws 50–150 % of it. */
  levelQuantity: string;
}

/** Ladder levels are this far apart, and the best bid and ask too (parts per million of the start price). */
export const LEVEL_SPACING_PPM = 1000n;
export const PPM = 1_000_000n;

/** A symbol's rules in integers: prices in ticks, quantities in lots, both bigint. */
export interface SymbolGrid {
  rules: MarketMakerSymbol;
  tickAtto: bigint;
  stepAtto: bigint;
  minPriceTicks: bigint;
  maxPriceTicks: bigint;
  minQtyLots: bigint;
  maxQtyLots: bigint;
  minNotionalAtto: bigint;
  startTicks: bigint;
  levelQtyLots: bigint;
  /** Distance between two ladder prices: fixed per symbol so unchanged levels keep their orders. */
  spacingTicks: bigint;
}

function atto(rules: MarketMakerSymbol, field: keyof MarketMakerSymbol): bigint {
  const value = parseDecimal(rules[field]);
  if (value === null) throw new RangeError(`${rules.symbol}: ${field} is not a decimal: ${rules[field]}`);
  return value;
}

function multiples(rules: MarketMakerSymbol, field: keyof MarketMakerSymbol, unitAtto: bigint): bigint {
  const value = atto(rules, field);
  if (value % unitAtto !== 0n) throw new RangeError(`${rules.symbol}: ${field} ${rules[field]} is off its step`);
  return value / unitAtto;
}

/** Validates a symbol's rules and turns them into ticks and lots; throws on inconsistent rules. */
export function compileGrid(rules: MarketMakerSymbol): SymbolGrid {
  const tickAtto = atto(rules, 'tickSize');
  const stepAtto = atto(rules, 'stepSize');
  if (tickAtto <= 0n || stepAtto <= 0n) throw new RangeError(`${rules.symbol}: tickSize and stepSize must be positive`);
  const startTicks = multiples(rules, 'referencePrice', tickAtto);
  const spacingTicks = (startTicks * LEVEL_SPACING_PPM) / PPM;
  const grid: SymbolGrid = {
    rules,
    tickAtto,
    stepAtto,
    minPriceTicks: multiples(rules, 'minPrice', tickAtto),
    maxPriceTicks: multiples(rules, 'maxPrice', tickAtto),
    minQtyLots: multiples(rules, 'minQty', stepAtto),
    maxQtyLots: multiples(rules, 'maxQty', stepAtto),
    minNotionalAtto: atto(rules, 'minNotional'),
    startTicks,
    levelQtyLots: multiples(rules, 'levelQuantity', stepAtto),
    spacingTicks: spacingTicks < 1n ? 1n : spacingTicks,
  };
  if (grid.startTicks < grid.minPriceTicks || grid.startTicks > grid.maxPriceTicks) {
    throw new RangeError(`${rules.symbol}: referencePrice ${rules.referencePrice} is outside PRICE_FILTER`);
  }
  if (grid.levelQtyLots < 2n || grid.levelQtyLots > grid.maxQtyLots) {
    throw new RangeError(`${rules.symbol}: levelQuantity must be 2..maxQty steps`);
  }
  return grid;
}

/** Smallest quantity in lots whose notional at this price reaches minNotional (and minQty). */
export function minLotsAt(grid: SymbolGrid, priceTicks: bigint): bigint {
  const needed = divCeil(grid.minNotionalAtto * ATTO_ONE, priceTicks * grid.tickAtto * grid.stepAtto);
  return needed > grid.minQtyLots ? needed : grid.minQtyLots;
}
