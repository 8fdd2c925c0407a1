/**
 * O30's queues (docs/operating.md "The payments desk"): what waits for a person, read from the
 * committed core (every node holds the same), newest first by the time the object entered its
 * status. Each row names its object, what a person needs to decide it, and its decisions
 * (desk-calls.ts). The scan walks in-memory maps once per queue: merchants, accounts and
 * beneficiaries (all of them), open orders and pending funding records.
 */
import type { ExchangeCore } from '../../exchange/exchange-core.js';
import { formatFixed } from '../../payments/money.js';
import { AUTHENTICATING, BENEFICIARY_REVIEWING, type FundingRecord } from '../../payments/model.js';
import { ORDER, type PaymentOrder } from '../../payments/orders.js';
import { accountDecisions, awaitsPayout, beneficiaryDecisions, fundingDecisions, merchantDecisions, orderDecisions, type Decisions } from './desk-calls.js';

export const QUEUE_NAMES = ['merchantsKyc', 'merchantAccounts', 'beneficiaries', 'ordersReview', 'ordersDocuments', 'payouts', 'fundingRecords'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

type Row = Record<string, unknown> & Decisions & { createTime: number; updateTime: number };

export interface Queue {
  queue: QueueName;
  count: number;
  rows: Row[];
}

/** Newest first: the time the object entered its status, then its id (`key`), descending. */
function newestFirst(rows: (Row & { key: number })[], limit: number): Row[] {
  return rows
    .sort((a, b) => b.updateTime - a.updateTime || b.key - a.key)
    .slice(0, limit)
    .map(({ key: _key, ...row }) => row);
}

const fixed = (units: bigint, accuracy: number): string => formatFixed(units, accuracy);

function merchantName(core: ExchangeCore, merchantId: number): string {
  return core.payments.state.merchants.get(merchantId)?.merchantName ?? '';
}

/** The fields of an order a person reviews: who, what kind, how much, in which currencies. */
export function orderSummary(core: ExchangeCore, o: PaymentOrder): Record<string, unknown> {
  const merchantId = o.onRamp?.merchantId ?? o.merchantId;
  const common = {
    userId: String(o.userId),
    merchantId: String(merchantId),
    merchantName: merchantName(core, merchantId),
    orderId: String(o.orderId),
    clientId: o.clientId,
    kind: o.kind,
    status: o.status,
    orderPrice: fixed(o.orderPrice.units, o.orderPrice.accuracy),
    documents: o.documents,
    deadlineTime: o.deadline?.at ?? 0,
  };
  if (o.onRamp !== undefined && o.offRamp !== undefined) {
    return {
      ...common,
      fiat: o.onRamp.fiat,
      fiatAmount: fixed(o.onRamp.amount.units, o.onRamp.amount.accuracy),
      offRampMerchantId: String(o.offRamp.merchantId),
      offRampFiat: o.offRamp.fiat,
      offRampFiatAmount: fixed(o.offRamp.amount.units, o.offRamp.amount.accuracy),
      offArriveRampFiatAmount: fixed(o.offRamp.arrive.units, o.offRamp.arrive.accuracy),
      beneficiaryId: String(o.offRamp.paymentId),
    };
  }
  return {
    ...common,
    fiat: o.fiat,
    fiatAmount: fixed(o.fiatAmount.units, o.fiatAmount.accuracy),
    crypto: o.crypto,
    cryptoAmount: fixed(o.cryptoAmount.units, o.cryptoAmount.accuracy),
    ...(o.kind === 'crypto_to_fiat' ? { beneficiaryId: String(o.userPaymentId) } : {}),
  };
}

function fundingRow(r: FundingRecord): Row & { key: number } {
  return {
    key: r.txId,
    userId: String(r.userId),
    merchantId: String(r.merchantId),
    merchantName: r.merchantName,
    txId: String(r.txId),
    type: r.type,
    status: r.status,
    fiat: r.fiat,
    totalAmount: fixed(r.totalAmount, r.accuracy),
    amount: fixed(r.amount, r.accuracy),
    fee: fixed(r.fee, r.accuracy),
    beneficiaryId: String(r.userPaymentId),
    clientId: r.clientId,
    orderId: r.orderId,
    payerName: r.payer?.payerName ?? '',
    payerAccount: r.payer?.payerAccount ?? '',
    traceNumber: r.payer?.traceNumber ?? '',
    createTime: r.createTime,
    updateTime: r.updateTime,
    ...fundingDecisions(r),
  };
}

/** Every queue, each with its full count and its newest `limit` rows. */
export function deskQueues(core: ExchangeCore, limit: number): Queue[] {
  const state = core.payments.state;
  const orders = [...state.openOrders].flatMap((id) => state.orders.get(id) ?? []);
  const orderRows = (wanted: (o: PaymentOrder) => boolean): (Row & { key: number })[] =>
    orders.filter(wanted).map((o) => ({ key: o.orderId, ...orderSummary(core, o), createTime: o.createTime, updateTime: o.updateTime, ...orderDecisions(o) }));

  const rows: Record<QueueName, (Row & { key: number })[]> = {
    merchantsKyc: [...state.merchants.values()]
      .filter((m) => m.status === AUTHENTICATING)
      .map((m) => ({
        key: m.merchantId,
        userId: String(m.userId),
        merchantId: String(m.merchantId),
        merchantName: m.merchantName,
        email: m.email,
        merchantType: m.merchantType,
        country: m.country,
        status: m.status,
        createTime: m.createTime,
        updateTime: m.updateTime,
        ...merchantDecisions(m),
      })),
    merchantAccounts: [...state.merchantAccounts.values()]
      .filter((a) => a.status === AUTHENTICATING)
      .map((a) => ({
        key: a.merchantId,
        userId: String(state.merchants.get(a.merchantId)?.userId ?? 0),
        merchantId: String(a.merchantId),
        merchantName: merchantName(core, a.merchantId),
        fiat: a.fiat,
        status: a.status,
        fieldList: { ...a.fieldList },
        createTime: a.createTime,
        updateTime: a.updateTime,
        ...accountDecisions(a),
      })),
    beneficiaries: [...state.beneficiaries.values()]
      .filter((b) => b.status === BENEFICIARY_REVIEWING)
      .map((b) => ({
        key: b.userPaymentId,
        userId: String(b.userId),
        merchantId: String(b.merchantId),
        merchantName: merchantName(core, b.merchantId),
        beneficiaryId: String(b.userPaymentId),
        fiat: b.fiat,
        country: b.country,
        paymentId: b.paymentId,
        paymentMethodName: state.config.rails.find((r) => r.paymentId === b.paymentId)?.paymentMethodName ?? '',
        realName: b.realName,
        fieldList: { ...b.fieldList },
        status: b.status,
        // A beneficiary keeps no change time: it has been in review since it was added.
        createTime: b.createTime,
        updateTime: b.createTime,
        ...beneficiaryDecisions(b),
      })),
    ordersReview: orderRows((o) => o.status === ORDER.REVIEW || o.status === ORDER.RFI_UPLOADED),
    ordersDocuments: orderRows((o) => o.status === ORDER.RFI || o.status === ORDER.DOCUMENTS),
    payouts: orderRows(awaitsPayout),
    // Pending BUY_CRYPTO records follow their order (they are no person's decision).
    fundingRecords: [...state.pendingFunding.values()].filter((r) => r.type === 'DEPOSIT' || r.type === 'WITHDRAW').map(fundingRow),
  };
  return QUEUE_NAMES.map((queue) => ({ queue, count: rows[queue].length, rows: newestFirst(rows[queue], limit) }));
}
