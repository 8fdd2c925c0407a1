import { reject } from '../core/errors.js';
import type { Account } from '../ledger/account.js';
import { OrderBook } from '../engine/order-book.js';
import type { SymbolSpec } from '../engine/symbol-spec.js';
import { ClientOrderIds } from './client-order-ids.js';
import type { LiveOrder } from './live-order.js';
import { StopOrders } from './stop-orders.js';
import { DEFAULT_ALGO_SETTINGS, DEFAULT_CORE_LIMITS, DEFAULT_RATE_LIMIT_SETTINGS, type AlgoSettings, type CoreLimits, type RateLimitSettings } from './trading-config.js';

export interface SymbolState {
  spec: SymbolSpec;
  book: OrderBook;
  /** The last trade's price in ticks, 0 before the first: what stop orders are placed against and fired by. */
  lastPriceTicks: number;
  /** Untriggered stop orders. */
  stops: StopOrders;
}

export function newSymbolState(spec: SymbolSpec, book: OrderBook = new OrderBook()): SymbolState {
  return { spec, book, lastPriceTicks: 0, stops: new StopOrders() };
}

/** An account's untriggered stop orders: the counts MAX_NUM_ALGO_ORDERS and BROKER_MAX_NUM_ALGO_ORDERS bound. */
export interface AlgoCounts {
  total: number;
  bySymbol: Map<string, number>;
}

/** A per-symbol count moved by `delta`; a symbol whose count reaches 0 leaves the map. */
function addToSymbolCount(bySymbol: Map<string, number>, symbol: string, delta: number): void {
  const left = (bySymbol.get(symbol) ?? 0) + delta;
  if (left > 0) bySymbol.set(symbol, left);
  else bySymbol.delete(symbol);
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
  algo: AlgoSettings = { ...DEFAULT_ALGO_SETTINGS };
  readonly algoCounts = new Map<number, AlgoCounts>();
  /** Rate limits of the trading config, which the API's limiter follows after each commit. */
  rateLimits: RateLimitSettings = { ...DEFAULT_RATE_LIMIT_SETTINGS };
  nextOrderId = 1;
  nextTradeId = 1;

  symbol(symbol: string): SymbolState {
    return this.symbols.get(symbol) ?? reject('INVALID_SYMBOL');
  }

  algoCountsOf(accountId: number): AlgoCounts {
    let counts = this.algoCounts.get(accountId);
    if (counts === undefined) {
      counts = { total: 0, bySymbol: new Map() };
      this.algoCounts.set(accountId, counts);
    }
    return counts;
  }

  /** Counts an account's untriggered stop order in or out (`delta` 1 or -1). */
  countAlgoOrder(accountId: number, symbol: string, delta: 1 | -1): void {
    const counts = this.algoCountsOf(accountId);
    counts.total += delta;
    addToSymbolCount(counts.bySymbol, symbol, delta);
    if (counts.total === 0) this.algoCounts.delete(accountId);
  }

  /** Counts an account's working open order in or out of MAX_NUM_ORDERS and BROKER_MAX_NUM_ORDERS (`delta` 1 or -1). */
  countOpenOrder(account: Account, symbol: string, delta: 1 | -1): void {
    account.openOrderCount += delta;
    addToSymbolCount(account.openOrdersBySymbol, symbol, delta);
  }

  /** An order becomes live: in the live orders and its account's open set, resting or waiting for its trigger. */
  keep(order: LiveOrder): void {
    this.liveOrders.set(order.orderId, order);
    this.openOrderIdsOf(order.accountId).add(order.orderId);
  }

  /** An order leaves the live orders and its account's open set. */
  forget(order: LiveOrder): void {
    this.liveOrders.delete(order.orderId);
    this.openOrderIdsOf(order.accountId).delete(order.orderId);
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
