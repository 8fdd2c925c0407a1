/**
 * The payments desk's decisions (docs/operating.md "The payments desk"): each decision a person can
 * take on a waiting object is one existing call of the sandbox control API, made with the operator
 * token. The desk routes name the call (method, path with its ids, body) so that a page replays it
 * verbatim and needs no knowledge of those paths; what a person types goes into the member named
 * by `reasonField`, and a payout failure's code into `failCode`, one of `failCodes`.
 */
import type { Beneficiary, FundingRecord, Merchant, MerchantAccount } from '../../payments/model.js';
import { AUTHENTICATING, BENEFICIARY_REVIEWING, FUNDING_PENDING } from '../../payments/model.js';
import { ORDER, type PaymentOrder } from '../../payments/orders.js';
import { railOf } from '../../exchange/payments/order-transitions.js';

/** Where the calls go; the operator token authenticates there as on /admin/v1. */
const SANDBOX = '/sandbox/v2';

/** Failure codes a payout may be failed with (the first is the default). */
export const PAYOUT_FAIL_CODES = [-7001, -7000] as const;

export interface DeskCall {
  method: 'POST';
  path: string;
  body: Record<string, string | number>;
  /** The body member that takes the person's reason (sent "" when none is given). */
  reasonField?: string;
  /** The codes `failCode` may take. */
  failCodes?: readonly number[];
}

/** A waiting object's decisions now, in the order a page shows them, and the call of each. */
export interface Decisions {
  actions: string[];
  calls: Record<string, DeskCall>;
}

const NONE: Decisions = { actions: [], calls: {} };

function decisions(entries: readonly (readonly [string, DeskCall])[]): Decisions {
  return { actions: entries.map(([name]) => name), calls: Object.fromEntries(entries) };
}

const post = (path: string, body: DeskCall['body'], extra: Omit<DeskCall, 'method' | 'path' | 'body'> = {}): DeskCall => ({ method: 'POST', path: `${SANDBOX}${path}`, body, ...extra });

/** A merchant in KYC review (1): approve, or reject with a reason. */
export function merchantDecisions(m: Merchant): Decisions {
  if (m.status !== AUTHENTICATING) return NONE;
  const path = `/merchants/${m.merchantId}/kyc`;
  return decisions([
    ['approve', post(path, { action: 'approve' })],
    ['reject', post(path, { action: 'reject', rejectReason: '' }, { reasonField: 'rejectReason' })],
  ]);
}

/** A merchant account in review (1). */
export function accountDecisions(a: MerchantAccount): Decisions {
  if (a.status !== AUTHENTICATING) return NONE;
  const path = `/merchant/accounts/${a.merchantId}/${encodeURIComponent(a.fiat)}/review`;
  return decisions([
    ['approve', post(path, { action: 'approve' })],
    ['reject', post(path, { action: 'reject', failReason: '' }, { reasonField: 'failReason' })],
  ]);
}

/** A beneficiary in review (2). */
export function beneficiaryDecisions(b: Beneficiary): Decisions {
  if (b.status !== BENEFICIARY_REVIEWING) return NONE;
  const path = `/payments/${b.userPaymentId}/review`;
  return decisions([
    ['approve', post(path, { action: 'approve' })],
    ['reject', post(path, { action: 'reject', failReason: '' }, { reasonField: 'failReason' })],
  ]);
}

/** A pending DEPOSIT (bank money held) or WITHDRAW (payout in flight): complete, or cancel with a reason. */
export function fundingDecisions(r: FundingRecord): Decisions {
  if (r.status !== FUNDING_PENDING || (r.type !== 'DEPOSIT' && r.type !== 'WITHDRAW')) return NONE;
  return decisions([
    ['complete', post(`/funding/${r.txId}/complete`, {})],
    ['cancel', post(`/funding/${r.txId}/cancel`, { failReason: '' }, { reasonField: 'failReason' })],
  ]);
}

/** An order waiting on a payout's outcome: c2f 40 on a bank rail, f2f 51. */
export function awaitsPayout(o: PaymentOrder): boolean {
  return (o.kind === 'crypto_to_fiat' && o.status === ORDER.PENDING_PAYMENT && railOf(o) === 'bank') || (o.kind === 'fiat_to_fiat' && o.status === ORDER.PAYOUT_PENDING);
}

/**
 * An order's decisions in its status: review (10, 12), the payout's outcome (c2f 40, f2f 51), an
 * early release (c2f 50), and ending a wait for documents now (11, 31: the timer fires, -7002).
 */
export function orderDecisions(o: PaymentOrder): Decisions {
  const order = `/orders/${o.orderId}`;
  if (o.status === ORDER.REVIEW || o.status === ORDER.RFI_UPLOADED) {
    return decisions((['approve', 'reject', 'rfi', 'documents'] as const).map((decision) => [decision, post(`${order}/review`, { decision })]));
  }
  if (awaitsPayout(o)) {
    return decisions([
      ['success', post(`${order}/payout`, { result: 'success' })],
      ['fail', post(`${order}/payout`, { result: 'fail', failCode: PAYOUT_FAIL_CODES[0] }, { failCodes: PAYOUT_FAIL_CODES })],
    ]);
  }
  if (o.kind === 'crypto_to_fiat' && o.status === ORDER.PAID) return decisions([['release', post(`${order}/release`, {})]]);
  if (o.status === ORDER.RFI || o.status === ORDER.DOCUMENTS) return decisions([['expire', post(`${order}/expire`, {})]]);
  return NONE;
}
