import { parseDecimal } from '../core/decimal.js';
import type { Side } from '../core/types.js';
import type { Ladder, LadderOrder } from './ladder.js';

/** The fields of an A17 order record the market maker reads. */
export interface OpenOrder {
  orderId: string;
  symbol: string;
  side: Side;
  price: string;
  origQty: string;
  executedQty: string;
}

export interface OrderPlan {
  /** Open orders no longer in the ladder (or partly filled, so the level is refreshed). */
  cancels: OpenOrder[];
  /** Ladder levels without a matching open order, best levels first, bid before ask. */
  places: LadderOrder[];
}

function levelKey(side: Side, price: string, quantity: string): string {
  // Compare values, not text: "0.10" and "0.1" are one price.
  return `${side}:${String(parseDecimal(price))}:${String(parseDecimal(quantity))}`;
}

/** What to cancel and what to place so that the open orders become exactly the ladder. */
export function planOrders(ladder: Ladder, openOrders: readonly OpenOrder[]): OrderPlan {
  const wanted = new Map<string, LadderOrder>();
  for (const level of [...ladder.bids, ...ladder.asks]) wanted.set(levelKey(level.side, level.price, level.quantity), level);
  const kept = new Set<string>();
  const cancels: OpenOrder[] = [];
  for (const open of openOrders) {
    const key = levelKey(open.side, open.price, open.origQty);
    const untouched = parseDecimal(open.executedQty) === 0n;
    if (untouched && wanted.has(key) && !kept.has(key)) kept.add(key);
    else cancels.push(open);
  }
  const places = [...wanted.entries()]
    .filter(([key]) => !kept.has(key))
    .map(([, level]) => level)
    .sort((a, b) => a.level - b.level || (a.side === b.side ? 0 : a.side === 'BUY' ? -1 : 1));
  return { cancels, places };
}
