import { describe, expect, it } from 'vitest';
import { DEMO_MARKET_MAKER_SEED, DEMO_MARKET_MAKER_SYMBOLS } from '../../../src/demo/demo-catalogue.js';
import { initialWalkState, nextAnchorCell, stepReference, walkBounds, walkStateAt } from '../../../src/demo/reference-price.js';
import { compileGrid } from '../../../src/demo/symbol-grid.js';

const SEED = DEMO_MARKET_MAKER_SEED;
const btcusdt = compileGrid(DEMO_MARKET_MAKER_SYMBOLS[0]);

describe('reference price walk', () => {
  it('when BTCUSDT starts, then the reference is 60000 (6000000 ticks) on grid cell 1000 of 60 USDT', () => {
    expect(btcusdt.rules.symbol).toBe('BTCUSDT');
    expect(btcusdt.spacingTicks).toBe(6000n);
    expect(initialWalkState(btcusdt)).toEqual({ tick: 0, referenceTicks: 6_000_000n, anchorCell: 1000n });
  });

  it('when the walk takes its first steps, then each is the seeded ppm move of the price before it', () => {
    expect(walkStateAt(SEED, btcusdt, 1)).toEqual({ tick: 1, referenceTicks: 5_999_124n, anchorCell: 1000n });
    expect(stepReference(SEED, btcusdt, 1, 6_000_000n)).toBe(5_999_124n);
  });

  it('when the walk runs 2000 steps, then the largest move is just under 0.05 % of the price before it', () => {
    let price = btcusdt.startTicks;
    let largestMovePpm = 0n;
    for (let tick = 1; tick <= 2000; tick++) {
      const next = stepReference(SEED, btcusdt, tick, price);
      const move = next > price ? next - price : price - next;
      const movePpm = (move * 1_000_000n) / price;
      if (movePpm > largestMovePpm) largestMovePpm = movePpm;
      price = next;
    }
    expect(largestMovePpm).toBe(499n);
  });

  it('when a step would leave [start / 2, start × 2], then the reference stops at the bound', () => {
    expect(walkBounds(btcusdt)).toEqual({ lowTicks: 3_000_000n, highTicks: 12_000_000n });
    expect(stepReference(SEED, btcusdt, 1, 3_000_000n)).toBe(3_000_000n);
    const up = [1, 2, 3, 4, 5, 6, 7, 8].find((tick) => stepReference(SEED, btcusdt, tick, 6_000_000n) > 6_000_000n);
    expect(up).toBeDefined();
    expect(stepReference(SEED, btcusdt, up as number, 12_000_000n)).toBe(12_000_000n);
  });

  it('when the reference stays within half a level of the anchor cell, then the anchor holds; beyond, it moves', () => {
    // Cell 1000 spans [6000000, 6006000); half a level of slack is 3000 ticks on each side.
    expect(nextAnchorCell(btcusdt, 1000n, 5_997_000n)).toBe(1000n);
    expect(nextAnchorCell(btcusdt, 1000n, 5_996_999n)).toBe(999n);
    expect(nextAnchorCell(btcusdt, 1000n, 6_008_999n)).toBe(1000n);
    expect(nextAnchorCell(btcusdt, 1000n, 6_009_000n)).toBe(1001n);
  });
});
