/** The order types the form offers, and how each one works (docs/spot-api.md "Order types and time in force", "Stop and iceberg orders"). */
export const BASIC_ORDER_TYPES = ['LIMIT', 'MARKET', 'LIMIT_MAKER'] as const;
/** Offered only while the symbol's `icebergAllowed` says the operator has turned the algoOrders option on. */
export const STOP_ORDER_TYPES = ['STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'] as const;
export type StopOrderType = (typeof STOP_ORDER_TYPES)[number];
export type OrderType = (typeof BASIC_ORDER_TYPES)[number] | StopOrderType;

export const TYPE_LABELS: Readonly<Record<OrderType, string>> = {
  LIMIT: 'Limit',
  MARKET: 'Market',
  LIMIT_MAKER: 'Limit maker (post only)',
  STOP_LOSS: 'Stop loss (market)',
  STOP_LOSS_LIMIT: 'Stop loss limit',
  TAKE_PROFIT: 'Take profit (market)',
  TAKE_PROFIT_LIMIT: 'Take profit limit',
};

export function isStop(type: OrderType): type is StopOrderType {
  return (STOP_ORDER_TYPES as readonly string[]).includes(type);
}

/** The order a type places, or fires when triggered: a stop-market a MARKET order, a stop-limit a LIMIT one. */
export function worksAs(type: OrderType): (typeof BASIC_ORDER_TYPES)[number] {
  if (type === 'STOP_LOSS' || type === 'TAKE_PROFIT') return 'MARKET';
  if (type === 'STOP_LOSS_LIMIT' || type === 'TAKE_PROFIT_LIMIT') return 'LIMIT';
  return type;
}

/** True for a stop that fires when the last price rises to its stop price (a BUY stop-loss, a SELL take-profit). */
export function firesOnRise(type: StopOrderType, side: 'BUY' | 'SELL'): boolean {
  return type.startsWith('STOP_LOSS') === (side === 'BUY');
}
