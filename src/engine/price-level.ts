import type { RestingOrder } from './resting-order.js';

/** All resting orders at one price, oldest first (time priority). */
export class PriceLevel {
  head: RestingOrder | null = null;
  tail: RestingOrder | null = null;
  totalLots = 0;
  orderCount = 0;

  constructor(readonly priceTicks: number) {}

  append(order: RestingOrder): void {
    order.level = this;
    order.prev = this.tail;
    order.next = null;
    if (this.tail === null) this.head = order;
    else this.tail.next = order;
    this.tail = order;
    this.totalLots += order.remainingLots;
    this.orderCount++;
  }

  remove(order: RestingOrder): void {
    if (order.prev === null) this.head = order.next;
    else order.prev.next = order.next;
    if (order.next === null) this.tail = order.prev;
    else order.next.prev = order.prev;
    this.totalLots -= order.remainingLots;
    this.orderCount--;
    order.prev = null;
    order.next = null;
    order.level = null;
  }

  /** Reduces a resting order's quantity after a partial fill. */
  reduce(order: RestingOrder, lots: number): void {
    order.remainingLots -= lots;
    this.totalLots -= lots;
  }
}
