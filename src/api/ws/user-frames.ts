import { formatUnits } from '../../core/decimal.js';
import type { BalanceEvent, OrderEvent } from '../../core/types.js';
import type { ExecutionReport, OutboundAccountInfo, TicketInfo } from './user-frame-types.js';

/** The frames of the user data stream (docs/websocket.md "User data stream" "Events", shapes in user-frame-types.ts), built from the core's events. */

/** `executionReport`: the order after the event, and the fill when the event is one. */
export function executionReport(event: OrderEvent): ExecutionReport {
  const { order, fill } = event;
  return {
    e: 'executionReport',
    E: String(event.time),
    s: order.symbol,
    c: order.clientOrderId,
    S: order.side,
    o: order.type,
    f: order.timeInForce,
    q: order.origQty,
    p: order.price,
    X: order.status,
    i: String(order.orderId),
    M: fill === undefined ? '0' : String(fill.matchOrderId),
    l: fill?.qty ?? '0',
    z: order.executedQty,
    L: fill?.price ?? '0',
    n: fill?.commission ?? '0',
    N: fill?.commissionAsset ?? '',
    u: true,
    w: order.isWorking,
    m: fill?.isMaker ?? false,
    O: String(order.time),
    Z: order.cummulativeQuoteQty,
    P: order.stopPrice,
    F: order.icebergQty,
  };
}

/** `ticketInfo` of a fill event, from the side of the order it belongs to. */
export function ticketInfo(event: OrderEvent): TicketInfo {
  const { order, fill } = event;
  if (fill === undefined) throw new Error(`order event ${order.orderId} at seq ${event.seq} is not a fill`);
  return {
    e: 'ticketInfo',
    E: String(event.time),
    s: order.symbol,
    q: fill.qty,
    t: String(event.time),
    p: fill.price,
    T: String(fill.tradeId),
    o: String(order.orderId),
    c: order.clientOrderId,
    O: String(fill.matchOrderId),
    a: String(event.accountId),
    m: fill.isMaker,
    S: order.side,
  };
}

/** `outboundAccountInfo`: the changed assets; `T`/`W` as A19's canTrade/canWithdraw for the listenKey's key. */
export function outboundAccountInfo(event: BalanceEvent, canTrade: boolean, canWithdraw: boolean): OutboundAccountInfo {
  return {
    e: 'outboundAccountInfo',
    E: String(event.time),
    T: canTrade,
    W: canWithdraw,
    D: true,
    B: event.balances.map((b) => ({ a: b.asset, f: formatUnits(b.free, b.precision), l: formatUnits(b.locked, b.precision) })),
  };
}
