import { formatUnits } from '../core/decimal.js';
import type { OrderRow, OrderStatus, OrderType, Side, StopOrderType, TimeInForce } from '../core/types.js';
import type { SymbolSpec } from '../engine/symbol-spec.js';
import { perSpec } from './per-spec.js';

/** An order the core still tracks: open (resting) or being processed in the current command. */
export interface LiveOrder {
  orderId: number;
  accountId: number;
  symbol: string;
  clientOrderId: string;
  side: Side;
  type: OrderType;
  timeInForce: TimeInForce;
  /** Limit price in ticks; 0 for MARKET. */
  priceTicks: number;
  /** Ordered base lots; 0 for a MARKET BUY, which is sized by `quoteAmountAtoms`. */
  origLots: number;
  /** MARKET BUY: the quote amount to spend; else 0. */
  quoteAmountAtoms: bigint;
  executedLots: number;
  cumQuoteAtoms: bigint;
  /** Atoms this order still holds locked (quote for BUY, base for SELL). */
  lockedAtoms: bigint;
  status: OrderStatus;
  time: number;
  updateTime: number;
  /** A stop order's trigger price in ticks; 0 for any other order. */
  stopPriceTicks: number;
  /** An iceberg's visible part in lots; 0 for any other order. */
  icebergLots: number;
  /** A stop order waiting for its trigger: out of the book and of the open-order counts. */
  untriggered: boolean;
}

export function isOpenStatus(status: OrderStatus): boolean {
  return status === 'NEW' || status === 'PARTIALLY_FILLED';
}

/** The kind of order a type works as once triggered (docs/spot-api.md "Stop and iceberg orders"): a stop-market fires a MARKET order, a stop-limit a LIMIT one. */
export function workingType(type: OrderType): 'LIMIT' | 'MARKET' | 'LIMIT_MAKER' {
  switch (type) {
    case 'STOP_LOSS':
    case 'TAKE_PROFIT':
      return 'MARKET';
    case 'STOP_LOSS_LIMIT':
    case 'TAKE_PROFIT_LIMIT':
      return 'LIMIT';
    default:
      return type;
  }
}

/** A stop type is one that works as another once triggered: derived from `workingType`, so the list is written once. */
export function isStopType(type: OrderType): type is StopOrderType {
  return workingType(type) !== type;
}

/** True for a stop that fires when the last price rises to its stop price (BUY stop-loss, SELL take-profit); false for one that fires when it falls to it. */
export function triggersRising(type: StopOrderType, side: Side): boolean {
  const isStopLoss = type === 'STOP_LOSS' || type === 'STOP_LOSS_LIMIT';
  return isStopLoss === (side === 'BUY');
}

/** Entries a text cache holds before it starts afresh: a bound on memory, far above a book's working set. */
const TEXT_CACHE_LIMIT = 4096;

/**
 * Decimal texts of one symbol's prices (by tick count) and base quantities (by lot count). The
 * same few hundred values recur on every order, trade and event row; formatting each once keeps
 * bigint arithmetic and string building off the matching path.
 */
class AmountTexts {
  private readonly prices = new Map<number, string>();
  private readonly quantities = new Map<number, string>();

  constructor(private readonly spec: SymbolSpec) {}

  price(ticks: number): string {
    let text = this.prices.get(ticks);
    if (text === undefined) {
      if (this.prices.size >= TEXT_CACHE_LIMIT) this.prices.clear();
      text = formatUnits(BigInt(ticks) * this.spec.tickSizeAtto, 18);
      this.prices.set(ticks, text);
    }
    return text;
  }

  quantity(lots: number): string {
    let text = this.quantities.get(lots);
    if (text === undefined) {
      if (this.quantities.size >= TEXT_CACHE_LIMIT) this.quantities.clear();
      text = formatUnits(BigInt(lots) * this.spec.baseAtomsPerLot, this.spec.basePrecision);
      this.quantities.set(lots, text);
    }
    return text;
  }
}

/** The symbol's cached amount texts. */
export const amountTexts = perSpec((spec) => new AmountTexts(spec));

/** The order's record in its current state, as the store keeps it. */
export function toOrderRow(order: LiveOrder, spec: SymbolSpec): OrderRow {
  const isMarketBuy = order.side === 'BUY' && workingType(order.type) === 'MARKET';
  const texts = amountTexts(spec);
  return {
    orderId: order.orderId,
    accountId: order.accountId,
    symbol: order.symbol,
    clientOrderId: order.clientOrderId,
    side: order.side,
    type: order.type,
    timeInForce: order.timeInForce,
    price: texts.price(order.priceTicks),
    origQty: isMarketBuy ? formatUnits(order.quoteAmountAtoms, spec.quotePrecision) : texts.quantity(order.origLots),
    executedQty: texts.quantity(order.executedLots),
    cummulativeQuoteQty: formatUnits(order.cumQuoteAtoms, spec.quotePrecision),
    status: order.status,
    stopPrice: order.stopPriceTicks === 0 ? '0' : texts.price(order.stopPriceTicks),
    icebergQty: order.icebergLots === 0 ? '0' : texts.quantity(order.icebergLots),
    isWorking: !order.untriggered && isOpenStatus(order.status),
    time: order.time,
    updateTime: order.updateTime,
  };
}
