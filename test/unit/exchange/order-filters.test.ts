import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../../../src/core/decimal.js';
import { BourseError } from '../../../src/core/errors.js';
import { buildSymbolSpec, type SymbolSpec } from '../../../src/engine/symbol-spec.js';
import { OrderFilters } from '../../../src/exchange/order-filters.js';

function spec(values: { tick: string; step: string; minPrice: string; maxPrice: string; minQty: string; maxQty: string; minNotional: string }): SymbolSpec {
  const atto = (text: string): bigint => parseDecimal(text) ?? (() => { throw new Error(text); })();
  const built = buildSymbolSpec({
    symbol: 'BTCUSDT',
    baseAsset: 'BTC',
    quoteAsset: 'USDT',
    basePrecision: 8,
    quotePrecision: 8,
    tickSizeAtto: atto(values.tick),
    stepSizeAtto: atto(values.step),
    minPriceAtto: atto(values.minPrice),
    maxPriceAtto: atto(values.maxPrice),
    minQtyAtto: atto(values.minQty),
    maxQtyAtto: atto(values.maxQty),
    minNotionalAtto: atto(values.minNotional),
  });
  if (typeof built === 'string') throw new Error(built);
  return built;
}

const BTCUSDT = { tick: '0.01', step: '0.0001', minPrice: '0.01', maxPrice: '1000000', minQty: '0.0001', maxQty: '1000', minNotional: '10' };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof BourseError) return error.errorName;
    throw error;
  }
  return 'accepted';
}

describe('OrderFilters', () => {
  it('when a price or quantity text passes, then it is counted in ticks and lots, the same on every later use', () => {
    const filters = new OrderFilters(spec(BTCUSDT));
    for (let round = 0; round < 3; round++) {
      expect([filters.priceTicks('30000.25'), filters.lots('0.0123'), filters.lots('1')]).toEqual([3_000_025, 123, 10_000]);
    }
  });

  it('when a text breaks a filter, then it is refused every time it comes, also after texts that passed', () => {
    const filters = new OrderFilters(spec(BTCUSDT));
    const refusals = (): string[] => [
      refusal(() => filters.priceTicks('30000.255')),
      refusal(() => filters.priceTicks('0.001')),
      refusal(() => filters.priceTicks('2000000')),
      refusal(() => filters.priceTicks('3e4')),
      refusal(() => filters.lots('0.00001')),
      refusal(() => filters.lots('0.00015')),
      refusal(() => filters.lots('1001')),
      refusal(() => filters.lots('')),
    ];
    const expected = ['PRICE_OFF_TICK', 'PRICE_TOO_LOW', 'PRICE_TOO_HIGH', 'MANDATORY_PARAM', 'QTY_TOO_SMALL', 'QTY_OFF_STEP', 'QTY_TOO_LARGE', 'MANDATORY_PARAM'];
    expect(refusals()).toEqual(expected);
    filters.priceTicks('30000.25');
    filters.lots('0.0123');
    expect(refusals()).toEqual(expected);
  });

  it('when an order is worth exactly minNotional, then it passes, and one tick-lot less does not', () => {
    const filters = new OrderFilters(spec(BTCUSDT));
    // 10 USDT = 1,000 ticks of 0.01 × 10,000 lots of 0.0001 → 10,000,000 tick-lots.
    expect(filters.belowMinNotional(1_000, 10_000)).toBe(false);
    expect(filters.belowMinNotional(999, 10_000)).toBe(true);
    expect(filters.belowMinNotional(1_000, 9_999)).toBe(true);
    expect(filters.belowMinNotional(100_000_000, 1)).toBe(false);
  });

  it('when minNotional is not a whole number of tick-lots, then the least passing order is rounded up to the next one', () => {
    const filters = new OrderFilters(spec({ ...BTCUSDT, tick: '0.03', minPrice: '0.03', maxPrice: '999999.99', minNotional: '0.0001' }));
    // 0.0001 over 0.03 × 0.0001 = 33.3…: 33 tick-lots are worth 0.000099, 34 are worth 0.000102.
    expect(filters.belowMinNotional(33, 1)).toBe(true);
    expect(filters.belowMinNotional(34, 1)).toBe(false);
  });

  it('when the least notional in tick-lots is beyond 2^53, then products next to it are still compared exactly', () => {
    const filters = new OrderFilters(
      spec({ tick: '0.0001', step: '0.0001', minPrice: '0.0001', maxPrice: '90000000', minQty: '0.0001', maxQty: '90000000', minNotional: '90071992.54740993' }),
    );
    // minNotional over 0.0001 × 0.0001 is 2^53 + 1 tick-lots, which a double cannot hold: 2^53 tick-lots
    // (a double would call them equal to it) fall short by one, 2^53 + 1 do not.
    expect(filters.belowMinNotional(2, 4_503_599_627_370_496)).toBe(true);
    expect(filters.belowMinNotional(3, 3_002_399_751_580_331)).toBe(false);
  });
});
