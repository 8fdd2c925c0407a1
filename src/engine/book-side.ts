import { PriceLevel } from './price-level.js';
import type { RestingOrder } from './resting-order.js';

/**
 * One side of a book. Levels sit in an array sorted from worst to best price, so the best level is
 * the last element (taking it is a pop) and a new level is a binary search plus a short splice:
 * books hold few distinct prices near the touch, where inserts land.
 */
export class BookSide {
  private readonly levels: PriceLevel[] = [];
  private readonly byPrice = new Map<number, PriceLevel>();

  constructor(readonly isBid: boolean) {}

  best(): PriceLevel | undefined {
    return this.levels[this.levels.length - 1];
  }

  levelCount(): number {
    return this.levels.length;
  }

  add(order: RestingOrder): void {
    let level = this.byPrice.get(order.priceTicks);
    if (level === undefined) {
      level = new PriceLevel(order.priceTicks);
      this.byPrice.set(order.priceTicks, level);
      this.levels.splice(this.insertionIndex(order.priceTicks), 0, level);
    }
    level.append(order);
  }

  remove(order: RestingOrder): void {
    const level = order.level;
    if (level === null) throw new Error(`order ${order.orderId} is not resting`);
    level.remove(order);
    if (level.orderCount === 0) this.dropLevel(level);
  }

  dropLevel(level: PriceLevel): void {
    this.byPrice.delete(level.priceTicks);
    const last = this.levels.length - 1;
    if (this.levels[last] === level) {
      this.levels.pop();
      return;
    }
    const index = this.insertionIndex(level.priceTicks) - 1;
    if (this.levels[index] !== level) throw new Error(`level ${level.priceTicks} not found`);
    this.levels.splice(index, 1);
  }

  /** Levels best first, at most `limit` of them. */
  topLevels(limit: number): PriceLevel[] {
    const out: PriceLevel[] = [];
    for (let i = this.levels.length - 1; i >= 0 && out.length < limit; i--) out.push(this.levels[i]);
    return out;
  }

  /** Levels best first, lazily: a reader that stops early walks no further. */
  *levelsBestFirst(): Generator<PriceLevel> {
    for (let i = this.levels.length - 1; i >= 0; i--) yield this.levels[i];
  }

  /** Every resting order of this side, best price first, then time priority. */
  *orders(): Generator<RestingOrder> {
    for (let i = this.levels.length - 1; i >= 0; i--) {
      for (let order = this.levels[i].head; order !== null; order = order.next) yield order;
    }
  }

  /** First index whose level is better than `priceTicks` (worst-to-best order). */
  private insertionIndex(priceTicks: number): number {
    let low = 0;
    let high = this.levels.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const p = this.levels[mid].priceTicks;
      const isBetterOrEqual = this.isBid ? p > priceTicks : p < priceTicks;
      if (isBetterOrEqual) high = mid;
      else low = mid + 1;
    }
    return low;
  }
}
