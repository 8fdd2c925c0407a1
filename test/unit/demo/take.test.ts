import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../../../src/core/decimal.js';
import { DEMO_MARKET_MAKER_SEED, DEMO_MARKET_MAKER_SYMBOLS } from '../../../src/demo/demo-catalogue.js';
import { ladderAt } from '../../../src/demo/ladder.js';
import { takeAt } from '../../../src/demo/market-maker.js';
import { walkStateAt } from '../../../src/demo/reference-price.js';
import { compileGrid } from '../../../src/demo/symbol-grid.js';

function atto(text: string): bigint {
  const value = parseDecimal(text);
  if (value === null) throw new Error(`not a decimal: ${text}`);
  return value;
}

describe('takeAt', () => {
  for (const rules of DEMO_MARKET_MAKER_SYMBOLS) {
    it(`${rules.symbol}: buys on tick 1, sells on tick 2, within the filters and the best level, the same on every call`, () => {
      const grid = compileGrid(rules);
      const at = (tick: number) => takeAt(DEMO_MARKET_MAKER_SEED, grid, ladderAt(DEMO_MARKET_MAKER_SEED, grid, walkStateAt(DEMO_MARKET_MAKER_SEED, grid, tick)), tick);
      expect(at(0)).toBeUndefined();
      expect(at(1)?.side).toBe('BUY');
      expect(at(2)?.side).toBe('SELL');
      let later = 0;
      for (let tick = 1; tick < 300; tick++) {
        const take = at(tick);
        expect(at(tick)).toEqual(take);
        if (take === undefined) continue;
        if (tick > 2) later++;
        const ladder = ladderAt(DEMO_MARKET_MAKER_SEED, grid, walkStateAt(DEMO_MARKET_MAKER_SEED, grid, tick));
        const level = take.side === 'BUY' ? ladder.asks[0] : ladder.bids[0];
        const quantity = atto(take.quantity);
        expect(quantity).toBeGreaterThan(0n);
        expect(quantity).toBeLessThanOrEqual(atto(level.quantity));
        expect((quantity * atto(level.price)) / 10n ** 18n).toBeGreaterThanOrEqual(atto(rules.minNotional));
      }
      // About one tick in 15 after the first two: occasional, not constant.
      expect(later).toBeGreaterThan(5);
      expect(later).toBeLessThan(60);
    });
  }
});
