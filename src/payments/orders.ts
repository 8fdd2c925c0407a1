/** Payment orders of area B (docs/merchant-payments.md "Quotes and orders"): kinds, statuses, failure codes. */

export type OrderKind = 'fiat_to_crypto' | 'crypto_to_fiat' | 'fiat_to_fiat';
export const ORDER_KINDS: readonly OrderKind[] = ['fiat_to_crypto', 'crypto_to_fiat', 'fiat_to_fiat'];

/** docs/merchant-payments.md "Quotes and orders" statuses. */
export const ORDER = {
  REVIEW: 10,
  RFI: 11,
  RFI_UPLOADED: 12,
  APPROVED: 30,
  DOCUMENTS: 31,
  PENDING_PAYMENT: 40,
  PAY_IN_PENDING: 41,
  PAID: 50,
  PAYOUT_PENDING: 51,
  RELEASED: 60,
  CANCELED: 70,
  PAY_IN_CANCELED: 71,
  PAYOUT_CANCELED: 72,
} as const;

type Status<Name extends keyof typeof ORDER> = (typeof ORDER)[Name];
/** Where every kind starts: review, documents asked, approved (docs/merchant-payments.md "Order statuses"). */
type ReviewStatus = Status<'REVIEW' | 'RFI' | 'RFI_UPLOADED' | 'APPROVED' | 'DOCUMENTS'>;

/** The statuses an order of each kind can be in. */
export interface StatusOfKind {
  fiat_to_crypto: ReviewStatus | Status<'PENDING_PAYMENT' | 'PAID' | 'RELEASED' | 'CANCELED'>;
  crypto_to_fiat: ReviewStatus | Status<'PENDING_PAYMENT' | 'PAID' | 'RELEASED' | 'CANCELED'>;
  fiat_to_fiat: ReviewStatus | Status<'PAY_IN_PENDING' | 'PAYOUT_PENDING' | 'RELEASED' | 'PAY_IN_CANCELED' | 'PAYOUT_CANCELED'>;
}
export type OrderStatus = StatusOfKind[OrderKind];

export const TERMINAL_STATUSES: ReadonlySet<number> = new Set([ORDER.RELEASED, ORDER.CANCELED, ORDER.PAY_IN_CANCELED, ORDER.PAYOUT_CANCELED]);

/** docs/merchant-payments.md "Failure codes". */
export const FAIL = {
  BANK_ORDER_CREATE_FAILED: -7000,
  RECEIVING_ACCOUNT_NUMBER_INCORRECT: -7001,
  ORDER_TIMEOUT: -7002,
  ORDER_REVIEW_REJECTION: -7003,
  ORDER_UNPAID_TIMEOUT: -7004,
} as const;
export type FailName = keyof typeof FAIL;

export function failName(code: number): string {
  return (Object.keys(FAIL) as FailName[]).find((name) => FAIL[name] === code) ?? '';
}

/** An amount in units of its currency's accuracy. */
export interface Money {
  units: bigint;
  accuracy: number;
}

/** One side of a fiat_to_fiat order (and the only side of the others, reusing the same shape). */
export interface OrderLeg {
  merchantId: number;
  country: string;
  fiat: string;
  /** The rail (pay-in) or the beneficiary (payout); 70 for the pending fund. */
  paymentId: number;
  amount: Money;
  fee: Money;
}

/** A status the order entered, stamped by the command that moved it (its sequence number and time). */
export interface StatusLogEntry {
  status: number;
  time: number;
  seq: number;
}

/**
 * The most entries a status log holds. A lifecycle is a handful of steps: the longest path without
 * a loop is 7 (10, 11, 12, 31, 40, 50, 60) and the one loop, 12 → 11 → 12, takes an upload each
 * time, of at most 10 files per order, so 7 + 2 × 10 = 27 entries at most through the API.
 */
export const MAX_STATUS_LOG = 64;

/** A limit counter an order added to, given back when it ends in 70, 71 or 72. */
export interface UsageEntry {
  key: string;
  amount: bigint;
}

export interface PaymentOrder {
  orderId: number;
  userId: number;
  kind: OrderKind;
  clientId: string;
  remark: string;
  quoteId: string;
  status: OrderStatus;
  failCode: number;
  failReason: string;
  hasRefund: boolean;
  traceNumber: string;
  documents: number;
  createTime: number;
  updateTime: number;
  completedTime: number;
  /** f2c and c2f: the merchant, its fiat and rail (f2c `paymentId`) or beneficiary (c2f `userPaymentId`). */
  merchantId: number;
  country: string;
  fiat: string;
  crypto: string;
  paymentId: number;
  userPaymentId: number;
  orderPrice: Money;
  fiatAmount: Money;
  fiatFee: Money;
  cryptoAmount: Money;
  /** c2f: G = cryptoAmount × orderPrice, what the desk locks. */
  gross: Money;
  /** f2f only. */
  onRamp: OrderLeg | undefined;
  offRamp: (OrderLeg & { arrive: Money }) | undefined;
  /** What its time-driven transition is and when (docs/merchant-payments.md "Order statuses"): stored on the order, re-armed at start. */
  deadline: { at: number; action: 'expire' | 'release' } | undefined;
  usage: UsageEntry[];
  /**
   * Every status entered, oldest first, creation's first included (at most MAX_STATUS_LOG). Empty
   * for an order restored from a snapshot older than the log (image version 6 and before): what it
   * passed through before then is not known. Replaced, never changed in place, so a copy of the
   * order (a row of the batch) keeps the log it had.
   */
  statusLog: readonly StatusLogEntry[];
}

/**
 * True when the order's log holds every status it entered: it starts at creation (no move but
 * creation enters 10 or 30) and never reached its cap (entries past it are not kept).
 */
export function statusLogComplete(order: Pick<PaymentOrder, 'statusLog'>): boolean {
  const first = order.statusLog[0];
  return first !== undefined && (first.status === ORDER.REVIEW || first.status === ORDER.APPROVED) && order.statusLog.length < MAX_STATUS_LOG;
}

export interface Quote {
  quoteId: string;
  userId: number;
  kind: OrderKind;
  from: string;
  to: string;
  /** Quoted amount in `from` units. */
  amount: Money;
  /** The order price it locks (f2c: the buy price, fiat per crypto; f2f: the rate). */
  price: Money;
  expireTime: number;
}
