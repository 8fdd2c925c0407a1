import { PriceLevel } from './price-level.js';
import type { RestingOrder } from './resting-order.js';

/** Price ticks one bucket covers: its occupied slots fit two 32-bit words. */
const BUCKET_TICKS = 64;

/** The levels of BUCKET_TICKS consecutive prices, with a bit per occupied price. */
class Bucket {
  readonly levels: (PriceLevel | undefined)[] = new Array<PriceLevel | undefined>(BUCKET_TICKS).fill(undefined);
  /** Occupied slots 0–31. */
  low = 0;
  /** Occupied slots 32–63. */
  high = 0;

  constructor(readonly key: number) {}

  isEmpty(): boolean {
    return this.low === 0 && this.high === 0;
  }

  set(slot: number, level: PriceLevel | undefined): void {
    this.levels[slot] = level;
    const bit = 1 << (slot & 31);
    if (slot < 32) this.low = level === undefined ? this.low & ~bit : this.low | bit;
    else this.high = level === undefined ? this.high & ~bit : this.high | bit;
  }

  /** The occupied slot nearest the top (highest) at or below `from`, or -1. */
  highestAtOrBelow(from: number): number {
    if (from >= 32) {
      const high = from === 63 ? this.high : this.high & ((1 << (from - 31)) - 1);
      if (high !== 0) return 63 - Math.clz32(high);
      from = 31;
    }
    const low = from === 31 ? this.low : this.low & ((1 << (from + 1)) - 1);
    return low === 0 ? -1 : 31 - Math.clz32(low);
  }

  /** The occupied slot nearest the bottom (lowest) at or above `from`, or -1. */
  lowestAtOrAbove(from: number): number {
    if (from < 32) {
      const low = this.low & ~((1 << from) - 1);
      if (low !== 0) return lowestBit(low);
      from = 32;
    }
    const high = this.high & ~((1 << (from - 32)) - 1);
    return high === 0 ? -1 : 32 + lowestBit(high);
  }
}

function lowestBit(word: number): number {
  return 31 - Math.clz32(word & -word);
}

/**
 * One side of a book. Levels sit in buckets of BUCKET_TICKS consecutive prices, found by price
 * through a map and ordered through a short array of bucket keys sorted from worst to best price
 * (the best bucket last). A level is added or dropped by setting a slot and a bit; the sorted array
 * changes only when a bucket fills or empties. A sorted array of levels, spliced on every new or
 * emptied price, cost the engine a third of its time on a book of 1,000 orders at ~350 prices a side.
 */
export class BookSide {
  private readonly buckets = new Map<number, Bucket>();
  /** The non-empty buckets, worst to best. */
  private readonly order: Bucket[] = [];
  private readonly byPrice = new Map<number, PriceLevel>();
  /** Kept at every change: matching asks for it once per fill. */
  private bestLevel: PriceLevel | undefined = undefined;

  constructor(readonly isBid: boolean) {}

  best(): PriceLevel | undefined {
    return this.bestLevel;
  }

  private findBest(): PriceLevel | undefined {
    const bucket = this.order[this.order.length - 1];
    if (bucket === undefined) return undefined;
    return bucket.levels[this.isBid ? bucket.highestAtOrBelow(BUCKET_TICKS - 1) : bucket.lowestAtOrAbove(0)];
  }

  levelCount(): number {
    return this.byPrice.size;
  }

  add(order: RestingOrder): void {
    let level = this.byPrice.get(order.priceTicks);
    if (level === undefined) {
      level = new PriceLevel(order.priceTicks);
      this.byPrice.set(order.priceTicks, level);
      const key = Math.floor(order.priceTicks / BUCKET_TICKS);
      let bucket = this.buckets.get(key);
      if (bucket === undefined) {
        bucket = new Bucket(key);
        this.buckets.set(key, bucket);
        this.order.splice(this.insertionIndex(key), 0, bucket);
      }
      bucket.set(order.priceTicks - key * BUCKET_TICKS, level);
      const best = this.bestLevel;
      if (best === undefined || (this.isBid ? order.priceTicks > best.priceTicks : order.priceTicks < best.priceTicks)) this.bestLevel = level;
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
    if (this.byPrice.get(level.priceTicks) !== level) throw new Error(`level ${level.priceTicks} not found`);
    this.byPrice.delete(level.priceTicks);
    const key = Math.floor(level.priceTicks / BUCKET_TICKS);
    const bucket = this.buckets.get(key) as Bucket;
    bucket.set(level.priceTicks - key * BUCKET_TICKS, undefined);
    if (bucket.isEmpty()) {
      this.buckets.delete(key);
      const last = this.order.length - 1;
      if (this.order[last] === bucket) {
        this.order.pop();
      } else {
        const index = this.insertionIndex(key) - 1;
        if (this.order[index] !== bucket) throw new Error(`bucket ${key} not found`);
        this.order.splice(index, 1);
      }
    }
    if (this.bestLevel === level) this.bestLevel = this.findBest();
  }

  /** Levels best first, at most `limit` of them. */
  topLevels(limit: number): PriceLevel[] {
    const out: PriceLevel[] = [];
    if (limit <= 0) return out;
    for (const level of this.levelsBestFirst()) {
      out.push(level);
      if (out.length >= limit) break;
    }
    return out;
  }

  /** Levels best first, lazily: a reader that stops early walks no further. */
  *levelsBestFirst(): Generator<PriceLevel> {
    for (let k = this.order.length - 1; k >= 0; k--) {
      const bucket = this.order[k];
      if (this.isBid) {
        for (let slot = bucket.highestAtOrBelow(BUCKET_TICKS - 1); slot >= 0; slot = slot === 0 ? -1 : bucket.highestAtOrBelow(slot - 1)) {
          yield bucket.levels[slot] as PriceLevel;
        }
      } else {
        for (let slot = bucket.lowestAtOrAbove(0); slot >= 0; slot = slot === BUCKET_TICKS - 1 ? -1 : bucket.lowestAtOrAbove(slot + 1)) {
          yield bucket.levels[slot] as PriceLevel;
        }
      }
    }
  }

  /** Every resting order of this side, best price first, then time priority. */
  *orders(): Generator<RestingOrder> {
    for (const level of this.levelsBestFirst()) {
      for (let order = level.head; order !== null; order = order.next) yield order;
    }
  }

  /** First index in `order` whose bucket is better than `key` (worst-to-best order). */
  private insertionIndex(key: number): number {
    let low = 0;
    let high = this.order.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const k = this.order[mid].key;
      const isBetterOrEqual = this.isBid ? k > key : k < key;
      if (isBetterOrEqual) high = mid;
      else low = mid + 1;
    }
    return low;
  }
}
