import { refuse } from '../../core/payment-errors.js';
import { usdValue } from '../../payments/order-amounts.js';
import type { Money, PaymentOrder, UsageEntry } from '../../payments/orders.js';
import { unitsOf } from '../../payments/money.js';
import type { PaymentsState } from './payments-state.js';

/** UTC windows of docs/merchant-payments.md "Amount limits", from a time in ms. */
export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Usage counter keys: what `*Used` fields read for the window of `ms`. */
export const usageKey = {
  user: (userId: number, ms: number) => `user:${userId}:${monthOf(ms)}`,
  merchantDay: (merchantId: number, ms: number) => `mday:${merchantId}:${dayOf(ms)}`,
  merchantMonth: (merchantId: number, ms: number) => `mmonth:${merchantId}:${monthOf(ms)}`,
  merchantCrypto: (merchantId: number, ms: number) => `mcrypto:${merchantId}:${monthOf(ms)}`,
  accountBuy: (merchantId: number, fiat: string, ms: number) => `buy:${merchantId}:${fiat}:${monthOf(ms)}`,
  accountSell: (merchantId: number, fiat: string, ms: number) => `sell:${merchantId}:${fiat}:${monthOf(ms)}`,
};

const LIMIT_ACCURACY = 2;

/** A planned addition to a counter, with the cap it must stay under (0 = no cap) and the code over it. */
export interface LimitCharge {
  key: string;
  amount: bigint;
  limit: string;
  code: 'ORDER_UID_EXCEED_LIMIT' | 'ORDER_MC_EXCEED_LIMIT';
  name: string;
  /** Accuracy of `amount` and `limit`. */
  accuracy: number;
}

/** USD cents of an amount through the fixed `limitRates`; a currency without a rate counts nothing. */
export function usdCents(state: PaymentsState, currency: string, money: Money): bigint {
  const rate = state.config.limitRates[currency];
  return rate === undefined ? 0n : usdValue(money.units, money.accuracy, rate);
}

/** docs/merchant-payments.md "Order creation checks" step 10: refuses the first charge over its cap; nothing is added. */
export function checkLimits(state: PaymentsState, charges: readonly LimitCharge[]): void {
  for (const charge of charges) {
    const cap = unitsOf(charge.limit, charge.accuracy) ?? 0n;
    if (cap === 0n) continue;
    if ((state.usage.get(charge.key) ?? 0n) + charge.amount > cap) refuse(charge.code, `${charge.name} limit ${charge.limit} would be exceeded`);
  }
}

/** Adds the charges to their counters and remembers them on the order, to be given back. */
export function addUsage(state: PaymentsState, order: PaymentOrder, charges: readonly LimitCharge[]): void {
  const entries: UsageEntry[] = charges.filter((c) => c.amount > 0n).map((c) => ({ key: c.key, amount: c.amount }));
  for (const entry of entries) state.usage.set(entry.key, (state.usage.get(entry.key) ?? 0n) + entry.amount);
  order.usage = entries;
}

/** An order that ends in 70, 71 or 72 gives its usage back (docs/merchant-payments.md "Amount limits": `*Used` shows committed volume). */
export function giveBackUsage(state: PaymentsState, order: PaymentOrder): void {
  for (const entry of order.usage) {
    const left = (state.usage.get(entry.key) ?? 0n) - entry.amount;
    if (left > 0n) state.usage.set(entry.key, left);
    else state.usage.delete(entry.key);
  }
  order.usage = [];
}

export function used(state: PaymentsState, key: string): bigint {
  return state.usage.get(key) ?? 0n;
}

export { LIMIT_ACCURACY };
