import type { PriceLevel } from './price-level.js';

/** An order resting in a book: an intrusive list node, so a cancel unlinks it in O(1). */
export class RestingOrder {
  prev: RestingOrder | null = null;
  next: RestingOrder | null = null;
  level: PriceLevel | null = null;

  constructor(
    readonly orderId: number,
    readonly accountId: number,
    readonly isBuy: boolean,
    readonly priceTicks: number,
    public remainingLots: number,
  ) {}
}
