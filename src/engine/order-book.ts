import { BookSide } from './book-side.js';
import { RestingOrder } from './resting-order.js';

/** The order of a taker while it matches. */
export interface Taker {
  accountId: number;
  isBuy: boolean;
  /** Worst price it accepts, in ticks; null for a MARKET order. */
  limitTicks: number | null;
  /** Lots still wanted (LIMIT, LIMIT_MAKER, MARKET SELL). Ignored when `quoteBudget` is set. */
  remainingLots: number;
  /** MARKET BUY: quote atoms still to spend; lots per level are bounded by what it can pay. */
  quoteBudget: bigint | null;
  /** Quote atoms of one tick × one lot: the price of a lot at one tick. */
  quoteAtomsPerTickLot: bigint;
}

/** One match between the taker and a resting order, at the resting order's price. */
export interface Fill {
  maker: RestingOrder;
  lots: number;
  priceTicks: number;
  /** True when this fill completed the maker (it has left the book). */
  makerDone: boolean;
}

/** Lots of an iceberg's visible part when `lots` remain of it: its peak, or the rest when smaller. */
function visiblePart(lots: number, peakLots: number): number {
  return peakLots > 0 && lots > peakLots ? peakLots : lots;
}

/** Why matching stopped. */
export type StopReason =
  | 'complete' // nothing left to fill (MARKET BUY: the rest cannot buy one lot at the next level)
  | 'price' // the next level is beyond the limit price
  | 'empty' // the opposite side ran out
  | 'self'; // the next resting order belongs to the taker's account (expire taker, docs/spot-api.md "Matching and self-trade prevention")

/**
 * A price-time priority book of one symbol. Pure and synchronous: it knows orders only by ids,
 * accounts, ticks and lots; money and time belong to its caller.
 */
export class OrderBook {
  readonly bids = new BookSide(true);
  readonly asks = new BookSide(false);
  private readonly resting = new Map<number, RestingOrder>();
  /** Book version: +1 per change of its levels (A5 `lastUpdateId`). */
  version = 0;

  get size(): number {
    return this.resting.size;
  }

  get(orderId: number): RestingOrder | undefined {
    return this.resting.get(orderId);
  }

  /**
   * Places a resting order; the caller made sure it does not cross. An iceberg (`peakLots` > 0)
   * shows `visibleLots` of its `lots` (by default its peak, or all when fewer).
   */
  add(orderId: number, accountId: number, isBuy: boolean, priceTicks: number, lots: number, peakLots = 0, visibleLots = visiblePart(lots, peakLots)): RestingOrder {
    if (lots <= 0) throw new Error(`resting order ${orderId} needs lots > 0`);
    if (visibleLots <= 0 || visibleLots > lots) throw new Error(`resting order ${orderId} shows ${visibleLots} of ${lots} lots`);
    if (this.resting.has(orderId)) throw new Error(`order ${orderId} already rests`);
    const order = new RestingOrder(orderId, accountId, isBuy, priceTicks, visibleLots);
    if (peakLots > 0) {
      order.peakLots = peakLots;
      order.hiddenLots = lots - visibleLots;
    }
    (isBuy ? this.bids : this.asks).add(order);
    this.resting.set(orderId, order);
    this.version++;
    return order;
  }

  /** Removes a resting order in O(1); undefined if it does not rest here. */
  cancel(orderId: number): RestingOrder | undefined {
    const order = this.resting.get(orderId);
    if (order === undefined) return undefined;
    (order.isBuy ? this.bids : this.asks).remove(order);
    this.resting.delete(orderId);
    this.version++;
    return order;
  }

  /** True when an order at this price would match the best opposite level, whoever rests there. */
  wouldCross(isBuy: boolean, priceTicks: number): boolean {
    const best = (isBuy ? this.asks : this.bids).best();
    if (best === undefined) return false;
    return isBuy ? priceTicks >= best.priceTicks : priceTicks <= best.priceTicks;
  }

  /**
   * Lots a FOK taker could fill now: opposite liquidity within its limit, counted up to the first
   * resting order of its own account (where self-trade prevention would stop it). An iceberg's
   * hidden lots count when nothing of the account rests at its level: its refills join the back
   * of that level, behind any order of the account there.
   */
  fillableLots(isBuy: boolean, limitTicks: number, accountId: number, wantedLots: number): number {
    let lots = 0;
    for (const level of (isBuy ? this.asks : this.bids).levelsBestFirst()) {
      if (isBuy ? level.priceTicks > limitTicks : level.priceTicks < limitTicks) break;
      let hidden = 0;
      for (let order = level.head; order !== null; order = order.next) {
        if (order.accountId === accountId) return lots;
        lots += order.remainingLots;
        hidden += order.hiddenLots;
        if (lots >= wantedLots) return lots;
      }
      lots += hidden;
      if (lots >= wantedLots) break;
    }
    return lots;
  }

  /**
   * Matches a taker against the opposite side, best price first, oldest first within a price.
   * Pushes each fill to `fills`, updates the taker's remaining lots or budget, and says why it stopped.
   */
  match(taker: Taker, fills: Fill[]): StopReason {
    const side = taker.isBuy ? this.asks : this.bids;
    while (true) {
      const level = side.best();
      if (level === undefined) return 'empty';
      const price = level.priceTicks;
      if (taker.limitTicks !== null && (taker.isBuy ? price > taker.limitTicks : price < taker.limitTicks)) {
        return 'price';
      }
      let affordable = taker.remainingLots;
      if (taker.quoteBudget !== null) {
        affordable = Number(taker.quoteBudget / (BigInt(price) * taker.quoteAtomsPerTickLot));
        if (affordable === 0) return 'complete';
      }
      const maker = level.head;
      if (maker === null) throw new Error(`empty level ${price}`);
      if (maker.accountId === taker.accountId) return 'self';
      const lots = Math.min(affordable, maker.remainingLots);
      let makerDone = lots === maker.remainingLots;
      if (makerDone && maker.hiddenLots > 0) {
        // An iceberg's visible part is gone: its next part joins the back of the level (time priority lost).
        level.remove(maker);
        maker.remainingLots = visiblePart(maker.hiddenLots, maker.peakLots);
        maker.hiddenLots -= maker.remainingLots;
        level.append(maker);
        makerDone = false;
      } else if (makerDone) {
        side.remove(maker);
        this.resting.delete(maker.orderId);
        maker.remainingLots = 0;
      } else {
        level.reduce(maker, lots);
      }
      this.version++;
      fills.push({ maker, lots, priceTicks: price, makerDone });
      if (taker.quoteBudget !== null) {
        taker.quoteBudget -= BigInt(lots) * BigInt(price) * taker.quoteAtomsPerTickLot;
        if (taker.quoteBudget === 0n) return 'complete';
      } else {
        taker.remainingLots -= lots;
        if (taker.remainingLots === 0) return 'complete';
      }
    }
  }
}
