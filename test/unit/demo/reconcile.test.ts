import { describe, expect, it } from 'vitest';
import type { Ladder, LadderOrder } from '../../../src/demo/ladder.js';
import { planOrders, type OpenOrder } from '../../../src/demo/reconcile.js';

function bid(level: number, price: string, quantity: string): LadderOrder {
  return { side: 'BUY', level, price, quantity };
}
function ask(level: number, price: string, quantity: string): LadderOrder {
  return { side: 'SELL', level, price, quantity };
}
function open(orderId: string, side: 'BUY' | 'SELL', price: string, origQty: string, executedQty = '0'): OpenOrder {
  return { orderId, symbol: 'ETHUSDT', side, price, origQty, executedQty };
}

const LADDER: Ladder = {
  symbol: 'ETHUSDT',
  referencePrice: '3000',
  bids: [bid(0, '3000', '3'), bid(1, '2997', '2.5')],
  asks: [ask(0, '3003', '2'), ask(1, '3006', '1.5')],
};

describe('planOrders', () => {
  it('when nothing is open, then every level is placed, best levels first and bid before ask', () => {
    const plan = planOrders(LADDER, []);
    expect(plan.cancels).toEqual([]);
    expect(plan.places.map((o) => `${o.side} ${o.price}`)).toEqual(['BUY 3000', 'SELL 3003', 'BUY 2997', 'SELL 3006']);
  });

  it('when the open orders are the ladder, then nothing changes, even where the text differs but the value is equal', () => {
    const orders = [open('1', 'BUY', '3000.00', '3'), open('2', 'BUY', '2997', '2.50'), open('3', 'SELL', '3003', '2'), open('4', 'SELL', '3006', '1.5')];
    expect(planOrders(LADDER, orders)).toEqual({ cancels: [], places: [] });
  });

  it('when an order is off the ladder, on the wrong side or of another size, then it is canceled and its level placed', () => {
    const offPrice = open('1', 'BUY', '2994', '3');
    const wrongSide = open('2', 'SELL', '2997', '2.5');
    const otherSize = open('3', 'SELL', '3003', '2.1');
    const kept = open('4', 'SELL', '3006', '1.5');
    const plan = planOrders(LADDER, [offPrice, wrongSide, otherSize, kept]);
    expect(plan.cancels).toEqual([offPrice, wrongSide, otherSize]);
    expect(plan.places.map((o) => `${o.side} ${o.price}`)).toEqual(['BUY 3000', 'SELL 3003', 'BUY 2997']);
  });

  it('when a level is partly filled, then it is canceled and placed again in full', () => {
    const partly = open('1', 'BUY', '3000', '3', '0.5');
    const plan = planOrders({ ...LADDER, bids: [LADDER.bids[0]], asks: [] }, [partly]);
    expect(plan).toEqual({ cancels: [partly], places: [bid(0, '3000', '3')] });
  });

  it('when two open orders match one level, then the first is kept and the second canceled', () => {
    const first = open('1', 'BUY', '3000', '3');
    const second = open('2', 'BUY', '3000', '3');
    const plan = planOrders({ ...LADDER, bids: [LADDER.bids[0]], asks: [] }, [first, second]);
    expect(plan).toEqual({ cancels: [second], places: [] });
  });
});
