/**
 * The creation checks of docs/merchant-payments.md "Order creation checks", in their order, for each order kind where they apply (B29
 * fiat_to_crypto, B30 crypto_to_fiat, B31 fiat_to_fiat): every row of the table is a request that
 * passes every check before its own and fails exactly that one, answered with the status and code
 * of docs/merchant-payments.md "Error codes". A second table breaks two checks at once and expects the earlier one ("first failure
 * wins"). After both tables nothing was created or reserved: no order id was used, B34 and B21 list
 * what they listed before, the desk's and the merchants' ledger balances (free and locked) and the
 * limit counters are unchanged, verify holds, and the clientIds of refused rows are still free: a
 * valid create of each kind with one of them succeeds afterwards.
 *
 * Conditions that docs/merchant-payments.md "Order creation checks" checks late (a closed side, a halted book, a fixed price, limits, the open
 * orders cap) are set by the row just before its request and undone right after it, so that every
 * row starts from the same scene. The desk of the demo holds far more than one order may reach
 * (docs/operating.md "Merchant payments settings" maxima), so desk inventory (-5031) is checked on a server of its own, started without the
 * demo, whose desk holds little.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WIRE_BENEFICIARY } from '../../support/payments-story.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoCredentials } from '../../../src/demo/demo-data.js';
import { startServer } from '../../../src/main.js';
import { Operator } from '../../support/fixtures.js';
import { MerchantClient, merchantUser, onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/** docs/merchant-payments.md "Error codes": `msg` and HTTP status of every code a row expects. */
const CODES: Readonly<Record<number, readonly [msg: string, http: number]>> = {
  [-1174]: ['REPEATED_SUBMIT_REQUEST', 409],
  [-4010]: ['PARAM_IS_INVALID', 400],
  [-4011]: ['PARAM_EXCEEDS_LIMIT_LENGTH', 400],
  [-4027]: ['PAYMENT_NOT_EXIST', 404],
  [-5006]: ['MC_NOT_EXIST', 404],
  [-5017]: ['PAYMENT_INVALID', 400],
  [-5019]: ['SYMBOL_INVALID', 400],
  [-5020]: ['SYMBOL_BUY_CLOSED', 400],
  [-5021]: ['SYMBOL_SELL_CLOSED', 400],
  [-5026]: ['PEND_ORDER_NUM_LIMIT', 400],
  [-5027]: ['RATE_INVALID', 400],
  [-5029]: ['ORDER_UID_EXCEED_LIMIT', 400],
  [-5030]: ['ORDER_MC_EXCEED_LIMIT', 400],
  [-5031]: ['TRADE_TEMP_NOT_PROCEED', 400],
  [-5043]: ['NEED_PASS_KYC_OR_KYB', 400],
  [-5047]: ['SYMBOL_AND_PAYMENT_NOT_MATCH', 400],
  [-5050]: ['ORDER_MIN_AMOUNT', 400],
  [-5051]: ['PAYMENT_FIAT_AND_ORDER_NOT_MATCH', 400],
  [-5057]: ['COUNTRY_AND_FIAT_NOT_SUPPORT', 400],
  [-5060]: ['ORDER_MAX_AMOUNT', 400],
  [-5070]: ['MC_NOT_OPEN_ACCOUNT', 400],
  [-5100]: ['INSUFFICIENT_BALANCE', 400],
  [-5200]: ['OTC_QUOTE_EXPIRED', 400],
};

type Kind = 'f2c' | 'c2f' | 'f2f';

const CREATE: Readonly<Record<Kind, string>> = {
  f2c: '/v2/order/fiat_to_crypto',
  c2f: '/v2/order/crypto_to_fiat',
  f2f: '/v2/order/fiat_to_fiat',
};

const UNKNOWN_ID = 999_999;
const UNKNOWN_QUOTE = '0123456789abcdef0123456789abcdef';
const SEED_CLIENT_ID = 'seed-f2c-0001';
/** docs/operating.md "Merchant payments settings" defaults that rows change and restore. */
const DEFAULT_MONTH_LIMIT = '250000.00';
const DEFAULT_MERCHANT_LIMITS = { dayFiatLimit: '25000.00', monthFiatLimit: '100000.00', monthCryptoLimit: '15000.00' };
const DEFAULT_MAX_OPEN_ORDERS = 50;


// ---------------------------------------------------------------- scenes

/** What every valid body refers to. */
interface Base {
  /** "Acme MX": verified, active MXN and USD accounts, the scene's merchant of every valid body. */
  a: number;
  /** A's valid SPEI (MXN) beneficiary. */
  speiA: number;
  /** A's valid WIRE (USD) beneficiary. */
  wireA: number;
}

/** The main scene (demo server with the example books of docs/merchant-payments.md "Quotes and orders"). */
interface Scene extends Base {
  /** "Other MX": verified, an active MXN account only. */
  b: number;
  /** A merchant of the user left in status 4. */
  pending: number;
  /** The demo user's "Demo Merchant": verified, another user's. */
  foreignMerchant: number;
  /** B's valid SPEI beneficiary. */
  speiB: number;
  /** A's SPEI beneficiary under review (2), and one rejected (3). */
  reviewingSpeiA: number;
  rejectedSpeiA: number;
  /** A's WIRE beneficiary under review (2). */
  reviewingWireA: number;
  /** The demo merchant's beneficiary. */
  foreignBeneficiary: number;
  /** The open f2c order (40) made before the table, with `SEED_CLIENT_ID` and a quote (now USED). */
  seedOrderId: number;
  usedQuoteId: string;
}

interface World<S extends Base> {
  t: TestServer;
  op: Operator;
  client: MerchantClient;
  /** A second merchant-type user with no merchant. */
  stranger: MerchantClient;
  scene: S;
  /** The catalogue's `pairs` as the server had them, to restore. */
  pairs: unknown[];
}

// ---------------------------------------------------------------- valid bodies that rows spoil

type Body = Record<string, unknown>;

/** B29 for 1000.00 MXN by SPEI: 51.8586 USDT on the book of docs/merchant-payments.md "Quotes and orders". Valid in the main scene. */
function f2c(s: Base, changes: Body = {}): Body {
  return { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, merchantId: s.a, ...changes };
}

/** B29 for 100.00 USD by WIRE. */
function f2cUsd(s: Base, changes: Body = {}): Body {
  return f2c(s, { country: 'United States', fiat: 'USD', fiatAmount: '100.00', paymentId: 83, ...changes });
}

/** B30 of 50.0000 USDT to the SPEI beneficiary: G 952.71 MXN. Valid in the main scene. */
function c2f(s: Base, changes: Body = {}): Body {
  return { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '50.0000', userPaymentId: s.speiA, merchantId: s.a, ...changes };
}

/** B30 of 50.0000 USDT to the WIRE beneficiary. */
function c2fUsd(s: Base, changes: Body = {}): Body {
  return c2f(s, { country: 'United States', fiat: 'USD', userPaymentId: s.wireA, ...changes });
}

/** B31 of 20000.00 MXN by SPEI to the WIRE beneficiary: 1037.08 USD. Valid in the main scene. */
function f2f(s: Base, changes: Body = {}): Body {
  return {
    onRampCountry: 'Mexico',
    onRampFiat: 'MXN',
    onRampFiatAmount: '20000.00',
    onRampPaymentId: 58,
    offRampCountry: 'United States',
    offRampFiat: 'USD',
    offRampPaymentId: s.wireA,
    onRampMerchantId: s.a,
    ...changes,
  };
}

// ---------------------------------------------------------------- conditions a row sets and undoes

interface Given {
  quoteId?: string;
  undo?: () => Promise<void>;
}

type Arrange<S extends Base> = (w: World<S>) => Promise<Given>;

function all<S extends Base>(...arranges: Arrange<S>[]): Arrange<S> {
  return async (w) => {
    const givens: Given[] = [];
    for (const arrange of arranges) givens.push(await arrange(w));
    return {
      quoteId: givens.find((g) => g.quoteId !== undefined)?.quoteId,
      async undo() {
        for (const given of givens.reverse()) await given.undo?.();
      },
    };
  };
}

/** docs/merchant-payments.md "The simulator and the sandbox API" PUT /user/limit. */
function userLimit<S extends Base>(monthLimit: string): Arrange<S> {
  return async (w) => {
    await w.client.ok('PUT', '/sandbox/v2/user/limit', { monthLimit });
    return { undo: async () => void (await w.client.ok('PUT', '/sandbox/v2/user/limit', { monthLimit: DEFAULT_MONTH_LIMIT })) };
  };
}

/** docs/merchant-payments.md "The simulator and the sandbox API" PUT /merchants/{A}/limits; undone to the defaults (accounts: no cap). */
function merchantLimits<S extends Base>(limits: Body): Arrange<S> {
  return async (w) => {
    await w.client.ok('PUT', `/sandbox/v2/merchants/${w.scene.a}/limits`, limits);
    const noCap = { buyAmountLimit: '0.00', sellAmountLimit: '0.00' };
    return { undo: async () => void (await w.client.ok('PUT', `/sandbox/v2/merchants/${w.scene.a}/limits`, { ...DEFAULT_MERCHANT_LIMITS, accounts: { MXN: noCap, USD: noCap } })) };
  };
}

/** No cap on the user or on A, so that a row reaches the checks after docs/merchant-payments.md "Order creation checks" step 10. */
function noLimits<S extends Base>(): Arrange<S> {
  return all(userLimit('0'), merchantLimits({ dayFiatLimit: '0', monthFiatLimit: '0', monthCryptoLimit: '0' }));
}

/** PATCH /admin/v1/payments/config `maxOpenOrdersPerMerchant` (A has one open order). */
function maxOpenOrders<S extends Base>(n: number): Arrange<S> {
  return async (w) => {
    await w.op.ok('PATCH', '/payments/config', { maxOpenOrdersPerMerchant: n });
    return { undo: async () => void (await w.op.ok('PATCH', '/payments/config', { maxOpenOrdersPerMerchant: DEFAULT_MAX_OPEN_ORDERS })) };
  };
}

/** MXN/USDT with one side closed in the catalogue's `pairs`. */
function closed<S extends Base>(side: 'buy' | 'sell'): Arrange<S> {
  return async (w) => {
    const pairs = w.pairs.map((p) => {
      const pair = p as { fiat: string; crypto: string };
      return pair.fiat === 'MXN' && pair.crypto === 'USDT' ? { ...pair, [side]: false } : pair;
    });
    await w.op.ok('PATCH', '/payments/config', { pairs });
    return { undo: async () => void (await w.op.ok('PATCH', '/payments/config', { pairs: w.pairs })) };
  };
}

/** An area A symbol halted (its book kept), then trading again. */
function halted<S extends Base>(symbol: string): Arrange<S> {
  return async (w) => {
    await w.op.ok('PATCH', `/symbols/${symbol}`, { status: 'HALT' });
    return { undo: async () => void (await w.op.ok('PATCH', `/symbols/${symbol}`, { status: 'TRADING' })) };
  };
}

/** docs/merchant-payments.md "The simulator and the sandbox API" PUT /prices for the user, removed afterwards. */
function fixedPrice<S extends Base>(from: string, to: string, price: string): Arrange<S> {
  return async (w) => {
    await w.client.ok('PUT', '/sandbox/v2/prices', { from, to, price });
    return { undo: async () => void (await w.client.ok('DELETE', '/sandbox/v2/prices', { from, to })) };
  };
}

interface QuoteOptions {
  /** Expire it through docs/merchant-payments.md "The simulator and the sandbox API" before the row uses it. */
  expired?: boolean;
  /** The stranger's quote. */
  foreign?: boolean;
  /** docs/merchant-payments.md "Quotes and orders": a -4010 leaves the quote ACTIVE; the undo proves it, as docs/merchant-payments.md "The simulator and the sandbox API" expires only an ACTIVE quote. */
  staysActive?: boolean;
}

/** A quote of B22 (`crypto`) or B23 (`fiat`) with `createQuoteId=true`. */
function quoted<S extends Base>(endpoint: 'crypto' | 'fiat', params: Body, options: QuoteOptions = {}): Arrange<S> {
  return async (w) => {
    const client = options.foreign === true ? w.stranger : w.client;
    const quote = await client.ok<{ quoteId: string }>('GET', `/v2/user/${endpoint}-quote`, { ...params, createQuoteId: true });
    expect(quote.quoteId).toMatch(/^[0-9a-f]{32}$/);
    const expire = (): Promise<unknown> => client.ok('POST', `/sandbox/v2/quotes/${quote.quoteId}/expire`);
    if (options.expired === true) await expire();
    if (options.staysActive === true) return { quoteId: quote.quoteId, undo: async () => void (await expire()) };
    return { quoteId: quote.quoteId, undo: options.foreign === true ? async () => void (await expire()) : undefined };
  };
}

const MXN_USDT_QUOTE = { country: 'Mexico', from: 'MXN', to: 'USDT' };
const USDT_MXN_QUOTE = { country: 'Mexico', from: 'USDT', to: 'MXN' };
const MXN_USD_QUOTE = { onRampCountry: 'Mexico', onRampFiat: 'MXN', offRampCountry: 'United States', offRampFiat: 'USD' };

// ---------------------------------------------------------------- the tables

interface Row<S extends Base> {
  /** docs/merchant-payments.md "Order creation checks" step of the check the row fails (for a two-check row, the earlier). */
  step: number;
  kind: Kind;
  name: string;
  body: (s: S, given: Given) => Body;
  given?: Arrange<S>;
  /** The stranger sends it. */
  stranger?: boolean;
  /** A fixed clientId (default: one of the row's own, never used before). */
  clientId?: string;
  expect: number;
  /** Where the spec states what `detail` says. */
  detail?: RegExp;
}

/** One row per check of docs/merchant-payments.md "Order creation checks", in order, for each kind where it applies. */
const CHECK_ROWS: Row<Scene>[] = [
  // 1. Syntax, required fields, decimals.
  { step: 1, kind: 'f2c', name: 'fiatAmount is missing', body: (s) => f2c(s, { fiatAmount: undefined }), expect: -4010, detail: /fiatAmount/ },
  { step: 1, kind: 'f2c', name: 'remark has 257 characters', body: (s) => f2c(s, { remark: 'r'.repeat(257) }), expect: -4011 },
  { step: 1, kind: 'c2f', name: 'cryptoAmount has 5 decimals (USDT has 4)', body: (s) => c2f(s, { cryptoAmount: '50.00001' }), expect: -4010, detail: /cryptoAmount/ },
  { step: 1, kind: 'f2f', name: 'onRampFiatAmount is negative', body: (s) => f2f(s, { onRampFiatAmount: '-20000.00' }), expect: -4010, detail: /onRampFiatAmount/ },
  // 2. clientId already used by this user for an order (across kinds).
  { step: 2, kind: 'f2c', name: "clientId is the seed order's", clientId: SEED_CLIENT_ID, body: (s) => f2c(s), expect: -1174 },
  { step: 2, kind: 'c2f', name: "clientId is the seed f2c order's (unique across kinds)", clientId: SEED_CLIENT_ID, body: (s) => c2f(s), expect: -1174 },
  { step: 2, kind: 'f2f', name: "clientId is the seed f2c order's (unique across kinds)", clientId: SEED_CLIENT_ID, body: (s) => f2f(s), expect: -1174 },
  // 3. Pair known, side open; country matches fiat; crypto. (-5058 has no row: the catalogue refuses a pair
  // whose crypto is not configured, so an unconfigured crypto is always an unknown pair, -5019.)
  { step: 3, kind: 'f2c', name: 'crypto is DOGE (no such pair)', body: (s) => f2c(s, { crypto: 'DOGE' }), expect: -5019 },
  { step: 3, kind: 'c2f', name: 'fiat is GBP (no such pair)', body: (s) => c2f(s, { fiat: 'GBP' }), expect: -5019 },
  { step: 3, kind: 'f2f', name: 'on-ramp and off-ramp fiat are both MXN', body: (s) => f2f(s, { offRampFiat: 'MXN', offRampCountry: 'Mexico', offRampPaymentId: s.speiA }), expect: -5019 },
  { step: 3, kind: 'f2f', name: 'offRampFiat is GBP (no such pair)', body: (s) => f2f(s, { offRampFiat: 'GBP' }), expect: -5019 },
  { step: 3, kind: 'f2c', name: 'the MXN/USDT buy side is closed', given: closed('buy'), body: (s) => f2c(s), expect: -5020 },
  { step: 3, kind: 'c2f', name: 'the MXN/USDT sell side is closed', given: closed('sell'), body: (s) => c2f(s), expect: -5021 },
  { step: 3, kind: 'f2c', name: 'country is United States for MXN', body: (s) => f2c(s, { country: 'United States' }), expect: -5057 },
  { step: 3, kind: 'c2f', name: 'country is United States for MXN', body: (s) => c2f(s, { country: 'United States' }), expect: -5057 },
  { step: 3, kind: 'f2f', name: 'onRampCountry is United States for MXN', body: (s) => f2f(s, { onRampCountry: 'United States' }), expect: -5057 },
  { step: 3, kind: 'f2f', name: 'offRampCountry is Mexico for USD', body: (s) => f2f(s, { offRampCountry: 'Mexico' }), expect: -5057 },
  // 4. Rail known, allowed for the kind (only f2f refuses one: 70), same fiat (c2f names no rail: its beneficiary, step 6).
  { step: 4, kind: 'f2c', name: 'paymentId 999 is no rail', body: (s) => f2c(s, { paymentId: 999 }), expect: -5017 },
  { step: 4, kind: 'f2f', name: 'onRampPaymentId 999 is no rail', body: (s) => f2f(s, { onRampPaymentId: 999 }), expect: -5017 },
  { step: 4, kind: 'f2f', name: 'onRampPaymentId is the pending fund (70)', body: (s) => f2f(s, { onRampPaymentId: 70 }), expect: -5047 },
  { step: 4, kind: 'f2f', name: 'offRampPaymentId is the pending fund (70)', body: (s) => f2f(s, { offRampPaymentId: 70 }), expect: -5047 },
  { step: 4, kind: 'f2c', name: 'paymentId is the USD rail (83) for MXN', body: (s) => f2c(s, { paymentId: 83 }), expect: -5051 },
  { step: 4, kind: 'f2f', name: 'onRampPaymentId is the EUR rail (85) for MXN', body: (s) => f2f(s, { onRampPaymentId: 85 }), expect: -5051 },
  // 5. Merchants exist and are the user's, status 2; their accounts for the fiats in status 2.
  { step: 5, kind: 'f2c', name: 'merchantId is unknown', body: (s) => f2c(s, { merchantId: UNKNOWN_ID }), expect: -5006 },
  { step: 5, kind: 'f2c', name: "merchantId is another user's", body: (s) => f2c(s, { merchantId: s.foreignMerchant }), expect: -5006 },
  { step: 5, kind: 'f2c', name: 'merchantId is omitted and the user has no verified merchant', stranger: true, body: (s) => f2c(s, { merchantId: undefined }), expect: -5006 },
  { step: 5, kind: 'c2f', name: 'merchantId is unknown', body: (s) => c2f(s, { merchantId: UNKNOWN_ID }), expect: -5006 },
  { step: 5, kind: 'f2f', name: 'onRampMerchantId is unknown', body: (s) => f2f(s, { onRampMerchantId: UNKNOWN_ID }), expect: -5006 },
  { step: 5, kind: 'f2f', name: "offRampMerchantId is another user's", body: (s) => f2f(s, { offRampMerchantId: s.foreignMerchant }), expect: -5006 },
  { step: 5, kind: 'f2c', name: 'the merchant is in status 4', body: (s) => f2c(s, { merchantId: s.pending }), expect: -5043 },
  { step: 5, kind: 'c2f', name: 'the merchant is in status 4', body: (s) => c2f(s, { merchantId: s.pending }), expect: -5043 },
  { step: 5, kind: 'f2f', name: 'the on-ramp merchant is in status 4', body: (s) => f2f(s, { onRampMerchantId: s.pending }), expect: -5043 },
  { step: 5, kind: 'f2f', name: 'the off-ramp merchant is in status 4', body: (s) => f2f(s, { offRampMerchantId: s.pending }), expect: -5043 },
  { step: 5, kind: 'f2c', name: 'the merchant has no USD account', body: (s) => f2cUsd(s, { merchantId: s.b }), expect: -5070 },
  { step: 5, kind: 'c2f', name: 'the merchant has no USD account', body: (s) => c2fUsd(s, { merchantId: s.b }), expect: -5070 },
  {
    step: 5,
    kind: 'f2f',
    name: 'the on-ramp merchant has no USD account',
    body: (s) => f2f(s, { onRampMerchantId: s.b, onRampCountry: 'United States', onRampFiat: 'USD', onRampFiatAmount: '1000.00', onRampPaymentId: 83, offRampMerchantId: s.a, offRampCountry: 'Mexico', offRampFiat: 'MXN', offRampPaymentId: s.speiA }),
    expect: -5070,
  },
  { step: 5, kind: 'f2f', name: 'the off-ramp merchant has no USD account', body: (s) => f2f(s, { offRampMerchantId: s.b }), expect: -5070 },
  // 6. Beneficiary of that merchant, status 1, same fiat.
  { step: 6, kind: 'c2f', name: 'userPaymentId is unknown', body: (s) => c2f(s, { userPaymentId: UNKNOWN_ID }), expect: -4027 },
  { step: 6, kind: 'c2f', name: "userPaymentId is another merchant's of the user", body: (s) => c2f(s, { userPaymentId: s.speiB }), expect: -4027 },
  { step: 6, kind: 'c2f', name: "userPaymentId is another user's", body: (s) => c2f(s, { userPaymentId: s.foreignBeneficiary }), expect: -4027 },
  { step: 6, kind: 'f2f', name: 'offRampPaymentId is unknown', body: (s) => f2f(s, { offRampPaymentId: UNKNOWN_ID }), expect: -4027 },
  { step: 6, kind: 'f2f', name: "offRampPaymentId is another merchant's of the user", body: (s) => f2f(s, { offRampPaymentId: s.speiB, offRampFiat: 'MXN', offRampCountry: 'Mexico', onRampFiat: 'USD', onRampCountry: 'United States', onRampFiatAmount: '1000.00', onRampPaymentId: 83 }), expect: -4027 },
  { step: 6, kind: 'c2f', name: 'the beneficiary is under review (2)', body: (s) => c2f(s, { userPaymentId: s.reviewingSpeiA }), expect: -5017 },
  { step: 6, kind: 'c2f', name: 'the beneficiary was rejected (3)', body: (s) => c2f(s, { userPaymentId: s.rejectedSpeiA }), expect: -5017 },
  { step: 6, kind: 'f2f', name: 'the off-ramp beneficiary is under review (2)', body: (s) => f2f(s, { offRampPaymentId: s.reviewingWireA }), expect: -5017 },
  { step: 6, kind: 'c2f', name: 'the beneficiary is paid in MXN, the order in USD', body: (s) => c2fUsd(s, { userPaymentId: s.speiA }), expect: -5051 },
  { step: 6, kind: 'f2f', name: 'the off-ramp beneficiary is paid in MXN, the off-ramp fiat is USD', body: (s) => f2f(s, { offRampPaymentId: s.speiA }), expect: -5051 },
  // 7. Quote (docs/merchant-payments.md "Quotes and orders").
  { step: 7, kind: 'f2c', name: 'quoteId is unknown', body: (s) => f2c(s, { quoteId: UNKNOWN_QUOTE }), expect: -5200 },
  { step: 7, kind: 'f2c', name: 'the quote was used by the seed order', body: (s) => f2c(s, { quoteId: s.usedQuoteId }), expect: -5200 },
  { step: 7, kind: 'c2f', name: "the quote is another user's", given: quoted('crypto', { ...USDT_MXN_QUOTE, amount: '50.0000' }, { foreign: true }), body: (s, g) => c2f(s, { quoteId: g.quoteId }), expect: -5200 },
  { step: 7, kind: 'f2f', name: 'the quote has expired', given: quoted('fiat', { ...MXN_USD_QUOTE, amount: '20000.00' }, { expired: true }), body: (s, g) => f2f(s, { quoteId: g.quoteId }), expect: -5200 },
  {
    step: 7,
    kind: 'f2c',
    name: 'the quote is an active one of another kind (USDT → MXN)',
    given: quoted('crypto', { ...USDT_MXN_QUOTE, amount: '50.0000' }, { staysActive: true }),
    body: (s, g) => f2c(s, { quoteId: g.quoteId }),
    expect: -4010,
    detail: /quoteId/,
  },
  {
    step: 7,
    kind: 'f2c',
    name: 'the quote is an active one for a smaller amount (500.00)',
    given: quoted('crypto', { ...MXN_USDT_QUOTE, amount: '500.00' }, { staysActive: true }),
    body: (s, g) => f2c(s, { quoteId: g.quoteId }),
    expect: -4010,
    detail: /quoteId/,
  },
  {
    step: 7,
    kind: 'c2f',
    name: 'the quote is an active one for a smaller amount (10.0000)',
    given: quoted('crypto', { ...USDT_MXN_QUOTE, amount: '10.0000' }, { staysActive: true }),
    body: (s, g) => c2f(s, { quoteId: g.quoteId }),
    expect: -4010,
    detail: /quoteId/,
  },
  {
    step: 7,
    kind: 'f2f',
    name: 'the quote is an active one for other currencies (MXN → EUR)',
    given: quoted('fiat', { ...MXN_USD_QUOTE, offRampFiat: 'EUR', amount: '20000.00' }, { staysActive: true }),
    body: (s, g) => f2f(s, { quoteId: g.quoteId }),
    expect: -4010,
    detail: /quoteId/,
  },
  // 8. Price (docs/merchant-payments.md "Quotes and orders").
  { step: 8, kind: 'f2c', name: 'the BTCMXN book is empty', body: (s) => f2c(s, { crypto: 'BTC' }), expect: -5027 },
  { step: 8, kind: 'c2f', name: 'the BTCMXN book is empty', body: (s) => c2f(s, { crypto: 'BTC', cryptoAmount: '0.01000000' }), expect: -5027 },
  { step: 8, kind: 'f2c', name: 'USDTUSD is halted', given: halted('USDTUSD'), body: (s) => f2cUsd(s), expect: -5027 },
  { step: 8, kind: 'c2f', name: 'USDTUSD is halted', given: halted('USDTUSD'), body: (s) => c2fUsd(s), expect: -5027 },
  { step: 8, kind: 'f2f', name: 'USDTUSD (the off-ramp book) is halted', given: halted('USDTUSD'), body: (s) => f2f(s), expect: -5027 },
  { step: 8, kind: 'f2f', name: 'USDTMXN (the on-ramp book) is halted', given: halted('USDTMXN'), body: (s) => f2f(s), expect: -5027 },
  // 9. Amount within min and max (docs/operating.md "Merchant payments settings"), a receive amount > 0 (docs/merchant-payments.md "Quotes and orders").
  { step: 9, kind: 'f2c', name: 'fiatAmount is 99.99 MXN', body: (s) => f2c(s, { fiatAmount: '99.99' }), expect: -5050, detail: /min 100\.00 MXN/ },
  { step: 9, kind: 'c2f', name: 'G is 95.27 MXN (5.0000 USDT)', body: (s) => c2f(s, { cryptoAmount: '5.0000' }), expect: -5050, detail: /min 100\.00 MXN/ },
  { step: 9, kind: 'c2f', name: 'G 11.92 USD is above the minimum but below the 15.00 payout fee', body: (s) => c2fUsd(s, { cryptoAmount: '12.0000' }), expect: -5050 },
  { step: 9, kind: 'f2f', name: 'onRampFiatAmount is 99.99 MXN', body: (s) => f2f(s, { onRampFiatAmount: '99.99' }), expect: -5050, detail: /min 100\.00 MXN/ },
  { step: 9, kind: 'f2f', name: '100.00 MXN converts to 5.13 USD, below the 15.00 payout fee', body: (s) => f2f(s, { onRampFiatAmount: '100.00' }), expect: -5050 },
  {
    step: 9,
    kind: 'f2c',
    name: 'fiatAmount is 1000000.01 MXN (price fixed, no limits)',
    given: all(fixedPrice('USDT', 'MXN', '19.2639'), noLimits()),
    body: (s) => f2c(s, { fiatAmount: '1000000.01' }),
    expect: -5060,
    detail: /max 1000000\.00 MXN/,
  },
  {
    step: 9,
    kind: 'f2f',
    name: 'onRampFiatAmount is 1000000.01 MXN (rate fixed, no limits)',
    given: all(fixedPrice('MXN', 'USD', '0.051857'), noLimits()),
    body: (s) => f2f(s, { onRampFiatAmount: '1000000.01' }),
    expect: -5060,
    detail: /max 1000000\.00 MXN/,
  },
  // 10. Limits (docs/merchant-payments.md "Amount limits").
  { step: 10, kind: 'f2c', name: "the user's monthLimit is 10.00 USD", given: userLimit('10.00'), body: (s) => f2c(s), expect: -5029 },
  { step: 10, kind: 'c2f', name: "the user's monthLimit is 10.00 USD", given: userLimit('10.00'), body: (s) => c2f(s), expect: -5029 },
  { step: 10, kind: 'f2f', name: "the user's monthLimit is 10.00 USD", given: userLimit('10.00'), body: (s) => f2f(s), expect: -5029 },
  { step: 10, kind: 'f2c', name: "the merchant's dayFiatLimit is 10.00 USD", given: merchantLimits({ dayFiatLimit: '10.00' }), body: (s) => f2c(s), expect: -5030 },
  { step: 10, kind: 'f2c', name: "the MXN account's buyAmountLimit is 10.00", given: merchantLimits({ accounts: { MXN: { buyAmountLimit: '10.00' } } }), body: (s) => f2c(s), expect: -5030 },
  { step: 10, kind: 'c2f', name: "the merchant's monthCryptoLimit is 10.00 USD", given: merchantLimits({ monthCryptoLimit: '10.00' }), body: (s) => c2f(s), expect: -5030 },
  { step: 10, kind: 'c2f', name: "the MXN account's sellAmountLimit is 100.00", given: merchantLimits({ accounts: { MXN: { sellAmountLimit: '100.00' } } }), body: (s) => c2f(s), expect: -5030 },
  { step: 10, kind: 'f2f', name: "the on-ramp merchant's monthFiatLimit is 10.00 USD", given: merchantLimits({ monthFiatLimit: '10.00' }), body: (s) => f2f(s), expect: -5030 },
  { step: 10, kind: 'f2f', name: "the off-ramp USD account's sellAmountLimit is 100.00", given: merchantLimits({ accounts: { USD: { sellAmountLimit: '100.00' } } }), body: (s) => f2f(s), expect: -5030 },
  // 11. Open orders of the merchant at maxOpenOrdersPerMerchant (A has the seed order open).
  { step: 11, kind: 'f2c', name: 'maxOpenOrdersPerMerchant is 1', given: maxOpenOrders(1), body: (s) => f2c(s), expect: -5026 },
  { step: 11, kind: 'c2f', name: 'maxOpenOrdersPerMerchant is 1', given: maxOpenOrders(1), body: (s) => c2f(s), expect: -5026 },
  { step: 11, kind: 'f2f', name: 'maxOpenOrdersPerMerchant is 1 (counted on the on-ramp merchant)', given: maxOpenOrders(1), body: (s) => f2f(s), expect: -5026 },
  // 12. Merchant crypto or pending fund short (desk inventory: the lean server below).
  { step: 12, kind: 'f2c', name: 'paymentId 70 asks 1000.00 MXN of a 500.00 pending fund', body: (s) => f2c(s, { paymentId: 70 }), expect: -5100 },
  { step: 12, kind: 'c2f', name: 'cryptoAmount is 200.0000 USDT, the merchant holds 100', body: (s) => c2f(s, { cryptoAmount: '200.0000' }), expect: -5100 },
];

/** Requests that break two checks: the earlier answers. */
const FIRST_FAILURE_ROWS: Row<Scene>[] = [
  { step: 1, kind: 'f2c', name: "fiatAmount has an exponent AND clientId is the seed order's", clientId: SEED_CLIENT_ID, body: (s) => f2c(s, { fiatAmount: '1e3' }), expect: -4010 },
  { step: 2, kind: 'f2c', name: "clientId is the seed order's AND the pair is unknown", clientId: SEED_CLIENT_ID, body: (s) => f2c(s, { fiat: 'GBP' }), expect: -1174 },
  { step: 3, kind: 'f2c', name: 'the pair is unknown AND the merchant is unknown', body: (s) => f2c(s, { fiat: 'GBP', merchantId: UNKNOWN_ID }), expect: -5019 },
  { step: 3, kind: 'f2c', name: 'the buy side is closed AND the merchant is unknown', given: closed('buy'), body: (s) => f2c(s, { merchantId: UNKNOWN_ID }), expect: -5020 },
  { step: 3, kind: 'f2c', name: 'the country does not match AND the rail is unknown', body: (s) => f2c(s, { country: 'United States', paymentId: 999 }), expect: -5057 },
  { step: 4, kind: 'f2c', name: 'the rail is of another fiat AND the merchant is in status 4', body: (s) => f2c(s, { paymentId: 83, merchantId: s.pending }), expect: -5051 },
  { step: 4, kind: 'f2f', name: 'the off-ramp is the pending fund AND the on-ramp merchant is unknown', body: (s) => f2f(s, { offRampPaymentId: 70, onRampMerchantId: UNKNOWN_ID }), expect: -5047 },
  { step: 5, kind: 'c2f', name: 'the merchant is in status 4 AND the beneficiary is unknown', body: (s) => c2f(s, { merchantId: s.pending, userPaymentId: UNKNOWN_ID }), expect: -5043 },
  { step: 5, kind: 'f2f', name: 'the on-ramp merchant is unknown AND the off-ramp beneficiary is unknown', body: (s) => f2f(s, { onRampMerchantId: UNKNOWN_ID, offRampPaymentId: UNKNOWN_ID }), expect: -5006 },
  { step: 6, kind: 'c2f', name: 'the beneficiary is under review AND the quote is unknown', body: (s) => c2f(s, { userPaymentId: s.reviewingSpeiA, quoteId: UNKNOWN_QUOTE }), expect: -5017 },
  {
    step: 7,
    kind: 'f2c',
    name: 'the quote has expired AND the amount is below the minimum',
    given: quoted('crypto', { ...MXN_USDT_QUOTE, amount: '1000.00' }, { expired: true }),
    body: (s, g) => f2c(s, { quoteId: g.quoteId, fiatAmount: '99.99' }),
    expect: -5200,
  },
  { step: 7, kind: 'f2f', name: 'the quote is unknown AND the off-ramp book is halted', given: halted('USDTUSD'), body: (s) => f2f(s, { quoteId: UNKNOWN_QUOTE }), expect: -5200 },
  { step: 8, kind: 'f2c', name: 'the book is empty AND the amount is below the minimum', body: (s) => f2c(s, { crypto: 'BTC', fiatAmount: '99.99' }), expect: -5027 },
  { step: 8, kind: 'f2c', name: 'the book is too shallow for 999999.00 MXN AND the merchant limits are exceeded', body: (s) => f2c(s, { fiatAmount: '999999.00' }), expect: -5027 },
  { step: 9, kind: 'f2c', name: 'the amount is above the maximum AND the merchant dayFiatLimit is exceeded', given: fixedPrice('USDT', 'MXN', '19.2639'), body: (s) => f2c(s, { fiatAmount: '1000000.01' }), expect: -5060 },
  {
    step: 9,
    kind: 'c2f',
    name: 'G is above the maximum AND the merchant holds too little USDT',
    given: all(fixedPrice('USDT', 'MXN', '19.2639'), noLimits()),
    body: (s) => c2f(s, { cryptoAmount: '52000.0000' }),
    expect: -5060,
  },
  { step: 10, kind: 'f2c', name: 'the user limit is exceeded AND open orders are at the cap', given: all(userLimit('10.00'), maxOpenOrders(1)), body: (s) => f2c(s), expect: -5029 },
  { step: 10, kind: 'c2f', name: 'the merchant limit is exceeded AND open orders are at the cap', given: all(merchantLimits({ dayFiatLimit: '10.00' }), maxOpenOrders(1)), body: (s) => c2f(s), expect: -5030 },
  { step: 10, kind: 'f2f', name: 'the merchant limit is exceeded AND open orders are at the cap', given: all(merchantLimits({ dayFiatLimit: '10.00' }), maxOpenOrders(1)), body: (s) => f2f(s), expect: -5030 },
  { step: 11, kind: 'c2f', name: 'open orders are at the cap AND the merchant holds too little USDT', given: maxOpenOrders(1), body: (s) => c2f(s, { cryptoAmount: '200.0000' }), expect: -5026 },
  { step: 11, kind: 'f2c', name: 'open orders are at the cap AND the pending fund is short', given: maxOpenOrders(1), body: (s) => f2c(s, { paymentId: 70 }), expect: -5026 },
];

/** docs/merchant-payments.md "Order creation checks" step 12 on a desk holding 10 USDT, 500.00 MXN and 50.00 USD. */
const DESK_ROWS: Row<Base>[] = [
  { step: 12, kind: 'f2c', name: '51.8586 USDT are due from a desk holding 10', body: (s) => f2c(s), expect: -5031 },
  { step: 12, kind: 'f2c', name: 'paymentId 70 within the pending fund (200.00 of 300.00), 10.3302 USDT due from a desk holding 10', body: (s) => f2c(s, { paymentId: 70, fiatAmount: '200.00' }), expect: -5031 },
  { step: 12, kind: 'c2f', name: 'G 963.19 MXN is due from a desk holding 500.00', body: (s) => c2f(s), expect: -5031 },
  { step: 12, kind: 'f2f', name: '1037.08 USD are due from a desk holding 50.00', body: (s) => f2f(s), expect: -5031 },
  { step: 12, kind: 'c2f', name: 'first failure: the merchant holds too little USDT AND the desk too little MXN', body: (s) => c2f(s, { cryptoAmount: '200.0000' }), expect: -5100 },
  { step: 12, kind: 'f2c', name: 'first failure: the pending fund is short AND the desk holds too little USDT', body: (s) => f2c(s, { paymentId: 70 }), expect: -5100 },
];

// ---------------------------------------------------------------- running rows

interface Sent {
  client: MerchantClient;
  clientId: string;
}

function runRows<S extends Base>(label: string, rows: readonly Row<S>[], world: () => World<S>, sent: Sent[]): void {
  rows.forEach((row, i) => {
    const [msg, http] = CODES[row.expect] ?? ['?', 0];
    it(`${label} ${i + 1}, step ${row.step}, ${row.kind}: when ${row.name}, then ${http} ${row.expect} ${msg}`, async () => {
      const w = world();
      const given = row.given === undefined ? {} : await row.given(w);
      try {
        const client = row.stranger === true ? w.stranger : w.client;
        const clientId = row.clientId ?? `${label.toLowerCase().replace(/[^a-z]+/g, '-')}-${row.kind}-${i + 1}`;
        const answer = await client.call('POST', CREATE[row.kind], { ...row.body(w.scene, given), clientId });
        expect({ status: answer.status, code: answer.code, msg: answer.msg, detail: answer.detail, data: answer.data }).toEqual({
          status: http,
          code: row.expect,
          msg,
          detail: row.detail === undefined ? expect.any(String) : expect.stringMatching(row.detail),
          data: row.expect === -1174 ? { orderId: String((w.scene as unknown as Scene).seedOrderId) } : null,
        });
        if (row.clientId === undefined) sent.push({ client, clientId });
      } finally {
        await given.undo?.();
      }
    });
  });
}

// ---------------------------------------------------------------- what must not change

interface StateSnapshot {
  nextOrderId: number;
  orders: unknown;
  records: unknown;
  ledger: unknown;
  monthUsed: unknown;
  merchantUsage: unknown;
  accountUsage: unknown;
  pairs: unknown;
  maxOpenOrders: unknown;
}

/** Free and locked of every asset of the desk and of the user's merchants' M, as the core holds them. */
function ledgerBalances(t: TestServer, userId: number): [string, [string, string, string][]][] {
  const core = t.server.exchange.core;
  const ledger = core.ledger;
  const accounts: [string, number][] = [['desk', core.payments.state.deskAccountId]];
  for (const merchant of core.payments.state.merchants.values()) if (merchant.userId === userId) accounts.push([`merchant ${merchant.merchantId}`, merchant.accountId]);
  return accounts.map(([name, accountId]) => [
    name,
    [...ledger.account(accountId).balances.entries()].map(([asset, b]): [string, string, string] => [asset, String(b.free), String(b.locked)]).sort((x, y) => x[0].localeCompare(y[0])),
  ]);
}

async function snapshot<S extends Base>(w: World<S>, userId: number): Promise<StateSnapshot> {
  const all = { pageSize: 1000 };
  const config = await w.op.ok<{ pairs: unknown; maxOpenOrdersPerMerchant: unknown }>('GET', '/payments/config');
  const merchants = await w.client.ok<{ data: Record<string, unknown>[] }>('GET', '/v2/merchants', all);
  const accounts = await w.client.ok<{ data: Record<string, unknown>[] }>('GET', '/v2/merchant/accounts', all);
  return {
    nextOrderId: w.t.server.exchange.core.payments.state.nextOrderId,
    orders: await w.client.ok('GET', '/v2/orders', all),
    records: await w.client.ok('GET', '/v2/merchant/funding/records', all),
    ledger: ledgerBalances(w.t, userId),
    monthUsed: (await w.client.ok<{ monthUsed: string; monthLimit: string }>('GET', '/v2/user/account')).monthUsed,
    merchantUsage: merchants.data.map((m) => [m.merchantId, m.status, m.dayFiatLimit, m.dayFiatUsed, m.monthFiatLimit, m.monthFiatUsed, m.monthCryptoLimit, m.monthCryptoUsed]),
    accountUsage: accounts.data.map((a) => [a.merchantId, a.fiat, a.balance, a.buyAmountLimit, a.buyAmountUsed, a.sellAmountLimit, a.sellAmountUsed]),
    pairs: config.pairs,
    maxOpenOrders: config.maxOpenOrdersPerMerchant,
  };
}

async function verified(op: Operator): Promise<void> {
  const report = await op.ok<{ ok: boolean; details: unknown[] }>('GET', '/verify?replay=1');
  expect(report.details.filter((d) => (d as { mismatch?: string }).mismatch !== undefined)).toEqual([]);
  expect(report.ok).toBe(true);
}

/** Every clientId a refused row sent: B34 finds no order with it. */
async function expectFree(sent: readonly Sent[]): Promise<void> {
  expect(sent.length).toBeGreaterThan(0);
  for (const { client, clientId } of sent) {
    const found = await client.ok<{ total: number }>('GET', '/v2/orders', { clientId });
    expect({ clientId, total: found.total }).toEqual({ clientId, total: 0 });
  }
}

/** A verified BUSINESS merchant's WIRE or SPEI beneficiary: its id (and its status). */
async function beneficiary(client: MerchantClient, body: Body): Promise<{ id: number; status: number }> {
  return client.ok<{ id: number; status: number }>('POST', '/v2/payments', body);
}

const spei = (merchantId: number, clabe: string, name = 'Juan Perez'): Body => ({
  merchantId,
  paymentId: 58,
  country: 'Mexico',
  fiat: 'MXN',
  realName: name,
  fieldJson: { 'CLABE number': clabe, 'Beneficiary Name': name },
});
const wire = (merchantId: number, accountNumber: string): Body => ({
  merchantId,
  paymentId: 83,
  country: 'United States',
  fiat: 'USD',
  fieldJson: { ...WIRE_BENEFICIARY, 'Account Number': accountNumber },
});

// ---------------------------------------------------------------- the main scene

describe('order creation checks (docs/merchant-payments.md "Order creation checks"), in order, first failure wins', () => {
  let w: World<Scene>;
  let userId: number;
  let before: StateSnapshot;
  const sent: Sent[] = [];

  beforeAll(async () => {
    const t = await startTestServer();
    const op = new Operator(t);
    await exampleBooks(op);
    const user = await merchantUser(op, t.url);
    const client = user.client;
    userId = Number(user.userId);
    const stranger = (await merchantUser(op, t.url)).client;
    const demo = await MerchantClient.connect(t.url, t.demo.merchantApiKey, t.demo.merchantSecretKey);

    const a = await onboardedMerchant(client, 'Acme MX', ['MXN', 'USD']);
    const b = await onboardedMerchant(client, 'Other MX');
    const speiA = (await beneficiary(client, { ...spei(a, SPEI_BENEFICIARY['CLABE number']) })).id;
    const wireA = (await beneficiary(client, wire(a, '123456789'))).id;
    const speiB = (await beneficiary(client, spei(b, '014180001111111111', 'Ana Lopez'))).id;
    await client.ok('PUT', '/sandbox/v2/modes', { beneficiaryReview: 'manual' });
    const reviewingSpeiA = await beneficiary(client, spei(a, '012180009876543210', 'Rosa Diaz'));
    const reviewingWireA = await beneficiary(client, wire(a, '987654321'));
    await client.ok('PUT', '/sandbox/v2/modes', { beneficiaryReview: 'reject', kyc: 'manual' });
    const rejectedSpeiA = await beneficiary(client, spei(a, '012180005555555555', 'Luis Gomez'));
    const pending = (await client.ok<{ merchantId: number }>('POST', '/v2/merchants', { merchantName: 'Pending Co', email: 'pending@example.mx', merchantType: 'INDIVIDUAL', callbackUrl: 'https://merchant.example/kyc-done' })).merchantId;
    await client.ok('PUT', '/sandbox/v2/modes', { beneficiaryReview: 'approve', kyc: 'approve' });
    expect([reviewingSpeiA.status, reviewingWireA.status, rejectedSpeiA.status]).toEqual([2, 2, 3]);

    // A's pending fund 500.00 MXN, 100 USDT and 0.1 BTC.
    await client.ok('POST', '/sandbox/v2/deposits', { merchantId: a, fiat: 'MXN', amount: '500.00' });
    await client.ok('POST', '/sandbox/v2/crypto-deposits', { merchantId: a, crypto: 'USDT', amount: '100' });
    await client.ok('POST', '/sandbox/v2/crypto-deposits', { merchantId: a, crypto: 'BTC', amount: '0.1' });

    // The seed order: open (40 after the automatic review), made with a quote that is now USED.
    const quote = await client.ok<{ quoteId: string }>('GET', '/v2/user/crypto-quote', { ...MXN_USDT_QUOTE, amount: '1000.00', createQuoteId: true });
    const seed = await client.ok<{ orderId: number }>('POST', CREATE.f2c, { ...f2c({ a, speiA, wireA }), clientId: SEED_CLIENT_ID, quoteId: quote.quoteId });
    expect((await client.ok<{ orderStatus: number }>('GET', '/v2/order/detail', { orderId: seed.orderId })).orderStatus).toBe(40);

    const foreignBeneficiary = (await demo.ok<{ record: { id: number }[] }>('GET', '/v2/payments')).record[0].id;
    const pairs = (await op.ok<{ pairs: unknown[] }>('GET', '/payments/config')).pairs;
    const scene: Scene = {
      a,
      b,
      pending,
      foreignMerchant: Number(t.demo.merchantId),
      speiA,
      wireA,
      speiB,
      reviewingSpeiA: reviewingSpeiA.id,
      rejectedSpeiA: rejectedSpeiA.id,
      reviewingWireA: reviewingWireA.id,
      foreignBeneficiary,
      seedOrderId: seed.orderId,
      usedQuoteId: quote.quoteId,
    };
    w = { t, op, client, stranger, scene, pairs };
    before = await snapshot(w, userId);
  });
  afterAll(async () => w?.t.stop());

  it('when the scene is set, then A holds one open order, 500.00 MXN free, 100 USDT, and the limits count the seed order', () => {
    expect(before.orders).toMatchObject({ total: 1, record: [{ orderId: String(w.scene.seedOrderId), clientId: SEED_CLIENT_ID, orderStatus: 40, quoteId: w.scene.usedQuoteId }] });
    expect(before.monthUsed).toBe('50.00');
    expect(before.accountUsage).toContainEqual([w.scene.a, 'MXN', '500.00', '0.00', '1000.00', '0.00', '0.00']);
    expect(before.maxOpenOrders).toBe(DEFAULT_MAX_OPEN_ORDERS);
  });

  it(`when the tables are counted, then every step of docs/merchant-payments.md "Order creation checks" has rows (${CHECK_ROWS.length} + ${FIRST_FAILURE_ROWS.length})`, () => {
    const steps = new Set(CHECK_ROWS.map((row) => row.step));
    expect([...steps].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // In order: a row never checks an earlier step than the row before it.
    expect(CHECK_ROWS.map((row) => row.step)).toEqual(CHECK_ROWS.map((row) => row.step).sort((x, y) => x - y));
    expect(new Set(CHECK_ROWS.map((row) => `${row.kind} ${row.name}`)).size).toBe(CHECK_ROWS.length);
  });

  runRows('Check', CHECK_ROWS, () => w, sent);
  runRows('First failure', FIRST_FAILURE_ROWS, () => w, sent);

  it('when every row has been refused, then no order, record, reservation or limit usage was made, settings are back, and verify holds', async () => {
    expect(await snapshot(w, userId)).toEqual(before);
    await verified(w.op);
  });

  it('then every clientId a refused row sent is still free: B34 finds none, and a valid order of each kind takes one', async () => {
    await expectFree(sent);
    const own = sent.filter((x) => x.client === w.client).map((x) => x.clientId);
    const [first, second, third] = [own[0], own[Math.floor(own.length / 2)], own[own.length - 1]];
    const created = [
      await w.client.call<{ orderId: number }>('POST', CREATE.f2c, { ...f2c(w.scene), clientId: first }),
      await w.client.call<{ orderId: number }>('POST', CREATE.c2f, { ...c2f(w.scene), clientId: second }),
      await w.client.call<{ orderId: number }>('POST', CREATE.f2f, { ...f2f(w.scene), clientId: third }),
    ];
    expect(created.map((c) => [c.status, c.code, typeof c.data?.orderId])).toEqual([
      [200, 200, 'number'],
      [200, 200, 'number'],
      [200, 200, 'number'],
    ]);
    const list = await w.client.ok<{ total: number; record: { clientId: string }[] }>('GET', '/v2/orders', { pageSize: 1000 });
    expect(list.total).toBe(4);
    expect(list.record.map((r) => r.clientId).sort()).toEqual([first, second, third, SEED_CLIENT_ID].sort());
    await verified(w.op);
  });
});

// ---------------------------------------------------------------- desk inventory (its own server)

/** A Bourse without the demo: its desk holds only what this file deposits, and no book exists. */
async function leanServer(): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-test-'));
  const env = { PORT: '0', BOURSE_DATA: dataDir, LOG_LEVEL: 'silent', BOURSE_DEMO: '0' };
  const server = await startServer(env);
  const adminToken = readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
  return {
    server,
    url: server.url,
    dataDir,
    adminToken,
    env,
    demo: { userId: '', accountId: '', apiKey: '', secretKey: '', merchantApiKey: '', merchantSecretKey: '', merchantId: '' } satisfies DemoCredentials,
    async stop() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('order creation checks (docs/merchant-payments.md "Order creation checks" step 12): desk inventory short', () => {
  let w: World<Base>;
  let userId: number;
  let before: StateSnapshot;
  const sent: Sent[] = [];

  beforeAll(async () => {
    const t = await leanServer();
    const op = new Operator(t);
    const user = await merchantUser(op, t.url);
    const client = user.client;
    userId = Number(user.userId);
    const stranger = (await merchantUser(op, t.url)).client;
    const deskAccountId = String(t.server.exchange.core.payments.state.deskAccountId);
    await op.fund(deskAccountId, { USDT: '10', MXN: '500.00', USD: '50.00' });

    const a = await onboardedMerchant(client, 'Acme MX', ['MXN', 'USD']);
    const speiA = (await beneficiary(client, spei(a, SPEI_BENEFICIARY['CLABE number']))).id;
    const wireA = (await beneficiary(client, wire(a, '123456789'))).id;
    await client.ok('POST', '/sandbox/v2/deposits', { merchantId: a, fiat: 'MXN', amount: '300.00' });
    await client.ok('POST', '/sandbox/v2/crypto-deposits', { merchantId: a, crypto: 'USDT', amount: '100' });
    // No book on this server: docs/merchant-payments.md "The simulator and the sandbox API" fixed prices (the buy price of docs/merchant-payments.md "Quotes and orders", and its MXN → USD rate).
    await client.ok('PUT', '/sandbox/v2/prices', { from: 'USDT', to: 'MXN', price: '19.2639' });
    await client.ok('PUT', '/sandbox/v2/prices', { from: 'MXN', to: 'USD', price: '0.051857' });
    w = { t, op, client, stranger, scene: { a, speiA, wireA }, pairs: [] };
    before = await snapshot(w, userId);
  });
  afterAll(async () => w?.t.stop());

  it('when the scene is set, then the desk holds 10 USDT, 500.00 MXN, 50.00 USD and nothing is locked', () => {
    const desk = (before.ledger as [string, [string, string, string][]][]).find(([name]) => name === 'desk')?.[1];
    expect(desk?.filter(([, free]) => free !== '0')).toEqual([
      ['MXN', '50000000000', '0'],
      ['USD', '5000000000', '0'],
      ['USDT', '1000000000', '0'],
    ]);
    expect(before.orders).toMatchObject({ total: 0 });
  });

  runRows('Desk', DESK_ROWS, () => w, sent);

  it('when every row has been refused, then nothing was created or reserved, and verify holds', async () => {
    expect(await snapshot(w, userId)).toEqual(before);
    await verified(w.op);
  });

  it('then an order the desk can cover (100.00 MXN: 5.1391 USDT) succeeds with a refused clientId', async () => {
    await expectFree(sent);
    const created = await w.client.call<{ orderId: number }>('POST', CREATE.f2c, { ...f2c(w.scene, { fiatAmount: '100.00' }), clientId: sent[0].clientId });
    expect([created.status, created.code]).toEqual([200, 200]);
    expect(await w.client.ok('GET', '/v2/order/detail', { orderId: created.data.orderId })).toMatchObject({ cryptoAmount: '5.1391', clientId: sent[0].clientId });
    await verified(w.op);
  });
});
