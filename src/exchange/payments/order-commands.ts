/**
 * The commands on an existing payment order: each checks what its caller may do (refusing with
 * area B's codes) and names the trigger; the transition table (order-transitions.ts) moves the order.
 */

import { refuse } from '../../core/payment-errors.js';
import type { AttachDocumentsCommand, ConfirmOrderCommand, ExpireOrderCommand, OrderPayoutCommand, ReleaseOrderCommand, ReviewOrderCommand } from '../../core/payment-commands.js';
import { PENDING_FUND_RAIL } from '../../payments/config.js';
import type { Merchant, Payer } from '../../payments/model.js';
import { FAIL, ORDER, TERMINAL_STATUSES, type Money, type PaymentOrder } from '../../payments/orders.js';
import { refundToFund } from './order-ledger.js';
import { orderChanged, orderCopy } from './order-rows.js';
import { orderKey } from './order-timers.js';
import { move } from './order-transitions.js';
import { staleDecision, type Dropped, type PaymentsContext } from './payments-context.js';

const REVIEWABLE = new Set<number>([ORDER.REVIEW, ORDER.RFI_UPLOADED]);
const UPLOADABLE = new Set<number>([ORDER.RFI, ORDER.DOCUMENTS, ORDER.PENDING_PAYMENT, ORDER.PAY_IN_PENDING]);
/** docs/merchant-payments.md "Endpoints served" B35: at most this many files on one order. */
export const MAX_ORDER_DOCUMENTS = 10;

/** The order as the caller may see it: its own (another user's is nonexistent, -5101), of the kind named. */
function orderOf(p: PaymentsContext, userId: number, orderId: number, kind?: string): PaymentOrder {
  const order = p.state.orders.get(orderId);
  if (order === undefined || (userId !== 0 && order.userId !== userId) || (kind !== undefined && order.kind !== kind)) refuse('ORDER_NOT_EXIST', `Order ${orderId} does not exist`);
  return order;
}

/** Pay-in awaited: f2c 40 on a bank rail, f2f 41. */
function awaitingPayIn(order: PaymentOrder): boolean {
  return (order.kind === 'fiat_to_crypto' && order.status === ORDER.PENDING_PAYMENT) || (order.kind === 'fiat_to_fiat' && order.status === ORDER.PAY_IN_PENDING);
}

/** docs/merchant-payments.md "Order statuses" review decision, from 10 or 12. */
export function reviewOrder(p: PaymentsContext, cmd: ReviewOrderCommand): PaymentOrder | Dropped {
  const order = orderOf(p, cmd.userId, cmd.orderId);
  if (!REVIEWABLE.has(order.status)) return staleDecision(p, cmd.due, `Order ${order.orderId} is in ${order.status}, not under review`);
  p.state.decisions.delete(orderKey(order, 'review'));
  move(p, order, cmd.decision);
  return orderCopy(order);
}

/** B32 (docs/merchant-payments.md "Order statuses"). */
export function confirmOrder(p: PaymentsContext, cmd: ConfirmOrderCommand): true {
  const order = orderOf(p, cmd.userId, cmd.orderId, cmd.kind);
  const s = order.status;
  if (TERMINAL_STATUSES.has(s)) refuse('ORDER_END', `Order ${order.orderId} has ended (${s})`);
  if (s === ORDER.REVIEW || s === ORDER.RFI || s === ORDER.RFI_UPLOADED || s === ORDER.DOCUMENTS) refuse('ORDER_NOT_FINISH', `Order ${order.orderId} is under review (${s})`);
  if (order.kind === 'fiat_to_fiat' && cmd.direction === undefined) refuse('PARAM_IS_INVALID', 'direction is required for fiat_to_fiat');
  if (s === ORDER.APPROVED) {
    if (order.kind === 'fiat_to_fiat' && cmd.direction !== 'on_ramp') refuse('ORDER_AUTO_NOT_CURRENT_OPERATION', 'The off-ramp needs no confirm: automatic rails detect payment');
    move(p, order, 'confirm');
    return true;
  }
  if (order.kind === 'crypto_to_fiat' && s === ORDER.PAID) {
    move(p, order, 'confirm');
    return true;
  }
  if ((order.kind === 'crypto_to_fiat' && s === ORDER.PENDING_PAYMENT) || s === ORDER.PAYOUT_PENDING) refuse('ORDER_PAYING', `Order ${order.orderId} has a payout in flight`);
  refuse('ORDER_AUTO_NOT_CURRENT_OPERATION', 'Automatic rails detect payment: there is nothing to confirm');
}

/** docs/merchant-payments.md "The simulator and the sandbox API" payout outcome (c2f 40, f2f 51), or the simulator's: the first one recorded is the only one. */
export function orderPayout(p: PaymentsContext, cmd: OrderPayoutCommand): PaymentOrder | Dropped {
  const order = orderOf(p, cmd.userId, cmd.orderId);
  const inFlight = (order.kind === 'crypto_to_fiat' && order.status === ORDER.PENDING_PAYMENT) || (order.kind === 'fiat_to_fiat' && order.status === ORDER.PAYOUT_PENDING);
  if (!inFlight) return staleDecision(p, cmd.due, `Order ${order.orderId} has no payout in flight (${order.status})`);
  const failCode = cmd.failCode ?? FAIL.RECEIVING_ACCOUNT_NUMBER_INCORRECT;
  if (failCode !== FAIL.RECEIVING_ACCOUNT_NUMBER_INCORRECT && failCode !== FAIL.BANK_ORDER_CREATE_FAILED) refuse('PARAM_IS_INVALID', 'failCode must be -7001 or -7000');
  p.state.decisions.delete(orderKey(order, 'payout'));
  move(p, order, cmd.result === 'success' ? 'payoutSucceeded' : 'payoutFailed', { failCode });
  return orderCopy(order);
}

/** The waiting timer of docs/merchant-payments.md "Order statuses" (deadline or docs/merchant-payments.md "The simulator and the sandbox API" expire): 30, 11, 31 → -7002; f2c 40, f2f 41 → -7004. */
export function expireOrder(p: PaymentsContext, cmd: ExpireOrderCommand): PaymentOrder | Dropped {
  const order = orderOf(p, cmd.userId, cmd.orderId);
  const s = order.status;
  const waiting = s === ORDER.APPROVED || s === ORDER.RFI || s === ORDER.DOCUMENTS || (awaitingPayIn(order) && order.deadline?.action === 'expire');
  if (!waiting) return staleDecision(p, cmd.due, `Order ${order.orderId} has no waiting timer (${s})`);
  move(p, order, 'expire');
  return orderCopy(order);
}

/** c2f 50 → 60 (release hold passed, or docs/merchant-payments.md "The simulator and the sandbox API" release). */
export function releaseOrder(p: PaymentsContext, cmd: ReleaseOrderCommand): PaymentOrder | Dropped {
  const order = orderOf(p, cmd.userId, cmd.orderId);
  if (order.kind !== 'crypto_to_fiat' || order.status !== ORDER.PAID) return staleDecision(p, cmd.due, `Order ${order.orderId} is not held for release (${order.status})`);
  move(p, order, 'release');
  return orderCopy(order);
}

/** B35 (docs/merchant-payments.md "Order statuses"): 11 → 12, 31 → 40/41; allowed also while the pay-in is awaited. */
export function attachDocuments(p: PaymentsContext, cmd: AttachDocumentsCommand): true {
  const order = orderOf(p, cmd.userId, cmd.orderId, cmd.kind);
  if (!UPLOADABLE.has(order.status)) refuse('ORDER_UNPAID_CAN_UPLOAD', `Order ${order.orderId} takes no documents in status ${order.status}`);
  if (order.documents + cmd.files.length > MAX_ORDER_DOCUMENTS) refuse('MAX_DOCUMENT', `At most ${MAX_ORDER_DOCUMENTS} files per order`);
  order.documents += cmd.files.length;
  order.updateTime = p.ctx.ts;
  if (order.status === ORDER.RFI || order.status === ORDER.DOCUMENTS) move(p, order, 'upload');
  else orderChanged(p, order);
  return true;
}

/**
 * docs/merchant-payments.md "Bank arrivals and refunds" rules 2 and 3 for an arrival whose `reference` names an order of this merchant: the exact
 * amount due on an order awaiting its bank pay-in pays it; anything else is refunded to the pending
 * fund. Returns undefined when the reference names no such order (rule 4 then applies).
 */
export function arrivalForOrder(p: PaymentsContext, merchant: Merchant, fiat: string, amount: Money, reference: string, payer: Payer): { result: 'ORDER_PAID' | 'REFUND'; orderId: string; txId: number } | undefined {
  if (!/^[0-9]{1,15}$/.test(reference)) return undefined;
  const order = p.state.orders.get(Number(reference));
  const payee = order?.onRamp?.merchantId ?? order?.merchantId;
  // Any order of this merchant, an off-ramp included (rule 3 names no kind): money sent for it is refunded.
  if (order === undefined || payee !== merchant.merchantId) return undefined;
  const due = order.onRamp?.amount ?? order.fiatAmount;
  const dueFiat = order.onRamp?.fiat ?? order.fiat;
  const bankRail = order.onRamp !== undefined || order.paymentId !== PENDING_FUND_RAIL;
  if (awaitingPayIn(order) && bankRail && dueFiat === fiat && due.units === amount.units && due.accuracy === amount.accuracy) {
    // f2c 40 → 50 → 60, f2f 41 → 51.
    move(p, order, 'payIn', { traceNumber: payer.traceNumber });
    return { result: 'ORDER_PAID', orderId: String(order.orderId), txId: 0 };
  }
  const txId = refundToFund(p, merchant, fiat, amount, order, payer, true);
  return { result: 'REFUND', orderId: String(order.orderId), txId };
}
