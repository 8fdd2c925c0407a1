/** The B33 object of a payment order (docs/merchant-payments.md "Endpoints served"), as B33 and B34 answer it. */

import { formatFixed } from './money.js';
import type { Money } from './orders.js';
import type { PaymentOrderRow } from './rows.js';

const fixed = (m: Money): string => formatFixed(m.units, m.accuracy);
const msText = (ms: number): string => (ms === 0 ? '' : String(ms));

/**
 * Every field present, money at its accuracy, times as text ('' while unset). One object literal
 * per kind, no spreads: a literal that spreads other objects is built on V8's slow path, ten times
 * the cost, and the journal writer formats every order row with this.
 */
export function paymentOrderView({ order, payInInfo, payoutInfo }: PaymentOrderRow): Record<string, unknown> {
  if (order.onRamp !== undefined && order.offRamp !== undefined) {
    return {
      orderId: String(order.orderId),
      clientId: order.clientId,
      orderType: order.kind,
      onRampMerchantId: order.onRamp.merchantId,
      onRampPaymentId: order.onRamp.paymentId,
      onRampCountry: order.onRamp.country,
      onRampFiat: order.onRamp.fiat,
      onRampFiatAmount: fixed(order.onRamp.amount),
      onRampFiatFee: fixed(order.onRamp.fee),
      offRampMerchantId: order.offRamp.merchantId,
      offRampPaymentId: order.offRamp.paymentId,
      offRampCountry: order.offRamp.country,
      offRampFiat: order.offRamp.fiat,
      offRampFiatAmount: fixed(order.offRamp.amount),
      offRampFiatFee: fixed(order.offRamp.fee),
      offArriveRampFiatAmount: fixed(order.offRamp.arrive),
      orderPrice: fixed(order.orderPrice),
      orderStatus: order.status,
      hasRefund: order.hasRefund ? 1 : 0,
      traceNumber: order.traceNumber,
      onRampPaymentInfo: payInInfo,
      offRampPaymentInfo: payoutInfo,
      quoteId: order.quoteId,
      remark: order.remark,
      failCode: order.failCode,
      failReason: order.failReason,
      createTime: msText(order.createTime),
      updateTime: msText(order.updateTime),
      completedTime: msText(order.completedTime),
    };
  }
  return {
    orderId: String(order.orderId),
    clientId: order.clientId,
    orderType: order.kind,
    merchantId: order.merchantId,
    paymentId: order.paymentId,
    userPaymentId: order.userPaymentId,
    country: order.country,
    crypto: order.crypto,
    fiat: order.fiat,
    orderPrice: fixed(order.orderPrice),
    cryptoAmount: fixed(order.cryptoAmount),
    fiatAmount: fixed(order.fiatAmount),
    fiatFee: fixed(order.fiatFee),
    orderStatus: order.status,
    hasRefund: order.hasRefund ? 1 : 0,
    traceNumber: order.traceNumber,
    paymentInfo: order.kind === 'fiat_to_crypto' ? payInInfo : payoutInfo,
    quoteId: order.quoteId,
    remark: order.remark,
    failCode: order.failCode,
    failReason: order.failReason,
    createTime: msText(order.createTime),
    updateTime: msText(order.updateTime),
    completedTime: msText(order.completedTime),
  };
}
