/**
 * The bad-input table of area B's quotes and orders (docs/merchant-payments.md "Requests", docs/merchant-payments.md "Answers and errors", docs/merchant-payments.md "Endpoints served", docs/merchant-payments.md "Quotes and orders",
 * docs/merchant-payments.md "Order statuses", docs/merchant-payments.md "The simulator and the sandbox API", docs/merchant-payments.md "Error codes"), B22–B34 and the docs/merchant-payments.md "The simulator and the sandbox API" order actions (B35 is left to its own file): every row is one
 * malformed or refused request, answered with the status and the `{code, msg, detail, data}`
 * envelope that docs/merchant-payments.md "Error codes" gives its code, never a 500; and after the whole table the orders, quotes,
 * funding records, limit counters and the ledger are exactly as they were before the first row.
 *
 * Requests go over a raw socket (test/support/raw-http.ts) so that a row can send any bytes: broken
 * JSON, a JSON number written `1E3`, a boolean where a number is expected. Rows that refer to the
 * scene (merchant, beneficiary and order ids) build their request when they run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MerchantClient, onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { paymentsStory, type PaymentsStory, WIRE_BENEFICIARY } from '../../support/payments-story.js';
import { rawRequest, type RawAnswer, type RawHeader } from '../../support/raw-http.js';

/** docs/merchant-payments.md "Error codes": `msg` and HTTP status of every code a row expects. */
const CODES: Readonly<Record<number, readonly [msg: string, http: number]>> = {
  [-4010]: ['PARAM_IS_INVALID', 400],
  [-4011]: ['PARAM_EXCEEDS_LIMIT_LENGTH', 400],
  [-5011]: ['ORDER_AUTO_NOT_CURRENT_OPERATION', 400],
  [-5019]: ['SYMBOL_INVALID', 400],
  [-5034]: ['ORDER_END', 400],
  [-5057]: ['COUNTRY_AND_FIAT_NOT_SUPPORT', 400],
  [-5101]: ['ORDER_NOT_EXIST', 404],
  [-5104]: ['INVALID_STATE', 400],
  [-5200]: ['OTC_QUOTE_EXPIRED', 400],
};

/** What the table's requests refer to, known once beforeAll has built it. */
interface Scene {
  /** Verified BUSINESS merchant with active MXN and USD accounts. */
  merchantId: number;
  /** Its valid SPEI beneficiary. */
  beneficiaryId: number;
  /** Its valid WIRE beneficiary. */
  wireId: number;
  /** An f2c order of the merchant waiting for its pay-in (40). */
  payingId: number;
  /** An f2c order of the merchant that ended unpaid (70, -7004). */
  endedId: number;
  /** An f2c order of the demo merchant user: another user's. */
  foreignId: number;
}

interface Wire {
  method: string;
  /** Path and query, exactly as sent. */
  target: string;
  body?: string;
  contentType?: string;
}

interface Expected {
  code: number;
  /** Where docs/merchant-payments.md "Requests" says what `detail` names (the body, or the parameter). */
  detail?: RegExp;
}

interface Row {
  name: string;
  wire: (s: Scene) => Wire;
  expect: Expected;
}

const JSON_TYPE = 'application/json';
const UNKNOWN_ORDER = 99_999_999;
const UNKNOWN_QUOTE = '0123456789abcdef0123456789abcdef';

const CRYPTO_QUOTE = '/v2/user/crypto-quote';
const FIAT_QUOTE = '/v2/user/fiat-quote';
const F2C = '/v2/order/fiat_to_crypto';
const C2F = '/v2/order/crypto_to_fiat';
const F2F = '/v2/order/fiat_to_fiat';
const CONFIRM = '/v2/order/confirm';
const DETAIL = '/v2/order/detail';
const ORDERS = '/v2/orders';

const E = {
  invalid: (detail?: RegExp): Expected => ({ code: -4010, ...(detail === undefined ? {} : { detail }) }),
  code: (code: number): Expected => ({ code }),
};

// ---------------------------------------------------------------- request builders

/** A JSON body; `raw` members are written as given (`1E3`, `true`), replacing a base member of that name. */
function jsonText(base: Readonly<Record<string, unknown>>, raw: Readonly<Record<string, string>> = {}): string {
  const members = Object.entries(base)
    .filter(([name, value]) => !Object.hasOwn(raw, name) && value !== undefined)
    .map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
  for (const [name, text] of Object.entries(raw)) members.push(`${JSON.stringify(name)}:${text}`);
  return `{${members.join(',')}}`;
}

function post(target: string, body: Readonly<Record<string, unknown>>, raw?: Readonly<Record<string, string>>): Wire {
  return { method: 'POST', target, body: jsonText(body, raw), contentType: JSON_TYPE };
}

/** A GET with its query values percent-encoded. */
function get(path: string, query: Readonly<Record<string, string | number>> = {}): Wire {
  const text = Object.entries(query)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`)
    .join('&');
  return { method: 'GET', target: text === '' ? path : `${path}?${text}` };
}

// ---------------------------------------------------------------- valid requests that rows spoil

type Params = Record<string, unknown>;

/** B22 MXN → USDT with a stored quote of 1000.00 MXN. */
const cryptoQuote = (changes: Params = {}): Record<string, string | number> => clean({ country: 'Mexico', from: 'MXN', to: 'USDT', amount: '1000.00', createQuoteId: 'true', ...changes });

/** B23 MXN → USD with a stored quote of 20000.00 MXN. */
const fiatQuote = (changes: Params = {}): Record<string, string | number> =>
  clean({ onRampCountry: 'Mexico', onRampFiat: 'MXN', offRampCountry: 'United States', offRampFiat: 'USD', amount: '20000.00', createQuoteId: 'true', ...changes });

/** Drops members set to `undefined` (a row's way to omit one). */
function clean(params: Params): Record<string, string | number> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as Record<string, string | number>;
}

/** B29 that would place 1000.00 MXN by SPEI. */
function f2c(s: Scene, changes: Params = {}): Params {
  return { clientId: 'bad-f2c', country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, merchantId: s.merchantId, ...changes };
}

/** B30 that would sell 50.0000 USDT to the SPEI beneficiary (the merchant holds none: it is refused later if not before). */
function c2f(s: Scene, changes: Params = {}): Params {
  return { clientId: 'bad-c2f', country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '50.0000', userPaymentId: s.beneficiaryId, merchantId: s.merchantId, ...changes };
}

/** B31 that would send 20000.00 MXN by SPEI to the WIRE beneficiary. */
function f2f(s: Scene, changes: Params = {}): Params {
  return {
    clientId: 'bad-f2f',
    onRampCountry: 'Mexico',
    onRampFiat: 'MXN',
    onRampFiatAmount: '20000.00',
    onRampPaymentId: 58,
    offRampCountry: 'United States',
    offRampFiat: 'USD',
    offRampPaymentId: s.wireId,
    onRampMerchantId: s.merchantId,
    ...changes,
  };
}

/** B32 of the order waiting for its pay-in (answered -5011 when nothing else is wrong). */
function confirm(s: Scene, changes: Params = {}): Params {
  return { orderId: s.payingId, orderType: 'fiat_to_crypto', ...changes };
}

// ---------------------------------------------------------------- the table

/** B22 and B23 (docs/merchant-payments.md "Endpoints served", docs/merchant-payments.md "Quotes and orders"). */
const QUOTE_ROWS: Row[] = [
  { name: 'B22 has no country', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ country: undefined })), expect: E.invalid(/country/) },
  { name: 'B22 has no from', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ from: undefined })), expect: E.invalid(/from/) },
  { name: 'B22 has no to', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ to: undefined })), expect: E.invalid(/to/) },
  { name: 'B22 createQuoteId=true without amount', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ amount: undefined })), expect: E.invalid(/amount/) },
  { name: 'B22 createQuoteId is yes', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ createQuoteId: 'yes' })), expect: E.invalid(/createQuoteId/) },
  { name: 'B22 amount has an exponent (1e3)', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ amount: '1e3' })), expect: E.invalid(/amount/) },
  { name: 'B22 amount is negative', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ amount: '-1000.00' })), expect: E.invalid(/amount/) },
  { name: 'B22 amount is zero', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ amount: '0' })), expect: E.invalid(/amount/) },
  { name: 'B22 amount has 3 decimals for MXN', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ amount: '1000.001' })), expect: E.invalid(/amount/) },
  { name: 'B22 amount has 5 decimals for USDT (from USDT)', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ from: 'USDT', to: 'MXN', amount: '50.00001' })), expect: E.invalid(/amount/) },
  { name: 'B22 amount has a thousands separator', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ amount: '1,000.00' })), expect: E.invalid(/amount/) },
  { name: 'B22 names an unconfigured crypto (MXN → DOGE)', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ to: 'DOGE' })), expect: E.code(-5019) },
  { name: 'B22 names two fiats (MXN → USD)', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ to: 'USD' })), expect: E.code(-5019) },
  { name: 'B22 names two cryptos (USDT → BTC)', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ from: 'USDT', to: 'BTC', amount: '50.0000' })), expect: E.code(-5019) },
  { name: 'B22 names a pair not configured (USD → BTC)', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ country: 'United States', from: 'USD', to: 'BTC' })), expect: E.code(-5019) },
  { name: 'B22 country is United States for MXN', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ country: 'United States' })), expect: E.code(-5057) },
  { name: 'B22 country is Mexico for USD (USDT → USD)', wire: () => get(CRYPTO_QUOTE, cryptoQuote({ from: 'USDT', to: 'USD', amount: '50.0000' })), expect: E.code(-5057) },
  { name: 'B23 has no offRampFiat', wire: () => get(FIAT_QUOTE, fiatQuote({ offRampFiat: undefined })), expect: E.invalid(/offRampFiat/) },
  { name: 'B23 has no onRampCountry', wire: () => get(FIAT_QUOTE, fiatQuote({ onRampCountry: undefined })), expect: E.invalid(/onRampCountry/) },
  { name: 'B23 createQuoteId=true without amount', wire: () => get(FIAT_QUOTE, fiatQuote({ amount: undefined })), expect: E.invalid(/amount/) },
  { name: 'B23 amount has 3 decimals for MXN', wire: () => get(FIAT_QUOTE, fiatQuote({ amount: '20000.001' })), expect: E.invalid(/amount/) },
  { name: 'B23 amount has a plus sign', wire: () => get(FIAT_QUOTE, fiatQuote({ amount: '+20000.00' })), expect: E.invalid(/amount/) },
  { name: 'B23 sends MXN to MXN', wire: () => get(FIAT_QUOTE, fiatQuote({ offRampFiat: 'MXN', offRampCountry: 'Mexico' })), expect: E.code(-5019) },
  { name: 'B23 offRampFiat is GBP', wire: () => get(FIAT_QUOTE, fiatQuote({ offRampFiat: 'GBP' })), expect: E.code(-5019) },
  { name: 'B23 offRampCountry is Mexico for USD', wire: () => get(FIAT_QUOTE, fiatQuote({ offRampCountry: 'Mexico' })), expect: E.code(-5057) },
  { name: 'B23 onRampCountry is United States for MXN', wire: () => get(FIAT_QUOTE, fiatQuote({ onRampCountry: 'United States' })), expect: E.code(-5057) },
];

/** B29–B31 (docs/merchant-payments.md "Requests", docs/merchant-payments.md "Endpoints served", docs/merchant-payments.md "Order creation checks" steps 1 and 3). */
const CREATE_ROWS: Row[] = [
  { name: 'B29 body is broken JSON', wire: (s) => ({ ...post(F2C, f2c(s)), body: jsonText(f2c(s)).slice(0, -1) }), expect: E.invalid(/body/) },
  { name: 'B29 body is a JSON array', wire: (s) => ({ ...post(F2C, {}), body: `[${jsonText(f2c(s))}]` }), expect: E.invalid(/body/) },
  { name: 'B29 has no fiatAmount', wire: (s) => post(F2C, f2c(s, { fiatAmount: undefined })), expect: E.invalid(/fiatAmount/) },
  { name: 'B29 has no fiat', wire: (s) => post(F2C, f2c(s, { fiat: undefined })), expect: E.invalid(/fiat/) },
  { name: 'B29 has no crypto', wire: (s) => post(F2C, f2c(s, { crypto: undefined })), expect: E.invalid(/crypto/) },
  { name: 'B29 has no paymentId', wire: (s) => post(F2C, f2c(s, { paymentId: null })), expect: E.invalid(/paymentId/) },
  { name: 'B29 fiatAmount is blank', wire: (s) => post(F2C, f2c(s, { fiatAmount: '  ' })), expect: E.invalid(/fiatAmount/) },
  { name: 'B29 fiatAmount has an exponent (1e3)', wire: (s) => post(F2C, f2c(s, { fiatAmount: '1e3' })), expect: E.invalid(/fiatAmount/) },
  { name: 'B29 fiatAmount is a JSON number with an exponent (1E3)', wire: (s) => post(F2C, f2c(s), { fiatAmount: '1E3' }), expect: E.invalid(/fiatAmount/) },
  { name: 'B29 fiatAmount is negative', wire: (s) => post(F2C, f2c(s, { fiatAmount: '-1000.00' })), expect: E.invalid(/fiatAmount/) },
  { name: 'B29 fiatAmount is a negative JSON number', wire: (s) => post(F2C, f2c(s), { fiatAmount: '-1000' }), expect: E.invalid(/fiatAmount/) },
  { name: 'B29 fiatAmount is zero (0.00)', wire: (s) => post(F2C, f2c(s, { fiatAmount: '0.00' })), expect: E.invalid(/fiatAmount/) },
  { name: 'B29 fiatAmount has 3 decimals for MXN', wire: (s) => post(F2C, f2c(s, { fiatAmount: '1000.001' })), expect: E.invalid(/fiatAmount/) },
  { name: 'B29 fiatAmount is a JSON number with 3 decimals', wire: (s) => post(F2C, f2c(s), { fiatAmount: '1000.001' }), expect: E.invalid(/fiatAmount/) },
  { name: 'B29 fiatAmount has a thousands separator', wire: (s) => post(F2C, f2c(s, { fiatAmount: '1,000.00' })), expect: E.invalid(/fiatAmount/) },
  { name: 'B29 fiatAmount is the boolean true', wire: (s) => post(F2C, f2c(s), { fiatAmount: 'true' }), expect: E.invalid(/fiatAmount/) },
  { name: 'B29 paymentId has a fraction (58.5)', wire: (s) => post(F2C, f2c(s, { paymentId: '58.5' })), expect: E.invalid(/paymentId/) },
  { name: 'B29 paymentId is a word', wire: (s) => post(F2C, f2c(s, { paymentId: 'spei' })), expect: E.invalid(/paymentId/) },
  { name: 'B29 paymentId is the boolean true', wire: (s) => post(F2C, f2c(s), { paymentId: 'true' }), expect: E.invalid(/paymentId/) },
  { name: 'B29 merchantId is an array', wire: (s) => post(F2C, f2c(s, { merchantId: [s.merchantId] })), expect: E.invalid(/merchantId/) },
  { name: 'B29 merchantId is negative', wire: (s) => post(F2C, f2c(s, { merchantId: -1 })), expect: E.invalid(/merchantId/) },
  { name: 'B29 clientId holds a space', wire: (s) => post(F2C, f2c(s, { clientId: 'inv 0001' })), expect: E.invalid(/clientId/) },
  { name: 'B29 clientId holds a slash', wire: (s) => post(F2C, f2c(s, { clientId: 'inv/0001' })), expect: E.invalid(/clientId/) },
  { name: 'B29 remark has 257 characters', wire: (s) => post(F2C, f2c(s, { remark: 'r'.repeat(257) })), expect: E.code(-4011) },
  { name: 'B29 crypto is DOGE (no such pair)', wire: (s) => post(F2C, f2c(s, { crypto: 'DOGE' })), expect: E.code(-5019) },
  { name: 'B29 fiat is GBP (no such pair)', wire: (s) => post(F2C, f2c(s, { fiat: 'GBP' })), expect: E.code(-5019) },
  { name: 'B29 country is United States for MXN', wire: (s) => post(F2C, f2c(s, { country: 'United States' })), expect: E.code(-5057) },
  { name: 'B30 has no userPaymentId', wire: (s) => post(C2F, c2f(s, { userPaymentId: undefined })), expect: E.invalid(/userPaymentId/) },
  { name: 'B30 has no cryptoAmount', wire: (s) => post(C2F, c2f(s, { cryptoAmount: '' })), expect: E.invalid(/cryptoAmount/) },
  { name: 'B30 cryptoAmount has 5 decimals for USDT', wire: (s) => post(C2F, c2f(s, { cryptoAmount: '50.00001' })), expect: E.invalid(/cryptoAmount/) },
  { name: 'B30 cryptoAmount has 9 decimals for BTC', wire: (s) => post(C2F, c2f(s, { crypto: 'BTC', cryptoAmount: '0.000000001' })), expect: E.invalid(/cryptoAmount/) },
  { name: 'B30 cryptoAmount is zero', wire: (s) => post(C2F, c2f(s, { cryptoAmount: '0' })), expect: E.invalid(/cryptoAmount/) },
  { name: 'B30 cryptoAmount is hexadecimal', wire: (s) => post(C2F, c2f(s, { cryptoAmount: '0x32' })), expect: E.invalid(/cryptoAmount/) },
  { name: 'B30 userPaymentId is an object', wire: (s) => post(C2F, c2f(s, { userPaymentId: { id: s.beneficiaryId } })), expect: E.invalid(/userPaymentId/) },
  { name: 'B30 fiat is GBP (no such pair)', wire: (s) => post(C2F, c2f(s, { fiat: 'GBP' })), expect: E.code(-5019) },
  // An unconfigured crypto has no accuracy: the amount is sent without decimals so that the row tests the pair only.
  { name: 'B30 crypto is ETH (an area A asset, not a configured crypto)', wire: (s) => post(C2F, c2f(s, { crypto: 'ETH', cryptoAmount: '50' })), expect: E.code(-5019) },
  { name: 'B30 country is United States for MXN', wire: (s) => post(C2F, c2f(s, { country: 'United States' })), expect: E.code(-5057) },
  { name: 'B31 has no offRampPaymentId', wire: (s) => post(F2F, f2f(s, { offRampPaymentId: undefined })), expect: E.invalid(/offRampPaymentId/) },
  { name: 'B31 has no onRampCountry', wire: (s) => post(F2F, f2f(s, { onRampCountry: undefined })), expect: E.invalid(/onRampCountry/) },
  { name: 'B31 onRampFiatAmount has 3 decimals for MXN', wire: (s) => post(F2F, f2f(s, { onRampFiatAmount: '20000.001' })), expect: E.invalid(/onRampFiatAmount/) },
  { name: 'B31 onRampFiatAmount has an exponent (2e4)', wire: (s) => post(F2F, f2f(s, { onRampFiatAmount: '2e4' })), expect: E.invalid(/onRampFiatAmount/) },
  { name: 'B31 onRampFiatAmount is zero', wire: (s) => post(F2F, f2f(s, { onRampFiatAmount: '0.00' })), expect: E.invalid(/onRampFiatAmount/) },
  { name: 'B31 offRampMerchantId is a word', wire: (s) => post(F2F, f2f(s, { offRampMerchantId: 'same' })), expect: E.invalid(/offRampMerchantId/) },
  { name: 'B31 sends MXN to MXN', wire: (s) => post(F2F, f2f(s, { offRampFiat: 'MXN', offRampCountry: 'Mexico', offRampPaymentId: s.beneficiaryId })), expect: E.code(-5019) },
  { name: 'B31 offRampCountry is Mexico for USD', wire: (s) => post(F2F, f2f(s, { offRampCountry: 'Mexico' })), expect: E.code(-5057) },
];

/** B32–B34 (docs/merchant-payments.md "Answers and errors", docs/merchant-payments.md "Endpoints served", docs/merchant-payments.md "Order statuses"). */
const ORDER_ROWS: Row[] = [
  { name: 'B32 has no orderId', wire: (s) => post(CONFIRM, confirm(s, { orderId: undefined })), expect: E.invalid(/orderId/) },
  { name: 'B32 orderId has a fraction (1.5)', wire: (s) => post(CONFIRM, confirm(s, { orderId: '1.5' })), expect: E.invalid(/orderId/) },
  { name: 'B32 orderId is a word', wire: (s) => post(CONFIRM, confirm(s, { orderId: 'latest' })), expect: E.invalid(/orderId/) },
  { name: 'B32 orderId is negative', wire: (s) => post(CONFIRM, confirm(s, { orderId: -s.payingId })), expect: E.invalid(/orderId/) },
  { name: 'B32 has no orderType', wire: (s) => post(CONFIRM, confirm(s, { orderType: undefined })), expect: E.invalid(/orderType/) },
  { name: 'B32 orderType is BUY (the webhook name, not the kind)', wire: (s) => post(CONFIRM, confirm(s, { orderType: 'BUY' })), expect: E.invalid(/orderType/) },
  { name: 'B32 orderType is in upper case', wire: (s) => post(CONFIRM, confirm(s, { orderType: 'FIAT_TO_CRYPTO' })), expect: E.invalid(/orderType/) },
  { name: 'B32 direction is inbound', wire: (s) => post(CONFIRM, confirm(s, { direction: 'inbound' })), expect: E.invalid(/direction/) },
  { name: 'B32 orderType is crypto_to_fiat for an f2c order', wire: (s) => post(CONFIRM, confirm(s, { orderType: 'crypto_to_fiat' })), expect: E.code(-5101) },
  { name: "B32 names another user's order", wire: (s) => post(CONFIRM, confirm(s, { orderId: s.foreignId })), expect: E.code(-5101) },
  { name: 'B32 names an unknown order', wire: (s) => post(CONFIRM, confirm(s, { orderId: UNKNOWN_ORDER })), expect: E.code(-5101) },
  { name: 'B32 confirms an f2c order waiting for its pay-in (40)', wire: (s) => post(CONFIRM, confirm(s)), expect: E.code(-5011) },
  { name: 'B32 confirms an ended order (70)', wire: (s) => post(CONFIRM, confirm(s, { orderId: s.endedId })), expect: E.code(-5034) },
  { name: 'B33 has no orderId', wire: () => get(DETAIL), expect: E.invalid(/orderId/) },
  { name: 'B33 orderId has a fraction (1.5)', wire: () => get(DETAIL, { orderId: '1.5' }), expect: E.invalid(/orderId/) },
  { name: 'B33 orderId is a word', wire: () => get(DETAIL, { orderId: 'abc' }), expect: E.invalid(/orderId/) },
  { name: 'B33 orderId has an exponent (1e7)', wire: () => get(DETAIL, { orderId: '1e7' }), expect: E.invalid(/orderId/) },
  { name: 'B33 orderType is SELL', wire: (s) => get(DETAIL, { orderId: s.payingId, orderType: 'SELL' }), expect: E.invalid(/orderType/) },
  { name: 'B33 orderType is fiat_to_fiat for an f2c order', wire: (s) => get(DETAIL, { orderId: s.payingId, orderType: 'fiat_to_fiat' }), expect: E.code(-5101) },
  { name: "B33 names another user's order", wire: (s) => get(DETAIL, { orderId: s.foreignId }), expect: E.code(-5101) },
  { name: 'B33 names an unknown order', wire: () => get(DETAIL, { orderId: UNKNOWN_ORDER }), expect: E.code(-5101) },
  { name: 'B34 pageSize is 0', wire: () => get(ORDERS, { pageSize: 0 }), expect: E.invalid(/pageSize/) },
  { name: 'B34 pageSize is -5', wire: () => get(ORDERS, { pageSize: -5 }), expect: E.invalid(/pageSize/) },
  { name: 'B34 pageSize is a word', wire: () => get(ORDERS, { pageSize: 'all' }), expect: E.invalid(/pageSize/) },
  { name: 'B34 currentPage is 0', wire: () => get(ORDERS, { currentPage: 0 }), expect: E.invalid(/currentPage/) },
  { name: 'B34 currentPage is 1.5', wire: () => get(ORDERS, { currentPage: '1.5' }), expect: E.invalid(/currentPage/) },
  { name: 'B34 startTime is after endTime', wire: () => get(ORDERS, { startTime: 2000, endTime: 1000 }), expect: E.invalid(/startTime|endTime/) },
  { name: 'B34 endTime is a word', wire: () => get(ORDERS, { endTime: 'now' }), expect: E.invalid(/endTime/) },
  { name: 'B34 orderType is BUY', wire: () => get(ORDERS, { orderType: 'BUY' }), expect: E.invalid(/orderType/) },
  { name: 'B34 orderStatus is a word', wire: () => get(ORDERS, { orderStatus: 'paid' }), expect: E.invalid(/orderStatus/) },
  { name: 'B34 merchantId is a word', wire: () => get(ORDERS, { merchantId: 'acme' }), expect: E.invalid(/merchantId/) },
];

/** docs/merchant-payments.md "The simulator and the sandbox API" order actions: bad values, and actions a status does not allow (-5104; quotes -5200). */
const SANDBOX_ROWS: Row[] = [
  { name: 'a sandbox review decision is approved (not a listed decision)', wire: (s) => post(`/sandbox/v2/orders/${s.payingId}/review`, { decision: 'approved' }), expect: E.invalid(/decision/) },
  { name: 'a sandbox review has no decision', wire: (s) => post(`/sandbox/v2/orders/${s.payingId}/review`, {}), expect: E.invalid(/decision/) },
  { name: 'a sandbox payout result is ok (not success or fail)', wire: (s) => post(`/sandbox/v2/orders/${s.payingId}/payout`, { result: 'ok' }), expect: E.invalid(/result/) },
  { name: 'a sandbox payout has no result', wire: (s) => post(`/sandbox/v2/orders/${s.payingId}/payout`, {}), expect: E.invalid(/result/) },
  { name: 'a sandbox payout failCode is -7002', wire: (s) => post(`/sandbox/v2/orders/${s.payingId}/payout`, { result: 'fail', failCode: -7002 }), expect: E.invalid(/failCode/) },
  { name: 'a sandbox pay amount has 3 decimals for MXN', wire: (s) => post(`/sandbox/v2/orders/${s.payingId}/pay`, { amount: '1000.001' }), expect: E.invalid(/amount/) },
  { name: 'a sandbox place-on-behalf f2c has no fiatAmount', wire: (s) => post('/sandbox/v2/orders/fiat_to_crypto', f2c(s, { fiatAmount: undefined })), expect: E.invalid(/fiatAmount/) },
  { name: 'a sandbox place-on-behalf c2f cryptoAmount has 5 decimals', wire: (s) => post('/sandbox/v2/orders/crypto_to_fiat', c2f(s, { cryptoAmount: '1.00001' })), expect: E.invalid(/cryptoAmount/) },
  { name: 'a sandbox place-on-behalf f2f sends MXN to MXN', wire: (s) => post('/sandbox/v2/orders/fiat_to_fiat', f2f(s, { offRampFiat: 'MXN', offRampCountry: 'Mexico' })), expect: E.code(-5019) },
  { name: 'a sandbox review of an order waiting for its pay-in (40)', wire: (s) => post(`/sandbox/v2/orders/${s.payingId}/review`, { decision: 'approve' }), expect: E.code(-5104) },
  { name: 'a sandbox review of an ended order (70)', wire: (s) => post(`/sandbox/v2/orders/${s.endedId}/review`, { decision: 'reject' }), expect: E.code(-5104) },
  { name: 'a sandbox payout of an f2c order (no payout in flight)', wire: (s) => post(`/sandbox/v2/orders/${s.payingId}/payout`, { result: 'success' }), expect: E.code(-5104) },
  { name: 'a sandbox release of an f2c order (no release hold)', wire: (s) => post(`/sandbox/v2/orders/${s.payingId}/release`, {}), expect: E.code(-5104) },
  { name: 'a sandbox expire of an ended order (no waiting timer)', wire: (s) => post(`/sandbox/v2/orders/${s.endedId}/expire`, {}), expect: E.code(-5104) },
  { name: "a sandbox review of another user's order", wire: (s) => post(`/sandbox/v2/orders/${s.foreignId}/review`, { decision: 'approve' }), expect: E.code(-5101) },
  { name: "a sandbox expire of another user's order", wire: (s) => post(`/sandbox/v2/orders/${s.foreignId}/expire`, {}), expect: E.code(-5101) },
  { name: 'a sandbox payout of an unknown order', wire: () => post(`/sandbox/v2/orders/${UNKNOWN_ORDER}/payout`, { result: 'success' }), expect: E.code(-5101) },
  { name: 'a sandbox expire of an unknown quote', wire: () => post(`/sandbox/v2/quotes/${UNKNOWN_QUOTE}/expire`, {}), expect: E.code(-5200) },
];

const ROWS: Row[] = [...QUOTE_ROWS, ...CREATE_ROWS, ...ORDER_ROWS, ...SANDBOX_ROWS];

// ---------------------------------------------------------------- running rows

async function sendRow(baseUrl: string, token: string, wire: Wire): Promise<RawAnswer> {
  const headers: RawHeader[] = [['X-BH-TOKEN', token]];
  if (wire.contentType !== undefined) headers.push(['Content-Type', wire.contentType]);
  return rawRequest(baseUrl, { method: wire.method, target: wire.target, headers, body: wire.body });
}

function expectEnvelope(answer: RawAnswer, expected: Expected): void {
  const entry = CODES[expected.code];
  if (entry === undefined) throw new Error(`no docs/merchant-payments.md "Error codes" entry for ${expected.code}`);
  const [msg, http] = entry;
  expect(answer.status).not.toBe(500);
  expect({ status: answer.status, contentType: answer.headers['content-type']?.[0], body: answer.body }).toEqual({
    status: http,
    contentType: expect.stringMatching(/^application\/json/) as unknown,
    body: { code: expected.code, msg, detail: expected.detail === undefined ? (expect.any(String) as unknown) : (expect.stringMatching(expected.detail) as unknown), data: null },
  });
}

interface StateSnapshot {
  nextOrderId: number;
  quotes: number;
  orders: unknown;
  details: unknown;
  foreign: unknown;
  records: unknown;
  ledger: unknown;
  limits: unknown;
  verify: unknown;
}

/** Free and locked of every asset of the desk, FEE and the merchant's M, as the core holds them. */
function ledgerBalances(s: PaymentsStory, merchantId: number): unknown {
  const core = s.t.server.exchange.core;
  const merchant = core.payments.state.merchants.get(merchantId);
  const accounts = [core.payments.state.deskAccountId, core.ledger.feeAccountId, merchant?.accountId ?? -1];
  return accounts.map((accountId) => [...core.ledger.account(accountId).balances.entries()].map(([asset, b]) => [asset, String(b.free), String(b.locked)]).sort());
}

async function snapshot(s: PaymentsStory, scene: Scene, demo: MerchantClient): Promise<StateSnapshot> {
  const all = { pageSize: 1000 };
  const core = s.t.server.exchange.core;
  const merchants = await s.client.ok<{ data: Record<string, unknown>[] }>('GET', '/v2/merchants', all);
  const accounts = await s.client.ok<{ data: Record<string, unknown>[] }>('GET', '/v2/merchant/accounts', all);
  const verify = await s.op.ok<{ ok: boolean }>('GET', '/verify');
  return {
    nextOrderId: core.payments.state.nextOrderId,
    quotes: core.payments.state.quotes.size,
    orders: await s.client.ok('GET', ORDERS, all),
    details: [await s.client.ok('GET', DETAIL, { orderId: scene.payingId }), await s.client.ok('GET', DETAIL, { orderId: scene.endedId })],
    foreign: await demo.ok('GET', DETAIL, { orderId: scene.foreignId }),
    records: await s.client.ok('GET', '/v2/merchant/funding/records', all),
    ledger: ledgerBalances(s, scene.merchantId),
    limits: [
      (await s.client.ok<{ monthUsed: string }>('GET', '/v2/user/account')).monthUsed,
      merchants.data.map((m) => [m.merchantId, m.dayFiatUsed, m.monthFiatUsed, m.monthCryptoUsed]),
      accounts.data.map((a) => [a.merchantId, a.fiat, a.balance, a.buyAmountUsed, a.sellAmountUsed]),
    ],
    verify: verify.ok,
  };
}

describe('bad input of quotes and orders (area B B22–B34, the sandbox API order actions)', () => {
  let s: PaymentsStory;
  let demo: MerchantClient;
  let scene: Scene;
  let before: StateSnapshot;

  beforeAll(async () => {
    s = await paymentsStory();
    await exampleBooks(s.op);
    const client = s.client;
    const merchantId = await onboardedMerchant(client, 'Acme MX', ['MXN', 'USD']);
    const beneficiaryId = (await client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldJson: SPEI_BENEFICIARY })).id;
    const wireId = (
      await client.ok<{ id: number }>('POST', '/v2/payments', {
        merchantId,
        paymentId: 83,
        country: 'United States',
        fiat: 'USD',
        fieldJson: { ...WIRE_BENEFICIARY, 'Account Number': '123456789' },
      })
    ).id;
    const order = { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, merchantId };
    const payingId = (await client.ok<{ orderId: number }>('POST', F2C, { ...order, clientId: 'paying' })).orderId;
    const endedId = (await client.ok<{ orderId: number }>('POST', F2C, { ...order, clientId: 'ended' })).orderId;
    await client.ok('POST', `/sandbox/v2/orders/${endedId}/expire`);
    demo = await MerchantClient.connect(s.t.url, s.t.demo.merchantApiKey, s.t.demo.merchantSecretKey);
    const foreignId = (await demo.ok<{ orderId: number }>('POST', F2C, { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58 })).orderId;
    scene = { merchantId, beneficiaryId, wireId, payingId, endedId, foreignId };
    before = await snapshot(s, scene, demo);
  });
  afterAll(async () => s.t.stop());

  it('when the scene is set, then one order waits for its pay-in, one ended unpaid, and the demo user has one of its own', () => {
    const orders = (before.orders as { record: { orderId: string; orderStatus: number; failCode: number }[] }).record.map((o) => [o.orderId, o.orderStatus, o.failCode]);
    expect(orders).toEqual([
      [String(scene.endedId), 70, -7004],
      [String(scene.payingId), 40, 0],
    ]);
    expect(before.foreign).toMatchObject({ orderId: String(scene.foreignId), orderStatus: 40 });
    expect(before.quotes).toBe(0);
    expect(before.verify).toBe(true);
  });

  it(`when the table is counted, then it has at least 40 rows (${ROWS.length})`, () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(ROWS.map((row) => row.name)).size).toBe(ROWS.length);
  });

  for (const row of ROWS) {
    const { code } = row.expect;
    it(`when ${row.name}, then ${CODES[code]?.[1] ?? '?'} ${code}`, async () => {
      const answer = await sendRow(s.t.url, s.client.token, row.wire(scene));
      expectEnvelope(answer, row.expect);
    });
  }

  it('when every row has been refused, then no order or quote was made, the orders, records, limits and ledger are unchanged and verify is ok', async () => {
    expect(await snapshot(s, scene, demo)).toEqual(before);
    await s.verified();
  });
});
