import { refuse } from '../../core/payment-errors.js';
import { cryptoSpec, fiatSpec } from '../../payments/config.js';
import type { Beneficiary, Merchant, MerchantAccount, SandboxModes } from '../../payments/model.js';
import { formatFixed, unitsOf } from '../../payments/money.js';
import type { FundingRecordRow } from '../../payments/rows.js';
import type { Command } from '../../core/types.js';
import type { ParamDoc } from '../endpoint.js';
import { ORDER_KINDS } from '../../payments/orders.js';
import { pathId } from '../merchant/beneficiaries.js';
import { CREATE_PARAMS, createOrder, orderDetailOf } from '../merchant/orders.js';
import type { MerchantContext, MerchantEndpoint } from '../merchant/merchant-endpoint.js';
import { callerMerchant } from '../merchant/merchants.js';
import { ANSWERS, type Answer } from '../merchant/schemas.js';
import { beneficiaryView, fundingView, merchantAccountView, merchantView, monthUsed } from '../merchant/views.js';

const DECISIONS = ['approve', 'reject'] as const;

/**
 * A docs/merchant-payments.md "The simulator and the sandbox API" route that names no object acts for one user: the token's, or for an operator call the
 * `userId` of the query (required there). The handler then sees the operator as that user, not as
 * user 0, which the core reads as "any object" and which a create would make the owner.
 */
function forUser(handler: MerchantEndpoint['handler']): MerchantEndpoint['handler'] {
  return (ctx) => {
    if (!ctx.admin) return handler(ctx);
    const userId = ctx.params.int('userId', { required: true, min: 1 });
    if (ctx.exchange.core.ledger.users.get(userId)?.userType !== 'merchant') refuse('NOT_API_USER', `User ${userId} is not a merchant user`);
    return handler({ ...ctx, userId });
  };
}

function merchantIdOf(ctx: MerchantContext): number {
  return pathId(ctx, 'merchantId', () => refuse('MC_NOT_EXIST', `Merchant ${ctx.path.merchantId ?? ''} does not exist`));
}

function reason(ctx: MerchantContext, name: string): { [key: string]: string } {
  const text = ctx.params.str(name, { max: 256 });
  return text === undefined ? {} : { [name]: text };
}

function modes(ctx: MerchantContext): SandboxModes {
  return ctx.exchange.core.payments.modesOf(ctx.userId);
}

function setModes(ctx: MerchantContext): Promise<unknown> {
  const names: (keyof SandboxModes)[] = ['kyc', 'accountReview', 'beneficiaryReview', 'orderReview', 'payout', 'payoutFailCode', 'deposit'];
  const changes: Record<string, unknown> = {};
  for (const name of names) {
    if (!ctx.params.has(name)) continue;
    changes[name] = name === 'payoutFailCode' ? ctx.params.int(name, { min: -7001, max: -7000 }) : ctx.params.str(name, { max: 16 });
  }
  return ctx.exchange.submit({ type: 'setSandboxModes', userId: ctx.userId, modes: changes });
}

async function kyc(ctx: MerchantContext): Promise<unknown> {
  const merchantId = merchantIdOf(ctx);
  const action = ctx.params.enumOf('action', ['submit', 'approve', 'reject'] as const, { required: true });
  callerMerchant(ctx, merchantId);
  const merchant = await ctx.exchange.submit<Merchant>({ type: 'merchantKyc', userId: ctx.userId, merchantId, action, ...reason(ctx, 'rejectReason') });
  return merchantView(ctx.exchange.core, merchant, ctx.exchange.clock());
}

async function accountReview(ctx: MerchantContext): Promise<unknown> {
  const merchantId = merchantIdOf(ctx);
  const fiat = ctx.path.fiat ?? '';
  const action = ctx.params.enumOf('action', ['verify', 'approve', 'reject'] as const, { required: true });
  callerMerchant(ctx, merchantId);
  const account = await ctx.exchange.submit<MerchantAccount>({ type: 'reviewMerchantAccount', userId: ctx.userId, merchantId, fiat, action, ...reason(ctx, 'failReason') });
  return merchantAccountView(ctx.exchange.core, account, ctx.exchange.clock());
}

async function beneficiaryReview(ctx: MerchantContext): Promise<unknown> {
  const userPaymentId = pathId(ctx, 'userPaymentId', () => refuse('PAYMENT_NOT_EXIST', `Beneficiary ${ctx.path.userPaymentId ?? ''} does not exist`));
  const action = ctx.params.enumOf('action', DECISIONS, { required: true });
  const beneficiary = await ctx.exchange.submit<Beneficiary>({ type: 'reviewBeneficiary', userId: ctx.userId, userPaymentId, action, ...reason(ctx, 'failReason') });
  return beneficiaryView(ctx.exchange.core, beneficiary);
}

/** The bank's side of an arrival (docs/merchant-payments.md "The simulator and the sandbox API" `/deposits`, `/orders/{id}/pay`): trace number and payer, all optional. */
function arrivalFields(ctx: MerchantContext): { traceNumber: string; payerName: string; payerAccount: string; cardNo: string; taxId: string; description: string } {
  const text = (name: string, max: number): string => ctx.params.str(name, { max }) ?? '';
  return {
    traceNumber: text('traceNumber', 64),
    payerName: text('payerName', 128),
    payerAccount: text('payerAccount', 64),
    cardNo: text('cardNo', 32),
    taxId: text('taxId', 32),
    description: text('description', 256),
  };
}

function arrival(ctx: MerchantContext): Promise<unknown> {
  const { params } = ctx;
  const merchantId = params.int('merchantId', { required: true, min: 1 });
  const fiat = params.str('fiat', { required: true, max: 16 });
  const amount = params.dec('amount', fiatSpec(ctx.exchange.core.payments.config, fiat)?.accuracy ?? 2, { required: true });
  return ctx.exchange.submit({
    type: 'bankArrival',
    userId: ctx.userId,
    merchantId,
    fiat,
    amount,
    reference: ctx.params.str('reference', { max: 64 }) ?? '',
    ...arrivalFields(ctx),
  });
}

/** An area A deposit into the merchant's M (docs/merchant-payments.md "The simulator and the sandbox API" `crypto-deposits`), so area A sees it too. */
async function cryptoDeposit(ctx: MerchantContext): Promise<unknown> {
  const { params } = ctx;
  const merchantId = params.int('merchantId', { required: true, min: 1 });
  const crypto = params.str('crypto', { required: true, max: 16 });
  const spec = cryptoSpec(ctx.exchange.core.payments.config, crypto);
  if (spec === undefined) refuse('TOKEN_NOT_SUPPORT', `Token ${crypto} is not supported`);
  const amount = params.dec('amount', spec.accuracy, { required: true });
  const merchant = callerMerchant(ctx, merchantId);
  await ctx.exchange.submit({ type: 'deposit', accountId: merchant.accountId, asset: crypto, amount, txId: `sandbox-${merchantId}-${ctx.exchange.clock()}` });
  return { merchantId, crypto, amount: formatFixed(unitsOf(amount, spec.accuracy) ?? 0n, spec.accuracy) };
}

function settle(action: 'complete' | 'cancel'): (ctx: MerchantContext) => Promise<unknown> {
  return async (ctx) => {
    const txId = pathId(ctx, 'txId', () => refuse('INVALID_STATE', `Funding record ${ctx.path.txId ?? ''} is not pending`));
    await ctx.exchange.submit({ type: 'settleFunding', userId: ctx.userId, txId, action, ...(action === 'cancel' ? reason(ctx, 'failReason') : {}) });
    const row: FundingRecordRow | undefined = await ctx.exchange.history.getFundingRecord(txId);
    return row === undefined ? null : fundingView(row);
  };
}

async function merchantLimits(ctx: MerchantContext): Promise<unknown> {
  const merchantId = merchantIdOf(ctx);
  const { params } = ctx;
  const limit = (name: string): { [key: string]: string } => {
    const value = params.dec(name, 2, { allowZero: true });
    return value === undefined ? {} : { [name]: value };
  };
  const accounts = params.obj('accounts');
  const perAccount: Record<string, { buyAmountLimit?: string; sellAmountLimit?: string }> = {};
  for (const [fiat, value] of Object.entries(accounts ?? {})) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) refuse('PARAM_IS_INVALID', `accounts.${fiat} must be an object`);
    const entry: { buyAmountLimit?: string; sellAmountLimit?: string } = {};
    for (const [name, limitValue] of Object.entries(value as Record<string, unknown>)) {
      if ((name !== 'buyAmountLimit' && name !== 'sellAmountLimit') || typeof limitValue !== 'string') refuse('PARAM_IS_INVALID', `accounts.${fiat}.${name} is invalid`);
      entry[name] = limitValue;
    }
    perAccount[fiat] = entry;
  }
  callerMerchant(ctx, merchantId);
  const merchant = await ctx.exchange.submit<Merchant>({
    type: 'setMerchantLimits',
    userId: ctx.userId,
    merchantId,
    ...limit('dayFiatLimit'),
    ...limit('monthFiatLimit'),
    ...limit('monthCryptoLimit'),
    ...(accounts === undefined ? {} : { accounts: perAccount }),
  });
  return merchantView(ctx.exchange.core, merchant, ctx.exchange.clock());
}

async function userLimit(ctx: MerchantContext): Promise<unknown> {
  const { userId } = ctx;
  const monthLimit = ctx.params.dec('monthLimit', 2, { required: true, allowZero: true });
  await ctx.exchange.submit({ type: 'setUserLimit', userId, monthLimit });
  const core = ctx.exchange.core;
  return {
    userId,
    country: core.payments.config.defaultCountry,
    companyName: core.ledger.users.get(userId)?.email ?? '',
    kycPassed: true,
    monthLimit: core.payments.state.userLimits.get(userId) ?? monthLimit,
    monthUsed: monthUsed(ctx.exchange.core, userId, ctx.exchange.clock()),
  };
}

function orderIdOf(ctx: MerchantContext): number {
  return pathId(ctx, 'orderId', () => refuse('ORDER_NOT_EXIST', `Order ${ctx.path.orderId ?? ''} does not exist`));
}

/**
 * A docs/merchant-payments.md "The simulator and the sandbox API" action on an order: a refusal for a status that does not allow it is -5104 (a stale automatic
 * decision is dropped instead, but a docs/merchant-payments.md "The simulator and the sandbox API" call carries no `due`); the answer is the B33 object after it.
 */
function orderAction(command: (ctx: MerchantContext, orderId: number) => Command): (ctx: MerchantContext) => Promise<unknown> {
  return async (ctx) => {
    const orderId = orderIdOf(ctx);
    const built = command(ctx, orderId);
    await ctx.exchange.submit(built);
    return orderDetailOf(ctx, orderId, undefined);
  };
}

/** docs/merchant-payments.md "The simulator and the sandbox API" `/orders/{id}/pay`: an arrival with `reference` = the order, by default exactly the amount due. */
async function payOrder(ctx: MerchantContext): Promise<unknown> {
  const orderId = orderIdOf(ctx);
  const order = ctx.exchange.core.payments.state.orders.get(orderId);
  if (order === undefined || (ctx.userId !== 0 && order.userId !== ctx.userId)) refuse('ORDER_NOT_EXIST', `Order ${orderId} does not exist`);
  const due = order.onRamp?.amount ?? order.fiatAmount;
  const fiat = order.onRamp?.fiat ?? order.fiat;
  const amount = ctx.params.dec('amount', due.accuracy) ?? formatFixed(due.units, due.accuracy);
  return ctx.exchange.submit({
    type: 'bankArrival',
    userId: ctx.userId,
    merchantId: order.onRamp?.merchantId ?? order.merchantId,
    fiat,
    amount,
    reference: String(orderId),
    ...arrivalFields(ctx),
  });
}

async function setPrice(ctx: MerchantContext): Promise<unknown> {
  const from = ctx.params.str('from', { required: true, max: 16 });
  const to = ctx.params.str('to', { required: true, max: 16 });
  const price = ctx.params.dec('price', 18, { required: true });
  return ctx.exchange.submit({ type: 'setPriceOverride', userId: ctx.userId, from, to, price });
}

const sandbox = (id: keyof typeof ANSWERS, summary: string, method: MerchantEndpoint['method'], path: string, handler: MerchantEndpoint['handler']): MerchantEndpoint => {
  const answer: Answer = ANSWERS[id];
  return { id, summary, method, path: `/sandbox/v2${path}`, auth: 'SANDBOX', params: [], ...answer, handler };
};

const USER_ID_PARAM: ParamDoc = { name: 'userId', type: 'INT', description: 'with the operator token (required then): the user the call acts for' };

/** A route that names no object: `forUser`, and `userId` among its parameters. */
const sandboxForUser = (id: keyof typeof ANSWERS, summary: string, method: MerchantEndpoint['method'], path: string, handler: MerchantEndpoint['handler'], params: readonly ParamDoc[] = []): MerchantEndpoint => ({
  ...sandbox(id, summary, method, path, forUser(handler)),
  params: [...params, USER_ID_PARAM],
});

/** docs/merchant-payments.md "The simulator and the sandbox API" place-on-behalf ids, by kind. */
const PLACE_IDS = ['S12', 'S13', 'S14'] as const;

/** docs/merchant-payments.md "The simulator and the sandbox API" control API, the part for merchants, accounts, beneficiaries and funds. */
export function sandboxEndpoints(): MerchantEndpoint[] {
  return [
    sandboxForUser('S1', 'Simulator modes', 'GET', '/modes', modes),
    sandboxForUser('S2', 'Change simulator modes', 'PUT', '/modes', setModes),
    sandbox('S3', 'Merchant KYC action', 'POST', '/merchants/:merchantId/kyc', kyc),
    sandbox('S4', 'Merchant account review', 'POST', '/merchant/accounts/:merchantId/:fiat/review', accountReview),
    sandbox('S5', 'Beneficiary review', 'POST', '/payments/:userPaymentId/review', beneficiaryReview),
    sandbox('S6', 'Bank arrival', 'POST', '/deposits', arrival),
    sandbox('S7', "Crypto deposit into a merchant's account", 'POST', '/crypto-deposits', cryptoDeposit),
    sandbox('S8', 'Complete a pending funding record', 'POST', '/funding/:txId/complete', settle('complete')),
    sandbox('S9', 'Cancel a pending funding record', 'POST', '/funding/:txId/cancel', settle('cancel')),
    sandbox('S10', 'Merchant limits', 'PUT', '/merchants/:merchantId/limits', merchantLimits),
    sandboxForUser('S11', 'User monthly limit', 'PUT', '/user/limit', userLimit),
    ...ORDER_KINDS.map((kind, i) => sandboxForUser(PLACE_IDS[i] ?? 'S12', `Place a ${kind} order for the user (status 30)`, 'POST', `/orders/${kind}`, createOrder(kind, true), CREATE_PARAMS[kind])),
    sandbox('S15', 'Review decision on an order (10 or 12)', 'POST', '/orders/:orderId/review', orderAction((ctx, orderId) => ({ type: 'reviewOrder', userId: ctx.userId, orderId, decision: ctx.params.enumOf('decision', ['approve', 'rfi', 'documents', 'reject'] as const, { required: true }) }))),
    sandbox('S16', "The bank pays an order's pay-in", 'POST', '/orders/:orderId/pay', payOrder),
    sandbox('S17', 'Payout outcome of an order (c2f 40, f2f 51)', 'POST', '/orders/:orderId/payout', orderAction((ctx, orderId) => {
      const failCode = ctx.params.int('failCode', { min: -7001, max: -7000 });
      return { type: 'orderPayout', userId: ctx.userId, orderId, result: ctx.params.enumOf('result', ['success', 'fail'] as const, { required: true }), ...(failCode === undefined ? {} : { failCode }) };
    })),
    sandbox('S18', "Fire an order's waiting timer now", 'POST', '/orders/:orderId/expire', orderAction((ctx, orderId) => ({ type: 'expireOrder', userId: ctx.userId, orderId }))),
    sandbox('S19', 'Release an off-ramp held in 50', 'POST', '/orders/:orderId/release', orderAction((ctx, orderId) => ({ type: 'releaseOrder', userId: ctx.userId, orderId }))),
    sandbox('S20', 'Expire a quote', 'POST', '/quotes/:quoteId/expire', (ctx) => ctx.exchange.submit({ type: 'expireQuote', userId: ctx.userId, quoteId: ctx.path.quoteId ?? '' })),
    sandboxForUser('S21', 'Fix a price for the user', 'PUT', '/prices', setPrice),
    sandboxForUser('S22', "Remove the user's fixed price", 'DELETE', '/prices', (ctx) =>
      ctx.exchange.submit({ type: 'setPriceOverride', userId: ctx.userId, from: ctx.params.str('from', { required: true, max: 16 }), to: ctx.params.str('to', { required: true, max: 16 }) }),
    ),
  ];
}
