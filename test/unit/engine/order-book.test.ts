import { describe, it, expect } from 'vitest';
import { OrderBook, type Fill, type Taker } from '../../../src/engine/order-book.js';

const ALICE = 1;
const BOB = 2;
const CAROL = 3;

function buyer(accountId: number, limitTicks: number | null, lots: number): Taker {
  return { accountId, isBuy: true, limitTicks, remainingLots: lots, quoteBudget: null, quoteAtomsPerTickLot: 1n };
}

function seller(accountId: number, limitTicks: number | null, lots: number): Taker {
  return { accountId, isBuy: false, limitTicks, remainingLots: lots, quoteBudget: null, quoteAtomsPerTickLot: 1n };
}

/** [orderId, lots, priceTicks, makerDone] of each fill. */
function summary(fills: Fill[]): [number, number, number, boolean][] {
  return fills.map((f) => [f.maker.orderId, f.lots, f.priceTicks, f.makerDone]);
}

function askIds(book: OrderBook): number[] {
  return [...book.asks.orders()].map((o) => o.orderId);
}

function bidIds(book: OrderBook): number[] {
  return [...book.bids.orders()].map((o) => o.orderId);
}

describe('OrderBook priority', () => {
  it('when asks rest at several prices, then they are ordered lowest price first, oldest first within a price', () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 102, 5);
    book.add(2, BOB, false, 101, 5);
    book.add(3, CAROL, false, 101, 5);
    book.add(4, ALICE, false, 103, 5);
    book.add(5, BOB, false, 101, 5);
    expect(askIds(book)).toEqual([2, 3, 5, 1, 4]);
    expect(book.asks.best()?.priceTicks).toBe(101);
    expect(book.asks.topLevels(10).map((l) => [l.priceTicks, l.totalLots, l.orderCount])).toEqual([
      [101, 15, 3],
      [102, 5, 1],
      [103, 5, 1],
    ]);
  });

  it('when bids rest at several prices, then they are ordered highest price first, oldest first within a price', () => {
    const book = new OrderBook();
    book.add(1, ALICE, true, 99, 5);
    book.add(2, BOB, true, 100, 5);
    book.add(3, CAROL, true, 98, 5);
    book.add(4, ALICE, true, 100, 5);
    expect(bidIds(book)).toEqual([2, 4, 1, 3]);
    expect(book.bids.topLevels(2).map((l) => l.priceTicks)).toEqual([100, 99]);
  });

  it('when a buyer takes across levels, then it fills best price first and oldest first within a price', () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 102, 5);
    book.add(2, BOB, false, 101, 3);
    book.add(3, CAROL, false, 101, 4);
    const fills: Fill[] = [];
    const taker = buyer(9, 102, 10);
    expect(book.match(taker, fills)).toBe('complete');
    expect(summary(fills)).toEqual([
      [2, 3, 101, true],
      [3, 4, 101, true],
      [1, 3, 102, false],
    ]);
    expect(taker.remainingLots).toBe(0);
    expect(askIds(book)).toEqual([1]);
    expect(book.get(1)?.remainingLots).toBe(2);
    expect(book.asks.best()?.totalLots).toBe(2);
    expect(book.size).toBe(1);
  });

  it('when a seller takes, then bids fill highest price first', () => {
    const book = new OrderBook();
    book.add(1, ALICE, true, 99, 5);
    book.add(2, BOB, true, 100, 5);
    const fills: Fill[] = [];
    expect(book.match(seller(9, 99, 7), fills)).toBe('complete');
    expect(summary(fills)).toEqual([
      [2, 5, 100, true],
      [1, 2, 99, false],
    ]);
  });
});

describe('OrderBook cancel', () => {
  it('when the middle order of a level is canceled, then its neighbours link up and the level keeps their lots', () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 101, 1);
    book.add(2, BOB, false, 101, 2);
    book.add(3, CAROL, false, 101, 4);
    const canceled = book.cancel(2);
    expect(canceled?.orderId).toBe(2);
    expect(canceled?.level).toBeNull();
    const level = book.asks.best();
    expect(level?.head?.orderId).toBe(1);
    expect(level?.head?.next?.orderId).toBe(3);
    expect(level?.tail?.prev?.orderId).toBe(1);
    expect(level?.totalLots).toBe(5);
    expect(level?.orderCount).toBe(2);
    expect(askIds(book)).toEqual([1, 3]);
    expect(book.get(2)).toBeUndefined();
  });

  it('when the head and then the tail of a level are canceled, then the level keeps the one left', () => {
    const book = new OrderBook();
    book.add(1, ALICE, true, 100, 1);
    book.add(2, BOB, true, 100, 2);
    book.add(3, CAROL, true, 100, 4);
    book.cancel(1);
    book.cancel(3);
    const level = book.bids.best();
    expect(level?.head?.orderId).toBe(2);
    expect(level?.tail?.orderId).toBe(2);
    expect(level?.totalLots).toBe(2);
  });

  it('when the last order of the best level is canceled, then the level goes and the next becomes best', () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 101, 1);
    book.add(2, BOB, false, 102, 1);
    book.cancel(1);
    expect(book.asks.levelCount()).toBe(1);
    expect(book.asks.best()?.priceTicks).toBe(102);
  });

  it('when the last order of an inner level is canceled, then only that level goes', () => {
    const book = new OrderBook();
    book.add(1, ALICE, true, 100, 1);
    book.add(2, BOB, true, 99, 1);
    book.add(3, CAROL, true, 98, 1);
    book.cancel(2);
    expect(book.bids.topLevels(10).map((l) => l.priceTicks)).toEqual([100, 98]);
    book.add(4, ALICE, true, 99, 1);
    expect(bidIds(book)).toEqual([1, 4, 3]);
  });

  it('when an order that does not rest is canceled, then nothing changes and the answer is undefined', () => {
    const book = new OrderBook();
    book.add(1, ALICE, true, 100, 1);
    const version = book.version;
    expect(book.cancel(7)).toBeUndefined();
    expect(book.version).toBe(version);
    expect(book.size).toBe(1);
  });

  it('when an order id already rests or has no lots, then add throws', () => {
    const book = new OrderBook();
    book.add(1, ALICE, true, 100, 1);
    expect(() => book.add(1, ALICE, true, 100, 1)).toThrow('order 1 already rests');
    expect(() => book.add(2, ALICE, true, 100, 0)).toThrow('resting order 2 needs lots > 0');
  });
});

describe('OrderBook.wouldCross', () => {
  it('when the opposite side is empty, then nothing crosses', () => {
    const book = new OrderBook();
    expect(book.wouldCross(true, 1_000_000)).toBe(false);
    expect(book.wouldCross(false, 1)).toBe(false);
  });

  it('when a buy reaches the best ask, then it crosses; one tick below, it does not', () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 101, 1);
    book.add(2, ALICE, true, 99, 1);
    expect(book.wouldCross(true, 101)).toBe(true);
    expect(book.wouldCross(true, 150)).toBe(true);
    expect(book.wouldCross(true, 100)).toBe(false);
    expect(book.wouldCross(false, 99)).toBe(true);
    expect(book.wouldCross(false, 100)).toBe(false);
  });
});

describe('OrderBook.fillableLots', () => {
  it('when liquidity is within the limit, then it counts it level by level up to the wanted lots', () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 101, 3);
    book.add(2, BOB, false, 102, 4);
    book.add(3, CAROL, false, 103, 5);
    expect(book.fillableLots(true, 102, 9, 100)).toBe(7);
    expect(book.fillableLots(true, 103, 9, 8)).toBe(12);
    expect(book.fillableLots(true, 100, 9, 1)).toBe(0);
  });

  it("when the taker's own order rests in the way, then counting stops before it", () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 101, 3);
    book.add(2, BOB, false, 101, 4);
    book.add(3, CAROL, false, 101, 5);
    expect(book.fillableLots(true, 101, BOB, 12)).toBe(3);
    expect(book.fillableLots(true, 101, ALICE, 12)).toBe(0);
    expect(book.fillableLots(true, 101, 9, 12)).toBe(12);
  });

  it('when a seller counts, then bids at or above its limit count', () => {
    const book = new OrderBook();
    book.add(1, ALICE, true, 100, 3);
    book.add(2, BOB, true, 99, 4);
    expect(book.fillableLots(false, 100, 9, 10)).toBe(3);
    expect(book.fillableLots(false, 99, 9, 10)).toBe(7);
  });
});

describe('OrderBook.version', () => {
  it('when orders are added, canceled and filled, then the version counts each change', () => {
    const book = new OrderBook();
    expect(book.version).toBe(0);
    book.add(1, ALICE, false, 101, 2);
    book.add(2, BOB, false, 101, 2);
    book.add(3, CAROL, false, 102, 2);
    expect(book.version).toBe(3);
    book.cancel(3);
    expect(book.version).toBe(4);
    book.match(buyer(9, 101, 3), []);
    expect(book.version).toBe(6);
    book.match(buyer(9, 100, 3), []);
    expect(book.version).toBe(6);
  });
});

describe('OrderBook.match stop reasons', () => {
  it('when the next level is beyond the limit, then it stops with "price" and the taker keeps its rest', () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 101, 2);
    book.add(2, BOB, false, 103, 2);
    const fills: Fill[] = [];
    const taker = buyer(9, 102, 5);
    expect(book.match(taker, fills)).toBe('price');
    expect(summary(fills)).toEqual([[1, 2, 101, true]]);
    expect(taker.remainingLots).toBe(3);
  });

  it('when the opposite side runs out, then it stops with "empty"', () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 101, 2);
    const taker = buyer(9, null, 5);
    expect(book.match(taker, [])).toBe('empty');
    expect(taker.remainingLots).toBe(3);
    expect(book.asks.levelCount()).toBe(0);
    expect(book.match(seller(9, null, 1), [])).toBe('empty');
  });

  it("when the next resting order is the taker's own, then it stops with \"self\" after the earlier fills and leaves that order whole", () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 101, 2);
    book.add(2, BOB, false, 101, 2);
    book.add(3, ALICE, false, 101, 2);
    const fills: Fill[] = [];
    const taker = buyer(BOB, 101, 6);
    expect(book.match(taker, fills)).toBe('self');
    expect(summary(fills)).toEqual([[1, 2, 101, true]]);
    expect(taker.remainingLots).toBe(4);
    expect(askIds(book)).toEqual([2, 3]);
    expect(book.get(2)?.remainingLots).toBe(2);
  });

  it('when everything wanted fills, then it stops with "complete"', () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 101, 5);
    expect(book.match(buyer(9, 101, 5), [])).toBe('complete');
    expect(book.size).toBe(0);
  });

  it('when a quote budget cannot pay one lot at the next level, then it stops with "complete" and spends only whole lots', () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 100, 2);
    book.add(2, BOB, false, 150, 10);
    const taker: Taker = { accountId: 9, isBuy: true, limitTicks: null, remainingLots: 0, quoteBudget: 550n, quoteAtomsPerTickLot: 1n };
    const fills: Fill[] = [];
    expect(book.match(taker, fills)).toBe('complete');
    // 2 lots at 100 (200), then floor(350 / 150) = 2 lots at 150 (300); 50 left buys nothing at 150.
    expect(summary(fills)).toEqual([
      [1, 2, 100, true],
      [2, 2, 150, false],
    ]);
    expect(taker.quoteBudget).toBe(50n);
  });

  it('when a quote budget is spent exactly, then it stops with "complete"', () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 100, 10);
    const taker: Taker = { accountId: 9, isBuy: true, limitTicks: null, remainingLots: 0, quoteBudget: 600n, quoteAtomsPerTickLot: 2n };
    expect(book.match(taker, [])).toBe('complete');
    expect(taker.quoteBudget).toBe(0n);
    expect(book.get(1)?.remainingLots).toBe(7);
  });

  it('when a quote budget cannot pay one lot and the next order is its own, then "complete" wins over "self"', () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 100, 10);
    const taker: Taker = { accountId: ALICE, isBuy: true, limitTicks: null, remainingLots: 0, quoteBudget: 99n, quoteAtomsPerTickLot: 1n };
    expect(book.match(taker, [])).toBe('complete');
  });

  it('when a quote budget could still pay and the next order is its own, then it stops with "self"', () => {
    const book = new OrderBook();
    book.add(1, ALICE, false, 100, 10);
    const taker: Taker = { accountId: ALICE, isBuy: true, limitTicks: null, remainingLots: 0, quoteBudget: 100n, quoteAtomsPerTickLot: 1n };
    expect(book.match(taker, [])).toBe('self');
    expect(taker.quoteBudget).toBe(100n);
  });
});
