import { refuse } from '../../core/payment-errors.js';
import type { BankArrivalCommand, ClaimFundsCommand, SettleFundingCommand, TransferFundsCommand } from '../../core/payment-commands.js';
import { railOfFiat, PENDING_FUND_RAIL } from '../../payments/config.js';
import { formatFixed, unitsOf } from '../../payments/money.js';
import {
  BENEFICIARY_VALID,
  FUNDING_CANCELED,
  FUNDING_COMPLETED,
  FUNDING_PENDING,
  type FundingRecord,
  type FundingType,
  type Merchant,
  type Payer,
} from '../../payments/model.js';
import { amountOf, createRecord, openAccountOf, pendingFundOf, startWithdraw, writeRecord } from './funding-records.js';
import { arrivalForOrder } from './order-commands.js';
import { atomsOf, bankIn, bankOut, fiatAccuracy, merchantOf, modesOf, ownMerchant, staleDecision, type Dropped, type PaymentsContext } from './payments-context.js';

function traceNumberFor(ts: number, txId: number): string {
  const day = new Date(ts).toISOString().slice(0, 10).replaceAll('-', '');
  return `BRS${day}${String(txId).padStart(6, '0')}`;
}

/**
 * A bank arrival (docs/merchant-payments.md "Bank arrivals and refunds"), first matching rule wins: 1, a traceNumber seen before for the merchant
 * is ignored (-1174); 2 and 3, a `reference` naming one of the merchant's orders pays it or is
 * refunded (order-commands.ts); 4, a DEPOSIT record.
 */
export function bankArrival(p: PaymentsContext, cmd: BankArrivalCommand): { result: 'ORDER_PAID' | 'REFUND' | 'DEPOSIT'; orderId: string; txId: number } {
  const merchant = merchantOf(p, cmd.userId, cmd.merchantId);
  const accuracy = fiatAccuracy(p, cmd.fiat);
  openAccountOf(p, merchant, cmd.fiat);
  const amount = amountOf(cmd.amount, accuracy, 'amount');
  const seen = p.state.traceNumbers.get(merchant.merchantId);
  const earlier = cmd.traceNumber === '' ? undefined : seen?.get(cmd.traceNumber);
  if (earlier !== undefined) refuse('REPEATED_SUBMIT_REQUEST', `traceNumber ${cmd.traceNumber} has arrived before`, earlier.startsWith('order:') ? { orderId: earlier.slice(6) } : { txId: Number(earlier) });
  const payer: Payer = {
    payerName: cmd.payerName,
    payerAccount: cmd.payerAccount,
    cardNo: cmd.cardNo,
    taxId: cmd.taxId,
    description: cmd.description,
    traceNumber: cmd.traceNumber === '' ? traceNumberFor(p.ctx.ts, p.state.nextTxId) : cmd.traceNumber,
  };
  const result = arrivalForOrder(p, merchant, cmd.fiat, { units: amount, accuracy }, cmd.reference, payer) ?? deposit(p, merchant, cmd.fiat, amount, accuracy, payer);
  let traces = seen;
  if (traces === undefined) {
    traces = new Map();
    p.state.traceNumbers.set(merchant.merchantId, traces);
  }
  traces.set(payer.traceNumber, result.txId === 0 ? `order:${result.orderId}` : String(result.txId));
  return result;
}

/** Rule 4: a DEPOSIT record, completed by the arrival's own command in mode `deposit: complete`, pending in `manual`. */
function deposit(p: PaymentsContext, merchant: Merchant, fiat: string, amount: bigint, accuracy: number, payer: Payer): { result: 'DEPOSIT'; orderId: ''; txId: number } {
  const complete = modesOf(p.state, merchant.userId).deposit === 'complete';
  const record = createRecord(p, merchant, {
    clientId: '',
    orderId: '',
    fiat,
    totalAmount: amount,
    amount,
    fee: 0n,
    accuracy,
    userPaymentId: 0,
    type: 'DEPOSIT',
    status: complete ? FUNDING_COMPLETED : FUNDING_PENDING,
    payer,
  });
  if (complete) bankIn(p, p.ledger.account(merchant.accountId), fiat, atomsOf(p, fiat, amount, accuracy));
  return { result: 'DEPOSIT', orderId: '', txId: record.txId };
}

/** B18: pays pending funds to a beneficiary; `amount + fee` is locked until the payout's outcome. */
export function claimFunds(p: PaymentsContext, cmd: ClaimFundsCommand): FundingRecord {
  const { state } = p;
  const earlier = cmd.clientId === '' ? undefined : state.claimClientIds.get(cmd.userId)?.get(cmd.clientId);
  if (earlier !== undefined) refuse('REPEATED_SUBMIT_REQUEST', `clientId ${cmd.clientId} was used by claim ${earlier}`, { txId: earlier });
  const merchant = ownMerchant(p, cmd.userId, cmd.merchantId);
  const accuracy = fiatAccuracy(p, cmd.fiat);
  openAccountOf(p, merchant, cmd.fiat);
  const amount = amountOf(cmd.amount, accuracy, 'amount');
  if (cmd.userPaymentId === PENDING_FUND_RAIL) refuse('PAYMENT_INVALID', 'The pending fund is not a payout account');
  const beneficiary = state.beneficiaries.get(cmd.userPaymentId);
  if (beneficiary === undefined || beneficiary.merchantId !== merchant.merchantId) refuse('PAYMENT_NOT_EXIST', `Beneficiary ${cmd.userPaymentId} is not merchant ${merchant.merchantId}'s`);
  if (beneficiary.status !== BENEFICIARY_VALID) refuse('PAYMENT_INVALID', `Beneficiary ${beneficiary.userPaymentId} is not valid (status ${beneficiary.status})`);
  if (beneficiary.fiat !== cmd.fiat) refuse('PAYMENT_FIAT_AND_ORDER_NOT_MATCH', `Beneficiary ${beneficiary.userPaymentId} is paid in ${beneficiary.fiat}`);
  const rail = state.config.rails.find((r) => r.paymentId === beneficiary.paymentId);
  const fee = unitsOf(rail?.payoutFee ?? '0', accuracy) ?? 0n;
  const available = pendingFundOf(p, merchant, cmd.fiat, accuracy);
  if (amount + fee > available) refuse('INSUFFICIENT_BALANCE', `The pending fund holds ${formatFixed(available, accuracy)} ${cmd.fiat}; ${formatFixed(amount + fee, accuracy)} needed`);
  const record = startWithdraw(p, merchant, beneficiary.userPaymentId, cmd.fiat, { amount, fee, accuracy }, cmd.clientId, '');
  if (cmd.clientId !== '') {
    let ids = state.claimClientIds.get(merchant.userId);
    if (ids === undefined) {
      ids = new Map();
      state.claimClientIds.set(merchant.userId, ids);
    }
    ids.set(cmd.clientId, record.txId);
  }
  // As the claim left it: the payout's follow-up in the same batch settles the live record.
  return structuredClone(record);
}

/** docs/merchant-payments.md "The simulator and the sandbox API" complete / cancel of a pending DEPOSIT or WITHDRAW (the payout's one outcome). */
export function settleFunding(p: PaymentsContext, cmd: SettleFundingCommand): FundingRecord | Dropped {
  const record = p.state.pendingFunding.get(cmd.txId);
  if (record === undefined || (cmd.userId !== 0 && record.userId !== cmd.userId)) {
    return staleDecision(p, cmd.due, `Funding record ${cmd.txId} is not pending`);
  }
  if (record.type !== 'DEPOSIT' && record.type !== 'WITHDRAW') refuse('INVALID_STATE', `Funding record ${cmd.txId} is settled by its order`);
  const ledger = p.ledger;
  const account = ledger.account(p.state.merchants.get(record.merchantId)?.accountId ?? -1);
  const atoms = (units: bigint): bigint => atomsOf(p, record.fiat, units, record.accuracy);
  if (record.type === 'DEPOSIT') {
    if (cmd.action === 'complete') bankIn(p, account, record.fiat, atoms(record.amount));
  } else if (cmd.action === 'complete') {
    bankOut(p, account, record.fiat, atoms(record.amount));
    ledger.post(p.ctx, account, record.fiat, -atoms(record.fee), 'OTC_FEE', true);
    ledger.post(p.ctx, ledger.account(ledger.feeAccountId), record.fiat, atoms(record.fee), 'OTC_FEE');
  } else {
    ledger.unlock(p.ctx, account, record.fiat, atoms(record.totalAmount));
  }
  record.status = cmd.action === 'complete' ? FUNDING_COMPLETED : FUNDING_CANCELED;
  if (cmd.action === 'cancel') record.failReason = cmd.failReason !== undefined && cmd.failReason !== '' ? cmd.failReason : record.type === 'DEPOSIT' ? 'Returned to sender' : 'Payout failed';
  record.updateTime = p.ctx.ts;
  p.state.pendingFunding.delete(record.txId);
  p.state.decisions.delete(`funding:${record.txId}`);
  writeRecord(p, record);
  return structuredClone(record);
}

/** The B19 fee of moving `amount` units: fixed, or a fraction rounded up to the fiat's accuracy. */
export function transferFeeOf(p: PaymentsContext, fiat: string, amount: bigint, accuracy: number): bigint {
  const spec = p.state.config.transferFees.find((f) => f.fiat === fiat);
  if (spec === undefined) return 0n;
  if (spec.feeType === 0) return unitsOf(spec.fee, accuracy) ?? 0n;
  const rateScale = 18;
  const rate = unitsOf(spec.fee, rateScale) ?? 0n;
  const denominator = 10n ** BigInt(rateScale);
  return (amount * rate + denominator - 1n) / denominator;
}

/** B20: pending fund from one of the user's merchants to another, fee to FEE; two records, created completed. */
export function transferFunds(p: PaymentsContext, cmd: TransferFundsCommand): { clientId: string; fromId: number; toId: number; fiat: string; fiatAmount: string; totalFiatAmount: string; fee: string; createTime: number } {
  const { state, ledger } = p;
  const earlier = state.transferClientIds.get(cmd.userId)?.get(cmd.clientId);
  if (earlier !== undefined) refuse('REPEATED_SUBMIT_REQUEST', `clientId ${cmd.clientId} was used`, { fromId: earlier[0], toId: earlier[1] });
  const from = ownMerchant(p, cmd.userId, cmd.fromMerchantId);
  const to = ownMerchant(p, cmd.userId, cmd.toMerchantId);
  if (from.merchantId === to.merchantId) refuse('PARAM_IS_INVALID', 'toMerchantId must differ from fromMerchantId');
  const accuracy = fiatAccuracy(p, cmd.fiat);
  openAccountOf(p, from, cmd.fiat);
  openAccountOf(p, to, cmd.fiat);
  if (cmd.paymentId !== PENDING_FUND_RAIL && cmd.paymentId !== railOfFiat(state.config, cmd.fiat)?.paymentId) {
    refuse('PAYMENT_AND_PLATFORM_NOT_MATCH', `paymentId ${cmd.paymentId} is neither the ${cmd.fiat} rail nor 70`);
  }
  const amount = amountOf(cmd.fiatAmount, accuracy, 'fiatAmount');
  const fee = transferFeeOf(p, cmd.fiat, amount, accuracy);
  const total = amount + fee;
  const available = pendingFundOf(p, from, cmd.fiat, accuracy);
  if (total > available) refuse('INSUFFICIENT_BALANCE', `The pending fund holds ${formatFixed(available, accuracy)} ${cmd.fiat}; ${formatFixed(total, accuracy)} needed`);
  const fromAccount = ledger.account(from.accountId);
  ledger.post(p.ctx, fromAccount, cmd.fiat, -atomsOf(p, cmd.fiat, amount, accuracy), 'TRANSFER');
  ledger.post(p.ctx, ledger.account(to.accountId), cmd.fiat, atomsOf(p, cmd.fiat, amount, accuracy), 'TRANSFER');
  ledger.post(p.ctx, fromAccount, cmd.fiat, -atomsOf(p, cmd.fiat, fee, accuracy), 'OTC_FEE');
  ledger.post(p.ctx, ledger.account(ledger.feeAccountId), cmd.fiat, atomsOf(p, cmd.fiat, fee, accuracy), 'OTC_FEE');
  const leg = (merchant: Merchant, type: FundingType, legTotal: bigint, legFee: bigint): FundingRecord =>
    createRecord(p, merchant, { clientId: cmd.clientId, orderId: '', fiat: cmd.fiat, totalAmount: legTotal, amount, fee: legFee, accuracy, userPaymentId: cmd.paymentId === PENDING_FUND_RAIL ? PENDING_FUND_RAIL : 0, type, status: FUNDING_COMPLETED, payer: undefined });
  const out = leg(from, 'TRANSFER_OUT', total, fee);
  const into = leg(to, 'TRANSFER_IN', amount, 0n);
  let ids = state.transferClientIds.get(cmd.userId);
  if (ids === undefined) {
    ids = new Map();
    state.transferClientIds.set(cmd.userId, ids);
  }
  ids.set(cmd.clientId, [out.txId, into.txId]);
  return {
    clientId: cmd.clientId,
    fromId: out.txId,
    toId: into.txId,
    fiat: cmd.fiat,
    fiatAmount: formatFixed(amount, accuracy),
    totalFiatAmount: formatFixed(total, accuracy),
    fee: formatFixed(fee, accuracy),
    createTime: p.ctx.ts,
  };
}
