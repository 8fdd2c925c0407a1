/**
 * Area B objects as the wire shows them (docs/merchant-payments.md "Values and rounding", docs/merchant-payments.md "Endpoints served"): every documented field present,
 * money with exactly its currency's accuracy, times as ms strings except where a table says number.
 */
import type { ExchangeCore } from '../../exchange/exchange-core.js';
import { LIMIT_ACCURACY, usageKey, used } from '../../exchange/payments/order-limits.js';
import { fiatSpec } from '../../payments/config.js';
import { formatFixed } from '../../payments/money.js';
import type { Beneficiary, Merchant, MerchantAccount } from '../../payments/model.js';
import type { FundingRecordRow } from '../../payments/rows.js';
import type { Paging } from './merchant-params.js';

/** Area B time: ms as a string (docs/merchant-payments.md "Values and rounding"). */
export const msText = (ms: number): string => String(ms);

/** Committed volume of a docs/merchant-payments.md "Amount limits" counter in the window of `now`, as money with `accuracy` decimals. */
function usedText(core: ExchangeCore, key: string, accuracy = LIMIT_ACCURACY): string {
  return formatFixed(used(core.payments.state, key), accuracy);
}

/** B10 `monthUsed`: the user's orders this UTC month, in USD. */
export function monthUsed(core: ExchangeCore, userId: number, now: number): string {
  return usedText(core, usageKey.user(userId, now));
}

export function merchantView(core: ExchangeCore, m: Merchant, now: number): Record<string, unknown> {
  return {
    merchantId: m.merchantId,
    country: m.country,
    merchantName: m.merchantName,
    email: m.email,
    merchantType: m.merchantType === 'INDIVIDUAL' ? 1 : 2,
    status: m.status,
    rejectReason: m.rejectReason,
    dayFiatLimit: m.limits.dayFiatLimit,
    dayFiatUsed: usedText(core, usageKey.merchantDay(m.merchantId, now)),
    monthFiatLimit: m.limits.monthFiatLimit,
    monthFiatUsed: usedText(core, usageKey.merchantMonth(m.merchantId, now)),
    monthCryptoLimit: m.limits.monthCryptoLimit,
    monthCryptoUsed: usedText(core, usageKey.merchantCrypto(m.merchantId, now)),
    remark: m.remark,
    createTime: msText(m.createTime),
    updateTime: msText(m.updateTime),
  };
}

/** The pending fund of a merchant in a fiat: M's free balance, shown at the fiat's accuracy. */
export function pendingFund(core: ExchangeCore, merchant: Merchant, fiat: string): string {
  const accuracy = fiatSpec(core.payments.config, fiat)?.accuracy ?? 2;
  const precision = core.ledger.assets.get(fiat)?.precision ?? accuracy;
  const atoms = core.ledger.accounts.get(merchant.accountId)?.balances.get(fiat)?.free ?? 0n;
  return formatFixed(atoms / 10n ** BigInt(Math.max(0, precision - accuracy)), accuracy);
}

export function merchantAccountView(core: ExchangeCore, a: MerchantAccount, now: number): Record<string, unknown> {
  const accuracy = fiatSpec(core.payments.config, a.fiat)?.accuracy ?? LIMIT_ACCURACY;
  const merchant = core.payments.state.merchants.get(a.merchantId);
  const rail = core.payments.config.rails.find((r) => r.fiat === a.fiat);
  return {
    merchantId: a.merchantId,
    fiat: a.fiat,
    balance: merchant === undefined ? '0.00' : pendingFund(core, merchant, a.fiat),
    status: a.status,
    buyAmountLimit: a.buyAmountLimit,
    buyAmountUsed: usedText(core, usageKey.accountBuy(a.merchantId, a.fiat, now), accuracy),
    sellAmountLimit: a.sellAmountLimit,
    sellAmountUsed: usedText(core, usageKey.accountSell(a.merchantId, a.fiat, now), accuracy),
    paymentId: rail?.paymentId ?? 0,
    paymentMethodName: rail?.paymentMethodName ?? '',
    failReason: a.failReason,
    createTime: msText(a.createTime),
    updateTime: msText(a.updateTime),
  };
}

export function beneficiaryView(core: ExchangeCore, b: Beneficiary): Record<string, unknown> {
  const rail = core.payments.config.rails.find((r) => r.paymentId === b.paymentId);
  return {
    id: b.userPaymentId,
    merchantId: b.merchantId,
    country: b.country,
    fiat: b.fiat,
    paymentId: b.paymentId,
    paymentMethodName: rail?.paymentMethodName ?? '',
    realName: b.realName,
    status: b.status,
    failReason: b.failReason,
    hasRefundAccount: core.payments.state.refundAccounts.get(`${b.merchantId}:${b.fiat}`) === b.userPaymentId ? 1 : 0,
    fieldList: { ...b.fieldList },
    remark: b.remark,
    createTime: b.createTime,
  };
}

export function fundingView(r: FundingRecordRow): Record<string, unknown> {
  return {
    txId: r.txId,
    merchantId: r.merchantId,
    merchantName: r.merchantName,
    clientId: r.clientId,
    orderId: r.orderId,
    fiat: r.fiat,
    totalAmount: r.totalAmount,
    amount: r.amount,
    fee: r.fee,
    userPaymentId: r.userPaymentId,
    type: r.type,
    status: r.status,
    createTime: msText(r.createTime),
    updateTime: msText(r.updateTime),
  };
}

/** docs/merchant-payments.md "Answers and errors" page of an in-memory list, newest first (the caller sorts). */
export function pageOf<T>(items: readonly T[], paging: Paging, listKey: 'data' | 'record', view: (item: T) => unknown): Record<string, unknown> {
  const start = (paging.currentPage - 1) * paging.pageSize;
  return { currentPage: paging.currentPage, size: paging.pageSize, total: items.length, [listKey]: items.slice(start, start + paging.pageSize).map(view) };
}

/** Newest first: `createTime`, then id, descending (docs/merchant-payments.md "Answers and errors"). */
export function newestFirst<T extends { createTime: number }>(id: (item: T) => number): (a: T, b: T) => number {
  return (a, b) => b.createTime - a.createTime || id(b) - id(a);
}
