import { formatAtto } from '../core/decimal.js';
import type { Side } from '../core/types.js';
import { drawInt } from './prng.js';
import { walkStateAt, type WalkState } from './reference-price.js';
import { compileGrid, minLotsAt, type MarketMakerSymbol, type SymbolGrid } from './symbol-grid.js';

/** Levels per side. */
export const LADDER_LEVELS = 5;

/** One resting order the market maker wants; level 0 is the best price of its side. */
export interface LadderOrder {
  side: Side;
  level: number;
  price: string;
  quantity: string;
}

export interface Ladder {
  symbol: string;
  referencePrice: string;
  /** Best first. */
  bids: LadderOrder[];
  /** Best first. */
  asks: LadderOrder[];
}

/**
 * Quantity of the level at this price: drawn from (seed, symbol, side, price), not from the tick,
 * so a level that stays in the ladder keeps its size and its resting order is left alone.
 */
function levelLots(seed: number, grid: SymbolGrid, side: Side, priceTicks: bigint): bigint {
  const lowLots = grid.levelQtyLots / 2n;
  const drawn = drawInt([seed, 'size', grid.rules.symbol, side, Number(priceTicks)], 0, Number(grid.levelQtyLots));
  const lots = lowLots + BigInt(drawn);
  const floorLots = minLotsAt(grid, priceTicks);
  const sized = lots < floorLots ? floorLots : lots;
  return sized > grid.maxQtyLots ? grid.maxQtyLots : sized;
}

function order(seed: number, grid: SymbolGrid, side: Side, level: number, priceTicks: bigint): LadderOrder {
  return {
    side,
    level,
    price: formatAtto(priceTicks * grid.tickAtto),
    quantity: formatAtto(levelLots(seed, grid, side, priceTicks) * grid.stepAtto),
  };
}

/**
 * The ladder of a walk state. Prices sit on a fixed grid of `spacingTicks`: the best bid on the
 * anchor cell, the best ask one spacing up, so a small move of the reference changes nothing and a
 * move of the anchor shifts the ladder by one level (one cancel and one place per side).
 */
export function ladderAt(seed: number, grid: SymbolGrid, state: WalkState): Ladder {
  const bestBidCell = state.anchorCell;
  const bids: LadderOrder[] = [];
  const asks: LadderOrder[] = [];
  for (let level = 0; level < LADDER_LEVELS; level++) {
    const bidTicks = (bestBidCell - BigInt(level)) * grid.spacingTicks;
    if (bidTicks >= grid.minPriceTicks) bids.push(order(seed, grid, 'BUY', level, bidTicks));
    const askTicks = (bestBidCell + 1n + BigInt(level)) * grid.spacingTicks;
    if (askTicks <= grid.maxPriceTicks) asks.push(order(seed, grid, 'SELL', level, askTicks));
  }
  return { symbol: grid.rules.symbol, referencePrice: formatAtto(state.referenceTicks * grid.tickAtto), bids, asks };
}

/** The demo market maker's ladder for a symbol at a tick: a pure function of seed, tick and rules. */
export function demoLadder(seed: number, tick: number, rules: MarketMakerSymbol): Ladder {
  const grid = compileGrid(rules);
  return ladderAt(seed, grid, walkStateAt(seed, grid, tick));
}
