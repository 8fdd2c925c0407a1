import { reject } from '../core/errors.js';
import type { OrderBook } from '../engine/order-book.js';
import type { SymbolSpec } from '../engine/symbol-spec.js';
import { ClientOrderIds } from './client-order-ids.js';
import type { LiveOrder } from './live-order.js';
import { DEFAULT_CORE_LIMITS, DEFAULT_RATE_LIMIT_SETTINGS, type CoreLimits, type RateLimitSettings } from './trading-config.js';

export interface SymbolState {
  spec: SymbolSpec;
  book: OrderBook;
}

/** What spot trading holds: symbols with their books, live orders, client order ids, order limits, id counters. */
export class SpotState {
  readonly symbols = new Map<string, SymbolState>();
  readonly liveOrders = new Map<number, LiveOrder>();
  /** Open order ids per account, in creation order. */
  readonly openOrdersByAccount = new Map<number, Set<number>>();
  /** Every client order id an account ever used (docs/spot-api.md "Client order ids"), → order id. */
  clientOrderIds = new ClientOrderIds();
  limits: CoreLimits = { ...DEFAULT_CORE_LIMITS };
  /** Rate limits of the trading config, which the API's limiter follows after each commit. */
  rateLimits: RateLimitSettings = { ...DEFAULT_RATE_LIMIT_SETTINGS };
  nextOrderId = 1;
  nextTradeId = 1;

  symbol(symbol: string): SymbolState {
    return this.symbols.get(symbol) ?? reject('INVALID_SYMBOL');
  }

  openOrderIdsOf(accountId: number): Set<number> {
    let ids = this.openOrdersByAccount.get(accountId);
    if (ids === undefined) {
      ids = new Set();
      this.openOrdersByAccount.set(accountId, ids);
    }
    return ids;
  }
}
