import { PENDING_FUND_RAIL } from '../../payments/config.js';
import { depositInstructions } from '../../payments/instructions.js';
import type { PaymentOrder } from '../../payments/orders.js';
import type { PaymentOrderRow } from '../../payments/rows.js';
import type { PaymentsContext } from './payments-context.js';
import type { PaymentsState } from './payments-state.js';

/** The order changed in this command: its row is written once, as the command leaves it (B33, B34 read it). */
export function orderChanged(p: PaymentsContext, order: PaymentOrder): void {
  if (p.ctx.recordRows) p.changedOrders.add(order);
}

/** At the end of a command: one row per order it changed. */
export function writeChangedOrders(p: PaymentsContext): void {
  for (const order of p.changedOrders) p.ctx.rows.moduleRows.push({ kind: 'paymentOrder', order: orderRow(p.state, order) });
}

/**
 * The order as a command leaves it, for the command's answer and its row. A shallow copy is a true
 * snapshot (and far cheaper than structuredClone): commands replace an order's nested members
 * (money, legs, deadline, statusLog, usage) and never change them in place.
 */
export function orderCopy(order: Readonly<PaymentOrder>): PaymentOrder {
  return { ...order };
}

/** The order as it is now, with the pay-in instructions and the payout beneficiary its B33 object shows, as they are now. */
function orderRow(state: PaymentsState, order: PaymentOrder): PaymentOrderRow {
  const none = {};
  if (order.onRamp !== undefined && order.offRamp !== undefined) {
    return { order: orderCopy(order), payInInfo: payInInfo(state, order, order.onRamp.merchantId, order.onRamp.fiat), payoutInfo: beneficiaryFields(state, order.offRamp.paymentId) };
  }
  if (order.kind === 'fiat_to_crypto') {
    return { order: orderCopy(order), payInInfo: order.paymentId === PENDING_FUND_RAIL ? none : payInInfo(state, order, order.merchantId, order.fiat), payoutInfo: none };
  }
  return { order: orderCopy(order), payInInfo: none, payoutInfo: order.kind === 'crypto_to_fiat' ? beneficiaryFields(state, order.userPaymentId) : none };
}

function beneficiaryFields(state: PaymentsState, userPaymentId: number): Record<string, string> {
  const beneficiary = state.beneficiaries.get(userPaymentId);
  return beneficiary === undefined ? {} : { ...beneficiary.fieldList };
}

/** Where to pay: the merchant account's instructions plus `Reference` = orderId (docs/merchant-payments.md "Endpoints served" B33). */
function payInInfo(state: PaymentsState, order: PaymentOrder, merchantId: number, fiat: string): Record<string, string> {
  const rail = state.config.rails.find((r) => r.fiat === fiat);
  const m = state.merchants.get(merchantId);
  if (rail === undefined || m === undefined) return { Reference: String(order.orderId) };
  // Set on the fresh object, not spread into a new literal (V8's slow path, once per order row).
  const info = depositInstructions(m.merchantId, m.merchantName, rail);
  info.Reference = String(order.orderId);
  return info;
}
