import { drawInt } from './prng.js';
import { PPM, type SymbolGrid } from './symbol-grid.js';

/** Largest move of one step, in parts per million of the current price (±0.05 %). */
export const MAX_STEP_PPM = 500;
/** Replaying a walk from tick 0 is linear; this bounds the work a single call may ask for. */
export const MAX_REPLAY_TICKS = 10_000_000;

/** Where a symbol's walk is at one tick. */
export interface WalkState {
  tick: number;
  referenceTicks: bigint;
  /** The ladder's best bid is `anchorCell × spacingTicks`, its best ask one spacing above. */
  anchorCell: bigint;
}

/** The walk stays within [start / 2, start × 2] and PRICE_FILTER, so it never reaches 0. */
export function walkBounds(grid: SymbolGrid): { lowTicks: bigint; highTicks: bigint } {
  const half = grid.startTicks / 2n;
  const double = grid.startTicks * 2n;
  return {
    lowTicks: half > grid.minPriceTicks ? half : grid.minPriceTicks,
    highTicks: double < grid.maxPriceTicks ? double : grid.maxPriceTicks,
  };
}

/** The reference price after step `tick` (≥ 1), given the price before it. */
export function stepReference(seed: number, grid: SymbolGrid, tick: number, priceTicks: bigint): bigint {
  const stepPpm = drawInt([seed, 'walk', grid.rules.symbol, tick], -MAX_STEP_PPM, MAX_STEP_PPM);
  const moved = priceTicks + (priceTicks * BigInt(stepPpm)) / PPM;
  const { lowTicks, highTicks } = walkBounds(grid);
  if (moved < lowTicks) return lowTicks;
  if (moved > highTicks) return highTicks;
  return moved;
}

/**
 * The anchor follows the reference with half a level of hysteresis: a reference wobbling around a
 * grid line would otherwise move the whole ladder back and forth, a cancel and a place per side each time.
 */
export function nextAnchorCell(grid: SymbolGrid, anchorCell: bigint, referenceTicks: bigint): bigint {
  const slack = grid.spacingTicks / 2n;
  const low = anchorCell * grid.spacingTicks - slack;
  const high = (anchorCell + 1n) * grid.spacingTicks + slack;
  if (referenceTicks >= low && referenceTicks < high) return anchorCell;
  return referenceTicks / grid.spacingTicks;
}

/** Tick 0: the starting price, anchored on the grid cell holding it. */
export function initialWalkState(grid: SymbolGrid): WalkState {
  return { tick: 0, referenceTicks: grid.startTicks, anchorCell: grid.startTicks / grid.spacingTicks };
}

/** The state one tick later. */
export function nextWalkState(seed: number, grid: SymbolGrid, state: WalkState): WalkState {
  const tick = state.tick + 1;
  const referenceTicks = stepReference(seed, grid, tick, state.referenceTicks);
  return { tick, referenceTicks, anchorCell: nextAnchorCell(grid, state.anchorCell, referenceTicks) };
}

/** The state at `tick`, replayed from the seed. */
export function walkStateAt(seed: number, grid: SymbolGrid, tick: number): WalkState {
  if (!Number.isSafeInteger(tick) || tick < 0 || tick > MAX_REPLAY_TICKS) throw new RangeError(`tick must be 0..${MAX_REPLAY_TICKS}, got ${tick}`);
  let state = initialWalkState(grid);
  while (state.tick < tick) state = nextWalkState(seed, grid, state);
  return state;
}
