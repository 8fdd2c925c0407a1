/**
 * Commands of the payments module (area B). As all commands, plain JSON: amounts are decimal
 * strings, random values (tokens, link tokens) are drawn outside the core and carried inside.
 * `userId` is the caller's scope: another user's objects are treated as nonexistent. Commands a
 * §7 admin call issues carry `userId: 0` (any object).
 */

export interface PaymentsSetUpCommand {
  type: 'paymentsSetUp';
  /** `BOURSE_SANDBOX`: simulator modes default to automatic (true) or manual. */
  sandbox: boolean;
}
export interface SetPaymentsConfigCommand {
  type: 'setPaymentsConfig';
  /** A partial configuration document, merged member by member. */
  patch: Record<string, unknown>;
}
export interface IssueTokenCommand {
  type: 'issueToken';
  apiKey: string;
  tokenHash: string;
}
export interface CreateMerchantCommand {
  type: 'createMerchant';
  userId: number;
  merchantName: string;
  email: string;
  merchantType: 'INDIVIDUAL' | 'BUSINESS';
  callbackUrl: string;
  languageCode: string;
  remark: string;
  kycToken: string;
}
export interface RelinkMerchantCommand {
  type: 'relinkMerchant';
  userId: number;
  merchantId: number;
  callbackUrl: string;
  languageCode?: string;
  kycToken: string;
}
export interface MerchantKycCommand {
  type: 'merchantKyc';
  userId: number;
  merchantId: number;
  action: 'submit' | 'approve' | 'reject';
  rejectReason?: string;
  /**
   * Set on an automatic decision (a follow-up or a deadline): its key in the module's decisions.
   * Found stale (the object moved on), it is dropped rather than refused (area B §5.7).
   */
  due?: string;
}
export interface ActivateMerchantAccountCommand {
  type: 'activateMerchantAccount';
  userId: number;
  merchantId: number;
  fiat: string;
  /** Already checked against the B15 table by the edge. */
  fieldList: Record<string, string>;
  verifyToken: string;
}
export interface ReviewMerchantAccountCommand {
  type: 'reviewMerchantAccount';
  userId: number;
  merchantId: number;
  fiat: string;
  action: 'verify' | 'approve' | 'reject';
  failReason?: string;
  /**
   * Set on an automatic decision (a follow-up or a deadline): its key in the module's decisions.
   * Found stale (the object moved on), it is dropped rather than refused (area B §5.7).
   */
  due?: string;
}
export interface AddBeneficiaryCommand {
  type: 'addBeneficiary';
  userId: number;
  merchantId: number;
  paymentId: number;
  country: string;
  fiat: string;
  realName: string;
  /** Already checked against the rail's template by the edge. */
  fieldList: Record<string, string>;
  accountKey: string;
  remark: string;
}
export interface ReviewBeneficiaryCommand {
  type: 'reviewBeneficiary';
  userId: number;
  userPaymentId: number;
  action: 'approve' | 'reject';
  failReason?: string;
}
export interface DeleteBeneficiaryCommand {
  type: 'deleteBeneficiary';
  userId: number;
  userPaymentId: number;
}
export interface SetRefundAccountCommand {
  type: 'setRefundAccount';
  userId: number;
  merchantId: number;
  userPaymentId: number;
}
export interface BankArrivalCommand {
  type: 'bankArrival';
  userId: number;
  merchantId: number;
  fiat: string;
  amount: string;
  reference: string;
  /** "" = generated from the record's id. */
  traceNumber: string;
  payerName: string;
  payerAccount: string;
  cardNo: string;
  taxId: string;
  description: string;
}
export interface ClaimFundsCommand {
  type: 'claimFunds';
  userId: number;
  merchantId: number;
  clientId: string;
  fiat: string;
  amount: string;
  userPaymentId: number;
}
export interface SettleFundingCommand {
  type: 'settleFunding';
  userId: number;
  txId: number;
  action: 'complete' | 'cancel';
  failReason?: string;
  /**
   * Set on an automatic decision (a follow-up or a deadline): its key in the module's decisions.
   * Found stale (the object moved on), it is dropped rather than refused (area B §5.7).
   */
  due?: string;
}
export interface TransferFundsCommand {
  type: 'transferFunds';
  userId: number;
  clientId: string;
  fromMerchantId: number;
  toMerchantId: number;
  fiat: string;
  paymentId: number;
  fiatAmount: string;
}
export interface SetSandboxModesCommand {
  type: 'setSandboxModes';
  userId: number;
  modes: Record<string, unknown>;
}
export interface SetMerchantLimitsCommand {
  type: 'setMerchantLimits';
  userId: number;
  merchantId: number;
  dayFiatLimit?: string;
  monthFiatLimit?: string;
  monthCryptoLimit?: string;
  accounts?: Record<string, { buyAmountLimit?: string; sellAmountLimit?: string }>;
}
export interface SetUserLimitCommand {
  type: 'setUserLimit';
  userId: number;
  monthLimit: string;
}

export type PaymentCommand =
  | PaymentsSetUpCommand
  | SetPaymentsConfigCommand
  | IssueTokenCommand
  | CreateMerchantCommand
  | RelinkMerchantCommand
  | MerchantKycCommand
  | ActivateMerchantAccountCommand
  | ReviewMerchantAccountCommand
  | AddBeneficiaryCommand
  | ReviewBeneficiaryCommand
  | DeleteBeneficiaryCommand
  | SetRefundAccountCommand
  | BankArrivalCommand
  | ClaimFundsCommand
  | SettleFundingCommand
  | TransferFundsCommand
  | SetSandboxModesCommand
  | SetMerchantLimitsCommand
  | SetUserLimitCommand;
