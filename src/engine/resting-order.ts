import type { PriceLevel } from './price-level.js';

/**
 * An order resting in a book: an intrusive list node, so a cancel unlinks it in O(1). An iceberg
 * order rests with its visible part in `remainingLots` and the rest in `hiddenLots`.
 */
export class RestingOrder {
  prev: RestingOrder | null = null;
  next: RestingOrder | null = null;
  level: PriceLevel | null = null;
  /** An iceberg's lots behind its visible part; 0 for any other order. */
  hiddenLots = 0;
  /** An iceberg's visible part (icebergQty in lots); 0 for any other order. */
  peakLots = 0;

  constructor(
    readonly orderId: number,
    readonly accountId: number,
    readonly isBuy: boolean,
    readonly priceTicks: number,
    public remainingLots: number,
  ) {}
}
