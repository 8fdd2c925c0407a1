import { refuse } from '../../core/payment-errors.js';
import { unitsOf } from '../../payments/money.js';
import { FUNDING_PENDING, NORMAL, fundingTexts, type FundingRecord, type Merchant, type MerchantAccount } from '../../payments/model.js';
import type { FundingRecordRow } from '../../payments/rows.js';
import { fundingPayload } from '../../payments/webhooks.js';
import { atomsOf, decideLater, modesOf, unitsOfAtoms, type PaymentsContext } from './payments-context.js';
import { accountKey } from './payments-state.js';

/** The merchant's account in `fiat`, which must be active (-5070). */
export function openAccountOf(p: PaymentsContext, merchant: Merchant, fiat: string): MerchantAccount {
  const account = p.state.merchantAccounts.get(accountKey(merchant.merchantId, fiat));
  if (account?.status !== NORMAL) refuse('MC_NOT_OPEN_ACCOUNT', `Merchant ${merchant.merchantId} has no active ${fiat} account`);
  return account;
}

export function amountOf(text: string, accuracy: number, name: string): bigint {
  const units = unitsOf(text, accuracy);
  if (units === undefined || units <= 0n) refuse('PARAM_IS_INVALID', `${name} must be a decimal > 0 with at most ${accuracy} decimals`);
  return units;
}

/** The pending fund: M's free fiat, in units of the fiat's accuracy. */
export function pendingFundOf(p: PaymentsContext, merchant: Merchant, fiat: string, accuracy: number): bigint {
  return unitsOfAtoms(p, fiat, p.ledger.free(p.ledger.account(merchant.accountId), fiat), accuracy);
}

/** A new record, written to the store's table; kept in memory while pending. */
export function createRecord(p: PaymentsContext, merchant: Merchant, fields: Omit<FundingRecord, 'txId' | 'userId' | 'merchantId' | 'merchantName' | 'createTime' | 'updateTime' | 'failReason'>): FundingRecord {
  const record: FundingRecord = {
    txId: p.state.nextTxId++,
    userId: merchant.userId,
    merchantId: merchant.merchantId,
    merchantName: merchant.merchantName,
    failReason: '',
    createTime: p.ctx.ts,
    updateTime: p.ctx.ts,
    ...fields,
  };
  if (record.status === FUNDING_PENDING) p.state.pendingFunding.set(record.txId, record);
  writeRecord(p, record);
  return record;
}

/** Every write of a record is its creation or a status change: each is one FUNDING_WEBHOOK event (docs/webhooks.md "Registering"). */
export function writeRecord(p: PaymentsContext, r: FundingRecord): void {
  p.ports.outbox.record(p.ctx, r.userId, 'FUNDING_WEBHOOK', String(r.txId), String(r.status), () => fundingPayload(r));
  if (p.ctx.recordRows) p.ctx.rows.moduleRows.push({ kind: 'fundingRecord', record: fundingRecordRow(r) });
}

function fundingRecordRow(r: FundingRecord): FundingRecordRow {
  return {
    txId: r.txId,
    userId: r.userId,
    merchantId: r.merchantId,
    ...fundingTexts(r),
    userPaymentId: r.userPaymentId,
    type: r.type,
    status: r.status,
    failReason: r.failReason,
    payer: r.payer === undefined ? '' : JSON.stringify(r.payer),
    createTime: r.createTime,
    updateTime: r.updateTime,
  };
}

/**
 * A payout of pending funds to a beneficiary (B18, or an automatic refund payout): `amount + fee`
 * locked in M, a pending WITHDRAW record, and the simulator's outcome when the payout mode is automatic.
 */
export function startWithdraw(p: PaymentsContext, merchant: Merchant, userPaymentId: number, fiat: string, sums: { amount: bigint; fee: bigint; accuracy: number }, clientId: string, orderId: string): FundingRecord {
  const total = sums.amount + sums.fee;
  p.ledger.lock(p.ctx, p.ledger.account(merchant.accountId), fiat, atomsOf(p, fiat, total, sums.accuracy));
  const record = createRecord(p, merchant, {
    clientId,
    orderId,
    fiat,
    totalAmount: total,
    amount: sums.amount,
    fee: sums.fee,
    accuracy: sums.accuracy,
    userPaymentId,
    type: 'WITHDRAW',
    status: FUNDING_PENDING,
    payer: undefined,
  });
  schedulePayout(p, record);
  return record;
}

/** The simulator's payout outcome for a pending WITHDRAW, when the user's `payout` mode is automatic. */
function schedulePayout(p: PaymentsContext, record: FundingRecord): void {
  const mode = modesOf(p.state, record.userId).payout;
  if (mode === 'manual') return;
  decideLater(p, `funding:${record.txId}`, {
    type: 'settleFunding',
    userId: 0,
    txId: record.txId,
    action: mode === 'success' ? 'complete' : 'cancel',
    ...(mode === 'fail' ? { failReason: 'RECEIVING_ACCOUNT_NUMBER_INCORRECT' } : {}),
  });
}
