import { orderEventType, orderPayload } from '../../payments/webhooks.js';
import { refuse } from '../../core/payment-errors.js';
import type { FlowTypeName } from '../../core/types.js';
import type { Account } from '../../ledger/account.js';
import { PENDING_FUND_RAIL } from '../../payments/config.js';
import { formatFixed } from '../../payments/money.js';
import { FUNDING_CANCELED, FUNDING_COMPLETED, type Merchant } from '../../payments/model.js';
import { FAIL, failName, ORDER, TERMINAL_STATUSES, type Money, type PaymentOrder } from '../../payments/orders.js';
import { depositInstructions } from '../../payments/instructions.js';
import { createRecord, startWithdraw, writeRecord } from './funding-commands.js';
import { giveBackUsage } from './order-limits.js';
import { atomsOf, bankIn, bankOut, decideLater, modesOf, type PaymentsContext } from './payments-context.js';

export const ORDERS_TABLE = 'payment_orders';

function merchant(p: PaymentsContext, merchantId: number): Merchant {
  const found = p.state.merchants.get(merchantId);
  if (found === undefined) throw new Error(`order names unknown merchant ${merchantId}`);
  return found;
}

function accountOf(p: PaymentsContext, merchantId: number): Account {
  return p.core.ledger.account(merchant(p, merchantId).accountId);
}

function desk(p: PaymentsContext): Account {
  return p.core.ledger.account(p.state.deskAccountId);
}

function fee(p: PaymentsContext): Account {
  return p.core.ledger.account(p.core.ledger.feeAccountId);
}

const atoms = (p: PaymentsContext, asset: string, amount: Money): bigint => atomsOf(p, asset, amount.units, amount.accuracy);
const minus = (a: Money, b: Money): Money => ({ units: a.units - b.units, accuracy: a.accuracy });

function lock(p: PaymentsContext, account: Account, asset: string, amount: Money): void {
  p.core.ledger.lock(p.ctx, account, asset, atoms(p, asset, amount));
}

function unlock(p: PaymentsContext, account: Account, asset: string, amount: Money): void {
  p.core.ledger.unlock(p.ctx, account, asset, atoms(p, asset, amount));
}

/** `amount` from one account to another, each side its flow type; `fromLocked` spends a reservation. */
function move(p: PaymentsContext, from: Account, to: Account, asset: string, amount: Money, types: [FlowTypeName, FlowTypeName], fromLocked: boolean): void {
  const value = atoms(p, asset, amount);
  p.core.ledger.post(p.ctx, from, asset, -value, types[0], fromLocked);
  p.core.ledger.post(p.ctx, to, asset, value, types[1]);
}

/** docs/merchant-payments.md "Order statuses", at creation: what the order reserves until it settles or ends. */
export function reserve(p: PaymentsContext, order: PaymentOrder): void {
  if (order.kind === 'fiat_to_crypto') {
    lock(p, desk(p), order.crypto, order.cryptoAmount);
    if (order.paymentId === PENDING_FUND_RAIL) lock(p, accountOf(p, order.merchantId), order.fiat, order.fiatAmount);
  } else if (order.kind === 'crypto_to_fiat') {
    lock(p, accountOf(p, order.merchantId), order.crypto, order.cryptoAmount);
    lock(p, desk(p), order.fiat, order.gross);
  } else if (order.offRamp !== undefined) {
    lock(p, desk(p), order.offRamp.fiat, order.offRamp.amount);
  }
}

/** What the order reserves now, per account and asset (verify: locked = reserved). */
export function reservations(
  order: PaymentOrder,
  deskAccountId: number,
  feeAccountId: number,
  accountIdOf: (merchantId: number) => number,
): { accountId: number; asset: string; amount: Money }[] {
  const s = order.status;
  if (TERMINAL_STATUSES.has(s)) return [];
  if (order.kind === 'fiat_to_crypto') {
    const fromFund = order.paymentId === PENDING_FUND_RAIL && s < ORDER.PAID;
    return [{ accountId: deskAccountId, asset: order.crypto, amount: order.cryptoAmount }, ...(fromFund ? [{ accountId: accountIdOf(order.merchantId), asset: order.fiat, amount: order.fiatAmount }] : [])];
  }
  if (order.kind === 'crypto_to_fiat') {
    const merchantCrypto = { accountId: accountIdOf(order.merchantId), asset: order.crypto, amount: order.cryptoAmount };
    return s === ORDER.PAID ? [merchantCrypto] : [merchantCrypto, { accountId: deskAccountId, asset: order.fiat, amount: order.gross }];
  }
  if (order.offRamp === undefined || order.onRamp === undefined) return [];
  const payout = { accountId: deskAccountId, asset: order.offRamp.fiat, amount: order.offRamp.amount };
  if (s !== ORDER.PAYOUT_PENDING) return [payout];
  // Paid in, payout pending: the pay-in stays locked in D and FEE until the payout's outcome.
  return [
    payout,
    { accountId: deskAccountId, asset: order.onRamp.fiat, amount: minus(order.onRamp.amount, order.onRamp.fee) },
    { accountId: feeAccountId, asset: order.onRamp.fiat, amount: order.onRamp.fee },
  ];
}

/** Gives back every reservation of an order that ends before settling (reject, timeout, failed payout). */
function release(p: PaymentsContext, order: PaymentOrder): void {
  if (order.kind === 'fiat_to_crypto') {
    unlock(p, desk(p), order.crypto, order.cryptoAmount);
    if (order.paymentId === PENDING_FUND_RAIL) {
      unlock(p, accountOf(p, order.merchantId), order.fiat, order.fiatAmount);
      settleBuyRecord(p, order, FUNDING_CANCELED);
    }
  } else if (order.kind === 'crypto_to_fiat') {
    unlock(p, accountOf(p, order.merchantId), order.crypto, order.cryptoAmount);
    unlock(p, desk(p), order.fiat, order.gross);
  } else if (order.offRamp !== undefined) {
    unlock(p, desk(p), order.offRamp.fiat, order.offRamp.amount);
  }
}

/** The BUY_CRYPTO record of an f2c order paid from the pending fund: 2 when paid, 3 when it ends unpaid. */
function settleBuyRecord(p: PaymentsContext, order: PaymentOrder, status: number): void {
  for (const record of p.state.pendingFunding.values()) {
    if (record.type !== 'BUY_CRYPTO' || record.orderId !== String(order.orderId)) continue;
    record.status = status;
    record.updateTime = p.ctx.ts;
    p.state.pendingFunding.delete(record.txId);
    writeRecord(p, record);
  }
}

/** The order's row of the store's table: the B33 object, read by B33 and B34. */
export function writeOrder(p: PaymentsContext, order: PaymentOrder): void {
  if (!p.ctx.recordRows) return;
  const merchants = order.onRamp === undefined ? [order.merchantId] : [order.onRamp.merchantId, order.offRamp?.merchantId ?? 0];
  p.ctx.rows.moduleRows.push({
    table: ORDERS_TABLE,
    values: {
      order_id: order.orderId,
      user_id: order.userId,
      kind: order.kind,
      status: order.status,
      client_id: order.clientId,
      merchant_ids: `,${[...new Set(merchants)].join(',')},`,
      create_time: order.createTime,
      detail: JSON.stringify(orderDetail(p, order)),
    },
  });
}

const fixed = (m: Money): string => formatFixed(m.units, m.accuracy);
const msText = (ms: number): string => (ms === 0 ? '' : String(ms));

/** The B33 object (docs/merchant-payments.md "Endpoints served"): every field present, money at its accuracy. */
export function orderDetail(p: PaymentsContext, order: PaymentOrder): Record<string, unknown> {
  const common = {
    orderId: String(order.orderId),
    clientId: order.clientId,
    orderType: order.kind,
  };
  const tail = {
    quoteId: order.quoteId,
    remark: order.remark,
    failCode: order.failCode,
    failReason: order.failReason,
    createTime: msText(order.createTime),
    updateTime: msText(order.updateTime),
    completedTime: msText(order.completedTime),
  };
  if (order.onRamp !== undefined && order.offRamp !== undefined) {
    const beneficiary = p.state.beneficiaries.get(order.offRamp.paymentId);
    return {
      ...common,
      onRampMerchantId: order.onRamp.merchantId,
      onRampPaymentId: order.onRamp.paymentId,
      onRampCountry: order.onRamp.country,
      onRampFiat: order.onRamp.fiat,
      onRampFiatAmount: fixed(order.onRamp.amount),
      onRampFiatFee: fixed(order.onRamp.fee),
      offRampMerchantId: order.offRamp.merchantId,
      offRampPaymentId: order.offRamp.paymentId,
      offRampCountry: order.offRamp.country,
      offRampFiat: order.offRamp.fiat,
      offRampFiatAmount: fixed(order.offRamp.amount),
      offRampFiatFee: fixed(order.offRamp.fee),
      offArriveRampFiatAmount: fixed(order.offRamp.arrive),
      orderPrice: fixed(order.orderPrice),
      orderStatus: order.status,
      hasRefund: order.hasRefund ? 1 : 0,
      traceNumber: order.traceNumber,
      onRampPaymentInfo: payInInfo(p, order, order.onRamp.merchantId, order.onRamp.fiat),
      offRampPaymentInfo: beneficiary === undefined ? {} : { ...beneficiary.fieldList },
      ...tail,
    };
  }
  const beneficiary = order.kind === 'crypto_to_fiat' ? p.state.beneficiaries.get(order.userPaymentId) : undefined;
  return {
    ...common,
    merchantId: order.merchantId,
    paymentId: order.paymentId,
    userPaymentId: order.userPaymentId,
    country: order.country,
    crypto: order.crypto,
    fiat: order.fiat,
    orderPrice: fixed(order.orderPrice),
    cryptoAmount: fixed(order.cryptoAmount),
    fiatAmount: fixed(order.fiatAmount),
    fiatFee: fixed(order.fiatFee),
    orderStatus: order.status,
    hasRefund: order.hasRefund ? 1 : 0,
    traceNumber: order.traceNumber,
    paymentInfo: order.kind === 'fiat_to_crypto' ? (order.paymentId === PENDING_FUND_RAIL ? {} : payInInfo(p, order, order.merchantId, order.fiat)) : beneficiary === undefined ? {} : { ...beneficiary.fieldList },
    ...tail,
  };
}

/** Where to pay: the merchant account's instructions plus `Reference` = orderId (docs/merchant-payments.md "Endpoints served" B33). */
function payInInfo(p: PaymentsContext, order: PaymentOrder, merchantId: number, fiat: string): Record<string, string> {
  const rail = p.state.config.rails.find((r) => r.fiat === fiat);
  const m = p.state.merchants.get(merchantId);
  if (rail === undefined || m === undefined) return { Reference: String(order.orderId) };
  return { ...depositInstructions(m.merchantId, m.merchantName, rail), Reference: String(order.orderId) };
}

function orderKey(order: PaymentOrder, what: string): string {
  return `${what}:${order.orderId}`;
}

/**
 * Moves the order into `status` and does what entering it means (docs/merchant-payments.md "Order statuses"): deadlines, the
 * simulator's decisions (as follow-ups), settlements that happen at once. Every status passed is
 * written and is one webhook event (docs/webhooks.md "Registering"), creation's first status included.
 */
export function enterStatus(p: PaymentsContext, order: PaymentOrder, status: number): void {
  order.status = status;
  order.updateTime = p.ctx.ts;
  order.deadline = undefined;
  const config = p.state.config;
  const modes = modesOf(p.state, order.userId);
  const f2f = order.kind === 'fiat_to_fiat';
  if (TERMINAL_STATUSES.has(status)) {
    order.completedTime = p.ctx.ts;
    p.state.openOrders.delete(order.orderId);
    if (status !== ORDER.RELEASED) giveBackUsage(p.state, order);
  }
  writeOrder(p, order);
  p.core.webhooks.record(p.ctx, order.userId, orderEventType(order), String(order.orderId), String(status), () => orderPayload(order));
  switch (status) {
    case ORDER.REVIEW:
    case ORDER.RFI_UPLOADED: {
      const mode = modes.orderReview;
      if (mode === 'manual') return;
      // After an upload, any automatic mode but reject approves (docs/merchant-payments.md "Order statuses").
      const decision = status === ORDER.RFI_UPLOADED && mode !== 'reject' ? 'approve' : mode;
      decideLater(p, orderKey(order, 'review'), { type: 'reviewOrder', userId: 0, orderId: order.orderId, decision });
      return;
    }
    case ORDER.APPROVED:
      order.deadline = { at: p.ctx.ts + config.acceptWindowMs, action: 'expire' };
      return;
    case ORDER.RFI:
    case ORDER.DOCUMENTS:
      order.deadline = { at: p.ctx.ts + config.documentsWindowMs, action: 'expire' };
      return;
    case ORDER.PENDING_PAYMENT:
      if (order.kind === 'fiat_to_crypto') {
        if (order.paymentId === PENDING_FUND_RAIL) payOnRampFromFund(p, order);
        else order.deadline = { at: p.ctx.ts + config.paymentWindowMs, action: 'expire' };
      } else if (order.userPaymentId === PENDING_FUND_RAIL) {
        payOffRampToFund(p, order);
      } else {
        schedulePayout(p, order);
      }
      return;
    case ORDER.PAY_IN_PENDING:
      order.deadline = { at: p.ctx.ts + config.paymentWindowMs, action: 'expire' };
      return;
    case ORDER.PAID:
      if (order.kind === 'crypto_to_fiat') order.deadline = { at: p.ctx.ts + config.releaseHoldMs, action: 'release' };
      return;
    case ORDER.PAYOUT_PENDING:
      schedulePayout(p, order);
      return;
    default:
      void f2f;
  }
}

function schedulePayout(p: PaymentsContext, order: PaymentOrder): void {
  const modes = modesOf(p.state, order.userId);
  if (modes.payout === 'manual') return;
  decideLater(p, orderKey(order, 'payout'), {
    type: 'orderPayout',
    userId: 0,
    orderId: order.orderId,
    result: modes.payout,
    ...(modes.payout === 'fail' ? { failCode: modes.payoutFailCode } : {}),
  });
}

function fail(p: PaymentsContext, order: PaymentOrder, status: number, code: number): void {
  order.failCode = code;
  order.failReason = failName(code);
  enterStatus(p, order, status);
}

/** 70 (f2c, c2f) or 71 (f2f) with the reservations given back. */
function cancel(p: PaymentsContext, order: PaymentOrder, code: number): void {
  release(p, order);
  fail(p, order, order.kind === 'fiat_to_fiat' ? ORDER.PAY_IN_CANCELED : ORDER.CANCELED, code);
}

/** f2c 40 with `paymentId` 70: the fund pays at once (docs/merchant-payments.md "Order statuses"), then the crypto is settled. */
function payOnRampFromFund(p: PaymentsContext, order: PaymentOrder): void {
  const m = accountOf(p, order.merchantId);
  move(p, m, fee(p), order.fiat, order.fiatFee, ['OTC_FEE', 'OTC_FEE'], true);
  move(p, m, desk(p), order.fiat, minus(order.fiatAmount, order.fiatFee), ['OTC_BUY_COIN', 'OTC_SELL_COIN'], true);
  settleBuyRecord(p, order, FUNDING_COMPLETED);
  enterStatus(p, order, ORDER.PAID);
  settleOnRamp(p, order);
}

/** f2c 50 → 60: the desk's locked crypto goes to M. */
function settleOnRamp(p: PaymentsContext, order: PaymentOrder): void {
  move(p, desk(p), accountOf(p, order.merchantId), order.crypto, order.cryptoAmount, ['OTC_SELL_COIN', 'OTC_BUY_COIN'], true);
  enterStatus(p, order, ORDER.RELEASED);
}

/** c2f 40 with `userPaymentId` 70: credited to the pending fund at once (it cannot fail), then released. */
function payOffRampToFund(p: PaymentsContext, order: PaymentOrder): void {
  const m = merchant(p, order.merchantId);
  move(p, desk(p), accountOf(p, m.merchantId), order.fiat, order.fiatAmount, ['OTC_BUY_COIN', 'OTC_SELL_COIN'], true);
  move(p, desk(p), fee(p), order.fiat, order.fiatFee, ['OTC_FEE', 'OTC_FEE'], true);
  createRecord(p, m, {
    clientId: order.clientId,
    orderId: String(order.orderId),
    fiat: order.fiat,
    totalAmount: order.fiatAmount.units,
    amount: order.fiatAmount.units,
    fee: 0n,
    accuracy: order.fiatAmount.accuracy,
    userPaymentId: PENDING_FUND_RAIL,
    type: 'SELL_CRYPTO',
    status: FUNDING_COMPLETED,
    payer: undefined,
  });
  enterStatus(p, order, ORDER.PAID);
  settleOffRamp(p, order);
}

/** c2f 50 → 60: the merchant's locked crypto goes to the desk. */
function settleOffRamp(p: PaymentsContext, order: PaymentOrder): void {
  move(p, accountOf(p, order.merchantId), desk(p), order.crypto, order.cryptoAmount, ['OTC_SELL_COIN', 'OTC_BUY_COIN'], true);
  enterStatus(p, order, ORDER.RELEASED);
}

/** A payout id for `traceNumber`: deterministic, from the order and the time it was sent. */
function payoutTrace(p: PaymentsContext, order: PaymentOrder): string {
  return `BRP${new Date(p.ctx.ts).toISOString().slice(0, 10).replaceAll('-', '')}${String(order.orderId).slice(-6)}`;
}

/** The outcome of a c2f payout (40) or an f2f payout (51): the first one recorded is the only one. */
export function payoutOutcome(p: PaymentsContext, order: PaymentOrder, success: boolean, failCode: number): void {
  p.state.decisions.delete(orderKey(order, 'payout'));
  if (order.kind === 'crypto_to_fiat') {
    if (!success) {
      cancel(p, order, failCode);
      return;
    }
    const d = desk(p);
    bankOut(p, d, order.fiat, atoms(p, order.fiat, order.fiatAmount));
    move(p, d, fee(p), order.fiat, order.fiatFee, ['OTC_FEE', 'OTC_FEE'], true);
    order.traceNumber = payoutTrace(p, order);
    enterStatus(p, order, ORDER.PAID);
    return;
  }
  const onRamp = order.onRamp;
  const offRamp = order.offRamp;
  if (onRamp === undefined || offRamp === undefined) throw new Error(`order ${order.orderId} has no legs`);
  const d = desk(p);
  const received = minus(onRamp.amount, onRamp.fee);
  if (success) {
    bankOut(p, d, offRamp.fiat, atoms(p, offRamp.fiat, offRamp.arrive));
    move(p, d, fee(p), offRamp.fiat, offRamp.fee, ['OTC_FEE', 'OTC_FEE'], true);
    // What the pay-in brought is the desk's and FEE's for good now.
    unlock(p, d, onRamp.fiat, received);
    unlock(p, fee(p), onRamp.fiat, onRamp.fee);
    order.traceNumber = payoutTrace(p, order);
    enterStatus(p, order, ORDER.RELEASED);
    return;
  }
  // 72: the failure is on the payout side, so the payer gets everything back, the on-ramp fee
  // included, from what the pay-in left locked in D and FEE: this refund cannot fail.
  unlock(p, d, offRamp.fiat, offRamp.amount);
  const mo = accountOf(p, onRamp.merchantId);
  move(p, d, mo, onRamp.fiat, received, ['OTC_TRADE', 'OTC_TRADE'], true);
  move(p, fee(p), mo, onRamp.fiat, onRamp.fee, ['OTC_FEE', 'OTC_FEE'], true);
  fail(p, order, ORDER.PAYOUT_CANCELED, failCode);
  refundToFund(p, merchant(p, onRamp.merchantId), onRamp.fiat, onRamp.amount, order, undefined, false);
}

/**
 * A REFUND record to the pending fund (docs/merchant-payments.md "Bank arrivals and refunds" rule 3, f2f 72); with a refund account for the fiat, an
 * automatic WITHDRAW of the same amount to it follows at once, fee 0.00. `credit`: the money comes
 * from the bank now (rule 3); for 72 it was already moved back into M.
 */
export function refundToFund(p: PaymentsContext, m: Merchant, fiat: string, amount: Money, order: PaymentOrder | undefined, payer: Parameters<typeof createRecord>[2]['payer'], credit: boolean): number {
  const account = p.core.ledger.account(m.accountId);
  if (credit) bankIn(p, account, fiat, atoms(p, fiat, amount));
  const record = createRecord(p, m, {
    clientId: order?.clientId ?? '',
    orderId: order === undefined ? '' : String(order.orderId),
    fiat,
    totalAmount: amount.units,
    amount: amount.units,
    fee: 0n,
    accuracy: amount.accuracy,
    userPaymentId: 0,
    type: 'REFUND',
    status: FUNDING_COMPLETED,
    payer,
  });
  if (order !== undefined && !order.hasRefund) {
    order.hasRefund = true;
    writeOrder(p, order);
  }
  const refundAccount = p.state.refundAccounts.get(`${m.merchantId}:${fiat}`);
  if (refundAccount !== undefined) startWithdraw(p, m, refundAccount, fiat, { amount: amount.units, fee: 0n, accuracy: amount.accuracy }, record.clientId, record.orderId);
  return record.txId;
}

/** The order as the caller may see it: its own (another user's is nonexistent, -5101), of the kind named. */
export function orderOf(p: PaymentsContext, userId: number, orderId: number, kind?: string): PaymentOrder {
  const order = p.state.orders.get(orderId);
  if (order === undefined || (userId !== 0 && order.userId !== userId) || (kind !== undefined && order.kind !== kind)) refuse('ORDER_NOT_EXIST', `Order ${orderId} does not exist`);
  return order;
}

export const transitions = { cancel, fail, settleOnRamp, settleOffRamp, payoutOutcome, orderKey };

export { FAIL };
