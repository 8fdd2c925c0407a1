/** Area B objects as the payments module holds them (docs/merchant-payments.md "Endpoints served", docs/merchant-payments.md "Lifecycles"). */

import { formatFixed } from './money.js';

export type MerchantType = 'INDIVIDUAL' | 'BUSINESS';

/** Merchant and merchant-account statuses: 1 authenticating, 2 normal, 3 failed, 4 incomplete. */
export const AUTHENTICATING = 1;
export const NORMAL = 2;
export const FAILED = 3;
export const INCOMPLETE = 4;

export interface MerchantLimits {
  dayFiatLimit: string;
  monthFiatLimit: string;
  monthCryptoLimit: string;
}

export interface Merchant {
  merchantId: number;
  userId: number;
  /** Its ledger account M: a sub-account of the user. */
  accountId: number;
  merchantName: string;
  email: string;
  merchantType: MerchantType;
  country: string;
  status: number;
  rejectReason: string;
  callbackUrl: string;
  languageCode: string;
  remark: string;
  /** The KYC link's token; a re-link replaces it (the old link dies). */
  kycToken: string;
  limits: MerchantLimits;
  createTime: number;
  updateTime: number;
}

export interface MerchantAccount {
  merchantId: number;
  fiat: string;
  status: number;
  failReason: string;
  fieldList: Record<string, string>;
  /** The verify link's token (USD/EUR), "" for MXN; a re-submission replaces it. */
  verifyToken: string;
  buyAmountLimit: string;
  sellAmountLimit: string;
  createTime: number;
  updateTime: number;
}

/** Beneficiary statuses: 1 valid, 2 authenticating, 3 failed. */
export const BENEFICIARY_VALID = 1;
export const BENEFICIARY_REVIEWING = 2;
export const BENEFICIARY_FAILED = 3;

export interface Beneficiary {
  userPaymentId: number;
  userId: number;
  merchantId: number;
  country: string;
  fiat: string;
  paymentId: number;
  realName: string;
  status: number;
  failReason: string;
  fieldList: Record<string, string>;
  /** Identifies the payout account, for -5053. */
  accountKey: string;
  remark: string;
  createTime: number;
}

export type FundingType = 'DEPOSIT' | 'WITHDRAW' | 'BUY_CRYPTO' | 'SELL_CRYPTO' | 'REFUND' | 'TRANSFER_IN' | 'TRANSFER_OUT';
export const FUNDING_TYPES: readonly FundingType[] = ['DEPOSIT', 'WITHDRAW', 'BUY_CRYPTO', 'SELL_CRYPTO', 'REFUND', 'TRANSFER_IN', 'TRANSFER_OUT'];

/** Funding record statuses: 1 pending, 2 completed, 3 canceled. */
export const FUNDING_PENDING = 1;
export const FUNDING_COMPLETED = 2;
export const FUNDING_CANCELED = 3;

/** Who paid, as a bank arrival tells it (FUNDING_WEBHOOK payer fields, docs/webhooks.md "What is sent"). */
export interface Payer {
  payerName: string;
  payerAccount: string;
  cardNo: string;
  taxId: string;
  description: string;
  traceNumber: string;
}

export interface FundingRecord {
  txId: number;
  userId: number;
  merchantId: number;
  merchantName: string;
  clientId: string;
  orderId: string;
  fiat: string;
  /** Units at the fiat's accuracy. */
  totalAmount: bigint;
  amount: bigint;
  fee: bigint;
  accuracy: number;
  userPaymentId: number;
  type: FundingType;
  status: number;
  failReason: string;
  payer: Payer | undefined;
  createTime: number;
  updateTime: number;
}

/** What a funding record shows as text alike in its FUNDING_WEBHOOK body and its stored row: names, and amounts at the fiat's accuracy. */
export function fundingTexts(r: FundingRecord): Record<'merchantName' | 'clientId' | 'orderId' | 'fiat' | 'totalAmount' | 'amount' | 'fee', string> {
  return {
    merchantName: r.merchantName,
    clientId: r.clientId,
    orderId: r.orderId,
    fiat: r.fiat,
    totalAmount: formatFixed(r.totalAmount, r.accuracy),
    amount: formatFixed(r.amount, r.accuracy),
    fee: formatFixed(r.fee, r.accuracy),
  };
}

export type KycMode = 'approve' | 'reject' | 'manual';
export type OrderReviewMode = 'approve' | 'rfi' | 'documents' | 'reject' | 'manual';

/** The simulator's modes of one user (docs/merchant-payments.md "The simulator and the sandbox API"). */
export interface SandboxModes {
  kyc: KycMode;
  accountReview: KycMode;
  beneficiaryReview: KycMode;
  orderReview: OrderReviewMode;
  payout: 'success' | 'fail' | 'manual';
  payoutFailCode: -7001 | -7000;
  deposit: 'complete' | 'manual';
}

export function defaultModes(sandbox: boolean): SandboxModes {
  if (!sandbox) return { kyc: 'manual', accountReview: 'manual', beneficiaryReview: 'manual', orderReview: 'manual', payout: 'manual', payoutFailCode: -7001, deposit: 'manual' };
  return { kyc: 'approve', accountReview: 'approve', beneficiaryReview: 'approve', orderReview: 'approve', payout: 'success', payoutFailCode: -7001, deposit: 'complete' };
}

export const MODE_VALUES: { readonly [K in keyof SandboxModes]: readonly SandboxModes[K][] } = {
  kyc: ['approve', 'reject', 'manual'],
  accountReview: ['approve', 'reject', 'manual'],
  beneficiaryReview: ['approve', 'reject', 'manual'],
  orderReview: ['approve', 'rfi', 'documents', 'reject', 'manual'],
  payout: ['success', 'fail', 'manual'],
  payoutFailCode: [-7001, -7000],
  deposit: ['complete', 'manual'],
};

/** A token of B0, kept by its SHA-256 so that a stolen database yields no usable token. */
export interface TokenRecord {
  tokenHash: string;
  apiKey: string;
  userId: number;
  expireTime: number;
  issuedAt: number;
  /** Sequence number of the issuing command: the order of issue, even within one millisecond. */
  issuedSeq: number;
}
