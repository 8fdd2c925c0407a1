/**
 * The fields of an A11, A13 or A14 record of a LIMIT GTC BUY on ETHUSDT that its life does not
 * change (docs/spot-api.md "Orders"): spread into a full expected record, the rest of which each test spells out.
 */
export const ETHUSDT_LIMIT_GTC_BUY = {
  exchangeId: '301',
  symbol: 'ETHUSDT',
  symbolName: 'ETHUSDT',
  timeInForce: 'GTC',
  type: 'LIMIT',
  side: 'BUY',
  stopPrice: '0',
  icebergQty: '0',
} as const;
