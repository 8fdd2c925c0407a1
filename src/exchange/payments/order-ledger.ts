/**
 * What payment orders do to the ledger (docs/merchant-payments.md "Order statuses", "Exactly-once
 * settlement"): what an order reserves while open, and each settlement the transition table
 * (order-transitions.ts) names as a move's ledger effect.
 */

import type { FlowTypeName } from '../../core/types.js';
import type { Account } from '../../ledger/account.js';
import { PENDING_FUND_RAIL } from '../../payments/config.js';
import { FUNDING_CANCELED, FUNDING_COMPLETED, type Merchant, type Payer } from '../../payments/model.js';
import { ORDER, TERMINAL_STATUSES, type Money, type PaymentOrder } from '../../payments/orders.js';
import { createRecord, startWithdraw, writeRecord } from './funding-records.js';
import { orderChanged } from './order-rows.js';
import { atomsOf, bankIn, bankOut, type PaymentsContext } from './payments-context.js';

function merchant(p: PaymentsContext, merchantId: number): Merchant {
  const found = p.state.merchants.get(merchantId);
  if (found === undefined) throw new Error(`order names unknown merchant ${merchantId}`);
  return found;
}

function accountOf(p: PaymentsContext, merchantId: number): Account {
  return p.ledger.account(merchant(p, merchantId).accountId);
}

function desk(p: PaymentsContext): Account {
  return p.ledger.account(p.state.deskAccountId);
}

function fee(p: PaymentsContext): Account {
  return p.ledger.account(p.ledger.feeAccountId);
}

const atoms = (p: PaymentsContext, asset: string, amount: Money): bigint => atomsOf(p, asset, amount.units, amount.accuracy);
const minus = (a: Money, b: Money): Money => ({ units: a.units - b.units, accuracy: a.accuracy });

function lock(p: PaymentsContext, account: Account, asset: string, amount: Money): void {
  p.ledger.lock(p.ctx, account, asset, atoms(p, asset, amount));
}

function unlock(p: PaymentsContext, account: Account, asset: string, amount: Money): void {
  p.ledger.unlock(p.ctx, account, asset, atoms(p, asset, amount));
}

/** `amount` from one account to another, each side its flow type; `fromLocked` spends a reservation. */
function move(p: PaymentsContext, from: Account, to: Account, asset: string, amount: Money, types: [FlowTypeName, FlowTypeName], fromLocked: boolean): void {
  const value = atoms(p, asset, amount);
  p.ledger.post(p.ctx, from, asset, -value, types[0], fromLocked);
  p.ledger.post(p.ctx, to, asset, value, types[1]);
}

/** At creation: what the order reserves until it settles or ends; an f2c paid from the pending fund also gets its BUY_CRYPTO record. */
export function reserve(p: PaymentsContext, order: PaymentOrder): void {
  if (order.kind === 'fiat_to_crypto') {
    lock(p, desk(p), order.crypto, order.cryptoAmount);
    if (order.paymentId !== PENDING_FUND_RAIL) return;
    lock(p, accountOf(p, order.merchantId), order.fiat, order.fiatAmount);
    createRecord(p, merchant(p, order.merchantId), {
      clientId: order.clientId,
      orderId: String(order.orderId),
      fiat: order.fiat,
      totalAmount: order.fiatAmount.units,
      amount: order.fiatAmount.units - order.fiatFee.units,
      fee: order.fiatFee.units,
      accuracy: order.fiatAmount.accuracy,
      userPaymentId: PENDING_FUND_RAIL,
      type: 'BUY_CRYPTO',
      status: 1,
      payer: undefined,
    });
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

/** Gives back every reservation of an order that ends before settling (reject, timeout, failed c2f payout). */
export function release(p: PaymentsContext, order: PaymentOrder): void {
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

/** f2c 40 → 50 from the pending fund (paid at once): M's reserved fiat to FEE and D, the BUY_CRYPTO record completed. */
export function payFromFund(p: PaymentsContext, order: PaymentOrder): void {
  const m = accountOf(p, order.merchantId);
  move(p, m, fee(p), order.fiat, order.fiatFee, ['OTC_FEE', 'OTC_FEE'], true);
  move(p, m, desk(p), order.fiat, minus(order.fiatAmount, order.fiatFee), ['OTC_BUY_COIN', 'OTC_SELL_COIN'], true);
  settleBuyRecord(p, order, FUNDING_COMPLETED);
}

/** c2f 40 → 50 to the pending fund (it cannot fail): D's reserved fiat to M and FEE, a completed SELL_CRYPTO record. */
export function creditFund(p: PaymentsContext, order: PaymentOrder): void {
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
}

/**
 * The exact bank pay-in (f2c 40 → 50, f2f 41 → 51): the money arrives in M, the fee goes to FEE and
 * the rest to D. f2c shows the pay-in's trace; f2f shows its payout's, set when the payout is sent
 * (docs/merchant-payments.md "Endpoints served" B33), and holds what arrived locked in D and FEE
 * until the payout's outcome: a failed payout (72) gives it all back, and must not fail.
 */
export function payIn(p: PaymentsContext, order: PaymentOrder, traceNumber: string): void {
  const ledger = p.ledger;
  const deskAccount = desk(p);
  const feeAccount = fee(p);
  const onRamp = order.onRamp;
  const m = accountOf(p, onRamp?.merchantId ?? order.merchantId);
  const fiat = onRamp?.fiat ?? order.fiat;
  const amount = atoms(p, fiat, onRamp?.amount ?? order.fiatAmount);
  const feeAtoms = atoms(p, fiat, onRamp?.fee ?? order.fiatFee);
  bankIn(p, m, fiat, amount);
  ledger.post(p.ctx, m, fiat, -feeAtoms, 'OTC_FEE');
  ledger.post(p.ctx, feeAccount, fiat, feeAtoms, 'OTC_FEE');
  const toDesk = amount - feeAtoms;
  ledger.post(p.ctx, m, fiat, -toDesk, onRamp === undefined ? 'OTC_BUY_COIN' : 'OTC_TRADE');
  ledger.post(p.ctx, deskAccount, fiat, toDesk, onRamp === undefined ? 'OTC_SELL_COIN' : 'OTC_TRADE');
  if (onRamp === undefined) {
    order.traceNumber = traceNumber;
    return;
  }
  ledger.lock(p.ctx, deskAccount, fiat, toDesk);
  ledger.lock(p.ctx, feeAccount, fiat, feeAtoms);
}

/** f2c 50 → 60: the desk's reserved crypto goes to M. */
export function deliverCrypto(p: PaymentsContext, order: PaymentOrder): void {
  move(p, desk(p), accountOf(p, order.merchantId), order.crypto, order.cryptoAmount, ['OTC_SELL_COIN', 'OTC_BUY_COIN'], true);
}

/** c2f 50 → 60: the merchant's reserved crypto goes to the desk. */
export function takeCrypto(p: PaymentsContext, order: PaymentOrder): void {
  move(p, accountOf(p, order.merchantId), desk(p), order.crypto, order.cryptoAmount, ['OTC_SELL_COIN', 'OTC_BUY_COIN'], true);
}

/** A payout id for `traceNumber`: deterministic, from the order and the time it was sent. */
function payoutTrace(p: PaymentsContext, order: PaymentOrder): string {
  return `BRP${new Date(p.ctx.ts).toISOString().slice(0, 10).replaceAll('-', '')}${String(order.orderId).slice(-6)}`;
}

/** c2f 40 → 50, the payout sent: D's reserved fiat leaves to the bank, its fee to FEE. */
export function payOut(p: PaymentsContext, order: PaymentOrder): void {
  const d = desk(p);
  bankOut(p, d, order.fiat, atoms(p, order.fiat, order.fiatAmount));
  move(p, d, fee(p), order.fiat, order.fiatFee, ['OTC_FEE', 'OTC_FEE'], true);
  order.traceNumber = payoutTrace(p, order);
}

function legsOf(order: PaymentOrder): { onRamp: NonNullable<PaymentOrder['onRamp']>; offRamp: NonNullable<PaymentOrder['offRamp']> } {
  const { onRamp, offRamp } = order;
  if (onRamp === undefined || offRamp === undefined) throw new Error(`order ${order.orderId} has no legs`);
  return { onRamp, offRamp };
}

/** f2f 51 → 60, the payout sent: what arrives leaves D to the bank, the payout fee goes to FEE, and what the pay-in brought is D's and FEE's for good. */
export function payOutAcross(p: PaymentsContext, order: PaymentOrder): void {
  const { onRamp, offRamp } = legsOf(order);
  const d = desk(p);
  bankOut(p, d, offRamp.fiat, atoms(p, offRamp.fiat, offRamp.arrive));
  move(p, d, fee(p), offRamp.fiat, offRamp.fee, ['OTC_FEE', 'OTC_FEE'], true);
  unlock(p, d, onRamp.fiat, minus(onRamp.amount, onRamp.fee));
  unlock(p, fee(p), onRamp.fiat, onRamp.fee);
  order.traceNumber = payoutTrace(p, order);
}

/**
 * f2f 51 → 72: the failure is on the payout side, so the payer gets everything back, the on-ramp
 * fee included, from what the pay-in left locked in D and FEE: this cannot fail.
 */
export function returnPayIn(p: PaymentsContext, order: PaymentOrder): void {
  const { onRamp, offRamp } = legsOf(order);
  const d = desk(p);
  unlock(p, d, offRamp.fiat, offRamp.amount);
  const mo = accountOf(p, onRamp.merchantId);
  move(p, d, mo, onRamp.fiat, minus(onRamp.amount, onRamp.fee), ['OTC_TRADE', 'OTC_TRADE'], true);
  move(p, fee(p), mo, onRamp.fiat, onRamp.fee, ['OTC_FEE', 'OTC_FEE'], true);
}

/** After f2f 72: the pay-in, back in M, is a REFUND to the pending fund. */
export function refundPayIn(p: PaymentsContext, order: PaymentOrder): void {
  const { onRamp } = legsOf(order);
  refundToFund(p, merchant(p, onRamp.merchantId), onRamp.fiat, onRamp.amount, order, undefined, false);
}

/**
 * A REFUND record to the pending fund (docs/merchant-payments.md "Bank arrivals and refunds" rule 3, f2f 72); with a refund account for the fiat, an
 * automatic WITHDRAW of the same amount to it follows at once, fee 0.00. `credit`: the money comes
 * from the bank now (rule 3); for 72 it was already moved back into M.
 */
export function refundToFund(p: PaymentsContext, m: Merchant, fiat: string, amount: Money, order: PaymentOrder | undefined, payer: Payer | undefined, credit: boolean): number {
  const account = p.ledger.account(m.accountId);
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
    orderChanged(p, order);
  }
  const refundAccount = p.state.refundAccounts.get(`${m.merchantId}:${fiat}`);
  if (refundAccount !== undefined) startWithdraw(p, m, refundAccount, fiat, { amount: amount.units, fee: 0n, accuracy: amount.accuracy }, record.clientId, record.orderId);
  return record.txId;
}
