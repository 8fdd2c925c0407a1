import { formatUnits } from '../core/decimal.js';
import type { OrderRow, OrderStatus, OrderType, Side, TimeInForce } from '../core/types.js';
import type { SymbolSpec } from '../engine/symbol-spec.js';

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
}

export function isOpenStatus(status: OrderStatus): boolean {
  return status === 'NEW' || status === 'PARTIALLY_FILLED';
}

/** The order's record in its current state, as the store keeps it. */
export function toOrderRow(order: LiveOrder, spec: SymbolSpec): OrderRow {
  const isMarketBuy = order.type === 'MARKET' && order.side === 'BUY';
  return {
    orderId: order.orderId,
    accountId: order.accountId,
    symbol: order.symbol,
    clientOrderId: order.clientOrderId,
    side: order.side,
    type: order.type,
    timeInForce: order.timeInForce,
    price: formatUnits(BigInt(order.priceTicks) * spec.tickSizeAtto, 18),
    origQty: isMarketBuy
      ? formatUnits(order.quoteAmountAtoms, spec.quotePrecision)
      : formatUnits(BigInt(order.origLots) * spec.baseAtomsPerLot, spec.basePrecision),
    executedQty: formatUnits(BigInt(order.executedLots) * spec.baseAtomsPerLot, spec.basePrecision),
    cummulativeQuoteQty: formatUnits(order.cumQuoteAtoms, spec.quotePrecision),
    status: order.status,
    time: order.time,
    updateTime: order.updateTime,
  };
}
