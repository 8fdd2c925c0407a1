import type { Command } from '../../core/types.js';
import { defaultPaymentsConfig, type PaymentsConfig } from '../../payments/config.js';
import type { Beneficiary, FundingRecord, Merchant, MerchantAccount, SandboxModes, TokenRecord } from '../../payments/model.js';
import type { PaymentOrder, Quote } from '../../payments/orders.js';

/** Everything the payments module holds; one object so that commands and the image share it. */
export class PaymentsState {
  config: PaymentsConfig = defaultPaymentsConfig();
  /** `BOURSE_SANDBOX`, journaled so that a replay decides as the first run did. */
  sandbox = true;
  /** The desk D (docs/merchant-payments.md): takes the other side of every conversion; 0 until set up. */
  deskAccountId = 0;
  readonly tokens = new Map<string, TokenRecord>();
  readonly merchants = new Map<number, Merchant>();
  /** By `merchantId:fiat`. */
  readonly merchantAccounts = new Map<string, MerchantAccount>();
  readonly beneficiaries = new Map<number, Beneficiary>();
  /** Refund account per `merchantId:fiat`, → userPaymentId. */
  readonly refundAccounts = new Map<string, number>();
  /** Funding records still pending (status 1); the rest live in the store's table only. */
  readonly pendingFunding = new Map<number, FundingRecord>();
  /** B18 idempotency per user: clientId → txId. */
  readonly claimClientIds = new Map<number, Map<string, number>>();
  /** B20 idempotency per user: clientId → [fromId, toId]. */
  readonly transferClientIds = new Map<number, Map<string, [number, number]>>();
  /** Arrivals seen per merchant: traceNumber → the txId it made, or `order:<id>` for one that paid an order (rule 1 of docs/merchant-payments.md "Bank arrivals and refunds"). */
  readonly traceNumbers = new Map<number, Map<string, string>>();
  /** Modes a user set (docs/merchant-payments.md "The simulator and the sandbox API"); absent members take the defaults. */
  readonly modes = new Map<number, Partial<SandboxModes>>();
  /** A user's `monthLimit` set through docs/merchant-payments.md "The simulator and the sandbox API". */
  readonly userLimits = new Map<number, string>();
  /** Automatic decisions due, by object (`kyc:7`): applied at once as follow-ups, re-armed from here otherwise. */
  readonly decisions = new Map<string, { at: number; command: Command }>();
  /** Orders by id; terminal ones stay (B33, B34 read them, docs/merchant-payments.md "Bank arrivals and refunds" rule 3 matches their ids). */
  readonly orders = new Map<number, PaymentOrder>();
  /** Ids of orders not yet ended: what open-order limits count and deadlines walk (derived, not imaged). */
  readonly openOrders = new Set<number>();
  /** Order idempotency per user across kinds: clientId → orderId (docs/merchant-payments.md "Idempotency"). */
  readonly orderClientIds = new Map<number, Map<string, number>>();
  /** Quotes stored with `createQuoteId`, ACTIVE until used or expired (then removed). */
  readonly quotes = new Map<string, Quote>();
  /** docs/merchant-payments.md "The simulator and the sandbox API" price overrides per user: key of `overrideKey` → price units (at the pair's accuracy). */
  readonly priceOverrides = new Map<number, Map<string, bigint>>();
  /** Limit usage by window key (`user:7:2025-06`, …) → units (USD cents, or the account's fiat). */
  readonly usage = new Map<string, bigint>();
  nextMerchantId = 1;
  nextOrderId = 10_000_001;
  /** From 1001, so that no beneficiary id equals 70 (docs/merchant-payments.md "Values and rounding"). */
  nextBeneficiaryId = 1001;
  nextTxId = 3_000_001;
}

export function accountKey(merchantId: number, fiat: string): string {
  return `${merchantId}:${fiat}`;
}
