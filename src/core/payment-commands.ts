/**
 * Commands of the payments module (area B). As all commands, plain JSON: amounts are decimal
 * strings, random values (tokens, link tokens) are drawn outside the core and carried inside.
 * `userId` is the caller's scope: another user's objects are treated as nonexistent. Commands a
 * docs/merchant-payments.md "The simulator and the sandbox API" admin call issues on an existing object carry `userId: 0` (any object); a create
 * always carries the user it is for, and the module refuses one for user 0.
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
   * Found stale (the object moved on), it is dropped rather than refused (docs/merchant-payments.md "Exactly-once settlement").
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
   * Found stale (the object moved on), it is dropped rather than refused (docs/merchant-payments.md "Exactly-once settlement").
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
   * Found stale (the object moved on), it is dropped rather than refused (docs/merchant-payments.md "Exactly-once settlement").
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

export type OrderKindName = 'fiat_to_crypto' | 'crypto_to_fiat' | 'fiat_to_fiat';

/** What B29–B31 (or docs/merchant-payments.md "The simulator and the sandbox API" place-on-behalf) ask for; amounts as sent, checked by the core (docs/merchant-payments.md "Order creation checks"). */
export type OrderRequest =
  | { kind: 'fiat_to_crypto'; merchantId?: number; country: string; crypto: string; fiat: string; fiatAmount: string; paymentId: number }
  | { kind: 'crypto_to_fiat'; merchantId?: number; country: string; crypto: string; fiat: string; cryptoAmount: string; userPaymentId: number }
  | {
      kind: 'fiat_to_fiat';
      onRampMerchantId?: number;
      offRampMerchantId?: number;
      onRampCountry: string;
      onRampFiat: string;
      onRampFiatAmount: string;
      onRampPaymentId: number;
      offRampCountry: string;
      offRampFiat: string;
      offRampPaymentId: number;
    };

export interface CreateQuoteCommand {
  type: 'createQuote';
  userId: number;
  /** 32 lowercase hex, drawn by the edge. */
  quoteId: string;
  kind: OrderKindName;
  from: string;
  to: string;
  amount: string;
}
export interface ExpireQuoteCommand {
  type: 'expireQuote';
  userId: number;
  quoteId: string;
  due?: string;
}
export interface SetPriceOverrideCommand {
  type: 'setPriceOverride';
  userId: number;
  from: string;
  to: string;
  /** Absent: the override is removed. */
  price?: string;
}
export interface CreatePaymentOrderCommand {
  type: 'createPaymentOrder';
  userId: number;
  /** docs/merchant-payments.md "The simulator and the sandbox API" place-on-behalf: the order starts approved (30), waiting for the merchant's confirm. */
  onBehalf: boolean;
  clientId: string;
  remark: string;
  quoteId: string;
  order: OrderRequest;
}
export interface ReviewOrderCommand {
  type: 'reviewOrder';
  userId: number;
  orderId: number;
  decision: 'approve' | 'rfi' | 'documents' | 'reject';
  due?: string;
}
export interface ConfirmOrderCommand {
  type: 'confirmOrder';
  userId: number;
  orderId: number;
  kind: OrderKindName;
  direction?: 'on_ramp' | 'off_ramp';
}
export interface OrderPayoutCommand {
  type: 'orderPayout';
  userId: number;
  orderId: number;
  result: 'success' | 'fail';
  failCode?: number;
  due?: string;
}
export interface ExpireOrderCommand {
  type: 'expireOrder';
  userId: number;
  orderId: number;
  due?: string;
}
export interface ReleaseOrderCommand {
  type: 'releaseOrder';
  userId: number;
  orderId: number;
  due?: string;
}
export interface AttachDocumentsCommand {
  type: 'attachDocuments';
  userId: number;
  orderId: number;
  kind?: OrderKindName;
  /** Stored by the edge in the document store (store/documents.ts) before the command; the journal keeps what and where. */
  files: { name: string; size: number; sha256: string; contentType: string }[];
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
  | SetUserLimitCommand
  | CreateQuoteCommand
  | ExpireQuoteCommand
  | SetPriceOverrideCommand
  | CreatePaymentOrderCommand
  | ReviewOrderCommand
  | ConfirmOrderCommand
  | OrderPayoutCommand
  | ExpireOrderCommand
  | ReleaseOrderCommand
  | AttachDocumentsCommand;
