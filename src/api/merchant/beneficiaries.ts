import { refuse } from '../../core/payment-errors.js';
import { PENDING_FUND_RAIL, refuseCountryMismatch } from '../../payments/config.js';
import { NORMAL, type Beneficiary } from '../../payments/model.js';
import { templateOf, validateBeneficiaryFields } from '../../payments/validation/beneficiary-fields.js';
import type { MerchantContext, MerchantEndpoint } from './merchant-endpoint.js';
import { ANSWERS } from './schemas.js';
import { callerMerchant } from './merchants.js';
import { beneficiaryView, newestFirst, pageOf } from './views.js';

function template(ctx: MerchantContext): unknown {
  const paymentId = ctx.params.int('paymentId', { required: true });
  return templateOf(paymentId) ?? refuse('PAYMENT_INVALID', `paymentId ${paymentId} takes no beneficiaries`);
}

/** B25: the spec's order of checks: merchant, rail, fiat and country, fields, then the state's. */
async function addBeneficiary(ctx: MerchantContext): Promise<unknown> {
  const { params } = ctx;
  const merchantId = params.int('merchantId', { required: true, min: 1 });
  const paymentId = params.int('paymentId', { required: true });
  const country = params.str('country', { required: true, max: 64 });
  const fiat = params.str('fiat', { required: true, max: 16 });
  const realName = params.str('realName', { max: 64 }) ?? '';
  const fieldJson = params.obj('fieldJson', { required: true, stringMembers: true });
  const remark = params.str('remark', { max: 256 }) ?? '';
  const config = ctx.exchange.core.payments.config;
  const merchant = callerMerchant(ctx, merchantId);
  if (merchant.status !== NORMAL) refuse('PAYMENT_ADD_NEED_PASS_KYC_OR_KYB', `Merchant ${merchantId} has not passed KYC`);
  const rail = config.rails.find((r) => r.paymentId === paymentId);
  if (rail === undefined || paymentId === PENDING_FUND_RAIL || templateOf(paymentId) === undefined) refuse('PAYMENT_INVALID', `paymentId ${paymentId} takes no beneficiaries`);
  if (rail.fiat !== fiat) refuse('PAYMENT_FIAT_AND_ORDER_NOT_MATCH', `Rail ${paymentId} pays out in ${rail.fiat}, not ${fiat}`);
  refuseCountryMismatch(config, fiat, country);
  const { fields, accountKey } = validateBeneficiaryFields(paymentId, fieldJson);
  const beneficiary = await ctx.exchange.submit<Beneficiary>({ type: 'addBeneficiary', userId: ctx.userId, merchantId, paymentId, country, fiat, realName, fieldList: fields, accountKey, remark });
  return { id: beneficiary.userPaymentId, status: beneficiary.status, failReason: beneficiary.failReason };
}

function listBeneficiaries(ctx: MerchantContext): unknown {
  const { params } = ctx;
  const country = params.str('country', { max: 64 });
  const status = params.int('status', { max: 3 }) ?? 0;
  const fiat = params.str('fiat', { max: 16 });
  const merchantId = params.int('merchantId', { min: 1 });
  const paging = params.paging();
  const core = ctx.exchange.core;
  const beneficiaries = [...core.payments.state.beneficiaries.values()]
    .filter(
      (b) =>
        b.userId === ctx.userId &&
        (country === undefined || b.country === country) &&
        (status === 0 || b.status === status) &&
        (fiat === undefined || b.fiat === fiat) &&
        (merchantId === undefined || b.merchantId === merchantId),
    )
    .sort(newestFirst((b) => b.userPaymentId));
  return pageOf(beneficiaries, paging, 'record', (b) => beneficiaryView(core, b));
}

/** The path's id: digits only (B27), anything else names no beneficiary. */
export function pathId(ctx: MerchantContext, name: string, notFound: () => never): number {
  const text = ctx.path[name] ?? '';
  if (!/^[0-9]{1,15}$/.test(text)) notFound();
  return Number(text);
}

async function deleteBeneficiary(ctx: MerchantContext): Promise<unknown> {
  const userPaymentId = pathId(ctx, 'userPaymentId', () => refuse('PAYMENT_NOT_EXIST', `Beneficiary ${ctx.path.userPaymentId ?? ''} does not exist`));
  return ctx.exchange.submit({ type: 'deleteBeneficiary', userId: ctx.userId, userPaymentId });
}

async function refundAccount(ctx: MerchantContext): Promise<unknown> {
  const userPaymentId = ctx.params.int('userPaymentId', { required: true });
  const merchantId = ctx.params.int('merchantId', { required: true, min: 1 });
  return ctx.exchange.submit({ type: 'setRefundAccount', userId: ctx.userId, merchantId, userPaymentId });
}

/** B24–B28 (docs/merchant-payments.md "Endpoints served"). */
export function beneficiaryEndpoints(): MerchantEndpoint[] {
  return [
    { id: 'B24', summary: 'Beneficiary template of a rail', method: 'GET', path: '/v2/payments/templates', auth: 'TOKEN', params: [{ name: 'paymentId', type: 'INT', required: true }], ...ANSWERS.B24, handler: template },
    {
      id: 'B25',
      summary: 'Add a beneficiary',
      method: 'POST',
      path: '/v2/payments',
      auth: 'TOKEN',
      params: [
        { name: 'merchantId', type: 'INT', required: true },
        { name: 'paymentId', type: 'INT', required: true },
        { name: 'country', type: 'STRING', required: true },
        { name: 'fiat', type: 'STRING', required: true },
        { name: 'realName', type: 'STRING' },
        { name: 'fieldJson', type: 'STRING', required: true, description: 'JSON object: template label → value' },
        { name: 'remark', type: 'STRING' },
      ],
      ...ANSWERS.B25,
      handler: addBeneficiary,
    },
    {
      id: 'B26',
      summary: 'List beneficiaries',
      method: 'GET',
      path: '/v2/payments',
      auth: 'TOKEN',
      params: [
        { name: 'country', type: 'STRING' },
        { name: 'status', type: 'INT' },
        { name: 'fiat', type: 'STRING' },
        { name: 'merchantId', type: 'INT' },
        { name: 'currentPage', type: 'INT' },
        { name: 'pageSize', type: 'INT' },
      ],
      ...ANSWERS.B26,
      handler: listBeneficiaries,
    },
    { id: 'B27', summary: 'Delete a beneficiary', method: 'DELETE', path: '/v2/payments/:userPaymentId', auth: 'TOKEN', params: [], ...ANSWERS.B27, handler: deleteBeneficiary },
    {
      id: 'B28',
      summary: 'Set the refund account',
      method: 'POST',
      path: '/openapi/v2/payment/refund_account',
      extraPaths: ['/v2/payment/refund_account'],
      auth: 'TOKEN',
      params: [
        { name: 'userPaymentId', type: 'INT', required: true },
        { name: 'merchantId', type: 'INT', required: true },
      ],
      ...ANSWERS.B28,
      handler: refundAccount,
    },
  ];
}
