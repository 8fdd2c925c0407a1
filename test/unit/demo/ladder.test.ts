import { describe, expect, it } from 'vitest';
import { ATTO_ONE, parseDecimal } from '../../../src/core/decimal.js';
import { DEMO_MARKET_MAKER_SEED, DEMO_MARKET_MAKER_SYMBOLS } from '../../../src/demo/demo-catalogue.js';
import { demoLadder, ladderAt, type Ladder } from '../../../src/demo/ladder.js';
import { initialWalkState, nextWalkState } from '../../../src/demo/reference-price.js';
import { compileGrid, type MarketMakerSymbol } from '../../../src/demo/symbol-grid.js';

const SEED = DEMO_MARKET_MAKER_SEED;

function rulesOf(symbol: string): MarketMakerSymbol {
  const rules = DEMO_MARKET_MAKER_SYMBOLS.find((s) => s.symbol === symbol);
  if (rules === undefined) throw new Error(`no demo symbol ${symbol}`);
  return rules;
}

function levels(ladder: Ladder): { bids: string[][]; asks: string[][] } {
  return {
    bids: ladder.bids.map((o) => [o.price, o.quantity]),
    asks: ladder.asks.map((o) => [o.price, o.quantity]),
  };
}

function atto(text: string): bigint {
  const value = parseDecimal(text);
  if (value === null) throw new Error(`not a decimal: ${text}`);
  return value;
}

const TEST_RULES: MarketMakerSymbol = {
  symbol: 'TESTX',
  tickSize: '0.01',
  stepSize: '0.01',
  minPrice: '9.98',
  maxPrice: '10.02',
  minQty: '0.01',
  maxQty: '1000',
  minNotional: '50',
  referencePrice: '10',
  levelQuantity: '2',
};

describe('demo ladder', () => {
  it('when BTCUSDT is at tick 0 of the demo seed, then the ladder is five levels each side, 0.1 % apart', () => {
    const ladder = demoLadder(SEED, 0, rulesOf('BTCUSDT'));
    expect(ladder.referencePrice).toBe('60000');
    expect(levels(ladder)).toEqual({
      bids: [['60000', '0.219199'], ['59940', '0.13766'], ['59880', '0.266818'], ['59820', '0.260099'], ['59760', '0.18246']],
      asks: [['60060', '0.212924'], ['60120', '0.245535'], ['60180', '0.1357'], ['60240', '0.179417'], ['60300', '0.221764']],
    });
    expect(ladder.bids.map((o) => [o.side, o.level])).toEqual([['BUY', 0], ['BUY', 1], ['BUY', 2], ['BUY', 3], ['BUY', 4]]);
    expect(ladder.asks.map((o) => [o.side, o.level])).toEqual([['SELL', 0], ['SELL', 1], ['SELL', 2], ['SELL', 3], ['SELL', 4]]);
  });

  it('when the reference moves less than half a level, then the ladder stays as it was', () => {
    const before = demoLadder(SEED, 0, rulesOf('BTCUSDT'));
    const after = demoLadder(SEED, 1, rulesOf('BTCUSDT'));
    expect(after.referencePrice).toBe('59991.24');
    expect(levels(after)).toEqual(levels(before));
  });

  it('when the reference has walked down past a level, then the ladder shifts and kept levels keep their sizes', () => {
    const ladder = demoLadder(SEED, 50, rulesOf('ETHUSDT'));
    expect(ladder.referencePrice).toBe('2989.39');
    expect(levels(ladder)).toEqual({
      bids: [['2988', '2.8748'], ['2985', '1.8905'], ['2982', '3.5537'], ['2979', '3.632'], ['2976', '3.3117']],
      asks: [['2991', '2.1177'], ['2994', '3.2643'], ['2997', '4.3666'], ['3000', '3.1768'], ['3003', '2.4594']],
    });
    // 2988 was the fifth bid at tick 0 with the same size; 3003 was the best ask.
    const start = demoLadder(SEED, 0, rulesOf('ETHUSDT'));
    expect(start.bids[4]).toMatchObject({ price: '2988', quantity: '2.8748' });
    expect(start.asks[0]).toMatchObject({ price: '3003', quantity: '2.4594' });
  });

  it('when the tick size does not divide the start price evenly, then prices are still on the tick grid', () => {
    expect(levels(demoLadder(SEED, 0, rulesOf('USDTEUR')))).toEqual({
      bids: [['0.9198', '5501.42'], ['0.9189', '6216.05'], ['0.918', '5566.86'], ['0.9171', '11782.34'], ['0.9162', '14321.78']],
      asks: [['0.9207', '10270.5'], ['0.9216', '5288.65'], ['0.9225', '5295.29'], ['0.9234', '8221.35'], ['0.9243', '8148.52']],
    });
  });

  it('when another seed is used, then the ladder differs', () => {
    expect(levels(demoLadder(SEED + 1, 0, rulesOf('BTCUSDT')))).not.toEqual(levels(demoLadder(SEED, 0, rulesOf('BTCUSDT'))));
  });

  it('when minNotional is above a drawn size, then the size is raised to the smallest step reaching it', () => {
    const ladder = demoLadder(1, 0, TEST_RULES);
    expect(levels(ladder).bids).toEqual([['10', '5'], ['9.99', '5.01'], ['9.98', '5.02']]);
  });

  it('when levels would fall outside PRICE_FILTER, then they are left out', () => {
    const ladder = demoLadder(1, 0, TEST_RULES);
    expect(ladder.bids.map((o) => o.price)).toEqual(['10', '9.99', '9.98']);
    expect(ladder.asks.map((o) => o.price)).toEqual(['10.01', '10.02']);
  });

  it('when any demo symbol walks 300 ticks, then every ladder is two-sided and inside its filters', () => {
    const violations: string[] = [];
    for (const rules of DEMO_MARKET_MAKER_SYMBOLS) {
      const [tickSize, stepSize, minPrice, maxPrice, minQty, maxQty, minNotional] = [
        rules.tickSize, rules.stepSize, rules.minPrice, rules.maxPrice, rules.minQty, rules.maxQty, rules.minNotional,
      ].map(atto);
      const grid = compileGrid(rules);
      let state = initialWalkState(grid);
      for (let tick = 0; tick <= 300; tick++) {
        const ladder = ladderAt(SEED, grid, state);
        const where = `${rules.symbol}@${tick}`;
        if (ladder.bids.length !== 5 || ladder.asks.length !== 5) violations.push(`${where}: not 5 levels a side`);
        else if (atto(ladder.bids[0].price) >= atto(ladder.asks[0].price)) violations.push(`${where}: crossed`);
        const sides = [ladder.bids.map((o) => atto(o.price)), ladder.asks.map((o) => -atto(o.price))];
        for (const prices of sides) {
          if (prices.some((p, i) => i > 0 && p >= prices[i - 1])) violations.push(`${where}: levels out of order`);
        }
        for (const order of [...ladder.bids, ...ladder.asks]) {
          const price = atto(order.price);
          const quantity = atto(order.quantity);
          if (price % tickSize !== 0n || price < minPrice || price > maxPrice) violations.push(`${where}: price ${order.price}`);
          if (quantity % stepSize !== 0n || quantity < minQty || quantity > maxQty) violations.push(`${where}: quantity ${order.quantity}`);
          if ((price * quantity) / ATTO_ONE < minNotional) violations.push(`${where}: notional of ${order.quantity} @ ${order.price}`);
        }
        state = nextWalkState(SEED, grid, state);
      }
    }
    expect(violations).toEqual([]);
  });

  it('when a tick is computed from scratch, then it equals the ladder reached step by step', () => {
    const rules = rulesOf('BTCMXN');
    const grid = compileGrid(rules);
    let state = initialWalkState(grid);
    for (let tick = 0; tick < 120; tick++) state = nextWalkState(SEED, grid, state);
    expect(demoLadder(SEED, 120, rules)).toEqual(ladderAt(SEED, grid, state));
  });

  it('when the rules are inconsistent, then compiling them throws', () => {
    expect(() => compileGrid({ ...TEST_RULES, referencePrice: '10.005' })).toThrow('off its step');
    expect(() => compileGrid({ ...TEST_RULES, referencePrice: '11' })).toThrow('outside PRICE_FILTER');
    expect(() => compileGrid({ ...TEST_RULES, levelQuantity: '0.01' })).toThrow('levelQuantity');
  });
});
