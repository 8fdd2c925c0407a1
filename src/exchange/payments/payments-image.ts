/** The payments module's part of the snapshot image: its state as canonical JSON (bigints as decimal text, maps as sorted arrays). */

import type { PaymentsConfig } from '../../payments/config.js';
import type { Beneficiary, FundingRecord, Merchant, MerchantAccount, SandboxModes, TokenRecord } from '../../payments/model.js';
import { TERMINAL_STATUSES, type Money, type OrderLeg, type PaymentOrder, type Quote } from '../../payments/orders.js';
import { sortedEntries, type Deadline } from '../core-module.js';
import { PaymentsState } from './payments-state.js';

type FundingImage = Omit<FundingRecord, 'totalAmount' | 'amount' | 'fee'> & { totalAmount: string; amount: string; fee: string };
/** Money as `[units, accuracy]` with units as decimal text (JSON has no bigint). */
type MoneyImage = [string, number];
type OrderImage = Omit<PaymentOrder, 'orderPrice' | 'fiatAmount' | 'fiatFee' | 'cryptoAmount' | 'gross' | 'onRamp' | 'offRamp' | 'usage'> & {
  money: MoneyImage[];
  onRamp: (Omit<OrderLeg, 'amount' | 'fee'> & { amount: MoneyImage; fee: MoneyImage }) | null;
  offRamp: (Omit<OrderLeg, 'amount' | 'fee'> & { amount: MoneyImage; fee: MoneyImage; arrive: MoneyImage }) | null;
  usage: [string, string][];
};
type QuoteImage = Omit<Quote, 'amount' | 'price'> & { amount: MoneyImage; price: MoneyImage };

export interface PaymentsImage {
  config: PaymentsConfig;
  sandbox: boolean;
  deskAccountId: number;
  counters: { nextMerchantId: number; nextBeneficiaryId: number; nextTxId: number };
  tokens: TokenRecord[];
  merchants: Merchant[];
  merchantAccounts: MerchantAccount[];
  beneficiaries: Beneficiary[];
  refundAccounts: [string, number][];
  pendingFunding: FundingImage[];
  claimClientIds: [number, [string, number][]][];
  transferClientIds: [number, [string, [number, number]][]][];
  traceNumbers: [number, [string, string][]][];
  nextOrderId: number;
  orders: OrderImage[];
  orderClientIds: [number, [string, number][]][];
  quotes: QuoteImage[];
  priceOverrides: [number, [string, string][]][];
  usage: [string, string][];
  modes: [number, Partial<SandboxModes>][];
  userLimits: [number, string][];
  decisions: [string, Deadline][];
}

/** The payments part of an image of version 6 or before: its orders had no status log. */
export type PaymentsImageBeforeStatusLog = Omit<PaymentsImage, 'orders'> & { orders: Omit<OrderImage, 'statusLog'>[] };

/**
 * An older part in today's layout. Each order's log is empty: the statuses it passed through before
 * this version were never kept, and an empty log is the honest value, it reads as incomplete (O32
 * then shows the statuses the order's webhook events recorded). The entries it makes from here on
 * are appended; a replay of the journal from the start rebuilds them whole.
 */
export function withEmptyStatusLogs(part: PaymentsImageBeforeStatusLog): PaymentsImage {
  return { ...part, orders: part.orders.map((o) => ({ ...o, statusLog: [] })) };
}

const moneyImage = (m: Money): MoneyImage => [m.units.toString(), m.accuracy];
const moneyOf = (m: MoneyImage): Money => ({ units: BigInt(m[0]), accuracy: m[1] });

function orderImage(o: PaymentOrder): OrderImage {
  // `deadline` and `statusLog` are placed, not spread: JSON leaves out an undefined deadline, so a
  // restored order may hold its keys in another order, and the image must not follow it.
  const { orderPrice, fiatAmount, fiatFee, cryptoAmount, gross, onRamp, offRamp, usage, deadline, statusLog, ...rest } = o;
  return {
    ...rest,
    deadline: deadline === undefined ? undefined : { ...deadline },
    statusLog: statusLog.map((e) => ({ ...e })),
    money: [orderPrice, fiatAmount, fiatFee, cryptoAmount, gross].map(moneyImage),
    onRamp: onRamp === undefined ? null : { ...onRamp, amount: moneyImage(onRamp.amount), fee: moneyImage(onRamp.fee) },
    offRamp: offRamp === undefined ? null : { ...offRamp, amount: moneyImage(offRamp.amount), fee: moneyImage(offRamp.fee), arrive: moneyImage(offRamp.arrive) },
    usage: usage.map((u) => [u.key, u.amount.toString()]),
  };
}

function orderOfImage(i: OrderImage): PaymentOrder {
  const { money, onRamp, offRamp, usage, ...rest } = i;
  const [orderPrice, fiatAmount, fiatFee, cryptoAmount, gross] = money.map(moneyOf);
  return {
    ...rest,
    deadline: i.deadline === undefined ? undefined : { ...i.deadline },
    statusLog: i.statusLog.map((e) => ({ ...e })),
    orderPrice,
    fiatAmount,
    fiatFee,
    cryptoAmount,
    gross,
    onRamp: onRamp === null ? undefined : { ...onRamp, amount: moneyOf(onRamp.amount), fee: moneyOf(onRamp.fee) },
    offRamp: offRamp === null ? undefined : { ...offRamp, amount: moneyOf(offRamp.amount), fee: moneyOf(offRamp.fee), arrive: moneyOf(offRamp.arrive) },
    usage: usage.map(([key, amount]) => ({ key, amount: BigInt(amount) })),
  };
}

const nested = <V>(map: ReadonlyMap<number, ReadonlyMap<string, V>>): [number, [string, V][]][] => sortedEntries(map).map(([id, inner]) => [id, sortedEntries(inner)]);

export function paymentsImage(s: PaymentsState): PaymentsImage {
  return {
    config: structuredClone(s.config),
    sandbox: s.sandbox,
    deskAccountId: s.deskAccountId,
    counters: { nextMerchantId: s.nextMerchantId, nextBeneficiaryId: s.nextBeneficiaryId, nextTxId: s.nextTxId },
    tokens: sortedEntries(s.tokens).map(([, t]) => ({ ...t })),
    merchants: sortedEntries(s.merchants).map(([, m]) => ({ ...m, limits: { ...m.limits } })),
    merchantAccounts: sortedEntries(s.merchantAccounts).map(([, a]) => ({ ...a, fieldList: { ...a.fieldList } })),
    beneficiaries: sortedEntries(s.beneficiaries).map(([, b]) => ({ ...b, fieldList: { ...b.fieldList } })),
    refundAccounts: sortedEntries(s.refundAccounts),
    pendingFunding: sortedEntries(s.pendingFunding).map(([, r]) => ({
      ...r,
      payer: r.payer === undefined ? undefined : { ...r.payer },
      totalAmount: r.totalAmount.toString(),
      amount: r.amount.toString(),
      fee: r.fee.toString(),
    })),
    claimClientIds: nested(s.claimClientIds),
    transferClientIds: nested(s.transferClientIds),
    traceNumbers: nested(s.traceNumbers),
    modes: sortedEntries(s.modes).map(([userId, modes]) => [userId, { ...modes }]),
    userLimits: sortedEntries(s.userLimits),
    decisions: sortedEntries(s.decisions).map(([key, d]) => [key, { at: d.at, command: structuredClone(d.command) }]),
    nextOrderId: s.nextOrderId,
    orders: sortedEntries(s.orders).map(([, o]) => orderImage(o)),
    orderClientIds: nested(s.orderClientIds),
    quotes: sortedEntries(s.quotes).map(([, q]) => ({ ...q, amount: moneyImage(q.amount), price: moneyImage(q.price) })),
    priceOverrides: sortedEntries(s.priceOverrides).map(([userId, prices]) => [userId, sortedEntries(prices).map(([key, units]): [string, string] => [key, units.toString()])]),
    usage: sortedEntries(s.usage).map(([key, units]): [string, string] => [key, units.toString()]),
  };
}

export function paymentsStateOf(image: PaymentsImage): PaymentsState {
  const s = new PaymentsState();
  s.config = structuredClone(image.config);
  s.sandbox = image.sandbox;
  s.deskAccountId = image.deskAccountId;
  s.nextMerchantId = image.counters.nextMerchantId;
  s.nextBeneficiaryId = image.counters.nextBeneficiaryId;
  s.nextTxId = image.counters.nextTxId;
  for (const t of image.tokens) s.tokens.set(t.tokenHash, { ...t });
  for (const m of image.merchants) s.merchants.set(m.merchantId, { ...m, limits: { ...m.limits } });
  for (const a of image.merchantAccounts) s.merchantAccounts.set(`${a.merchantId}:${a.fiat}`, { ...a, fieldList: { ...a.fieldList } });
  for (const b of image.beneficiaries) s.beneficiaries.set(b.userPaymentId, { ...b, fieldList: { ...b.fieldList } });
  for (const [key, id] of image.refundAccounts) s.refundAccounts.set(key, id);
  for (const r of image.pendingFunding) {
    s.pendingFunding.set(r.txId, { ...r, payer: r.payer === undefined ? undefined : { ...r.payer }, totalAmount: BigInt(r.totalAmount), amount: BigInt(r.amount), fee: BigInt(r.fee) });
  }
  for (const [userId, ids] of image.claimClientIds) s.claimClientIds.set(userId, new Map(ids));
  for (const [userId, ids] of image.transferClientIds) s.transferClientIds.set(userId, new Map(ids));
  for (const [merchantId, ids] of image.traceNumbers) s.traceNumbers.set(merchantId, new Map(ids));
  for (const [userId, modes] of image.modes) s.modes.set(userId, { ...modes });
  for (const [userId, limit] of image.userLimits) s.userLimits.set(userId, limit);
  for (const [key, d] of image.decisions) s.decisions.set(key, { at: d.at, command: structuredClone(d.command) });
  s.nextOrderId = image.nextOrderId;
  for (const o of image.orders) {
    const order = orderOfImage(o);
    s.orders.set(order.orderId, order);
    if (!TERMINAL_STATUSES.has(order.status)) s.openOrders.add(order.orderId);
  }
  for (const [userId, ids] of image.orderClientIds) s.orderClientIds.set(userId, new Map(ids));
  for (const q of image.quotes) s.quotes.set(q.quoteId, { ...q, amount: moneyOf(q.amount), price: moneyOf(q.price) });
  for (const [userId, prices] of image.priceOverrides) s.priceOverrides.set(userId, new Map(prices.map(([key, units]) => [key, BigInt(units)])));
  for (const [key, units] of image.usage) s.usage.set(key, BigInt(units));
  return s;
}
