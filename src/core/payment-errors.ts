/**
 * Area B error registry (docs/merchant-payments.md "Error codes"): every envelope error of `/v2`, `/openapi/v2` and
 * `/sandbox` is built here. `msg` is the stable name, `detail` a human sentence.
 */
import { Refusal } from './refusal.js';

export const PAYMENT_ERRORS = {
  UNKNOWN: { code: -1000, http: 404 },
  DISCONNECTED: { code: -1001, http: 500 },
  UNAUTHORIZED: { code: -1002, http: 401 },
  TOO_MANY_REQUESTS: { code: -1003, http: 429 },
  SERVICE_SHUTTING_DOWN: { code: -1016, http: 503 },
  INVALID_TIMESTAMP: { code: -1021, http: 400 },
  INVALID_SIGNATURE: { code: -1022, http: 401 },
  MANDATORY_PARAM_EMPTY_OR_MALFORMED: { code: -1102, http: 400 },
  REPEATED_SUBMIT_REQUEST: { code: -1174, http: 409 },
  REJECTED_MBX_KEY: { code: -2015, http: 401 },
  EMAIL_EXIST: { code: -2017, http: 400 },
  PARAM_IS_INVALID: { code: -4010, http: 400 },
  PARAM_EXCEEDS_LIMIT_LENGTH: { code: -4011, http: 400 },
  PARAM_EXCEEDS_LIMIT_QUANTITY: { code: -4012, http: 400 },
  PARAM_MUST_LENGTH_CHAR: { code: -4013, http: 400 },
  PARAM_MUST_LENGTH_NUMERIC: { code: -4015, http: 400 },
  PARAM_NOT_IS_NUMERIC: { code: -4021, http: 400 },
  PARAM_NOT_IS_ALPHANUMERIC: { code: -4023, http: 400 },
  PARAM_IS_INVALID_ISO1: { code: -4024, http: 400 },
  PARAM_IS_INVALID_ISO2: { code: -4025, http: 400 },
  PARAM_IS_INVALID_ACCOUNT_TYPE: { code: -4026, http: 400 },
  PAYMENT_NOT_EXIST: { code: -4027, http: 404 },
  PAYMENT_NOT_EDIT: { code: -5003, http: 400 },
  MC_NOT_EXIST: { code: -5006, http: 404 },
  ORDER_PAYING: { code: -5009, http: 400 },
  ORDER_AUTO_NOT_CURRENT_OPERATION: { code: -5011, http: 400 },
  PAYMENT_ACCOUNT_INFO_AND_MC_SAME: { code: -5014, http: 400 },
  PAYMENT_INVALID: { code: -5017, http: 400 },
  PAYMENT_AND_PLATFORM_NOT_MATCH: { code: -5018, http: 400 },
  SYMBOL_INVALID: { code: -5019, http: 400 },
  SYMBOL_BUY_CLOSED: { code: -5020, http: 400 },
  SYMBOL_SELL_CLOSED: { code: -5021, http: 400 },
  PEND_ORDER_NUM_LIMIT: { code: -5026, http: 400 },
  RATE_INVALID: { code: -5027, http: 400 },
  ORDER_UID_EXCEED_LIMIT: { code: -5029, http: 400 },
  ORDER_MC_EXCEED_LIMIT: { code: -5030, http: 400 },
  TRADE_TEMP_NOT_PROCEED: { code: -5031, http: 400 },
  NOT_API_USER: { code: -5033, http: 403 },
  ORDER_END: { code: -5034, http: 400 },
  ORDER_NOT_FINISH: { code: -5035, http: 400 },
  MC_ACCOUNT_NOT_EXIST: { code: -5038, http: 404 },
  ORDER_UNPAID_CAN_UPLOAD: { code: -5041, http: 400 },
  NEED_PASS_KYC_OR_KYB: { code: -5043, http: 400 },
  PAYMENT_ADD_NEED_PASS_KYC_OR_KYB: { code: -5044, http: 400 },
  FIAT_INVALID: { code: -5045, http: 400 },
  SYMBOL_AND_PAYMENT_NOT_MATCH: { code: -5047, http: 400 },
  ORDER_MIN_AMOUNT: { code: -5050, http: 400 },
  PAYMENT_FIAT_AND_ORDER_NOT_MATCH: { code: -5051, http: 400 },
  PAYMENT_ACCOUNT_ALREADY_EXISTS: { code: -5053, http: 400 },
  COUNTRY_AND_FIAT_NOT_SUPPORT: { code: -5057, http: 400 },
  TOKEN_NOT_SUPPORT: { code: -5058, http: 400 },
  ORDER_MAX_AMOUNT: { code: -5060, http: 400 },
  MAX_DOCUMENT: { code: -5061, http: 400 },
  MC_KYC_REVIEWING: { code: -5062, http: 400 },
  MC_KYC_END: { code: -5063, http: 400 },
  EXCEEDED_MC_NUMBER: { code: -5064, http: 400 },
  MC_ACCOUNT_REVIEWING: { code: -5066, http: 400 },
  MC_ACCOUNT_END: { code: -5067, http: 400 },
  MC_NAME_EXIST: { code: -5069, http: 400 },
  MC_NOT_OPEN_ACCOUNT: { code: -5070, http: 400 },
  INSUFFICIENT_BALANCE: { code: -5100, http: 400 },
  ORDER_NOT_EXIST: { code: -5101, http: 404 },
  SANDBOX_DISABLED: { code: -5102, http: 404 },
  WEBHOOK_NOT_EXIST: { code: -5103, http: 404 },
  INVALID_STATE: { code: -5104, http: 400 },
  OTC_QUOTE_EXPIRED: { code: -5200, http: 400 },
} as const satisfies Record<string, { code: number; http: number }>;

export type PaymentErrorName = keyof typeof PAYMENT_ERRORS;

/** An area B refusal: `{code, msg, detail, data}` (docs/merchant-payments.md "Answers and errors"); `data` only on -1174. */
export class PaymentError extends Refusal {
  readonly code: number;
  readonly http: number;
  readonly errorName: PaymentErrorName;
  readonly detail: string;
  readonly data: unknown;

  constructor(name: PaymentErrorName, detail: string, data: unknown = null) {
    super(detail);
    this.code = PAYMENT_ERRORS[name].code;
    this.http = PAYMENT_ERRORS[name].http;
    this.errorName = name;
    this.detail = detail;
    this.data = data;
  }

  get wireName(): string {
    return `B:${this.errorName}`;
  }

  wireText(): string {
    return JSON.stringify({ name: this.errorName, detail: this.detail, data: this.data });
  }

  toBody(): { code: number; msg: string; detail: string; data: unknown } {
    return { code: this.code, msg: this.errorName, detail: this.detail, data: this.data };
  }
}

/** Refuses with an area B error (state unchanged). */
export function refuse(name: PaymentErrorName, detail: string, data: unknown = null): never {
  throw new PaymentError(name, detail, data);
}

/** -4010 for a parameter, `detail` naming it (docs/merchant-payments.md "Requests"). */
export function invalidParam(param: string, why = 'is invalid'): never {
  refuse('PARAM_IS_INVALID', `${param} ${why}`);
}

/** Rebuilds an area B refusal that crossed a thread boundary from its `wireText`. */
export function revivePaymentError(text: string): PaymentError {
  const { name, detail, data } = JSON.parse(text) as { name: string; detail: string; data: unknown };
  if (!Object.hasOwn(PAYMENT_ERRORS, name)) return new PaymentError('DISCONNECTED', 'unknown refusal');
  return new PaymentError(name as PaymentErrorName, detail, data);
}
