import { describe, expect, it } from 'vitest';
import { wholeBook } from '../../../../src/api/ws/depth-diff.js';
import { bookLevels, levelPairs } from '../../../../src/api/spot/market-views.js';
import { createCoreHarness, limit } from '../../../support/core-harness.js';

describe('book levels formatted once per book version', () => {
  it('when snapshots are taken of an unchanged book, then they share one formatting; after a change, the new book is formatted', () => {
    const h = createCoreHarness();
    const maker = h.funded({ USDT: '1000000', BTC: '10' });
    for (const price of ['29000', '29500', '29900']) h.place(limit(maker, 'BTCUSDT', 'BUY', price, '0.1'));
    h.place(limit(maker, 'BTCUSDT', 'SELL', '30100', '0.2'));
    const state = h.core.spot.symbol('BTCUSDT');
    const first = bookLevels(state, 2);
    expect(bookLevels(state, 2)).toBe(first);
    expect(first).toEqual({ bids: [['29900', '0.1'], ['29500', '0.1']], asks: [['30100', '0.2']] });
    expect(wholeBook(state).bids).toEqual(levelPairs(state.book.bids.topLevels(5000), state));

    h.place(limit(maker, 'BTCUSDT', 'BUY', '29900', '0.3'));
    const after = bookLevels(state, 2);
    expect(after).not.toBe(first);
    expect(after.bids).toEqual([['29900', '0.4'], ['29500', '0.1']]);
  });
});
