import { randomBytes } from 'node:crypto';
import type { OrderKindName, OrderRequest } from '../../core/payment-commands.js';
import { refuse } from '../../core/payment-errors.js';
import { cryptoSpec, fiatSpec, refuseCountryMismatch } from '../../payments/config.js';
import { formatFixed, unitsOf } from '../../payments/money.js';
import { ORDER_KINDS, type Money, type Quote } from '../../payments/orders.js';
import { inverseQuote, INVERSE_QUOTE_ACCURACY } from '../../payments/pricing.js';
import { CLIENT_ID_PATTERN } from '../../payments/validation/formats.js';
import { clientPrice } from '../../exchange/payments/order-pricing.js';
import type { ParamDoc } from '../endpoint.js';
import type { MerchantContext, MerchantEndpoint } from './merchant-endpoint.js';
import { ANSWERS } from './schemas.js';

/** Accuracy to read an amount in a currency; an unknown one is refused later, with its own code. */
function accuracyOf(ctx: MerchantContext, currency: string): number {
  const config = ctx.exchange.core.payments.config;
  return fiatSpec(config, currency)?.accuracy ?? cryptoSpec(config, currency)?.accuracy ?? 2;
}

function clientIdOf(ctx: MerchantContext): string {
  const clientId = ctx.params.str('clientId', { max: 64 });
  if (clientId !== undefined && !CLIENT_ID_PATTERN.test(clientId)) refuse('PARAM_IS_INVALID', 'clientId must be 1-64 of A-Za-z0-9_-.:');
  return clientId ?? '';
}

/** The request of B29–B31 (and docs/merchant-payments.md "The simulator and the sandbox API" place-on-behalf) from the parameters: syntax only, the core checks the rest. */
export function orderRequest(ctx: MerchantContext, kind: OrderKindName): OrderRequest {
  const { params } = ctx;
  if (kind === 'fiat_to_fiat') {
    const onRampFiat = params.str('onRampFiat', { required: true, max: 16 });
    const onRampMerchantId = params.int('onRampMerchantId', { min: 1 });
    const offRampMerchantId = params.int('offRampMerchantId', { min: 1 });
    return {
      kind,
      onRampCountry: params.str('onRampCountry', { required: true, max: 64 }),
      onRampFiat,
      onRampFiatAmount: params.dec('onRampFiatAmount', accuracyOf(ctx, onRampFiat), { required: true }),
      onRampPaymentId: params.int('onRampPaymentId', { required: true }),
      offRampCountry: params.str('offRampCountry', { required: true, max: 64 }),
      offRampFiat: params.str('offRampFiat', { required: true, max: 16 }),
      offRampPaymentId: params.int('offRampPaymentId', { required: true }),
      ...(onRampMerchantId === undefined ? {} : { onRampMerchantId }),
      ...(offRampMerchantId === undefined ? {} : { offRampMerchantId }),
    };
  }
  const country = params.str('country', { required: true, max: 64 });
  const crypto = params.str('crypto', { required: true, max: 16 });
  const fiat = params.str('fiat', { required: true, max: 16 });
  const merchantId = params.int('merchantId', { min: 1 });
  const base = { country, crypto, fiat, ...(merchantId === undefined ? {} : { merchantId }) };
  if (kind === 'fiat_to_crypto') {
    return { kind, ...base, fiatAmount: params.dec('fiatAmount', accuracyOf(ctx, fiat), { required: true }), paymentId: params.int('paymentId', { required: true }) };
  }
  return { kind, ...base, cryptoAmount: params.dec('cryptoAmount', accuracyOf(ctx, crypto), { required: true }), userPaymentId: params.int('userPaymentId', { required: true }) };
}

/** Creates an order of `kind` for the caller: B29–B31, or docs/merchant-payments.md "The simulator and the sandbox API" place-on-behalf (`onBehalf`, status 30). */
export function createOrder(kind: OrderKindName, onBehalf: boolean): (ctx: MerchantContext) => Promise<unknown> {
  return async (ctx) => {
    const order = orderRequest(ctx, kind);
    const clientId = clientIdOf(ctx);
    const remark = ctx.params.str('remark', { max: 256 }) ?? '';
    const quoteId = ctx.params.str('quoteId', { max: 64 }) ?? '';
    return ctx.exchange.submit({ type: 'createPaymentOrder', userId: ctx.userId, onBehalf, clientId, remark, quoteId, order });
  };
}

const quoteView = (price: string, quote: Quote | undefined): Record<string, string> => ({
  price,
  quoteId: quote?.quoteId ?? '',
  expireTime: quote === undefined ? '' : String(quote.expireTime),
});

/** `createQuoteId` needs `amount` (docs/merchant-payments.md "Endpoints served"): a locked price is honest only for the depth it was computed on. */
function quoteAmount(ctx: MerchantContext, from: string): { amount: string | undefined; create: boolean } {
  const amount = ctx.params.dec('amount', accuracyOf(ctx, from));
  const create = ctx.params.bool('createQuoteId') ?? false;
  if (create && amount === undefined) refuse('PARAM_IS_INVALID', 'amount is required with createQuoteId');
  return { amount, create };
}

function moneyOf(text: string | undefined, accuracy: number): Money | undefined {
  const units = text === undefined ? undefined : unitsOf(text, accuracy);
  return units === undefined ? undefined : { units, accuracy };
}

const QUOTE_ID_BYTES = 16;
/** Quote ids drawn from the CSPRNG per this many: one call for 256 quotes rather than one each. */
const QUOTE_IDS_PER_DRAW = 256;
let quoteIdBytes = Buffer.alloc(0);
let quoteIdOffset = 0;

/** A fresh quote id: 16 random bytes as 32 hex digits. */
function newQuoteId(): string {
  if (quoteIdOffset === quoteIdBytes.length) {
    quoteIdBytes = randomBytes(QUOTE_ID_BYTES * QUOTE_IDS_PER_DRAW);
    quoteIdOffset = 0;
  }
  const id = quoteIdBytes.toString('hex', quoteIdOffset, quoteIdOffset + QUOTE_ID_BYTES);
  quoteIdOffset += QUOTE_ID_BYTES;
  return id;
}

/** B22: crypto ↔ fiat. `price` is units of `to` per one `from`: a fiat → crypto quote shows the inverse of the buy price. */
async function cryptoQuote(ctx: MerchantContext): Promise<unknown> {
  const { params } = ctx;
  const country = params.str('country', { required: true, max: 64 });
  const from = params.str('from', { required: true, max: 16 });
  const to = params.str('to', { required: true, max: 16 });
  const config = ctx.exchange.core.payments.config;
  const sell = cryptoSpec(config, from) !== undefined && fiatSpec(config, to) !== undefined;
  const buy = fiatSpec(config, from) !== undefined && cryptoSpec(config, to) !== undefined;
  if (!sell && !buy) refuse('SYMBOL_INVALID', `${from} → ${to} is not a crypto/fiat pair`);
  const fiat = sell ? to : from;
  const crypto = sell ? from : to;
  if (!config.pairs.some((p) => p.fiat === fiat && p.crypto === crypto)) refuse('SYMBOL_INVALID', `${crypto}/${fiat} is not a configured pair`);
  refuseCountryMismatch(config, fiat, country);
  const { amount, create } = quoteAmount(ctx, from);
  const kind: OrderKindName = sell ? 'crypto_to_fiat' : 'fiat_to_crypto';
  let price: Money | undefined;
  let quote: Quote | undefined;
  if (create && amount !== undefined) {
    quote = await ctx.exchange.submit<Quote>({ type: 'createQuote', userId: ctx.userId, quoteId: newQuoteId(), kind, from, to, amount });
    price = quote.price;
  } else {
    const core = ctx.exchange.core;
    price = clientPrice(core.payments.state, core.spot, { userId: ctx.userId, kind, fiat, crypto, toFiat: '', size: moneyOf(amount, accuracyOf(ctx, from)) });
  }
  if (price === undefined) refuse('RATE_INVALID', `No price for ${from} → ${to} now`);
  const shown = sell ? formatFixed(price.units, price.accuracy) : formatFixed(inverseQuote(price.units, price.accuracy), INVERSE_QUOTE_ACCURACY);
  return quoteView(shown, quote);
}

/** B23: fiat → fiat through USDT (docs/merchant-payments.md "Quotes and orders"). */
async function fiatQuote(ctx: MerchantContext): Promise<unknown> {
  const { params } = ctx;
  const onRampCountry = params.str('onRampCountry', { required: true, max: 64 });
  const onRampFiat = params.str('onRampFiat', { required: true, max: 16 });
  const offRampCountry = params.str('offRampCountry', { required: true, max: 64 });
  const offRampFiat = params.str('offRampFiat', { required: true, max: 16 });
  const config = ctx.exchange.core.payments.config;
  if (onRampFiat === offRampFiat || !config.fiatPairs.some((p) => p.onRampFiat === onRampFiat && p.offRampFiat === offRampFiat)) refuse('SYMBOL_INVALID', `${onRampFiat} → ${offRampFiat} is not a configured pair`);
  refuseCountryMismatch(config, onRampFiat, onRampCountry);
  refuseCountryMismatch(config, offRampFiat, offRampCountry);
  const { amount, create } = quoteAmount(ctx, onRampFiat);
  let price: Money | undefined;
  let quote: Quote | undefined;
  if (create && amount !== undefined) {
    quote = await ctx.exchange.submit<Quote>({ type: 'createQuote', userId: ctx.userId, quoteId: newQuoteId(), kind: 'fiat_to_fiat', from: onRampFiat, to: offRampFiat, amount });
    price = quote.price;
  } else {
    const core = ctx.exchange.core;
    price = clientPrice(core.payments.state, core.spot, { userId: ctx.userId, kind: 'fiat_to_fiat', fiat: onRampFiat, crypto: '', toFiat: offRampFiat, size: moneyOf(amount, accuracyOf(ctx, onRampFiat)) });
  }
  if (price === undefined) refuse('RATE_INVALID', `No rate for ${onRampFiat} → ${offRampFiat} now`);
  return quoteView(formatFixed(price.units, price.accuracy), quote);
}

function orderIdParam(ctx: MerchantContext): number {
  return ctx.params.int('orderId', { required: true, min: 1 });
}

function kindParam(ctx: MerchantContext, required: boolean): OrderKindName | undefined {
  return required ? ctx.params.enumOf('orderType', ORDER_KINDS, { required: true }) : ctx.params.enumOf('orderType', ORDER_KINDS);
}

async function confirm(ctx: MerchantContext): Promise<unknown> {
  const orderId = orderIdParam(ctx);
  const kind = kindParam(ctx, true) as OrderKindName;
  const direction = ctx.params.enumOf('direction', ['on_ramp', 'off_ramp'] as const);
  return ctx.exchange.submit({ type: 'confirmOrder', userId: ctx.userId, orderId, kind, ...(direction === undefined ? {} : { direction }) });
}

/** B33: the order's object as its last committed state wrote it. */
export async function orderDetailOf(ctx: MerchantContext, orderId: number, kind: OrderKindName | undefined): Promise<Record<string, unknown>> {
  const userId = ctx.userId === 0 ? (ctx.exchange.core.payments.state.orders.get(orderId)?.userId ?? -1) : ctx.userId;
  const detail = await ctx.exchange.history.getPaymentOrder(userId, orderId);
  if (detail === undefined || (kind !== undefined && detail.orderType !== kind)) refuse('ORDER_NOT_EXIST', `Order ${orderId} does not exist`);
  return detail;
}

function detail(ctx: MerchantContext): Promise<unknown> {
  return orderDetailOf(ctx, orderIdParam(ctx), kindParam(ctx, false));
}

const LIST_HIDDEN = new Set(['paymentInfo', 'onRampPaymentInfo', 'offRampPaymentInfo', 'traceNumber']);

async function list(ctx: MerchantContext): Promise<unknown> {
  const { params } = ctx;
  const paging = params.paging();
  const { startTime, endTime } = params.timeRange();
  const kind = kindParam(ctx, false);
  const status = params.int('orderStatus');
  const clientId = params.str('clientId', { max: 64 });
  const merchantId = params.int('merchantId', { min: 1 });
  const { total, rows } = await ctx.exchange.history.listPaymentOrders({ userId: ctx.userId, kind, status, clientId, merchantId, startTime, endTime, offset: (paging.currentPage - 1) * paging.pageSize, limit: paging.pageSize });
  return { currentPage: paging.currentPage, size: paging.pageSize, total, record: rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !LIST_HIDDEN.has(key)))) };
}

const F2C_PARAMS: readonly ParamDoc[] = [
  { name: 'country', type: 'STRING', required: true },
  { name: 'crypto', type: 'STRING', required: true },
  { name: 'fiat', type: 'STRING', required: true },
  { name: 'fiatAmount', type: 'DECIMAL', required: true },
  { name: 'paymentId', type: 'INT', required: true, description: "the fiat's rail, or 70 to pay from the pending fund" },
  { name: 'merchantId', type: 'INT' },
];
const C2F_PARAMS: readonly ParamDoc[] = [
  { name: 'country', type: 'STRING', required: true },
  { name: 'crypto', type: 'STRING', required: true },
  { name: 'fiat', type: 'STRING', required: true },
  { name: 'cryptoAmount', type: 'DECIMAL', required: true },
  { name: 'userPaymentId', type: 'INT', required: true, description: 'a valid beneficiary in the fiat, or 70 to credit the pending fund' },
  { name: 'merchantId', type: 'INT' },
];
const F2F_PARAMS: readonly ParamDoc[] = [
  { name: 'onRampCountry', type: 'STRING', required: true },
  { name: 'onRampFiat', type: 'STRING', required: true },
  { name: 'onRampFiatAmount', type: 'DECIMAL', required: true },
  { name: 'onRampPaymentId', type: 'INT', required: true },
  { name: 'offRampCountry', type: 'STRING', required: true },
  { name: 'offRampFiat', type: 'STRING', required: true },
  { name: 'offRampPaymentId', type: 'INT', required: true, description: 'a valid beneficiary of the off-ramp merchant' },
  { name: 'onRampMerchantId', type: 'INT' },
  { name: 'offRampMerchantId', type: 'INT' },
];
const COMMON_CREATE: readonly ParamDoc[] = [
  { name: 'clientId', type: 'STRING', description: 'your order id, unique per user across kinds' },
  { name: 'remark', type: 'STRING' },
  { name: 'quoteId', type: 'STRING', description: 'a quote of B22/B23 with createQuoteId' },
];

/** The parameters of each kind's create, for B29–B31 and docs/merchant-payments.md "The simulator and the sandbox API" place-on-behalf. */
export const CREATE_PARAMS: Readonly<Record<OrderKindName, readonly ParamDoc[]>> = {
  fiat_to_crypto: [...F2C_PARAMS, ...COMMON_CREATE],
  crypto_to_fiat: [...C2F_PARAMS, ...COMMON_CREATE],
  fiat_to_fiat: [...F2F_PARAMS, ...COMMON_CREATE],
};

/** B22, B23, B29–B34 (docs/merchant-payments.md "Endpoints served"). */
export function orderEndpoints(): MerchantEndpoint[] {
  const quoteParams: ParamDoc[] = [
    { name: 'amount', type: 'DECIMAL', description: 'in `from` units' },
    { name: 'createQuoteId', type: 'ENUM', values: ['true', 'false'], description: 'store a single-use quote (needs amount)' },
  ];
  return [
    {
      id: 'B22',
      summary: 'Crypto/fiat quote',
      method: 'GET',
      path: '/v2/user/crypto-quote',
      auth: 'TOKEN',
      bucket: 'quote',
      params: [{ name: 'country', type: 'STRING', required: true }, { name: 'from', type: 'STRING', required: true }, { name: 'to', type: 'STRING', required: true }, ...quoteParams],
      ...ANSWERS.B22,
      handler: cryptoQuote,
    },
    {
      id: 'B23',
      summary: 'Fiat/fiat quote',
      method: 'GET',
      path: '/v2/user/fiat-quote',
      auth: 'TOKEN',
      bucket: 'quote',
      params: [
        { name: 'onRampCountry', type: 'STRING', required: true },
        { name: 'onRampFiat', type: 'STRING', required: true },
        { name: 'offRampCountry', type: 'STRING', required: true },
        { name: 'offRampFiat', type: 'STRING', required: true },
        ...quoteParams,
      ],
      ...ANSWERS.B23,
      handler: fiatQuote,
    },
    { id: 'B29', summary: 'Create an on-ramp order (fiat → crypto)', method: 'POST', path: '/v2/order/fiat_to_crypto', auth: 'TOKEN', params: CREATE_PARAMS.fiat_to_crypto, ...ANSWERS.B29, handler: createOrder('fiat_to_crypto', false) },
    { id: 'B30', summary: 'Create an off-ramp order (crypto → fiat)', method: 'POST', path: '/v2/order/crypto_to_fiat', auth: 'TOKEN', params: CREATE_PARAMS.crypto_to_fiat, ...ANSWERS.B30, handler: createOrder('crypto_to_fiat', false) },
    { id: 'B31', summary: 'Create a global payment (fiat → fiat)', method: 'POST', path: '/v2/order/fiat_to_fiat', auth: 'TOKEN', params: CREATE_PARAMS.fiat_to_fiat, ...ANSWERS.B31, handler: createOrder('fiat_to_fiat', false) },
    {
      id: 'B32',
      summary: 'Confirm an order',
      method: 'POST',
      path: '/v2/order/confirm',
      auth: 'TOKEN',
      params: [
        { name: 'orderId', type: 'INT', required: true },
        { name: 'orderType', type: 'ENUM', required: true, values: ORDER_KINDS },
        { name: 'direction', type: 'ENUM', values: ['on_ramp', 'off_ramp'], description: 'required for fiat_to_fiat' },
      ],
      ...ANSWERS.B32,
      handler: confirm,
    },
    {
      id: 'B33',
      summary: 'One order',
      method: 'GET',
      path: '/v2/order/detail',
      auth: 'TOKEN',
      params: [
        { name: 'orderId', type: 'INT', required: true },
        { name: 'orderType', type: 'ENUM', values: ORDER_KINDS },
      ],
      ...ANSWERS.B33,
      handler: detail,
    },
    {
      id: 'B34',
      summary: 'List orders',
      method: 'GET',
      path: '/v2/orders',
      auth: 'TOKEN',
      params: [
        { name: 'orderType', type: 'ENUM', values: ORDER_KINDS },
        { name: 'orderStatus', type: 'INT' },
        { name: 'clientId', type: 'STRING' },
        { name: 'merchantId', type: 'INT' },
        { name: 'startTime', type: 'LONG' },
        { name: 'endTime', type: 'LONG' },
        { name: 'currentPage', type: 'INT' },
        { name: 'pageSize', type: 'INT' },
      ],
      ...ANSWERS.B34,
      handler: list,
    },
  ];
}
