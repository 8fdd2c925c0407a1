/**
 * Error frames of the market streams (docs/websocket.md "Market stream"): the platform's codes, as strings, with its
 * `desc` texts. The request that earned one is not applied.
 */
export const MARKET_ERRORS = {
  INVALID_REQUEST: { code: '-10000', desc: 'Invalid request!' },
  TOO_MANY_SUBSCRIPTIONS: { code: '-10000', desc: 'Too many subscriptions!' },
  INVALID_JSON: { code: '-10001', desc: 'Invalid JSON!' },
  INVALID_EVENT: { code: '-10002', desc: 'Invalid event!' },
  EVENT_REQUIRED: { code: '-10003', desc: 'Event required!' },
  INVALID_TOPIC: { code: '-10004', desc: 'Invalid topic!' },
  TOPIC_REQUIRED: { code: '-10005', desc: 'Topic required!' },
  INVALID_PERIOD: { code: '-10009', desc: 'Invalid period!' },
  INVALID_SYMBOLS: { code: '-100010', desc: 'Invalid Symbols!' },
} as const;

export type MarketErrorName = keyof typeof MARKET_ERRORS;

/** A request's `id`, echoed as sent; absent when the request had none. */
export type RequestId = string | number | undefined;

/** `{"id":…,"code":…,"desc":…}`, `id` only when the request had one. */
export function errorFrame(name: MarketErrorName, id: RequestId): string {
  const { code, desc } = MARKET_ERRORS[name];
  return JSON.stringify(id === undefined ? { code, desc } : { id, code, desc });
}
