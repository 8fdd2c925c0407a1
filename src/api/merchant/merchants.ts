import { randomBytes } from 'node:crypto';
import { refuse } from '../../core/payment-errors.js';
import { NORMAL, type Merchant, type MerchantAccount, type MerchantType } from '../../payments/model.js';
import { validateMerchantFieldList } from '../../payments/validation/merchant-fields.js';
import { isEmail, isHttpUrl } from '../../payments/validation/formats.js';
import type { MerchantContext, MerchantEndpoint } from './merchant-endpoint.js';
import { ANSWERS } from './schemas.js';
import { merchantAccountView, merchantView, newestFirst, pageOf } from './views.js';

const MERCHANT_TYPES: readonly MerchantType[] = ['INDIVIDUAL', 'BUSINESS'];
const LANGUAGES = ['en', 'es', 'pt', 'zh'] as const;

/** A capability in a link (KYC, verify): 128 random bits, 32 lowercase hex. */
export function linkToken(): string {
  return randomBytes(16).toString('hex');
}

/** The caller's merchant, read before submitting so that refusals come in the spec's order. */
export function callerMerchant(ctx: MerchantContext, merchantId: number): Merchant {
  const merchant = ctx.exchange.core.payments.state.merchants.get(merchantId);
  if (merchant === undefined || (ctx.userId !== 0 && merchant.userId !== ctx.userId)) refuse('MC_NOT_EXIST', `Merchant ${merchantId} does not exist`);
  return merchant;
}

function callbackUrl(ctx: MerchantContext): string {
  const url = ctx.params.str('callbackUrl', { required: true, max: 512 });
  if (!isHttpUrl(url)) refuse('PARAM_IS_INVALID', 'callbackUrl must be an absolute http(s) URL');
  return url;
}

async function createOrRelink(ctx: MerchantContext): Promise<{ merchantId: number; kycLink: string }> {
  const { params, exchange } = ctx;
  const merchantId = params.int('merchantId', { min: 1 });
  const kycToken = linkToken();
  let result: { merchantId: number; kycToken: string };
  if (merchantId !== undefined) {
    const url = callbackUrl(ctx);
    const languageCode = params.enumOf('languageCode', LANGUAGES);
    result = await exchange.submit({ type: 'relinkMerchant', userId: ctx.userId, merchantId, callbackUrl: url, ...(languageCode === undefined ? {} : { languageCode }), kycToken });
  } else {
    const merchantName = params.str('merchantName', { required: true, max: 64 });
    const email = params.str('email', { required: true, max: 128 });
    if (!isEmail(email)) refuse('PARAM_IS_INVALID', 'email is not a valid e-mail address');
    const merchantType = params.enumOf('merchantType', MERCHANT_TYPES, { required: true });
    const url = callbackUrl(ctx);
    const languageCode = params.enumOf('languageCode', LANGUAGES) ?? 'en';
    const remark = params.str('remark', { max: 256 }) ?? '';
    result = await exchange.submit({ type: 'createMerchant', userId: ctx.userId, merchantName, email, merchantType, callbackUrl: url, languageCode, remark, kycToken });
  }
  return { merchantId: result.merchantId, kycLink: `${ctx.publicBaseUrl}/sandbox/kyc/${result.kycToken}` };
}

/** Case-insensitive exact match of an optional filter (B14, B16). */
function matches(filter: string | undefined, value: string): boolean {
  return filter === undefined || filter.toLowerCase() === value.toLowerCase();
}

function listMerchants(ctx: MerchantContext): unknown {
  const { params } = ctx;
  const name = params.str('merchantName', { max: 64 });
  const email = params.str('email', { max: 128 });
  const status = params.int('status', { min: 1, max: 4 });
  const paging = params.paging();
  const merchants = [...ctx.exchange.core.payments.state.merchants.values()]
    .filter((m) => m.userId === ctx.userId && matches(name, m.merchantName) && matches(email, m.email) && (status === undefined || m.status === status))
    .sort(newestFirst((m) => m.merchantId));
  return pageOf(merchants, paging, 'data', (m) => merchantView(ctx.exchange.core, m, ctx.exchange.clock()));
}

function accountResponse(ctx: MerchantContext, account: MerchantAccount): Record<string, unknown> {
  return {
    fiat: account.fiat,
    status: account.status,
    verifyLink: account.verifyToken === '' ? '' : `${ctx.publicBaseUrl}/sandbox/verify/${account.verifyToken}`,
    failReason: account.failReason,
  };
}

async function activateAccount(ctx: MerchantContext): Promise<unknown> {
  const { params, exchange } = ctx;
  const merchantId = params.int('merchantId', { required: true, min: 1 });
  const fiat = params.str('fiat', { required: true, max: 16 });
  const fieldList = params.obj('fieldList', { required: true, stringMembers: true });
  const merchant = callerMerchant(ctx, merchantId);
  if (merchant.status !== NORMAL) refuse('NEED_PASS_KYC_OR_KYB', `Merchant ${merchantId} has not passed KYC`);
  if (!['MXN', 'USD', 'EUR'].includes(fiat)) refuse('FIAT_INVALID', `Fiat ${fiat} is not supported`);
  const fields = validateMerchantFieldList(fieldList, merchant.merchantType, merchant.email !== '', exchange.clock());
  const account = await exchange.submit<MerchantAccount>({ type: 'activateMerchantAccount', userId: ctx.userId, merchantId, fiat, fieldList: fields, verifyToken: linkToken() });
  return accountResponse(ctx, account);
}

function listAccounts(ctx: MerchantContext): unknown {
  const { params } = ctx;
  const merchantId = params.int('merchantId', { min: 1 });
  const name = params.str('merchantName', { max: 64 });
  const email = params.str('email', { max: 128 });
  const fiat = params.str('fiat', { max: 16 });
  const status = params.int('status', { min: 1, max: 3 });
  const paging = params.paging();
  const { state } = ctx.exchange.core.payments;
  const accounts = [...state.merchantAccounts.values()]
    .filter((a) => {
      const m = state.merchants.get(a.merchantId);
      return (
        m !== undefined &&
        m.userId === ctx.userId &&
        (merchantId === undefined || a.merchantId === merchantId) &&
        matches(name, m.merchantName) &&
        matches(email, m.email) &&
        (fiat === undefined || a.fiat === fiat) &&
        (status === undefined || a.status === status)
      );
    })
    .sort(newestFirst((a) => a.merchantId));
  return pageOf(accounts, paging, 'data', (a) => merchantAccountView(ctx.exchange.core, a, ctx.exchange.clock()));
}

/** B13–B16 (docs/merchant-payments.md "Endpoints served"). */
export function merchantEndpoints(): MerchantEndpoint[] {
  return [
    {
      id: 'B13',
      summary: 'Create a merchant, or re-link an unverified one',
      method: 'POST',
      path: '/v2/merchants',
      auth: 'TOKEN',
      params: [
        { name: 'merchantName', type: 'STRING', description: '1-64, unique per user' },
        { name: 'email', type: 'STRING' },
        { name: 'merchantType', type: 'ENUM', values: MERCHANT_TYPES },
        { name: 'callbackUrl', type: 'STRING', required: true },
        { name: 'languageCode', type: 'ENUM', values: LANGUAGES },
        { name: 'remark', type: 'STRING' },
        { name: 'merchantId', type: 'INT', description: 're-link form' },
      ],
      ...ANSWERS.B13,
      handler: createOrRelink,
    },
    {
      id: 'B14',
      summary: 'List merchants',
      method: 'GET',
      path: '/v2/merchants',
      auth: 'TOKEN',
      params: [
        { name: 'merchantName', type: 'STRING' },
        { name: 'email', type: 'STRING' },
        { name: 'status', type: 'INT' },
        { name: 'currentPage', type: 'INT' },
        { name: 'pageSize', type: 'INT' },
      ],
      ...ANSWERS.B14,
      handler: listMerchants,
    },
    {
      id: 'B15',
      summary: 'Activate a merchant account (per fiat)',
      method: 'POST',
      path: '/v2/merchant/accounts',
      auth: 'TOKEN',
      params: [
        { name: 'merchantId', type: 'INT', required: true },
        { name: 'fiat', type: 'STRING', required: true },
        { name: 'fieldList', type: 'STRING', required: true, description: 'JSON object' },
      ],
      ...ANSWERS.B15,
      handler: activateAccount,
    },
    {
      id: 'B16',
      summary: 'List merchant accounts',
      method: 'GET',
      path: '/v2/merchant/accounts',
      auth: 'TOKEN',
      params: [
        { name: 'merchantId', type: 'INT' },
        { name: 'merchantName', type: 'STRING' },
        { name: 'email', type: 'STRING' },
        { name: 'fiat', type: 'STRING' },
        { name: 'status', type: 'INT' },
        { name: 'currentPage', type: 'INT' },
        { name: 'pageSize', type: 'INT' },
      ],
      ...ANSWERS.B16,
      handler: listAccounts,
    },
  ];
}
