import { describe, expect, it } from 'vitest';
import { OrderBook, type Fill, type Taker } from '../../../src/engine/order-book.js';

const ICE = 1;
const OTHER = 2;
const TAKER = 3;

function buyer(limitTicks: number, lots: number, accountId = TAKER): Taker {
  return { accountId, isBuy: true, limitTicks, remainingLots: lots, quoteBudget: null, quoteAtomsPerTickLot: 1n };
}

describe('iceberg orders in the book', () => {
  it('when one rests, then its level shows only its visible part', () => {
    const book = new OrderBook();
    book.add(10, ICE, false, 100, 35, 10);
    expect(book.asks.best()?.totalLots).toBe(10);
    expect(book.get(10)?.hiddenLots).toBe(25);
  });

  it('when a taker takes its visible part, then the next part joins the back of the level, behind a later order', () => {
    const book = new OrderBook();
    book.add(10, ICE, false, 100, 25, 10);
    book.add(11, OTHER, false, 100, 4);
    const fills: Fill[] = [];
    expect(book.match(buyer(100, 30), fills)).toBe('empty');
    // Part 1 (10), the later order (4), part 2 (10), the last part (5).
    expect(fills.map((f) => [f.maker.orderId, f.lots, f.makerDone])).toEqual([
      [10, 10, false],
      [11, 4, true],
      [10, 10, false],
      [10, 5, true],
    ]);
    expect(book.size).toBe(0);
  });

  it('when a taker stops inside a refilled part, then the level shows the rest of that part', () => {
    const book = new OrderBook();
    book.add(10, ICE, false, 100, 25, 10);
    const fills: Fill[] = [];
    expect(book.match(buyer(100, 13), fills)).toBe('complete');
    expect(book.asks.best()?.totalLots).toBe(7);
    expect(book.get(10)?.hiddenLots).toBe(5);
  });

  it('when a FOK taker asks what it could fill, then hidden lots count unless its own order rests at that level', () => {
    const book = new OrderBook();
    book.add(10, ICE, false, 100, 30, 10);
    expect(book.fillableLots(true, 100, TAKER, 1000)).toBe(30);
    book.add(11, TAKER, false, 100, 5);
    // The taker's own order is behind part 1: matching stops there, before any refill.
    expect(book.fillableLots(true, 100, TAKER, 1000)).toBe(10);
  });

  it('when restored with a part-filled visible part, then it shows that part and keeps the rest hidden', () => {
    const book = new OrderBook();
    book.add(10, ICE, false, 100, 22, 10, 3);
    expect(book.asks.best()?.totalLots).toBe(3);
    expect(book.get(10)?.hiddenLots).toBe(19);
    expect(() => book.add(12, ICE, false, 100, 5, 10, 6)).toThrow('shows 6 of 5 lots');
  });
});
