import { refuse } from '../../core/payment-errors.js';
import type { AddBeneficiaryCommand, DeleteBeneficiaryCommand, ReviewBeneficiaryCommand, SetRefundAccountCommand } from '../../core/payment-commands.js';
import { PENDING_FUND_RAIL, refuseCountryMismatch } from '../../payments/config.js';
import { ownAccountKey } from '../../payments/instructions.js';
import { BENEFICIARY_FAILED, BENEFICIARY_REVIEWING, BENEFICIARY_VALID, NORMAL, type Beneficiary } from '../../payments/model.js';
import { merchantOf, modesOf, ownMerchant, type PaymentsContext } from './payments-context.js';
import { accountKey } from './payments-state.js';

const PAYOUT_RAILS = new Set([58, 83, 85]);

/** A beneficiary of the caller (another user's does not exist, -4027). */
export function beneficiaryOf(p: PaymentsContext, userId: number, userPaymentId: number): Beneficiary {
  const beneficiary = p.state.beneficiaries.get(userPaymentId);
  if (beneficiary === undefined || (userId !== 0 && beneficiary.userId !== userId)) refuse('PAYMENT_NOT_EXIST', `Beneficiary ${userPaymentId} does not exist`);
  return beneficiary;
}

/** B25; its status follows the user's `beneficiaryReview` mode (docs/merchant-payments.md "Lifecycles"). */
export function addBeneficiary(p: PaymentsContext, cmd: AddBeneficiaryCommand): Beneficiary {
  const { state } = p;
  const merchant = ownMerchant(p, cmd.userId, cmd.merchantId);
  if (merchant.status !== NORMAL) refuse('PAYMENT_ADD_NEED_PASS_KYC_OR_KYB', `Merchant ${merchant.merchantId} has not passed KYC`);
  const rail = state.config.rails.find((r) => r.paymentId === cmd.paymentId);
  if (rail === undefined || cmd.paymentId === PENDING_FUND_RAIL || !PAYOUT_RAILS.has(cmd.paymentId)) refuse('PAYMENT_INVALID', `paymentId ${cmd.paymentId} takes no beneficiaries`);
  if (rail.fiat !== cmd.fiat) refuse('PAYMENT_FIAT_AND_ORDER_NOT_MATCH', `Rail ${rail.paymentId} pays out in ${rail.fiat}, not ${cmd.fiat}`);
  refuseCountryMismatch(state.config, cmd.fiat, cmd.country);
  for (const other of state.beneficiaries.values()) {
    if (other.merchantId === merchant.merchantId && other.paymentId === cmd.paymentId && other.accountKey === cmd.accountKey) {
      refuse('PAYMENT_ACCOUNT_ALREADY_EXISTS', `This account is already saved as beneficiary ${other.userPaymentId}`);
    }
  }
  if (ownAccountKey(merchant.merchantId, cmd.paymentId) === cmd.accountKey) refuse('PAYMENT_ACCOUNT_INFO_AND_MC_SAME', "The account is the merchant's own deposit account");
  const mode = modesOf(p.state, cmd.userId).beneficiaryReview;
  const beneficiary: Beneficiary = {
    userPaymentId: state.nextBeneficiaryId++,
    userId: merchant.userId,
    merchantId: merchant.merchantId,
    country: cmd.country,
    fiat: cmd.fiat,
    paymentId: cmd.paymentId,
    realName: cmd.realName,
    status: mode === 'approve' ? BENEFICIARY_VALID : mode === 'reject' ? BENEFICIARY_FAILED : BENEFICIARY_REVIEWING,
    failReason: mode === 'reject' ? 'Rejected by the sandbox (mode beneficiaryReview=reject)' : '',
    fieldList: { ...cmd.fieldList },
    accountKey: cmd.accountKey,
    remark: cmd.remark,
    createTime: p.ctx.ts,
  };
  state.beneficiaries.set(beneficiary.userPaymentId, beneficiary);
  return structuredClone(beneficiary);
}

/** docs/merchant-payments.md "The simulator and the sandbox API" review: 2 → 1 or 3. */
export function reviewBeneficiary(p: PaymentsContext, cmd: ReviewBeneficiaryCommand): Beneficiary {
  const beneficiary = beneficiaryOf(p, cmd.userId, cmd.userPaymentId);
  if (beneficiary.status !== BENEFICIARY_REVIEWING) refuse('INVALID_STATE', `Beneficiary ${beneficiary.userPaymentId} is in status ${beneficiary.status}, not under review`);
  if (cmd.action === 'approve') {
    beneficiary.status = BENEFICIARY_VALID;
  } else {
    beneficiary.status = BENEFICIARY_FAILED;
    beneficiary.failReason = cmd.failReason !== undefined && cmd.failReason !== '' ? cmd.failReason : 'Beneficiary review rejected';
  }
  return structuredClone(beneficiary);
}

/** B27: gone for good; refused while a pending claim pays to it (-5003). */
export function deleteBeneficiary(p: PaymentsContext, cmd: DeleteBeneficiaryCommand): true {
  const beneficiary = beneficiaryOf(p, cmd.userId, cmd.userPaymentId);
  for (const record of p.state.pendingFunding.values()) {
    if (record.userPaymentId === beneficiary.userPaymentId) refuse('PAYMENT_NOT_EDIT', `Beneficiary ${beneficiary.userPaymentId} is used by pending record ${record.txId}`);
  }
  p.state.beneficiaries.delete(beneficiary.userPaymentId);
  const refundKey = accountKey(beneficiary.merchantId, beneficiary.fiat);
  if (p.state.refundAccounts.get(refundKey) === beneficiary.userPaymentId) p.state.refundAccounts.delete(refundKey);
  return true;
}

/** B28: one refund account per (merchant, fiat); setting one replaces the previous. */
export function setRefundAccount(p: PaymentsContext, cmd: SetRefundAccountCommand): true {
  const merchant = merchantOf(p, cmd.userId, cmd.merchantId);
  const beneficiary = p.state.beneficiaries.get(cmd.userPaymentId);
  if (beneficiary === undefined || beneficiary.merchantId !== merchant.merchantId) refuse('PAYMENT_NOT_EXIST', `Beneficiary ${cmd.userPaymentId} is not merchant ${merchant.merchantId}'s`);
  if (beneficiary.status !== BENEFICIARY_VALID) refuse('PAYMENT_INVALID', `Beneficiary ${beneficiary.userPaymentId} is not valid (status ${beneficiary.status})`);
  p.state.refundAccounts.set(accountKey(merchant.merchantId, beneficiary.fiat), beneficiary.userPaymentId);
  return true;
}
