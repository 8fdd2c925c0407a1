/**
 * Payment orders as one state machine (docs/merchant-payments.md "Order statuses"): every move an
 * order of each kind can make, from a status on a trigger to a status, with what it does to the
 * ledger before it arrives and what it then waits for. Commands check their own preconditions (and
 * refuse with area B's codes); a move the table does not hold is a bug, and throws.
 */

import { FAIL, failName, MAX_STATUS_LOG, ORDER, TERMINAL_STATUSES, type OrderKind, type PaymentOrder, type StatusOfKind } from '../../payments/orders.js';
import { PENDING_FUND_RAIL } from '../../payments/config.js';
import { orderEventType, orderPayload } from '../../payments/webhooks.js';
import { creditFund, deliverCrypto, payFromFund, payIn, payOut, payOutAcross, refundPayIn, release, reserve, returnPayIn, takeCrypto } from './order-ledger.js';
import { giveBackUsage } from './order-limits.js';
import { orderChanged } from './order-rows.js';
import { arm, type Wait } from './order-timers.js';
import type { PaymentsContext } from './payments-context.js';

/** What moves an order: a command, a decision of the simulator, a deadline, or the step before at once. */
export type Trigger =
  | 'create'
  | 'createOnBehalf'
  | 'approve'
  | 'rfi'
  | 'documents'
  | 'reject'
  /** B32. */
  | 'confirm'
  /** B35. */
  | 'upload'
  /** A waiting window passed. */
  | 'expire'
  /** The exact bank pay-in arrived (docs/merchant-payments.md "Bank arrivals and refunds" rule 2). */
  | 'payIn'
  | 'fundPays'
  | 'fundCredits'
  /** 50 → 60: the crypto leg settles (c2f: the hold passed, B32, or the simulator). */
  | 'release'
  | 'payoutSucceeded'
  | 'payoutFailed';

/** What a move does to the ledger before the order arrives (order-ledger.ts). */
const EFFECTS = {
  none: () => undefined,
  reserve,
  release,
  payIn: (p: PaymentsContext, order: PaymentOrder, facts: MoveFacts) => payIn(p, order, facts.traceNumber ?? ''),
  payFromFund,
  creditFund,
  deliverCrypto,
  takeCrypto,
  payOut,
  payOutAcross,
  returnPayIn,
} satisfies Record<string, (p: PaymentsContext, order: PaymentOrder, facts: MoveFacts) => void>;
export type Effect = keyof typeof EFFECTS;

/** A step that follows arriving at once, in the same command. */
type AtOnce = { now: 'fundPays' | 'fundCredits' | 'release' } | 'refund';
/** What arriving sets going: nothing, a wait (order-timers.ts), or a step at once. */
export type Timer = 'none' | Wait | AtOnce;

/** How the money moves: through a bank rail, or the merchant's pending fund (paymentId / userPaymentId 70). */
export type Rail = 'bank' | 'fund';

export interface Transition<S extends number> {
  from: readonly (S | 'new')[];
  trigger: Trigger;
  to: S;
  effect: Effect;
  /** By rail where the rails differ. */
  timer: Timer | Readonly<Record<Rail, Timer>>;
  /** Only orders on this rail make the move. */
  rail?: Rail;
  /** The failure code an ending carries; 'given' by the payout's outcome. */
  fail?: number | 'given';
}

/** The review prefix every kind shares: `paying` is 40 (f2c, c2f) or 41 (f2f), `canceled` 70 or 71. */
function reviewMoves<S extends number>(paying: S, canceled: S, whilePaying: Transition<S>['timer']): Transition<S>[] {
  const [review, rfi, uploaded, approved, documents] = [ORDER.REVIEW, ORDER.RFI, ORDER.RFI_UPLOADED, ORDER.APPROVED, ORDER.DOCUMENTS] as S[];
  return [
    { from: ['new'], trigger: 'create', to: review, effect: 'reserve', timer: 'reviewDecision' },
    { from: ['new'], trigger: 'createOnBehalf', to: approved, effect: 'reserve', timer: 'acceptWindow' },
    { from: [review, uploaded], trigger: 'approve', to: paying, effect: 'none', timer: whilePaying },
    { from: [review, uploaded], trigger: 'rfi', to: rfi, effect: 'none', timer: 'documentsWindow' },
    { from: [review, uploaded], trigger: 'documents', to: documents, effect: 'none', timer: 'documentsWindow' },
    { from: [review, uploaded], trigger: 'reject', to: canceled, effect: 'release', timer: 'none', fail: FAIL.ORDER_REVIEW_REJECTION },
    { from: [approved], trigger: 'confirm', to: paying, effect: 'none', timer: whilePaying },
    { from: [rfi], trigger: 'upload', to: uploaded, effect: 'none', timer: 'reviewDecision' },
    { from: [documents], trigger: 'upload', to: paying, effect: 'none', timer: whilePaying },
    { from: [approved, rfi, documents], trigger: 'expire', to: canceled, effect: 'release', timer: 'none', fail: FAIL.ORDER_TIMEOUT },
  ];
}

/** The one table: every move of each kind. */
export const TRANSITIONS: { readonly [K in OrderKind]: readonly Transition<StatusOfKind[K]>[] } = {
  fiat_to_crypto: [
    // 40 on a bank rail waits for the pay-in; from the pending fund it is paid at once.
    ...reviewMoves<StatusOfKind['fiat_to_crypto']>(ORDER.PENDING_PAYMENT, ORDER.CANCELED, { bank: 'paymentWindow', fund: { now: 'fundPays' } }),
    { from: [ORDER.PENDING_PAYMENT], trigger: 'payIn', to: ORDER.PAID, effect: 'payIn', timer: { now: 'release' }, rail: 'bank' },
    { from: [ORDER.PENDING_PAYMENT], trigger: 'fundPays', to: ORDER.PAID, effect: 'payFromFund', timer: { now: 'release' }, rail: 'fund' },
    { from: [ORDER.PENDING_PAYMENT], trigger: 'expire', to: ORDER.CANCELED, effect: 'release', timer: 'none', rail: 'bank', fail: FAIL.ORDER_UNPAID_TIMEOUT },
    { from: [ORDER.PAID], trigger: 'release', to: ORDER.RELEASED, effect: 'deliverCrypto', timer: 'none' },
  ],
  crypto_to_fiat: [
    // 40 on a bank rail waits for the payout's outcome; to the pending fund it is credited at once.
    ...reviewMoves<StatusOfKind['crypto_to_fiat']>(ORDER.PENDING_PAYMENT, ORDER.CANCELED, { bank: 'payoutDecision', fund: { now: 'fundCredits' } }),
    { from: [ORDER.PENDING_PAYMENT], trigger: 'payoutSucceeded', to: ORDER.PAID, effect: 'payOut', timer: 'releaseHold', rail: 'bank' },
    { from: [ORDER.PENDING_PAYMENT], trigger: 'payoutFailed', to: ORDER.CANCELED, effect: 'release', timer: 'none', rail: 'bank', fail: 'given' },
    { from: [ORDER.PENDING_PAYMENT], trigger: 'fundCredits', to: ORDER.PAID, effect: 'creditFund', timer: { now: 'release' }, rail: 'fund' },
    { from: [ORDER.PAID], trigger: 'release', to: ORDER.RELEASED, effect: 'takeCrypto', timer: 'none' },
    { from: [ORDER.PAID], trigger: 'confirm', to: ORDER.RELEASED, effect: 'takeCrypto', timer: 'none' },
  ],
  fiat_to_fiat: [
    ...reviewMoves<StatusOfKind['fiat_to_fiat']>(ORDER.PAY_IN_PENDING, ORDER.PAY_IN_CANCELED, 'paymentWindow'),
    { from: [ORDER.PAY_IN_PENDING], trigger: 'payIn', to: ORDER.PAYOUT_PENDING, effect: 'payIn', timer: 'payoutDecision' },
    { from: [ORDER.PAY_IN_PENDING], trigger: 'expire', to: ORDER.PAY_IN_CANCELED, effect: 'release', timer: 'none', fail: FAIL.ORDER_UNPAID_TIMEOUT },
    { from: [ORDER.PAYOUT_PENDING], trigger: 'payoutSucceeded', to: ORDER.RELEASED, effect: 'payOutAcross', timer: 'none' },
    { from: [ORDER.PAYOUT_PENDING], trigger: 'payoutFailed', to: ORDER.PAYOUT_CANCELED, effect: 'returnPayIn', timer: 'refund', fail: 'given' },
  ],
};

/** What a move learns from its command: the pay-in's trace number, the payout's failure code. */
export interface MoveFacts {
  traceNumber?: string;
  failCode?: number;
}

const isByRail = (timer: Transition<number>['timer']): timer is Readonly<Record<Rail, Timer>> => typeof timer === 'object' && 'bank' in timer;

export function railOf(order: PaymentOrder): Rail {
  const fund = order.kind === 'fiat_to_crypto' ? order.paymentId === PENDING_FUND_RAIL : order.kind === 'crypto_to_fiat' && order.userPaymentId === PENDING_FUND_RAIL;
  return fund ? 'fund' : 'bank';
}

/** The move an order of its kind and rail makes from `from` on `trigger`; throws when there is none. */
function transitionOf(order: PaymentOrder, from: number | 'new', trigger: Trigger): Transition<number> {
  const rail = railOf(order);
  const table: readonly Transition<number>[] = TRANSITIONS[order.kind];
  const found = table.find((t) => t.trigger === trigger && t.from.includes(from) && (t.rail === undefined || t.rail === rail));
  if (found === undefined) throw new Error(`payment order ${order.orderId} (${order.kind}, ${rail}) has no move from ${from} on ${trigger}`);
  return found;
}

/** A new order (it passed every creation check) makes its first move: 10, or 30 when placed on behalf. */
export function begin(p: PaymentsContext, order: PaymentOrder, onBehalf: boolean): void {
  step(p, order, transitionOf(order, 'new', onBehalf ? 'createOnBehalf' : 'create'), {});
}

/** The order moves on `trigger` from where it is. */
export function move(p: PaymentsContext, order: PaymentOrder, trigger: Trigger, facts: MoveFacts = {}): void {
  step(p, order, transitionOf(order, order.status, trigger), facts);
}

function step(p: PaymentsContext, order: PaymentOrder, t: Transition<number>, facts: MoveFacts): void {
  const failCode = t.fail === 'given' ? facts.failCode : t.fail;
  if (t.fail !== undefined && failCode === undefined) throw new Error(`payment order ${order.orderId}: ${t.trigger} needs a failure code`);
  EFFECTS[t.effect](p, order, facts);
  if (failCode !== undefined) {
    order.failCode = failCode;
    order.failReason = failName(failCode);
  }
  enterStatus(p, order, t.to as PaymentOrder['status']);
  const timer = isByRail(t.timer) ? t.timer[railOf(order)] : t.timer;
  if (timer === 'none') return;
  if (timer === 'refund') refundPayIn(p, order);
  else if (typeof timer === 'object') move(p, order, timer.now);
  else arm(p, order, timer);
}

/**
 * The order is in `status` now: every status passed is logged with the command's stamp, written,
 * and is one webhook event (docs/webhooks.md "Registering"), creation's first status included; an
 * ending gives back the limits' usage unless it released.
 */
function enterStatus(p: PaymentsContext, order: PaymentOrder, status: PaymentOrder['status']): void {
  order.status = status;
  order.updateTime = p.ctx.ts;
  order.deadline = undefined;
  // A new array: rows of this batch hold copies of the order that must keep the log they saw. Past
  // the cap (unreachable through the API, see MAX_STATUS_LOG) the log stops and reads as incomplete.
  if (order.statusLog.length < MAX_STATUS_LOG) order.statusLog = [...order.statusLog, { status, time: p.ctx.ts, seq: p.ctx.seq }];
  if (TERMINAL_STATUSES.has(status)) {
    order.completedTime = p.ctx.ts;
    p.state.openOrders.delete(order.orderId);
    if (status !== ORDER.RELEASED) giveBackUsage(p.state, order);
  }
  orderChanged(p, order);
  p.ports.outbox.record(p.ctx, order.userId, orderEventType(order), String(order.orderId), String(status), () => orderPayload(order));
}
