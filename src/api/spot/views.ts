import { fractionDigits, formatUnits, parseDecimal, quotientUnits } from '../../core/decimal.js';
import type { OrderRow } from '../../core/types.js';
import type { SymbolSpec } from '../../engine/symbol-spec.js';
import type { FillView } from '../../exchange/order-commands.js';

/** The platform's spot engine id, also a stream symbol prefix (docs/spot-api.md "Exchange information"). */
export const EXCHANGE_ID = '301';

/** Canonical decimal text of an atto value. */
export function attoText(atto: bigint): string {
  return formatUnits(atto, 18);
}

/** `cummulativeQuoteQty / executedQty`, truncated to the symbol's quote precision (its tick decimals). */
export function averagePrice(row: OrderRow, spec: SymbolSpec | undefined): string {
  const quote = parseDecimal(row.cummulativeQuoteQty) ?? 0n;
  const base = parseDecimal(row.executedQty) ?? 0n;
  if (base === 0n) return '0';
  const scale = spec === undefined ? 18 : fractionDigits(spec.tickSizeAtto);
  return formatUnits(quotientUnits(quote, base, scale), scale);
}

/** The order record of docs/spot-api.md "Orders". */
export function orderRecord(row: OrderRow, spec: SymbolSpec | undefined): Record<string, unknown> {
  return {
    accountId: String(row.accountId),
    exchangeId: EXCHANGE_ID,
    symbol: row.symbol,
    symbolName: row.symbol,
    orderId: String(row.orderId),
    clientOrderId: row.clientOrderId,
    price: row.price,
    origQty: row.origQty,
    executedQty: row.executedQty,
    cummulativeQuoteQty: row.cummulativeQuoteQty,
    avgPrice: averagePrice(row, spec),
    status: row.status,
    timeInForce: row.timeInForce,
    type: row.type,
    side: row.side,
    stopPrice: row.stopPrice,
    icebergQty: row.icebergQty,
    time: String(row.time),
    updateTime: String(row.updateTime),
    isWorking: row.isWorking,
  };
}

/** A11's reply: the record after the engine step, `transactTime` and the taker's fills. */
export function newOrderReply(row: OrderRow, spec: SymbolSpec, fills: readonly FillView[]): Record<string, unknown> {
  // The record's members, then these two, in that order: added to the record, not spread into a
  // new literal, which V8 builds on a slow path at several times the cost.
  const reply = orderRecord(row, spec);
  reply.transactTime = String(row.time);
  reply.fills = fills.map((f) => ({
    price: f.price,
    qty: f.qty,
    commission: f.commission,
    commissionAsset: f.commissionAsset,
    tradeId: String(f.tradeId),
  }));
  return reply;
}
