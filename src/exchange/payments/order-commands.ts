import { refuse } from '../../core/payment-errors.js';
import type {
  AttachDocumentsCommand,
  ConfirmOrderCommand,
  CreateQuoteCommand,
  ExpireOrderCommand,
  ExpireQuoteCommand,
  OrderPayoutCommand,
  ReleaseOrderCommand,
  ReviewOrderCommand,
  SetPriceOverrideCommand,
} from '../../core/payment-commands.js';
import { cryptoSpec, fiatSpec } from '../../payments/config.js';
import { formatFixed, unitsOf } from '../../payments/money.js';
import type { Merchant, Payer } from '../../payments/model.js';
import { FAIL, ORDER, TERMINAL_STATUSES, type Money, type PaymentOrder, type Quote } from '../../payments/orders.js';
import { amountOf } from './funding-commands.js';
import { clientPrice, overrideKey } from './order-pricing.js';
import { enterStatus, orderOf, refundToFund, transitions, writeOrder } from './order-transitions.js';
import { atomsOf, bankIn, merchantUserOf, staleDecision, type Dropped, type PaymentsContext } from './payments-context.js';

const REVIEWABLE = new Set<number>([ORDER.REVIEW, ORDER.RFI_UPLOADED]);
const UPLOADABLE = new Set<number>([ORDER.RFI, ORDER.DOCUMENTS, ORDER.PENDING_PAYMENT, ORDER.PAY_IN_PENDING]);
/** docs/merchant-payments.md "Endpoints served" B35: at most this many files on one order. */
export const MAX_ORDER_DOCUMENTS = 10;

/** Pay-in awaited: f2c 40 on a bank rail, f2f 41. */
function awaitingPayIn(order: PaymentOrder): boolean {
  return (order.kind === 'fiat_to_crypto' && order.status === ORDER.PENDING_PAYMENT) || (order.kind === 'fiat_to_fiat' && order.status === ORDER.PAY_IN_PENDING);
}

/** docs/merchant-payments.md "Order statuses" review decision, from 10 or 12. */
export function reviewOrder(p: PaymentsContext, cmd: ReviewOrderCommand): PaymentOrder | Dropped {
  const order = orderOf(p, cmd.userId, cmd.orderId);
  if (!REVIEWABLE.has(order.status)) return staleDecision(p, cmd.due, `Order ${order.orderId} is in ${order.status}, not under review`);
  p.state.decisions.delete(transitions.orderKey(order, 'review'));
  const f2f = order.kind === 'fiat_to_fiat';
  switch (cmd.decision) {
    case 'approve':
      enterStatus(p, order, f2f ? ORDER.PAY_IN_PENDING : ORDER.PENDING_PAYMENT);
      break;
    case 'rfi':
      enterStatus(p, order, ORDER.RFI);
      break;
    case 'documents':
      enterStatus(p, order, ORDER.DOCUMENTS);
      break;
    case 'reject':
      transitions.cancel(p, order, FAIL.ORDER_REVIEW_REJECTION);
      break;
  }
  return structuredClone(order);
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
    enterStatus(p, order, order.kind === 'fiat_to_fiat' ? ORDER.PAY_IN_PENDING : ORDER.PENDING_PAYMENT);
    return true;
  }
  if (order.kind === 'crypto_to_fiat' && s === ORDER.PAID) {
    transitions.settleOffRamp(p, order);
    return true;
  }
  if ((order.kind === 'crypto_to_fiat' && s === ORDER.PENDING_PAYMENT) || s === ORDER.PAYOUT_PENDING) refuse('ORDER_PAYING', `Order ${order.orderId} has a payout in flight`);
  refuse('ORDER_AUTO_NOT_CURRENT_OPERATION', 'Automatic rails detect payment: there is nothing to confirm');
}

/** docs/merchant-payments.md "The simulator and the sandbox API" payout outcome (c2f 40, f2f 51), or the simulator's. */
export function orderPayout(p: PaymentsContext, cmd: OrderPayoutCommand): PaymentOrder | Dropped {
  const order = orderOf(p, cmd.userId, cmd.orderId);
  const inFlight = (order.kind === 'crypto_to_fiat' && order.status === ORDER.PENDING_PAYMENT) || (order.kind === 'fiat_to_fiat' && order.status === ORDER.PAYOUT_PENDING);
  if (!inFlight) return staleDecision(p, cmd.due, `Order ${order.orderId} has no payout in flight (${order.status})`);
  const failCode = cmd.failCode ?? FAIL.RECEIVING_ACCOUNT_NUMBER_INCORRECT;
  if (failCode !== FAIL.RECEIVING_ACCOUNT_NUMBER_INCORRECT && failCode !== FAIL.BANK_ORDER_CREATE_FAILED) refuse('PARAM_IS_INVALID', 'failCode must be -7001 or -7000');
  transitions.payoutOutcome(p, order, cmd.result === 'success', failCode);
  return structuredClone(order);
}

/** The waiting timer of docs/merchant-payments.md "Order statuses" (deadline or docs/merchant-payments.md "The simulator and the sandbox API" expire): 30, 11, 31 → -7002; f2c 40, f2f 41 → -7004. */
export function expireOrder(p: PaymentsContext, cmd: ExpireOrderCommand): PaymentOrder | Dropped {
  const order = orderOf(p, cmd.userId, cmd.orderId);
  const s = order.status;
  if (s === ORDER.APPROVED || s === ORDER.RFI || s === ORDER.DOCUMENTS) transitions.cancel(p, order, FAIL.ORDER_TIMEOUT);
  else if (awaitingPayIn(order) && order.deadline?.action === 'expire') transitions.cancel(p, order, FAIL.ORDER_UNPAID_TIMEOUT);
  else return staleDecision(p, cmd.due, `Order ${order.orderId} has no waiting timer (${s})`);
  return structuredClone(order);
}

/** c2f 50 → 60 (release hold passed, or docs/merchant-payments.md "The simulator and the sandbox API" release). */
export function releaseOrder(p: PaymentsContext, cmd: ReleaseOrderCommand): PaymentOrder | Dropped {
  const order = orderOf(p, cmd.userId, cmd.orderId);
  if (order.kind !== 'crypto_to_fiat' || order.status !== ORDER.PAID) return staleDecision(p, cmd.due, `Order ${order.orderId} is not held for release (${order.status})`);
  transitions.settleOffRamp(p, order);
  return structuredClone(order);
}

/** B35 (docs/merchant-payments.md "Order statuses"): 11 → 12, 31 → 40/41; allowed also while the pay-in is awaited. */
export function attachDocuments(p: PaymentsContext, cmd: AttachDocumentsCommand): true {
  const order = orderOf(p, cmd.userId, cmd.orderId, cmd.kind);
  if (!UPLOADABLE.has(order.status)) refuse('ORDER_UNPAID_CAN_UPLOAD', `Order ${order.orderId} takes no documents in status ${order.status}`);
  if (order.documents + cmd.files.length > MAX_ORDER_DOCUMENTS) refuse('MAX_DOCUMENT', `At most ${MAX_ORDER_DOCUMENTS} files per order`);
  order.documents += cmd.files.length;
  order.updateTime = p.ctx.ts;
  if (order.status === ORDER.RFI) enterStatus(p, order, ORDER.RFI_UPLOADED);
  else if (order.status === ORDER.DOCUMENTS) enterStatus(p, order, order.kind === 'fiat_to_fiat' ? ORDER.PAY_IN_PENDING : ORDER.PENDING_PAYMENT);
  else writeOrder(p, order);
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
  const bankRail = order.onRamp !== undefined || order.paymentId !== 70;
  if (awaitingPayIn(order) && bankRail && dueFiat === fiat && due.units === amount.units && due.accuracy === amount.accuracy) {
    payIn(p, order, payer.traceNumber);
    return { result: 'ORDER_PAID', orderId: String(order.orderId), txId: 0 };
  }
  const txId = refundToFund(p, merchant, fiat, amount, order, payer, true);
  return { result: 'REFUND', orderId: String(order.orderId), txId };
}

/** f2c 40 → 50 → 60 and f2f 41 → 51 (docs/merchant-payments.md "Order statuses"): the pay-in matched. */
function payIn(p: PaymentsContext, order: PaymentOrder, traceNumber: string): void {
  const ledger = p.core.ledger;
  const deskAccount = ledger.account(p.state.deskAccountId);
  const feeAccount = ledger.account(ledger.feeAccountId);
  const onRamp = order.onRamp;
  const m = ledger.account((p.state.merchants.get(onRamp?.merchantId ?? order.merchantId) as Merchant).accountId);
  const fiat = onRamp?.fiat ?? order.fiat;
  const amount = onRamp?.amount ?? order.fiatAmount;
  const fee = onRamp?.fee ?? order.fiatFee;
  const atoms = (money: Money): bigint => atomsOf(p, fiat, money.units, money.accuracy);
  bankIn(p, m, fiat, atoms(amount));
  ledger.post(p.ctx, m, fiat, -atoms(fee), 'OTC_FEE');
  ledger.post(p.ctx, feeAccount, fiat, atoms(fee), 'OTC_FEE');
  const toDesk = atoms(amount) - atoms(fee);
  ledger.post(p.ctx, m, fiat, -toDesk, onRamp === undefined ? 'OTC_BUY_COIN' : 'OTC_TRADE');
  ledger.post(p.ctx, deskAccount, fiat, toDesk, onRamp === undefined ? 'OTC_SELL_COIN' : 'OTC_TRADE');
  // f2c shows the pay-in's trace; f2f shows its payout's, set when the payout is sent (docs/merchant-payments.md "Endpoints served" B33).
  if (onRamp === undefined) order.traceNumber = traceNumber;
  if (onRamp !== undefined) {
    // Held until the payout's outcome: a failed payout (72) gives it all back, and must not fail.
    ledger.lock(p.ctx, deskAccount, fiat, toDesk);
    ledger.lock(p.ctx, feeAccount, fiat, atoms(fee));
    enterStatus(p, order, ORDER.PAYOUT_PENDING);
    return;
  }
  enterStatus(p, order, ORDER.PAID);
  transitions.settleOnRamp(p, order);
}

/** B22/B23 with `createQuoteId`: the price for the amount, locked for `quoteTtlMs`, single use (docs/merchant-payments.md "Quotes and orders"). */
export function createQuote(p: PaymentsContext, cmd: CreateQuoteCommand): Quote {
  merchantUserOf(p, cmd.userId);
  const config = p.state.config;
  const fiatFrom = fiatSpec(config, cmd.from);
  const cryptoFrom = cryptoSpec(config, cmd.from);
  const accuracy = fiatFrom?.accuracy ?? cryptoFrom?.accuracy;
  if (accuracy === undefined) refuse('SYMBOL_INVALID', `${cmd.from} is not configured`);
  const amount = { units: amountOf(cmd.amount, accuracy, 'amount'), accuracy };
  const kind = cmd.kind;
  const fiat = kind === 'crypto_to_fiat' ? cmd.to : cmd.from;
  const crypto = kind === 'crypto_to_fiat' ? cmd.from : kind === 'fiat_to_crypto' ? cmd.to : '';
  const price = clientPrice(p.state, p.core.spot, { userId: cmd.userId, kind, fiat, crypto, toFiat: kind === 'fiat_to_fiat' ? cmd.to : '', size: amount });
  if (price === undefined) refuse('RATE_INVALID', `No price for ${cmd.from} → ${cmd.to} now`);
  if (p.state.quotes.has(cmd.quoteId)) throw new Error(`quote id collision ${cmd.quoteId}`);
  const quote: Quote = { quoteId: cmd.quoteId, userId: cmd.userId, kind, from: cmd.from, to: cmd.to, amount, price, expireTime: p.ctx.ts + config.quoteTtlMs };
  p.state.quotes.set(quote.quoteId, quote);
  return structuredClone(quote);
}

/** ACTIVE → EXPIRED (its deadline, or docs/merchant-payments.md "The simulator and the sandbox API"): the quote is removed; -5200 if it is not active. */
export function expireQuote(p: PaymentsContext, cmd: ExpireQuoteCommand): { quoteId: string; status: 'EXPIRED' } | Dropped {
  const quote = p.state.quotes.get(cmd.quoteId);
  if (quote === undefined || (cmd.userId !== 0 && quote.userId !== cmd.userId)) {
    if (cmd.due !== undefined) return staleDecision(p, cmd.due, '');
    refuse('OTC_QUOTE_EXPIRED', `Quote ${cmd.quoteId} is not active`);
  }
  p.state.quotes.delete(quote.quoteId);
  return { quoteId: quote.quoteId, status: 'EXPIRED' };
}

/** docs/merchant-payments.md "The simulator and the sandbox API" PUT/DELETE /prices: a fixed price for this user until removed. */
export function setPriceOverride(p: PaymentsContext, cmd: SetPriceOverrideCommand): { from: string; to: string; price: string } | true {
  const config = p.state.config;
  const cryptoPair = config.pairs.find((x) => (x.crypto === cmd.from && x.fiat === cmd.to) || (x.fiat === cmd.from && x.crypto === cmd.to));
  const fiatPair = config.fiatPairs.find((x) => x.onRampFiat === cmd.from && x.offRampFiat === cmd.to);
  if (cryptoPair === undefined && fiatPair === undefined) refuse('SYMBOL_INVALID', `${cmd.from}/${cmd.to} is not a configured pair`);
  const key = cryptoPair !== undefined ? overrideKey('fiat_to_crypto', cryptoPair.fiat, cryptoPair.crypto) : overrideKey('fiat_to_fiat', cmd.from, cmd.to);
  const accuracy = cryptoPair?.accuracy ?? fiatPair?.accuracy ?? 0;
  let overrides = p.state.priceOverrides.get(cmd.userId);
  if (cmd.price === undefined) {
    overrides?.delete(key);
    return true;
  }
  const units = unitsOf(cmd.price, accuracy);
  if (units === undefined || units <= 0n) refuse('PARAM_IS_INVALID', `price must be a decimal > 0 with at most ${accuracy} decimals`);
  if (overrides === undefined) {
    overrides = new Map();
    p.state.priceOverrides.set(cmd.userId, overrides);
  }
  overrides.set(key, units);
  return { from: cmd.from, to: cmd.to, price: formatFixed(units, accuracy) };
}
