import type { BookSide } from '../../engine/book-side.js';
import type { SymbolState } from '../../exchange/spot-module.js';
import { bookLevels, levelQty, priceText, type LevelChanges } from '../spot/market-views.js';

/**
 * Levels per side a diffDepth stream follows: "the whole book" (docs/websocket.md "Market stream") up to this bound,
 * so one frame stays bounded; a level pushed beyond it is sent as deleted.
 */
export const MAX_DIFF_LEVELS = 5000;

/** Lots per price (ticks) of a side's best `MAX_DIFF_LEVELS` levels. */
function sideLevels(side: BookSide): Map<number, number> {
  return new Map(side.topLevels(MAX_DIFF_LEVELS).map((level) => [level.priceTicks, level.totalLots]));
}

/** `[price, qty]` of the levels that differ from `before`, best first; a vanished one with qty `"0"`. */
function sideChanges(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>, isBid: boolean, state: SymbolState): [string, string][] {
  const changed: [number, number][] = [];
  for (const [price, lots] of after) if (before.get(price) !== lots) changed.push([price, lots]);
  for (const price of before.keys()) if (!after.has(price)) changed.push([price, 0]);
  changed.sort((x, y) => (isBid ? y[0] - x[0] : x[0] - y[0]));
  return changed.map(([price, lots]) => [priceText(price, state), lots === 0 ? '0' : levelQty(lots, state)]);
}

/** The whole book (to the bound), best first: a diffDepth snapshot. */
export function wholeBook(state: SymbolState): LevelChanges {
  return bookLevels(state, MAX_DIFF_LEVELS);
}

/**
 * One symbol's book as the last diffDepth frames left it, shared by all its diffDepth
 * subscriptions. Changes are absolute level quantities, so a subscriber whose snapshot is newer
 * than the baseline may see a change it already has; applying it again is harmless.
 */
export class DepthBaseline {
  private bids: Map<number, number>;
  private asks: Map<number, number>;
  /** Book version the baseline shows. */
  version: number;

  constructor(private readonly state: SymbolState) {
    this.bids = sideLevels(state.book.bids);
    this.asks = sideLevels(state.book.asks);
    this.version = state.book.version;
  }

  /** The levels changed since the last call, then the book now becomes the baseline. */
  advance(): LevelChanges {
    const book = this.state.book;
    const bids = sideLevels(book.bids);
    const asks = sideLevels(book.asks);
    const changes = { bids: sideChanges(this.bids, bids, true, this.state), asks: sideChanges(this.asks, asks, false, this.state) };
    this.bids = bids;
    this.asks = asks;
    this.version = book.version;
    return changes;
  }
}
