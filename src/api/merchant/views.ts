/**
 * Area B objects as the wire shows them (spec/area-b.md §1.5, §2): every documented field present,
 * money with exactly its currency's accuracy, times as ms strings except where a table says number.
 */
import type { ExchangeCore } from '../../exchange/exchange-core.js';
import { fiatSpec } from '../../payments/config.js';
import { formatFixed } from '../../payments/money.js';
import type { Beneficiary, Merchant, MerchantAccount } from '../../payments/model.js';
import type { FundingRecordRow } from '../../store/store.js';
import type { Paging } from './merchant-params.js';

/** Area B time: ms as a string (§1.5). */
export const msText = (ms: number): string => String(ms);

/** Usage counters start with the orders of part 2; until then nothing is committed against a limit. */
const NOTHING_USED = '0.00';

export function merchantView(m: Merchant): Record<string, unknown> {
  return {
    merchantId: m.merchantId,
    country: m.country,
    merchantName: m.merchantName,
    email: m.email,
    merchantType: m.merchantType === 'INDIVIDUAL' ? 1 : 2,
    status: m.status,
    rejectReason: m.rejectReason,
    dayFiatLimit: m.limits.dayFiatLimit,
    dayFiatUsed: NOTHING_USED,
    monthFiatLimit: m.limits.monthFiatLimit,
    monthFiatUsed: NOTHING_USED,
    monthCryptoLimit: m.limits.monthCryptoLimit,
    monthCryptoUsed: NOTHING_USED,
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

export function merchantAccountView(core: ExchangeCore, a: MerchantAccount): Record<string, unknown> {
  const merchant = core.payments.state.merchants.get(a.merchantId);
  const rail = core.payments.config.rails.find((r) => r.fiat === a.fiat);
  return {
    merchantId: a.merchantId,
    fiat: a.fiat,
    balance: merchant === undefined ? '0.00' : pendingFund(core, merchant, a.fiat),
    status: a.status,
    buyAmountLimit: a.buyAmountLimit,
    buyAmountUsed: NOTHING_USED,
    sellAmountLimit: a.sellAmountLimit,
    sellAmountUsed: NOTHING_USED,
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

/** §1.4 page of an in-memory list, newest first (the caller sorts). */
export function pageOf<T>(items: readonly T[], paging: Paging, listKey: 'data' | 'record', view: (item: T) => unknown): Record<string, unknown> {
  const start = (paging.currentPage - 1) * paging.pageSize;
  return { currentPage: paging.currentPage, size: paging.pageSize, total: items.length, [listKey]: items.slice(start, start + paging.pageSize).map(view) };
}

/** Newest first: `createTime`, then id, descending (§1.4). */
export function newestFirst<T extends { createTime: number }>(id: (item: T) => number): (a: T, b: T) => number {
  return (a, b) => b.createTime - a.createTime || id(b) - id(a);
}
