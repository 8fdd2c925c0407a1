import { describe, it, expect } from 'vitest';
import { BookSide } from '../../../src/engine/book-side.js';
import { RestingOrder } from '../../../src/engine/resting-order.js';

function prices(side: BookSide): number[] {
  return side.topLevels(1000).map((l) => l.priceTicks);
}

describe('BookSide', () => {
  it('when levels arrive in any order, then a bid side lists them highest first and an ask side lowest first', () => {
    const bids = new BookSide(true);
    const asks = new BookSide(false);
    const arrivals = [50, 10, 70, 30, 90, 20, 60, 40, 80, 30, 10];
    arrivals.forEach((p, i) => {
      bids.add(new RestingOrder(i + 1, 1, true, p, 1));
      asks.add(new RestingOrder(i + 100, 1, false, p, 1));
    });
    expect(prices(bids)).toEqual([90, 80, 70, 60, 50, 40, 30, 20, 10]);
    expect(prices(asks)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(bids.levelCount()).toBe(9);
  });

  it('when topLevels is given a limit, then it returns at most that many levels, best first', () => {
    const asks = new BookSide(false);
    [5, 3, 4].forEach((p, i) => asks.add(new RestingOrder(i + 1, 1, false, p, 1)));
    expect(asks.topLevels(2).map((l) => l.priceTicks)).toEqual([3, 4]);
  });

  it('when every level is emptied, worst first, then each removal keeps the others sorted', () => {
    const bids = new BookSide(true);
    const orders = [40, 10, 30, 20].map((p, i) => new RestingOrder(i + 1, 1, true, p, 2));
    orders.forEach((o) => bids.add(o));
    bids.remove(orders[1]);
    expect(prices(bids)).toEqual([40, 30, 20]);
    bids.remove(orders[2]);
    expect(prices(bids)).toEqual([40, 20]);
    bids.remove(orders[0]);
    bids.remove(orders[3]);
    expect(bids.levelCount()).toBe(0);
    expect(bids.best()).toBeUndefined();
  });

  it('when an order that does not rest is removed, then it throws', () => {
    const bids = new BookSide(true);
    expect(() => bids.remove(new RestingOrder(5, 1, true, 10, 1))).toThrow('order 5 is not resting');
  });
});
