import { refuse } from '../../core/payment-errors.js';
import { fiatSpec, railOfFiat } from '../../payments/config.js';
import { depositInstructions } from '../../payments/instructions.js';
import { formatFixed, unitsOf } from '../../payments/money.js';
import { FUNDING_TYPES, NORMAL, type FundingRecord } from '../../payments/model.js';
import { CLIENT_ID_PATTERN } from '../../payments/validation/formats.js';
import type { MerchantContext, MerchantEndpoint } from './merchant-endpoint.js';
import { ANSWERS } from './schemas.js';
import { callerMerchant } from './merchants.js';
import { fundingView, msText } from './views.js';

/** Accuracy to read an amount in a fiat; an unknown fiat is refused later, with its own code. */
function accuracyOf(ctx: MerchantContext, fiat: string): number {
  return fiatSpec(ctx.exchange.core.payments.config, fiat)?.accuracy ?? 2;
}

/** `clientId` of docs/merchant-payments.md "Idempotency": 1–64 of `A-Za-z0-9_-.:`. */
function clientIdOf(ctx: MerchantContext, required: boolean): string {
  const clientId = ctx.params.str('clientId', { required, max: 64 });
  if (clientId !== undefined && !CLIENT_ID_PATTERN.test(clientId)) refuse('PARAM_IS_INVALID', 'clientId must be 1-64 of A-Za-z0-9_-.:');
  return clientId ?? '';
}

function addFunds(ctx: MerchantContext): unknown {
  const { params } = ctx;
  const merchantId = params.int('merchantId', { required: true, min: 1 });
  const paymentId = params.int('paymentId', { required: true });
  const fiat = params.str('fiat', { required: true, max: 16 });
  const { state, config } = ctx.exchange.core.payments;
  const merchant = callerMerchant(ctx, merchantId);
  if (state.merchantAccounts.get(`${merchantId}:${fiat}`)?.status !== NORMAL) refuse('MC_NOT_OPEN_ACCOUNT', `Merchant ${merchantId} has no active ${fiat} account`);
  const rail = railOfFiat(config, fiat);
  if (rail === undefined || rail.paymentId !== paymentId) refuse('PAYMENT_AND_PLATFORM_NOT_MATCH', `paymentId ${paymentId} is not the rail of the ${fiat} account`);
  return { fiat, paymentMethodName: rail.paymentMethodName, fieldList: depositInstructions(merchant.merchantId, merchant.merchantName, rail) };
}

async function claimFunds(ctx: MerchantContext): Promise<unknown> {
  const { params } = ctx;
  const merchantId = params.int('merchantId', { required: true, min: 1 });
  const clientId = clientIdOf(ctx, false);
  const fiat = params.str('fiat', { required: true, max: 16 });
  const amount = params.dec('amount', accuracyOf(ctx, fiat), { required: true });
  const userPaymentId = params.int('userPaymentId', { required: true });
  const record = await ctx.exchange.submit<FundingRecord>({ type: 'claimFunds', userId: ctx.userId, merchantId, clientId, fiat, amount, userPaymentId });
  return {
    txId: record.txId,
    merchantId: record.merchantId,
    clientId: record.clientId,
    fiat: record.fiat,
    totalAmount: formatFixed(record.totalAmount, record.accuracy),
    amount: formatFixed(record.amount, record.accuracy),
    fee: formatFixed(record.fee, record.accuracy),
    userPaymentId: record.userPaymentId,
    status: record.status,
    createTime: msText(record.createTime),
  };
}

function transferFee(ctx: MerchantContext): unknown {
  const fiat = ctx.params.str('fiat', { required: true, max: 16 });
  const config = ctx.exchange.core.payments.config;
  const spec = fiatSpec(config, fiat);
  if (spec === undefined) refuse('FIAT_INVALID', `Fiat ${fiat} is not supported`);
  const fee = config.transferFees.find((f) => f.fiat === fiat) ?? { feeType: 0, fee: '0' };
  // A fixed fee is money (exact accuracy); a fraction is shown as configured (docs/merchant-payments.md "Endpoints served" B19).
  return { fiat, feeType: fee.feeType, fee: fee.feeType === 0 ? formatFixed(unitsOf(fee.fee, spec.accuracy) ?? 0n, spec.accuracy) : fee.fee };
}

function transfer(ctx: MerchantContext): Promise<unknown> {
  const { params } = ctx;
  const clientId = clientIdOf(ctx, true);
  const fromMerchantId = params.int('fromMerchantId', { required: true, min: 1 });
  const toMerchantId = params.int('toMerchantId', { required: true, min: 1 });
  const fiat = params.str('fiat', { required: true, max: 16 });
  const paymentId = params.int('paymentId', { required: true });
  const fiatAmount = params.dec('fiatAmount', accuracyOf(ctx, fiat), { required: true });
  return ctx.exchange.submit({ type: 'transferFunds', userId: ctx.userId, clientId, fromMerchantId, toMerchantId, fiat, paymentId, fiatAmount });
}

const RECORD_TYPES = ['ALL', ...FUNDING_TYPES] as const;

async function fundingRecords(ctx: MerchantContext): Promise<unknown> {
  const { params } = ctx;
  const { startTime, endTime } = params.timeRange();
  const merchantId = params.int('merchantId', { min: 1 });
  const fiat = params.str('fiat', { max: 16 });
  const type = params.enumOf('type', RECORD_TYPES) ?? 'ALL';
  const status = params.int('status', { max: 3 }) ?? 0;
  const clientId = params.str('clientId', { max: 64 });
  const paging = params.paging();
  const { total, rows } = await ctx.exchange.history.listFundingRecords({
    userId: ctx.userId,
    merchantId,
    fiat,
    type: type === 'ALL' ? undefined : type,
    status: status === 0 ? undefined : status,
    clientId,
    startTime,
    endTime,
    offset: (paging.currentPage - 1) * paging.pageSize,
    limit: paging.pageSize,
  });
  return { currentPage: paging.currentPage, size: paging.pageSize, total, data: rows.map(fundingView) };
}

/** B17–B21 (docs/merchant-payments.md "Endpoints served"). */
export function pendingFundEndpoints(): MerchantEndpoint[] {
  const paging = [
    { name: 'currentPage', type: 'INT' },
    { name: 'pageSize', type: 'INT' },
  ] as const;
  return [
    {
      id: 'B17',
      summary: 'Pending-fund deposit instructions',
      method: 'GET',
      path: '/v2/merchant/addfunds',
      auth: 'TOKEN',
      params: [
        { name: 'merchantId', type: 'INT', required: true },
        { name: 'paymentId', type: 'INT', required: true },
        { name: 'fiat', type: 'STRING', required: true },
        { name: 'amount', type: 'DECIMAL', description: 'ignored' },
      ],
      ...ANSWERS.B17,
      handler: addFunds,
    },
    {
      id: 'B18',
      summary: 'Pay pending funds to a beneficiary',
      method: 'POST',
      path: '/v2/merchant/claimfunds',
      auth: 'TOKEN',
      params: [
        { name: 'merchantId', type: 'INT', required: true },
        { name: 'clientId', type: 'STRING' },
        { name: 'fiat', type: 'STRING', required: true },
        { name: 'amount', type: 'DECIMAL', required: true },
        { name: 'userPaymentId', type: 'INT', required: true },
      ],
      ...ANSWERS.B18,
      handler: claimFunds,
    },
    { id: 'B19', summary: 'Merchant-to-merchant transfer fee', method: 'GET', path: '/v2/merchant/transfer_fee', auth: 'TOKEN', params: [{ name: 'fiat', type: 'STRING', required: true }], ...ANSWERS.B19, handler: transferFee },
    {
      id: 'B20',
      summary: "Move pending funds between the user's merchants",
      method: 'POST',
      path: '/v2/merchant/transfer',
      auth: 'TOKEN',
      params: [
        { name: 'clientId', type: 'STRING', required: true },
        { name: 'fromMerchantId', type: 'INT', required: true },
        { name: 'toMerchantId', type: 'INT', required: true },
        { name: 'fiat', type: 'STRING', required: true },
        { name: 'paymentId', type: 'INT', required: true },
        { name: 'fiatAmount', type: 'DECIMAL', required: true },
      ],
      ...ANSWERS.B20,
      handler: transfer,
    },
    {
      id: 'B21',
      summary: 'Funding records',
      method: 'GET',
      path: '/v2/merchant/funding/records',
      auth: 'TOKEN',
      params: [
        { name: 'startTime', type: 'LONG' },
        { name: 'endTime', type: 'LONG' },
        { name: 'merchantId', type: 'INT' },
        { name: 'fiat', type: 'STRING' },
        { name: 'type', type: 'ENUM', values: RECORD_TYPES },
        { name: 'status', type: 'INT' },
        { name: 'clientId', type: 'STRING' },
        ...paging,
      ],
      ...ANSWERS.B21,
      handler: fundingRecords,
    },
  ];
}
