import { describe, it, expect } from 'vitest';
import { parseDecimal } from '../../../src/core/decimal.js';
import { buildSymbolSpec, type SymbolListing } from '../../../src/engine/symbol-spec.js';

function atto(text: string): bigint {
  const value = parseDecimal(text);
  if (value === null) throw new Error(`bad decimal ${text}`);
  return value;
}

function listing(overrides: Partial<Record<'tick' | 'step' | 'minPrice' | 'maxPrice' | 'minQty' | 'maxQty' | 'minNotional', string>> = {}, basePrecision = 8, quotePrecision = 8): SymbolListing {
  return {
    symbol: 'BTCUSDT',
    baseAsset: 'BTC',
    quoteAsset: 'USDT',
    basePrecision,
    quotePrecision,
    tickSizeAtto: atto(overrides.tick ?? '0.01'),
    stepSizeAtto: atto(overrides.step ?? '0.000001'),
    minPriceAtto: atto(overrides.minPrice ?? '0.01'),
    maxPriceAtto: atto(overrides.maxPrice ?? '10000000'),
    minQtyAtto: atto(overrides.minQty ?? '0.000001'),
    maxQtyAtto: atto(overrides.maxQty ?? '1000'),
    minNotionalAtto: atto(overrides.minNotional ?? '1'),
  };
}

describe('buildSymbolSpec', () => {
  it('when BTCUSDT of the demo catalogue is listed, then a lot is 100 BTC atoms and a tick-lot 1 USDT atom', () => {
    const spec = buildSymbolSpec(listing());
    if (typeof spec === 'string') throw new Error(spec);
    expect(spec.baseAtomsPerLot).toBe(100n);
    expect(spec.quoteAtomsPerTickLot).toBe(1n);
    expect(spec.tickDecimals).toBe(2);
    expect(spec.status).toBe('TRADING');
  });

  it('when ETHBTC is listed, then a lot is 100000 atoms and a tick-lot 1 atom', () => {
    const spec = buildSymbolSpec(listing({ tick: '0.00001', step: '0.001', minPrice: '0.00001', maxPrice: '1000', minQty: '0.001', maxQty: '10000', minNotional: '0.0001' }));
    if (typeof spec === 'string') throw new Error(spec);
    expect(spec.baseAtomsPerLot).toBe(100_000n);
    expect(spec.quoteAtomsPerTickLot).toBe(1n);
    expect(spec.tickDecimals).toBe(5);
  });

  it('when a listing breaks a rule of docs/operating.md "Trading settings and listings", then the rule is named', () => {
    expect(buildSymbolSpec(listing({ minNotional: '0' }))).toBe('minNotional must be > 0');
    expect(buildSymbolSpec(listing({ minPrice: '0.015' }))).toBe('minPrice and maxPrice must be multiples of tickSize');
    expect(buildSymbolSpec(listing({ maxQty: '1000.0000005' }))).toBe('minQty and maxQty must be multiples of stepSize');
    expect(buildSymbolSpec(listing({ minPrice: '20', maxPrice: '10' }))).toBe('minPrice must not exceed maxPrice');
    expect(buildSymbolSpec(listing({ minQty: '2', maxQty: '1' }))).toBe('minQty must not exceed maxQty');
    expect(buildSymbolSpec(listing({}, 5))).toBe('stepSize has more decimals than the base asset precision');
    expect(buildSymbolSpec(listing({}, 8, 7))).toBe('decimals of tickSize plus stepSize exceed the quote asset precision');
    expect(buildSymbolSpec(listing({ tick: '0.000000000000000001', minPrice: '0.000000000000000001', step: '1', minQty: '1', maxQty: '1' }, 8, 18))).toBe(
      'maxPrice / tickSize is too large',
    );
  });
});
