import { Refusal } from './refusal.js';

/**
 * Area A error registry (docs/spot-api.md "Errors"): every `{code, msg}` Bourse sends on REST is built
 * here. Handlers and the core name an error by its code; messages and HTTP statuses live only here.
 */

export interface ErrorSpec {
  readonly msg: string;
  readonly http: number;
  /** Sent as `Retry-After` with the error: the failure is the server's, and passes. */
  readonly retryAfterSec?: number;
}

export const ERRORS = {
  UNKNOWN_PATH: { code: -1000, msg: 'Unknown path or method.', http: 404 },
  BODY_TOO_LARGE: { code: -1000, msg: 'Request body too large.', http: 413 },
  UNSUPPORTED_MEDIA: { code: -1000, msg: 'Unsupported content type.', http: 415 },
  NOT_FOUND: { code: -1000, msg: '%s does not exist.', http: 404 },
  INTERNAL: { code: -1001, msg: 'Internal error; unable to process your request. Please try again.', http: 500 },
  UNAUTHORIZED: { code: -1002, msg: 'You are not authorized to execute this request.', http: 400 },
  TOO_MANY_REQUESTS: { code: -1003, msg: 'Too many requests; current limit is %s requests per %s.', http: 429 },
  IP_BANNED: { code: -1003, msg: 'Way too many requests; IP banned until %s.', http: 418 },
  NO_PERMISSION: { code: -1005, msg: 'No permission for this action.', http: 400 },
  TIMEOUT: {
    code: -1007,
    msg: 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.',
    http: 504,
  },
  TOO_MANY_ORDERS: { code: -1015, msg: 'Too many new orders; current limit is %s orders per %s.', http: 429 },
  SERVICE_UNAVAILABLE: { code: -1016, msg: 'This service is no longer available.', http: 503 },
  // The server's own limits, not the client's: 503, and a retry soon may pass. -1003 keeps its
  // meaning (too many requests: back off and retry), -1016 its meaning (cannot serve this now).
  ENGINE_BUSY: { code: -1003, msg: 'Too many requests; current limit is %s requests waiting for the engine.', http: 503, retryAfterSec: 1 },
  WRITES_SUSPENDED: {
    code: -1016,
    msg: 'This service is no longer available. Writes are suspended: the journal cannot be written (disk full); reads still work, retry later.',
    http: 503,
    retryAfterSec: 5,
  },
  TIMESTAMP_OUTSIDE_RECV_WINDOW: { code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.', http: 400 },
  INVALID_SIGNATURE: { code: -1022, msg: 'Signature for this request is not valid.', http: 400 },
  ILLEGAL_CHARS: { code: -1100, msg: "Illegal characters found in parameter '%s'; legal range is '%s'.", http: 400 },
  DUPLICATE_PARAM: { code: -1101, msg: 'Duplicate values for a parameter detected.', http: 400 },
  MANDATORY_PARAM: { code: -1102, msg: "Mandatory parameter '%s' was not sent, was empty/null, or malformed.", http: 400 },
  ONE_OF_PARAMS: { code: -1102, msg: "Param '%s' or '%s' must be sent, but both were empty/null!", http: 400 },
  PARAM_NOT_REQUIRED: { code: -1106, msg: "Parameter '%s' sent when not required.", http: 400 },
  NO_ORDERS_ON_BOOK: { code: -1112, msg: 'No orders on book for symbol.', http: 400 },
  INVALID_TIF: { code: -1115, msg: 'Invalid timeInForce.', http: 400 },
  INVALID_ORDER_TYPE: { code: -1116, msg: 'Invalid orderType.', http: 400 },
  ORDER_TYPE_UNAVAILABLE: { code: -1116, msg: 'Order type not available.', http: 400 },
  INVALID_SIDE: { code: -1117, msg: 'Invalid side.', http: 400 },
  INVALID_INTERVAL: { code: -1120, msg: 'Invalid interval.', http: 400 },
  INVALID_SYMBOL: { code: -1121, msg: 'Invalid symbol.', http: 400 },
  INVALID_LISTEN_KEY: { code: -1125, msg: 'This listenKey does not exist.', http: 400 },
  INVALID_COMBINATION: { code: -1128, msg: 'Combination of optional parameters invalid.', http: 400 },
  INVALID_PARAM_VALUE: { code: -1130, msg: "Data sent for paramter '%s' is not valid.", http: 400 },
  INSUFFICIENT_BALANCE: { code: -1131, msg: 'Balance insufficient', http: 400 },
  PRICE_TOO_HIGH: { code: -1132, msg: 'Order price too high.', http: 400 },
  PRICE_TOO_LOW: { code: -1133, msg: 'Order price lower than the minimum.', http: 400 },
  PRICE_OFF_TICK: { code: -1134, msg: 'Order price decimal too long.', http: 400 },
  QTY_TOO_LARGE: { code: -1135, msg: 'Order quantity too large.', http: 400 },
  QTY_TOO_SMALL: { code: -1136, msg: 'Order quantity lower than the minimum.', http: 400 },
  QTY_OFF_STEP: { code: -1137, msg: 'Order quantity decimal too long.', http: 400 },
  ORDER_FILLED: { code: -1139, msg: 'Order has been filled.', http: 400 },
  NOTIONAL_TOO_SMALL: { code: -1140, msg: 'Transaction amount lower than the minimum.', http: 400 },
  DUPLICATE_CLIENT_ORDER_ID: { code: -1141, msg: 'Duplicate clientOrderId', http: 400 },
  ORDER_CANCELED: { code: -1142, msg: 'Order has been canceled', http: 400 },
  MARKET_AMOUNT_DECIMALS: { code: -1148, msg: 'Market order amount decimal too long.', http: 400 },
  SYMBOL_NOT_TRADING: { code: -1151, msg: 'Symbol is not open for trading.', http: 400 },
  USER_NOT_FOUND: { code: -1153, msg: 'User does not exist.', http: 400 },
  WOULD_TAKE: { code: -1158, msg: 'Order would immediately match and take.', http: 400 },
  ACCOUNT_NOT_FOUND: { code: -1171, msg: 'Account does not exist.', http: 400 },
  TRANSFER_FAILED: { code: -1172, msg: 'Balance transfer failed: %s', http: 400 },
  REPEATED_SUBMIT: { code: -1174, msg: 'Repeated submit request.', http: 400 },
  MAX_NUM_ORDERS: { code: -2010, msg: 'New order rejected: Filter failure: MAX_NUM_ORDERS.', http: 400 },
  BROKER_MAX_NUM_ORDERS: { code: -2010, msg: 'New order rejected: Filter failure: BROKER_MAX_NUM_ORDERS.', http: 400 },
  WOULD_TRIGGER_IMMEDIATELY: { code: -2010, msg: 'Order would trigger immediately.', http: 400 },
  MAX_NUM_ALGO_ORDERS: { code: -2010, msg: 'New order rejected: Filter failure: MAX_NUM_ALGO_ORDERS.', http: 400 },
  BROKER_MAX_NUM_ALGO_ORDERS: { code: -2010, msg: 'New order rejected: Filter failure: BROKER_MAX_NUM_ALGO_ORDERS.', http: 400 },
  ICEBERG_NOT_GTC: { code: -2010, msg: 'New order rejected: an iceberg order must have timeInForce GTC.', http: 400 },
  ICEBERG_PARTS: { code: -2010, msg: 'New order rejected: Filter failure: ICEBERG_PARTS.', http: 400 },
  ORDER_NOT_FOUND: { code: -2013, msg: 'Order does not exist.', http: 400 },
  API_KEY_FORMAT: { code: -2014, msg: 'API-key format invalid.', http: 400 },
  INVALID_API_KEY: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.', http: 400 },
  // Operator API (docs/operating.md): missing token is 401 -1002, a wrong one 401 -2015.
  ADMIN_UNAUTHORIZED: { code: -1002, msg: 'You are not authorized to execute this request.', http: 401 },
  ADMIN_INVALID_TOKEN: { code: -2015, msg: 'Invalid admin token.', http: 401 },
} as const satisfies Record<string, { code: number } & ErrorSpec>;

export type ErrorName = keyof typeof ERRORS;

/** An area A failure with its registry entry; `args` fill the `%s` parts of the message in order. */
export class BourseError extends Refusal {
  readonly code: number;
  readonly http: number;
  readonly errorName: ErrorName;
  /** Seconds a client should wait before retrying, for the errors that say so. */
  readonly retryAfterSec: number | undefined;

  constructor(name: ErrorName, args: readonly (string | number)[] = [], detail?: string) {
    const spec: { code: number } & ErrorSpec = ERRORS[name];
    let index = 0;
    let msg: string = spec.msg.replace(/%s/g, () => String(args[index++] ?? ''));
    if (detail !== undefined) msg = `${msg} ${detail}`;
    super(msg);
    this.code = spec.code;
    this.http = spec.http;
    this.errorName = name;
    this.retryAfterSec = spec.retryAfterSec;
  }

  get wireName(): string {
    return `A:${this.errorName}`;
  }

  wireText(): string {
    return this.message;
  }

  toBody(): { code: number; msg: string } {
    return { code: this.code, msg: this.message };
  }
}

/** Shorthand used by the core: reject a command with a registry error. */
export function reject(name: ErrorName, args: readonly (string | number)[] = [], detail?: string): never {
  throw new BourseError(name, args, detail);
}

/** Rebuilds an area A refusal that crossed a thread boundary from its name and formatted message. */
export function reviveError(name: string, msg: string): BourseError {
  if (!Object.hasOwn(ERRORS, name)) return new BourseError('INTERNAL');
  const error = new BourseError(name as ErrorName);
  error.message = msg;
  return error;
}
