import type { StopOrderType } from '../core/types.js';
import { triggersRising, type LiveOrder } from './live-order.js';

/**
 * One symbol's untriggered stop orders (docs/spot-api.md "Stop and iceberg orders"), in two lists
 * sorted so that the orders a last price triggers are always a prefix: those that fire on a rise,
 * by stop price ascending, and those that fire on a fall, by stop price descending (each then by
 * placement). A trade step asks only `size`, so a symbol without stops pays one comparison.
 */
export class StopOrders {
  private readonly rising: LiveOrder[] = [];
  private readonly falling: LiveOrder[] = [];

  get size(): number {
    return this.rising.length + this.falling.length;
  }

  add(order: LiveOrder): void {
    const list = this.listOf(order);
    list.splice(this.insertionIndex(list, order), 0, order);
  }

  remove(order: LiveOrder): void {
    const list = this.listOf(order);
    const index = list.indexOf(order);
    if (index < 0) throw new Error(`stop order ${order.orderId} is not waiting`);
    list.splice(index, 1);
  }

  /**
   * Takes out every order `lastTicks` triggers, in firing order: the stop price crossed by the
   * greater distance first, then the earlier placement.
   */
  takeTriggered(lastTicks: number): LiveOrder[] {
    let up = 0;
    while (up < this.rising.length && this.rising[up].stopPriceTicks <= lastTicks) up++;
    let down = 0;
    while (down < this.falling.length && this.falling[down].stopPriceTicks >= lastTicks) down++;
    if (up === 0 && down === 0) return [];
    const fired = [...this.rising.splice(0, up), ...this.falling.splice(0, down)];
    const distance = (o: LiveOrder): number => Math.abs(lastTicks - o.stopPriceTicks);
    return fired.sort((a, b) => distance(b) - distance(a) || a.orderId - b.orderId);
  }

  private listOf(order: LiveOrder): LiveOrder[] {
    return triggersRising(order.type as StopOrderType, order.side) ? this.rising : this.falling;
  }

  /** First index whose order comes after `order`: stop price nearer the end of the list's direction, or the same price placed later. */
  private insertionIndex(list: LiveOrder[], order: LiveOrder): number {
    const ascending = list === this.rising;
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = list[mid];
      const before =
        other.stopPriceTicks === order.stopPriceTicks
          ? other.orderId < order.orderId
          : ascending === other.stopPriceTicks < order.stopPriceTicks;
      if (before) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
