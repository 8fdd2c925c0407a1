/**
 * The bad-input table of area B (docs/merchant-payments.md "Requests", docs/merchant-payments.md "Getting a token", docs/merchant-payments.md "Answers and errors", docs/merchant-payments.md "Endpoints served", docs/merchant-payments.md "The simulator and the sandbox API", docs/merchant-payments.md "Error codes"): every row is
 * one malformed or refused request to the merchant payments API, answered with the status and the
 * `{code, msg, detail, data}` envelope that docs/merchant-payments.md "Error codes" gives its code, never a 500; and after the whole
 * table the merchants, accounts, beneficiaries, funding records, pending funds and the ledger are
 * exactly as they were before the first row.
 *
 * Requests go over a raw socket (test/support/raw-http.ts) so that a row can send any bytes with
 * any content type: broken JSON, a form body, a JSON number written `1E3`, a body over 1 MiB.
 * Rows that refer to the scene (merchant ids, beneficiary ids) build their request when they run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSINESS_FIELDS, onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory, WIRE_BENEFICIARY } from '../../support/payments-story.js';
import { rawRequest, type RawAnswer, type RawHeader } from '../../support/raw-http.js';

/** docs/merchant-payments.md "Error codes": `msg` and HTTP status of every code a row expects (400 unless listed otherwise). */
const CODES: Readonly<Record<number, readonly [msg: string, http: number]>> = {
  [-1000]: ['UNKNOWN', 404],
  [-1002]: ['UNAUTHORIZED', 401],
  [-1021]: ['INVALID_TIMESTAMP', 400],
  [-1022]: ['INVALID_SIGNATURE', 401],
  [-1102]: ['MANDATORY_PARAM_EMPTY_OR_MALFORMED', 400],
  [-1174]: ['REPEATED_SUBMIT_REQUEST', 409],
  [-2015]: ['REJECTED_MBX_KEY', 401],
  [-2017]: ['EMAIL_EXIST', 400],
  [-4010]: ['PARAM_IS_INVALID', 400],
  [-4011]: ['PARAM_EXCEEDS_LIMIT_LENGTH', 400],
  [-4013]: ['PARAM_MUST_LENGTH_CHAR', 400],
  [-4015]: ['PARAM_MUST_LENGTH_NUMERIC', 400],
  [-4021]: ['PARAM_NOT_IS_NUMERIC', 400],
  [-4023]: ['PARAM_NOT_IS_ALPHANUMERIC', 400],
  [-4024]: ['PARAM_IS_INVALID_ISO1', 400],
  [-4025]: ['PARAM_IS_INVALID_ISO2', 400],
  [-4026]: ['PARAM_IS_INVALID_ACCOUNT_TYPE', 400],
  [-4027]: ['PAYMENT_NOT_EXIST', 404],
  [-5003]: ['PAYMENT_NOT_EDIT', 400],
  [-5006]: ['MC_NOT_EXIST', 404],
  [-5014]: ['PAYMENT_ACCOUNT_INFO_AND_MC_SAME', 400],
  [-5017]: ['PAYMENT_INVALID', 400],
  [-5018]: ['PAYMENT_AND_PLATFORM_NOT_MATCH', 400],
  [-5038]: ['MC_ACCOUNT_NOT_EXIST', 404],
  [-5043]: ['NEED_PASS_KYC_OR_KYB', 400],
  [-5044]: ['PAYMENT_ADD_NEED_PASS_KYC_OR_KYB', 400],
  [-5045]: ['FIAT_INVALID', 400],
  [-5051]: ['PAYMENT_FIAT_AND_ORDER_NOT_MATCH', 400],
  [-5053]: ['PAYMENT_ACCOUNT_ALREADY_EXISTS', 400],
  [-5057]: ['COUNTRY_AND_FIAT_NOT_SUPPORT', 400],
  [-5058]: ['TOKEN_NOT_SUPPORT', 400],
  [-5063]: ['MC_KYC_END', 400],
  [-5067]: ['MC_ACCOUNT_END', 400],
  [-5069]: ['MC_NAME_EXIST', 400],
  [-5070]: ['MC_NOT_OPEN_ACCOUNT', 400],
  [-5100]: ['INSUFFICIENT_BALANCE', 400],
  [-5102]: ['SANDBOX_DISABLED', 404],
  [-5104]: ['INVALID_STATE', 400],
};

/** What the table's requests refer to, known once beforeAll has built it. */
interface Scene {
  /** Verified BUSINESS merchant with an active MXN account and a pending fund (985.00 free, 15.00 held by a claim). */
  merchantId: number;
  /** A second verified merchant of the same user with an active MXN account (B20's receiver). */
  otherId: number;
  /** A merchant left in status 4 (kyc `manual`). */
  pendingId: number;
  /** A valid (status 1) SPEI beneficiary of `merchantId`, paid by the pending claim `HELD_CLAIM`. */
  beneficiaryId: number;
  /** A SPEI beneficiary of `merchantId` under review (status 2). */
  reviewingId: number;
  /** The pending WITHDRAW of the claim with clientId `HELD_CLAIM`. */
  heldClaimTx: number;
  /** The completed DEPOSIT record that made the pending fund. */
  depositTxId: number;
  /** The merchant's own `Cuenta CLABE` (B17). */
  ownClabe: string;
  apiKey: string;
}

interface Wire {
  method: string;
  /** Path and query, exactly as sent. */
  target: string;
  body?: string | Buffer;
  contentType?: string;
  /** Default: the scene user's token. `null`: no token header. */
  token?: string | null;
  headers?: readonly RawHeader[];
}

interface Expected {
  code: number;
  /** Where docs/merchant-payments.md "Requests" says what `detail` names (the body, or the parameter). */
  detail?: RegExp;
  /** `data` on -1174 (docs/merchant-payments.md "Idempotency"); `null` otherwise. */
  data?: (s: Scene) => unknown;
}

interface Row {
  name: string;
  wire: (s: Scene) => Wire;
  expect: Expected;
}

const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';
const MiB = 1024 * 1024;

const MERCHANTS = '/v2/merchants';
const ACCOUNTS = '/v2/merchant/accounts';
const ADD_FUNDS = '/v2/merchant/addfunds';
const CLAIM = '/v2/merchant/claimfunds';
const TRANSFER_FEE = '/v2/merchant/transfer_fee';
const TRANSFER = '/v2/merchant/transfer';
const RECORDS = '/v2/merchant/funding/records';
const PAYMENTS = '/v2/payments';
const TEMPLATES = '/v2/payments/templates';
const REFUND_ACCOUNT = '/openapi/v2/payment/refund_account';
const HELD_CLAIM = 'held-claim';
const UNKNOWN_ID = 999_999;

const E = {
  invalid: (detail?: RegExp): Expected => ({ code: -4010, ...(detail === undefined ? {} : { detail }) }),
  tooLong: (): Expected => ({ code: -4011 }),
  code: (code: number): Expected => ({ code }),
};

// ---------------------------------------------------------------- request builders

/** A JSON body; `raw` members are written as given (`1E3`, `true`), replacing a base member of that name. */
function jsonText(base: Readonly<Record<string, unknown>>, raw: Readonly<Record<string, string>> = {}): string {
  const members = Object.entries(base)
    .filter(([name]) => !Object.hasOwn(raw, name))
    .map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`);
  for (const [name, text] of Object.entries(raw)) members.push(`${JSON.stringify(name)}:${text}`);
  return `{${members.join(',')}}`;
}

function send(method: string, target: string, body: Readonly<Record<string, unknown>>, raw: Readonly<Record<string, string>> = {}): Wire {
  return { method, target, body: jsonText(body, raw), contentType: JSON_TYPE };
}

const post = (target: string, body: Readonly<Record<string, unknown>>, raw?: Readonly<Record<string, string>>): Wire => send('POST', target, body, raw);
const put = (target: string, body: Readonly<Record<string, unknown>>, raw?: Readonly<Record<string, string>>): Wire => send('PUT', target, body, raw);

/** A GET (or another method) with the query written as given: values are not encoded. */
function get(path: string, query: Readonly<Record<string, string | number>> = {}, method = 'GET'): Wire {
  const text = Object.entries(query)
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  return { method, target: text === '' ? path : `${path}?${text}` };
}

function rawBody(method: string, target: string, body: string | Buffer, contentType?: string): Wire {
  return { method, target, body, ...(contentType === undefined ? {} : { contentType }) };
}

// ---------------------------------------------------------------- valid bodies that rows spoil

/** A B13 body that would create a merchant. */
function newMerchant(changes: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return { merchantName: 'Fresh Co', email: 'fresh@example.mx', merchantType: 'BUSINESS', callbackUrl: 'https://merchant.example/kyc-done', ...changes };
}

/** A B15 body for the merchant's USD account (none yet): valid fields would open it. */
function usdAccount(s: Scene, fieldChanges: Readonly<Record<string, string | null>> = {}): Record<string, unknown> {
  const fieldList: Record<string, string> = { ...BUSINESS_FIELDS };
  for (const [name, value] of Object.entries(fieldChanges)) {
    if (value === null) delete fieldList[name];
    else fieldList[name] = value;
  }
  return { merchantId: s.merchantId, fiat: 'USD', fieldList };
}

/** A B18 body that would pay 10.00 MXN to the valid beneficiary. */
function claim(s: Scene, changes: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return { merchantId: s.merchantId, fiat: 'MXN', amount: '10.00', userPaymentId: s.beneficiaryId, ...changes };
}

/** A B20 body that would move 1.00 MXN between the two verified merchants. */
function transfer(s: Scene, changes: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return { clientId: 'tr-bad-input', fromMerchantId: s.merchantId, toMerchantId: s.otherId, fiat: 'MXN', paymentId: 70, fiatAmount: '1.00', ...changes };
}

/** A B25 body for a new SPEI beneficiary (a CLABE not yet saved). */
function spei(s: Scene, fieldChanges: Readonly<Record<string, unknown>> = {}, changes: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return {
    merchantId: s.merchantId,
    paymentId: 58,
    country: 'Mexico',
    fiat: 'MXN',
    realName: 'Ana Lopez',
    fieldJson: { 'CLABE number': '014180001111111111', 'Beneficiary Name': 'Ana Lopez', ...fieldChanges },
    ...changes,
  };
}

/** A B25 body for a new US WIRE beneficiary (rail 83). */
function wire(s: Scene, fieldChanges: Readonly<Record<string, string | null>> = {}): Record<string, unknown> {
  const fieldJson: Record<string, string> = { ...WIRE_BENEFICIARY, 'Account Number': '123456789' };
  for (const [name, value] of Object.entries(fieldChanges)) {
    if (value === null) delete fieldJson[name];
    else fieldJson[name] = value;
  }
  return { merchantId: s.merchantId, paymentId: 83, country: 'United States', fiat: 'USD', fieldJson };
}

/** A B25 body for a new SEPA beneficiary (rail 85; EUR is listed under United States, docs/operating.md "Merchant payments settings"). */
function sepa(s: Scene, fieldChanges: Readonly<Record<string, string>> = {}): Record<string, unknown> {
  return {
    merchantId: s.merchantId,
    paymentId: 85,
    country: 'United States',
    fiat: 'EUR',
    fieldJson: {
      'Bank Name': 'Deutsche Bank',
      'Account Owner Name': 'Acme GmbH',
      'Account Owner Type': 'Business',
      businessName: 'Acme GmbH',
      'Bank Country/Region': 'DE',
      'Account Number': 'DE89370400440532013000',
      Bic: 'DEUTDEFF',
      ...fieldChanges,
    },
  };
}

const b0 = (query: string, apiKey?: string): Wire => ({
  method: 'GET',
  target: `/v2/token/generate${query === '' ? '' : `?${query}`}`,
  token: null,
  headers: apiKey === undefined ? [] : [['X-BH-APIKEY', apiKey]],
});

// ---------------------------------------------------------------- the table

/** docs/merchant-payments.md "Requests": bodies that do not parse, are not one object, or come in a content type area B does not take. */
const BODY_ROWS: Row[] = [
  { name: 'B13 body is broken JSON', wire: () => rawBody('POST', MERCHANTS, '{"merchantName":"Fresh Co",', JSON_TYPE), expect: E.invalid(/body/) },
  { name: 'B13 body is a JSON array', wire: () => rawBody('POST', MERCHANTS, '[{"merchantName":"Fresh Co"}]', JSON_TYPE), expect: E.invalid(/body/) },
  { name: 'B13 body is a JSON string', wire: () => rawBody('POST', MERCHANTS, '"merchantName=Fresh Co"', JSON_TYPE), expect: E.invalid(/body/) },
  { name: 'B13 body is a JSON number', wire: () => rawBody('POST', MERCHANTS, '42', JSON_TYPE), expect: E.invalid(/body/) },
  { name: 'B18 body is JSON null', wire: () => rawBody('POST', CLAIM, 'null', JSON_TYPE), expect: E.invalid(/body/) },
  { name: 'B18 body is JSON with a trailing comma', wire: (s) => rawBody('POST', CLAIM, `${jsonText(claim(s)).slice(0, -1)},}`, JSON_TYPE), expect: E.invalid(/body/) },
  { name: 'B18 body is two JSON objects', wire: (s) => rawBody('POST', CLAIM, `${jsonText(claim(s))}{}`, JSON_TYPE), expect: E.invalid(/body/) },
  { name: 'B18 body is not UTF-8', wire: () => rawBody('POST', CLAIM, Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]), JSON_TYPE), expect: E.invalid(/body/) },
  { name: 'B13 form body has a broken percent escape', wire: () => rawBody('POST', MERCHANTS, 'merchantName=Fresh%ZZCo&merchantType=BUSINESS', FORM), expect: E.invalid(/body/) },
  {
    name: 'B13 body comes as text/plain',
    wire: () => rawBody('POST', MERCHANTS, jsonText(newMerchant()), 'text/plain'),
    expect: E.invalid(/body/),
  },
  {
    name: 'B13 body comes as application/xml',
    wire: () => rawBody('POST', MERCHANTS, '<merchant><merchantName>Fresh Co</merchantName></merchant>', 'application/xml'),
    expect: E.invalid(/body/),
  },
  {
    name: 'B18 body comes as multipart/form-data (only B35 takes it)',
    wire: (s) => rawBody('POST', CLAIM, `--x\r\nContent-Disposition: form-data; name="merchantId"\r\n\r\n${s.merchantId}\r\n--x--\r\n`, 'multipart/form-data; boundary=x'),
    expect: E.invalid(/body/),
  },
  {
    name: 'B13 body is over 1 MiB',
    wire: () => rawBody('POST', MERCHANTS, jsonText(newMerchant({ remark: 'r'.repeat(MiB) })), JSON_TYPE),
    expect: E.tooLong(),
  },
  {
    name: 'B15 form body carries fieldList as text that is not JSON',
    wire: (s) => rawBody('POST', ACCOUNTS, `merchantId=${s.merchantId}&fiat=USD&fieldList=idNoType%3DRFC`, FORM),
    expect: E.invalid(/fieldList/),
  },
  {
    name: 'B14 query has a broken percent escape',
    wire: () => get(MERCHANTS, { merchantName: 'Acme%G1' }),
    expect: E.invalid(),
  },
];

/** docs/merchant-payments.md "Requests" types: arrays, objects and booleans where a string or number is expected; a non-object for an `obj`. */
const TYPE_ROWS: Row[] = [
  { name: 'B13 merchantName is an array', wire: () => post(MERCHANTS, newMerchant({ merchantName: ['Fresh Co'] })), expect: E.invalid(/merchantName/) },
  { name: 'B13 merchantName is an object', wire: () => post(MERCHANTS, newMerchant({ merchantName: { name: 'Fresh Co' } })), expect: E.invalid(/merchantName/) },
  { name: 'B13 merchantType is an array', wire: () => post(MERCHANTS, newMerchant({ merchantType: ['BUSINESS'] })), expect: E.invalid(/merchantType/) },
  { name: 'B18 merchantId is an object', wire: (s) => post(CLAIM, claim(s, { merchantId: { id: s.merchantId } })), expect: E.invalid(/merchantId/) },
  { name: 'B18 merchantId is the boolean true', wire: (s) => post(CLAIM, claim(s), { merchantId: 'true' }), expect: E.invalid(/merchantId/) },
  { name: 'B18 userPaymentId is the boolean false', wire: (s) => post(CLAIM, claim(s), { userPaymentId: 'false' }), expect: E.invalid(/userPaymentId/) },
  { name: 'B18 amount is the boolean true', wire: (s) => post(CLAIM, claim(s), { amount: 'true' }), expect: E.invalid(/amount/) },
  { name: 'B18 amount is an array', wire: (s) => post(CLAIM, claim(s, { amount: ['10.00'] })), expect: E.invalid(/amount/) },
  { name: 'B18 merchantId is a word', wire: (s) => post(CLAIM, claim(s, { merchantId: 'first' })), expect: E.invalid(/merchantId/) },
  { name: 'B18 userPaymentId has a fraction (1001.5)', wire: (s) => post(CLAIM, claim(s, { userPaymentId: '1001.5' })), expect: E.invalid(/userPaymentId/) },
  { name: 'B15 fieldList is a string that is not JSON', wire: (s) => post(ACCOUNTS, { ...usdAccount(s), fieldList: 'RFC' }), expect: E.invalid(/fieldList/) },
  { name: 'B15 fieldList is an array', wire: (s) => post(ACCOUNTS, { ...usdAccount(s), fieldList: [BUSINESS_FIELDS] }), expect: E.invalid(/fieldList/) },
  { name: 'B15 fieldList is a number', wire: (s) => post(ACCOUNTS, usdAccount(s), { fieldList: '5' }), expect: E.invalid(/fieldList/) },
  { name: 'B15 fieldList member is an object', wire: (s) => post(ACCOUNTS, { ...usdAccount(s), fieldList: { ...BUSINESS_FIELDS, city: { name: 'CDMX' } } }), expect: E.invalid(/fieldList|city/) },
  { name: 'B25 fieldJson is a number', wire: (s) => post(PAYMENTS, spei(s), { fieldJson: '5' }), expect: E.invalid(/fieldJson/) },
  { name: 'B25 fieldJson is an array', wire: (s) => post(PAYMENTS, { ...spei(s), fieldJson: [SPEI_BENEFICIARY] }), expect: E.invalid(/fieldJson/) },
  { name: 'B25 fieldJson holds a boolean value', wire: (s) => post(PAYMENTS, spei(s, { 'Beneficiary Name': true })), expect: E.invalid(/fieldJson|Beneficiary Name/) },
  {
    // docs/merchant-payments.md "Endpoints served": fieldJson has string values. The CLABE is the saved beneficiary's, so a server that
    // took the number as its text answers -5053 instead, without creating anything.
    name: 'B25 fieldJson holds a number value',
    wire: (s) =>
      rawBody(
        'POST',
        PAYMENTS,
        jsonText({ merchantId: s.merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN' }, { fieldJson: jsonText({ ...SPEI_BENEFICIARY }, { 'Account number/card': '4111111111111111' }) }),
        JSON_TYPE,
      ),
    expect: E.invalid(/fieldJson|Account number\/card/),
  },
  {
    // docs/merchant-payments.md "Endpoints served": fieldList members are all strings. The MXN account is active, so a server that took
    // the number as its text answers -5067 instead, without changing anything.
    name: 'B15 fieldList holds a number value',
    wire: (s) => rawBody('POST', ACCOUNTS, jsonText({ merchantId: s.merchantId, fiat: 'MXN' }, { fieldList: jsonText({ ...BUSINESS_FIELDS }, { phone: '525512345678' }) }), JSON_TYPE),
    expect: E.invalid(/fieldList|phone/),
  },
];

/** docs/merchant-payments.md "Requests" decimals: plain notation, > 0, at most the currency's accuracy (MXN 2); never rounded. */
const DECIMAL_ROWS: Row[] = [
  { name: 'B18 amount has an exponent (1e3)', wire: (s) => post(CLAIM, claim(s, { amount: '1e3' })), expect: E.invalid(/amount/) },
  { name: 'B18 amount is a JSON number with an exponent (1E2)', wire: (s) => post(CLAIM, claim(s), { amount: '1E2' }), expect: E.invalid(/amount/) },
  { name: 'B18 amount is negative (-1)', wire: (s) => post(CLAIM, claim(s, { amount: '-1' })), expect: E.invalid(/amount/) },
  { name: 'B18 amount is a negative JSON number (-1)', wire: (s) => post(CLAIM, claim(s), { amount: '-1' }), expect: E.invalid(/amount/) },
  { name: 'B18 amount has a plus sign (+1)', wire: (s) => post(CLAIM, claim(s, { amount: '+1' })), expect: E.invalid(/amount/) },
  { name: 'B18 amount has a thousands separator (1,000.00)', wire: (s) => post(CLAIM, claim(s, { amount: '1,000.00' })), expect: E.invalid(/amount/) },
  { name: 'B18 amount has too many decimals for MXN (10.001)', wire: (s) => post(CLAIM, claim(s, { amount: '10.001' })), expect: E.invalid(/amount/) },
  { name: 'B18 amount is a JSON number with too many decimals (10.001)', wire: (s) => post(CLAIM, claim(s), { amount: '10.001' }), expect: E.invalid(/amount/) },
  { name: 'B18 amount is zero (0)', wire: (s) => post(CLAIM, claim(s, { amount: '0' })), expect: E.invalid(/amount/) },
  { name: 'B18 amount is zero with decimals (0.00)', wire: (s) => post(CLAIM, claim(s, { amount: '0.00' })), expect: E.invalid(/amount/) },
  { name: 'B18 amount is hexadecimal (0x10)', wire: (s) => post(CLAIM, claim(s, { amount: '0x10' })), expect: E.invalid(/amount/) },
  { name: 'B18 amount is NaN', wire: (s) => post(CLAIM, claim(s, { amount: 'NaN' })), expect: E.invalid(/amount/) },
  { name: 'B18 amount is Infinity', wire: (s) => post(CLAIM, claim(s, { amount: 'Infinity' })), expect: E.invalid(/amount/) },
  { name: 'B20 fiatAmount has an exponent (1e1)', wire: (s) => post(TRANSFER, transfer(s, { fiatAmount: '1e1' })), expect: E.invalid(/fiatAmount/) },
  { name: 'B20 fiatAmount has too many decimals (1.005)', wire: (s) => post(TRANSFER, transfer(s, { fiatAmount: '1.005' })), expect: E.invalid(/fiatAmount/) },
  { name: 'a sandbox deposit amount has a separator (1,000.00)', wire: (s) => post('/sandbox/v2/deposits', { merchantId: s.merchantId, fiat: 'MXN', amount: '1,000.00' }), expect: E.invalid(/amount/) },
  { name: 'a sandbox deposit amount is zero', wire: (s) => post('/sandbox/v2/deposits', { merchantId: s.merchantId, fiat: 'MXN', amount: '0.00' }), expect: E.invalid(/amount/) },
  { name: 'a sandbox crypto deposit amount is negative', wire: (s) => post('/sandbox/v2/crypto-deposits', { merchantId: s.merchantId, crypto: 'USDT', amount: '-5' }), expect: E.invalid(/amount/) },
  { name: 'a sandbox merchant limit is negative', wire: (s) => put(`/sandbox/v2/merchants/${s.merchantId}/limits`, { dayFiatLimit: '-1' }), expect: E.invalid(/dayFiatLimit/) },
  { name: 'a sandbox user limit has an exponent', wire: () => put('/sandbox/v2/user/limit', { monthLimit: '1e5' }), expect: E.invalid(/monthLimit/) },
];

/** docs/merchant-payments.md "Requests" strings: over a stated length → -4011. */
const LENGTH_ROWS: Row[] = [
  { name: 'B13 merchantName has 65 characters', wire: () => post(MERCHANTS, newMerchant({ merchantName: 'm'.repeat(65) })), expect: E.tooLong() },
  { name: 'B13 merchantName has 65 two-byte characters', wire: () => post(MERCHANTS, newMerchant({ merchantName: 'ñ'.repeat(65) })), expect: E.tooLong() },
  { name: 'B13 remark has 257 characters', wire: () => post(MERCHANTS, newMerchant({ remark: 'r'.repeat(257) })), expect: E.tooLong() },
  {
    name: 'B13 email has 129 characters',
    wire: () => post(MERCHANTS, newMerchant({ email: `${'a'.repeat(60)}@${'b'.repeat(60)}.${'c'.repeat(4)}.mx` })),
    expect: E.tooLong(),
  },
  {
    name: 'B13 callbackUrl has 513 characters',
    wire: () => post(MERCHANTS, newMerchant({ callbackUrl: `https://merchant.example/${'a'.repeat(513 - 'https://merchant.example/'.length)}` })),
    expect: E.tooLong(),
  },
  { name: 'B15 fieldList.address has 201 characters', wire: (s) => post(ACCOUNTS, usdAccount(s, { address: 'a'.repeat(201) })), expect: E.tooLong() },
  { name: 'B15 fieldList.city has 65 characters', wire: (s) => post(ACCOUNTS, usdAccount(s, { city: 'c'.repeat(65) })), expect: E.tooLong() },
  { name: 'B25 realName has 65 characters', wire: (s) => post(PAYMENTS, spei(s, {}, { realName: 'n'.repeat(65) })), expect: E.tooLong() },
  { name: 'B25 remark has 257 characters', wire: (s) => post(PAYMENTS, spei(s, {}, { remark: 'r'.repeat(257) })), expect: E.tooLong() },
];

/** docs/merchant-payments.md "Answers and errors" paging and time ranges. */
const PAGING_ROWS: Row[] = [
  { name: 'B14 pageSize is 0', wire: () => get(MERCHANTS, { pageSize: 0 }), expect: E.invalid(/pageSize/) },
  { name: 'B14 currentPage is 1.5', wire: () => get(MERCHANTS, { currentPage: '1.5' }), expect: E.invalid(/currentPage/) },
  { name: 'B16 pageSize is -1', wire: () => get(ACCOUNTS, { pageSize: -1 }), expect: E.invalid(/pageSize/) },
  { name: 'B26 currentPage is 0', wire: () => get(PAYMENTS, { currentPage: 0 }), expect: E.invalid(/currentPage/) },
  { name: 'B21 pageSize is a word', wire: () => get(RECORDS, { pageSize: 'all' }), expect: E.invalid(/pageSize/) },
  { name: 'B21 pageSize has an exponent (1e2)', wire: () => get(RECORDS, { pageSize: '1e2' }), expect: E.invalid(/pageSize/) },
  { name: 'B21 startTime is after endTime', wire: () => get(RECORDS, { startTime: 2000, endTime: 1000 }), expect: E.invalid(/startTime|endTime/) },
  { name: 'B21 endTime is a word', wire: () => get(RECORDS, { endTime: 'now' }), expect: E.invalid(/endTime/) },
];

/** Enumerations and other bad values of parameters (docs/merchant-payments.md "Endpoints served", docs/merchant-payments.md "The simulator and the sandbox API"). */
const VALUE_ROWS: Row[] = [
  { name: 'B13 merchantType is COMPANY', wire: () => post(MERCHANTS, newMerchant({ merchantType: 'COMPANY' })), expect: E.invalid(/merchantType/) },
  { name: 'B13 languageCode is fr', wire: () => post(MERCHANTS, newMerchant({ languageCode: 'fr' })), expect: E.invalid(/languageCode/) },
  { name: 'B13 email is not an address', wire: () => post(MERCHANTS, newMerchant({ email: 'fresh.example.mx' })), expect: E.invalid(/email/) },
  { name: 'B13 callbackUrl is ftp', wire: () => post(MERCHANTS, newMerchant({ callbackUrl: 'ftp://merchant.example/kyc' })), expect: E.invalid(/callbackUrl/) },
  { name: 'B13 callbackUrl is relative', wire: () => post(MERCHANTS, newMerchant({ callbackUrl: '/kyc-done' })), expect: E.invalid(/callbackUrl/) },
  { name: 'B13 has no merchantName', wire: () => post(MERCHANTS, newMerchant({ merchantName: null })), expect: E.invalid(/merchantName/) },
  { name: 'B13 merchantName is only blanks', wire: () => post(MERCHANTS, newMerchant({ merchantName: '   ' })), expect: E.invalid(/merchantName/) },
  { name: 'B13 has no callbackUrl', wire: () => post(MERCHANTS, newMerchant({ callbackUrl: '' })), expect: E.invalid(/callbackUrl/) },
  { name: 'B14 status is 5', wire: () => get(MERCHANTS, { status: 5 }), expect: E.invalid(/status/) },
  { name: 'B16 status is 4', wire: () => get(ACCOUNTS, { status: 4 }), expect: E.invalid(/status/) },
  { name: 'B26 status is 4', wire: () => get(PAYMENTS, { status: 4 }), expect: E.invalid(/status/) },
  { name: 'B21 type is PAYOUT', wire: () => get(RECORDS, { type: 'PAYOUT' }), expect: E.invalid(/type/) },
  { name: 'B21 status is 4', wire: () => get(RECORDS, { status: 4 }), expect: E.invalid(/status/) },
  { name: 'B1 hasFindAll is yes', wire: () => get('/v2/base/countrys', { hasFindAll: 'yes' }), expect: E.invalid(/hasFindAll/) },
  { name: 'B7 has no crypto', wire: () => get('/v2/base/buy/payments', { country: 'Mexico', fiat: 'MXN' }), expect: E.invalid(/crypto/) },
  { name: 'B9 has no offRampFiat', wire: () => get('/v2/base/fiat/payments', { onRampCountry: 'Mexico', onRampFiat: 'MXN', offRampCountry: 'United%20States' }), expect: E.invalid(/offRampFiat/) },
  { name: 'B11 merchantId is negative', wire: () => get('/v2/assets/account/assets', { merchantId: -1 }), expect: E.invalid(/merchantId/) },
  { name: 'B12 has no tokenId', wire: (s) => get('/v2/assets/depositAddress', { merchantId: s.merchantId }), expect: E.invalid(/tokenId/) },
  { name: 'B12 chainType is not a USDT chain (SOL)', wire: (s) => get('/v2/assets/depositAddress', { tokenId: 'USDT', chainType: 'SOL', merchantId: s.merchantId }), expect: E.invalid(/chainType/) },
  { name: 'B15 has no fieldList', wire: (s) => post(ACCOUNTS, { merchantId: s.merchantId, fiat: 'USD' }), expect: E.invalid(/fieldList/) },
  { name: 'B15 fieldList.idNoType is PASSPORT', wire: (s) => post(ACCOUNTS, usdAccount(s, { idNoType: 'PASSPORT' })), expect: E.invalid(/idNoType/) },
  { name: 'B15 fieldList has no phone', wire: (s) => post(ACCOUNTS, usdAccount(s, { phone: null })), expect: E.invalid(/phone/) },
  { name: 'B15 fieldList.cardIssueDate is not a real date (2020-02-30)', wire: (s) => post(ACCOUNTS, usdAccount(s, { cardIssueDate: '2020-02-30' })), expect: E.invalid(/cardIssueDate/) },
  { name: 'B15 fieldList.cardExpireDate is before cardIssueDate', wire: (s) => post(ACCOUNTS, usdAccount(s, { cardExpireDate: '2019-01-15' })), expect: E.invalid(/cardExpireDate/) },
  { name: 'B15 fieldList.incorporationDate is in the future', wire: (s) => post(ACCOUNTS, usdAccount(s, { incorporationDate: '2999-01-01' })), expect: E.invalid(/incorporationDate/) },
  { name: 'B17 has no paymentId', wire: (s) => get(ADD_FUNDS, { merchantId: s.merchantId, fiat: 'MXN' }), expect: E.invalid(/paymentId/) },
  { name: 'B18 has no amount', wire: (s) => post(CLAIM, claim(s, { amount: null })), expect: E.invalid(/amount/) },
  { name: 'B18 clientId holds a space', wire: (s) => post(CLAIM, claim(s, { clientId: 'my claim' })), expect: E.invalid(/clientId/) },
  { name: 'B19 has no fiat', wire: () => get(TRANSFER_FEE), expect: E.invalid(/fiat/) },
  { name: 'B20 has no clientId', wire: (s) => post(TRANSFER, transfer(s, { clientId: null })), expect: E.invalid(/clientId/) },
  { name: 'B20 sends to the same merchant', wire: (s) => post(TRANSFER, transfer(s, { toMerchantId: s.merchantId })), expect: E.invalid(/MerchantId/) },
  { name: 'B24 has no paymentId', wire: () => get(TEMPLATES), expect: E.invalid(/paymentId/) },
  { name: 'B25 fieldJson names a label outside the template (IBAN)', wire: (s) => post(PAYMENTS, spei(s, { IBAN: 'DE89370400440532013000' })), expect: E.invalid(/IBAN/) },
  { name: 'B25 fieldJson lacks the required Beneficiary Name', wire: (s) => post(PAYMENTS, spei(s, { 'Beneficiary Name': '' })), expect: E.invalid(/Beneficiary Name/) },
  { name: 'B25 WIRE Individual has no lastName', wire: (s) => post(PAYMENTS, wire(s, { lastName: null })), expect: E.invalid(/lastName/) },
  { name: 'B25 SEPA Account Number fails mod-97', wire: (s) => post(PAYMENTS, sepa(s, { 'Account Number': 'DE89370400440532013001' })), expect: E.invalid(/Account Number/) },
  { name: 'B28 has no merchantId', wire: (s) => post(REFUND_ACCOUNT, { userPaymentId: s.beneficiaryId }), expect: E.invalid(/merchantId/) },
  { name: 'a sandbox KYC action is approved (not a listed action)', wire: (s) => post(`/sandbox/v2/merchants/${s.merchantId}/kyc`, { action: 'approved' }), expect: E.invalid(/action/) },
  { name: 'a sandbox account review action is accept', wire: (s) => post(`/sandbox/v2/merchant/accounts/${s.merchantId}/MXN/review`, { action: 'accept' }), expect: E.invalid(/action/) },
  { name: 'a sandbox beneficiary review action is verify', wire: (s) => post(`/sandbox/v2/payments/${s.reviewingId}/review`, { action: 'verify' }), expect: E.invalid(/action/) },
  { name: 'a sandbox KYC call has no action', wire: (s) => post(`/sandbox/v2/merchants/${s.pendingId}/kyc`, {}), expect: E.invalid(/action/) },
  { name: 'a sandbox mode value is sometimes', wire: () => put('/sandbox/v2/modes', { kyc: 'sometimes' }), expect: E.invalid(/kyc/) },
  { name: 'a sandbox payoutFailCode is -7002', wire: () => put('/sandbox/v2/modes', { payoutFailCode: -7002 }), expect: E.invalid(/payoutFailCode/) },
  { name: 'a sandbox user limit has no monthLimit', wire: () => put('/sandbox/v2/user/limit', {}), expect: E.invalid(/monthLimit/) },
];

/** The field codes of docs/merchant-payments.md "Error codes" (B15 fieldList, B25 fieldJson). */
const FIELD_ROWS: Row[] = [
  { name: 'B15 RFC of a BUSINESS has 13 characters', wire: (s) => post(ACCOUNTS, usdAccount(s, { idNo: 'ACM010101AB12' })), expect: E.code(-4013) },
  { name: 'B15 CURP has 17 characters', wire: (s) => post(ACCOUNTS, usdAccount(s, { idNoType: 'CURP', idNo: 'PEPJ800101HDFRRN0' })), expect: E.code(-4013) },
  { name: 'B15 phone holds dashes', wire: (s) => post(ACCOUNTS, usdAccount(s, { phone: '55-1234-5678' })), expect: E.code(-4021) },
  { name: 'B15 phone has 6 digits', wire: (s) => post(ACCOUNTS, usdAccount(s, { phone: '+123456' })), expect: E.code(-4021) },
  { name: 'B15 zipCode holds a dash', wire: (s) => post(ACCOUNTS, usdAccount(s, { zipCode: '06-600' })), expect: E.code(-4023) },
  { name: 'B15 zipCode has 2 characters', wire: (s) => post(ACCOUNTS, usdAccount(s, { zipCode: '06' })), expect: E.code(-4023) },
  { name: 'B25 CLABE has 17 digits', wire: (s) => post(PAYMENTS, spei(s, { 'CLABE number': '01418000111111111' })), expect: E.code(-4015) },
  { name: 'B25 CLABE holds a letter', wire: (s) => post(PAYMENTS, spei(s, { 'CLABE number': '01418000111111111X' })), expect: E.code(-4015) },
  { name: 'B25 card has 15 digits', wire: (s) => post(PAYMENTS, spei(s, { 'Account number/card': '411111111111111' })), expect: E.code(-4015) },
  { name: 'B25 WIRE Account Number has 3 digits', wire: (s) => post(PAYMENTS, wire(s, { 'Account Number': '123' })), expect: E.code(-4015) },
  { name: 'B25 WIRE Routing Number has 8 digits', wire: (s) => post(PAYMENTS, wire(s, { 'Routing Number': '02100002' })), expect: E.code(-4015) },
  { name: 'B25 WIRE Bank Country/Region is USA', wire: (s) => post(PAYMENTS, wire(s, { 'Bank Country/Region': 'USA' })), expect: E.code(-4024) },
  { name: 'B25 WIRE Bank Country/Region is lower case (us)', wire: (s) => post(PAYMENTS, wire(s, { 'Bank Country/Region': 'us' })), expect: E.code(-4024) },
  { name: 'B25 SEPA Bank Country/Region is unassigned (ZZ)', wire: (s) => post(PAYMENTS, sepa(s, { 'Bank Country/Region': 'ZZ' })), expect: E.code(-4024) },
  { name: 'B25 WIRE State is lower case (ny)', wire: (s) => post(PAYMENTS, wire(s, { State: 'ny' })), expect: E.code(-4025) },
  { name: 'B25 WIRE State has 4 characters', wire: (s) => post(PAYMENTS, wire(s, { State: 'NEWY' })), expect: E.code(-4025) },
  { name: 'B25 WIRE Account Owner Type is Company', wire: (s) => post(PAYMENTS, wire(s, { 'Account Owner Type': 'Company' })), expect: E.code(-4026) },
  { name: 'B25 SEPA Account Owner Type is lower case (business)', wire: (s) => post(PAYMENTS, sepa(s, { 'Account Owner Type': 'business' })), expect: E.code(-4026) },
  { name: 'B25 SEPA Bic has 9 characters', wire: (s) => post(PAYMENTS, sepa(s, { Bic: 'DEUTDEFF1' })), expect: E.code(-4023) },
  { name: 'B25 SEPA Bic holds a dash', wire: (s) => post(PAYMENTS, sepa(s, { Bic: 'DEUT-EFF' })), expect: E.code(-4023) },
];

/** Refusals by the state of the scene's objects (docs/merchant-payments.md "Endpoints served", docs/merchant-payments.md "The simulator and the sandbox API", docs/merchant-payments.md "Error codes"). */
const STATE_ROWS: Row[] = [
  { name: 'B13 merchantName is taken (other case)', wire: () => post(MERCHANTS, newMerchant({ merchantName: 'ACME mx' })), expect: E.code(-5069) },
  { name: 'B13 email is taken (other case)', wire: () => post(MERCHANTS, newMerchant({ email: 'ACME.MX@example.mx' })), expect: E.code(-2017) },
  { name: 'B13 re-links a verified merchant', wire: (s) => post(MERCHANTS, { merchantId: s.merchantId, callbackUrl: 'https://merchant.example/again' }), expect: E.code(-5063) },
  { name: 'B13 re-links an unknown merchant', wire: () => post(MERCHANTS, { merchantId: UNKNOWN_ID, callbackUrl: 'https://merchant.example/again' }), expect: E.code(-5006) },
  { name: 'B11 names an unknown merchant', wire: () => get('/v2/assets/account/assets', { merchantId: UNKNOWN_ID }), expect: E.code(-5006) },
  { name: 'B12 tokenId is not configured (DOGE)', wire: (s) => get('/v2/assets/depositAddress', { tokenId: 'DOGE', merchantId: s.merchantId }), expect: E.code(-5058) },
  { name: 'B12 names an unknown merchant', wire: () => get('/v2/assets/depositAddress', { tokenId: 'USDT', merchantId: UNKNOWN_ID }), expect: E.code(-5006) },
  { name: 'B12 names a merchant in status 4', wire: (s) => get('/v2/assets/depositAddress', { tokenId: 'USDT', merchantId: s.pendingId }), expect: E.code(-5043) },
  { name: 'B15 names an unknown merchant', wire: () => post(ACCOUNTS, { merchantId: UNKNOWN_ID, fiat: 'USD', fieldList: BUSINESS_FIELDS }), expect: E.code(-5006) },
  { name: 'B15 names a merchant in status 4', wire: (s) => post(ACCOUNTS, { merchantId: s.pendingId, fiat: 'MXN', fieldList: BUSINESS_FIELDS }), expect: E.code(-5043) },
  { name: 'B15 fiat is GBP', wire: (s) => post(ACCOUNTS, { merchantId: s.merchantId, fiat: 'GBP', fieldList: BUSINESS_FIELDS }), expect: E.code(-5045) },
  { name: 'B15 again on the active MXN account', wire: (s) => post(ACCOUNTS, { merchantId: s.merchantId, fiat: 'MXN', fieldList: BUSINESS_FIELDS }), expect: E.code(-5067) },
  { name: 'B17 names an unknown merchant', wire: () => get(ADD_FUNDS, { merchantId: UNKNOWN_ID, paymentId: 58, fiat: 'MXN' }), expect: E.code(-5006) },
  { name: 'B17 fiat has no active account (USD)', wire: (s) => get(ADD_FUNDS, { merchantId: s.merchantId, paymentId: 83, fiat: 'USD' }), expect: E.code(-5070) },
  { name: 'B17 paymentId is another fiat\'s rail (83 for MXN)', wire: (s) => get(ADD_FUNDS, { merchantId: s.merchantId, paymentId: 83, fiat: 'MXN' }), expect: E.code(-5018) },
  { name: 'B17 paymentId is the pending fund (70)', wire: (s) => get(ADD_FUNDS, { merchantId: s.merchantId, paymentId: 70, fiat: 'MXN' }), expect: E.code(-5018) },
  { name: 'B18 reuses the held claim\'s clientId', wire: (s) => post(CLAIM, claim(s, { clientId: HELD_CLAIM, amount: '1.00' })), expect: { code: -1174, data: (s) => ({ txId: s.heldClaimTx }) } },
  { name: 'B18 names an unknown merchant', wire: (s) => post(CLAIM, claim(s, { merchantId: UNKNOWN_ID })), expect: E.code(-5006) },
  { name: 'B18 fiat has no active account (USD)', wire: (s) => post(CLAIM, claim(s, { fiat: 'USD' })), expect: E.code(-5070) },
  { name: 'B18 userPaymentId is the pending fund (70)', wire: (s) => post(CLAIM, claim(s, { userPaymentId: 70 })), expect: E.code(-5017) },
  { name: 'B18 userPaymentId is unknown', wire: (s) => post(CLAIM, claim(s, { userPaymentId: UNKNOWN_ID })), expect: E.code(-4027) },
  { name: 'B18 beneficiary is under review', wire: (s) => post(CLAIM, claim(s, { userPaymentId: s.reviewingId })), expect: E.code(-5017) },
  { name: 'B18 total exceeds the pending fund', wire: (s) => post(CLAIM, claim(s, { amount: '981.00' })), expect: E.code(-5100) },
  { name: 'B19 fiat is GBP', wire: () => get(TRANSFER_FEE, { fiat: 'GBP' }), expect: E.code(-5045) },
  { name: 'B20 receiver has no active MXN account', wire: (s) => post(TRANSFER, transfer(s, { toMerchantId: s.pendingId })), expect: E.code(-5070) },
  { name: 'B20 receiver is unknown', wire: (s) => post(TRANSFER, transfer(s, { toMerchantId: UNKNOWN_ID })), expect: E.code(-5006) },
  { name: 'B20 paymentId is another fiat\'s rail (83)', wire: (s) => post(TRANSFER, transfer(s, { paymentId: 83 })), expect: E.code(-5018) },
  { name: 'B20 total exceeds the pending fund', wire: (s) => post(TRANSFER, transfer(s, { fiatAmount: '984.00' })), expect: E.code(-5100) },
  { name: 'B24 paymentId is the pending fund (70)', wire: () => get(TEMPLATES, { paymentId: 70 }), expect: E.code(-5017) },
  { name: 'B24 paymentId is unknown (999)', wire: () => get(TEMPLATES, { paymentId: 999 }), expect: E.code(-5017) },
  { name: 'B25 names a merchant in status 4', wire: (s) => post(PAYMENTS, spei(s, {}, { merchantId: s.pendingId })), expect: E.code(-5044) },
  { name: 'B25 names an unknown merchant', wire: (s) => post(PAYMENTS, spei(s, {}, { merchantId: UNKNOWN_ID })), expect: E.code(-5006) },
  { name: 'B25 paymentId is the pending fund (70)', wire: (s) => post(PAYMENTS, spei(s, {}, { paymentId: 70 })), expect: E.code(-5017) },
  { name: 'B25 SPEI rail with fiat USD', wire: (s) => post(PAYMENTS, spei(s, {}, { fiat: 'USD', country: 'United States' })), expect: E.code(-5051) },
  { name: 'B25 MXN with country United States', wire: (s) => post(PAYMENTS, spei(s, {}, { country: 'United States' })), expect: E.code(-5057) },
  { name: 'B25 saves the saved CLABE again', wire: (s) => post(PAYMENTS, spei(s, SPEI_BENEFICIARY)), expect: E.code(-5053) },
  { name: 'B25 CLABE is the merchant\'s own deposit CLABE', wire: (s) => post(PAYMENTS, spei(s, { 'CLABE number': s.ownClabe })), expect: E.code(-5014) },
  { name: 'B27 deletes an unknown beneficiary', wire: () => get(`${PAYMENTS}/${UNKNOWN_ID}`, {}, 'DELETE'), expect: E.code(-4027) },
  { name: 'B27 deletes the beneficiary of a pending claim', wire: (s) => get(`${PAYMENTS}/${s.beneficiaryId}`, {}, 'DELETE'), expect: E.code(-5003) },
  { name: 'B28 names an unknown beneficiary', wire: (s) => post(REFUND_ACCOUNT, { userPaymentId: UNKNOWN_ID, merchantId: s.merchantId }), expect: E.code(-4027) },
  { name: 'B28 names another merchant\'s beneficiary', wire: (s) => post(REFUND_ACCOUNT, { userPaymentId: s.beneficiaryId, merchantId: s.otherId }), expect: E.code(-4027) },
  { name: 'B28 names a beneficiary under review', wire: (s) => post('/v2/payment/refund_account', { userPaymentId: s.reviewingId, merchantId: s.merchantId }), expect: E.code(-5017) },
  { name: 'a sandbox KYC approve of a verified merchant', wire: (s) => post(`/sandbox/v2/merchants/${s.merchantId}/kyc`, { action: 'approve' }), expect: E.code(-5104) },
  { name: 'a sandbox KYC call names an unknown merchant', wire: () => post(`/sandbox/v2/merchants/${UNKNOWN_ID}/kyc`, { action: 'submit' }), expect: E.code(-5006) },
  { name: 'a sandbox review of a missing USD account', wire: (s) => post(`/sandbox/v2/merchant/accounts/${s.merchantId}/USD/review`, { action: 'verify' }), expect: E.code(-5038) },
  { name: 'a sandbox approve of a valid beneficiary', wire: (s) => post(`/sandbox/v2/payments/${s.beneficiaryId}/review`, { action: 'approve' }), expect: E.code(-5104) },
  { name: 'a sandbox review of an unknown beneficiary', wire: () => post(`/sandbox/v2/payments/${UNKNOWN_ID}/review`, { action: 'approve' }), expect: E.code(-4027) },
  { name: 'a sandbox deposit in a fiat without an active account', wire: (s) => post('/sandbox/v2/deposits', { merchantId: s.merchantId, fiat: 'USD', amount: '10.00' }), expect: E.code(-5070) },
  { name: 'a sandbox deposit names an unknown merchant', wire: () => post('/sandbox/v2/deposits', { merchantId: UNKNOWN_ID, fiat: 'MXN', amount: '10.00' }), expect: E.code(-5006) },
  { name: 'a sandbox crypto deposit of an unconfigured crypto', wire: (s) => post('/sandbox/v2/crypto-deposits', { merchantId: s.merchantId, crypto: 'DOGE', amount: '5' }), expect: E.code(-5058) },
  { name: 'a sandbox complete of a completed deposit', wire: (s) => post(`/sandbox/v2/funding/${s.depositTxId}/complete`, {}), expect: E.code(-5104) },
];

/** docs/merchant-payments.md "Getting a token" token and B0, docs/merchant-payments.md "Answers and errors" unknown paths. */
const AUTH_ROWS: Row[] = [
  { name: 'B14 has no token', wire: () => ({ ...get(MERCHANTS), token: null }), expect: E.code(-1002) },
  { name: 'B14 token is unknown', wire: () => ({ ...get(MERCHANTS), token: '09ef3523-6242-4a8d-80e2-24cfbdb35851' }), expect: E.code(-1002) },
  { name: 'B18 token is not a UUID', wire: (s) => ({ ...post(CLAIM, claim(s)), token: 'not-a-token' }), expect: E.code(-1002) },
  { name: 'a sandbox call has no token', wire: () => ({ ...get('/sandbox/v2/modes'), token: null }), expect: E.code(-1002) },
  { name: 'B0 has no key header', wire: () => b0(`timestamp=${Date.now()}&signature=${'0'.repeat(64)}`), expect: E.code(-1002) },
  { name: 'B0 key is unknown', wire: () => b0(`timestamp=${Date.now()}&signature=${'0'.repeat(64)}`, 'A'.repeat(64)), expect: E.code(-2015) },
  { name: 'B0 has no signature', wire: (s) => b0(`timestamp=${Date.now()}`, s.apiKey), expect: E.code(-1102) },
  { name: 'B0 timestamp is a minute old', wire: (s) => b0(`timestamp=${Date.now() - 60_000}&signature=${'0'.repeat(64)}`, s.apiKey), expect: E.code(-1021) },
  { name: 'B0 signature is wrong', wire: (s) => b0(`timestamp=${Date.now()}&signature=${'0'.repeat(64)}`, s.apiKey), expect: E.code(-1022) },
  { name: 'an unknown /v2 path', wire: () => get('/v2/merchant/nothing'), expect: E.code(-1000) },
  { name: 'an unknown method on a /v2 path (PATCH B13)', wire: () => ({ ...post(MERCHANTS, newMerchant()), method: 'PATCH' }), expect: E.code(-1000) },
  { name: 'a /v2 path under /openapi/v2 (not an alias)', wire: () => get('/openapi/v2/merchants'), expect: E.code(-1000) },
  { name: 'an unknown /sandbox/v2 path', wire: () => post('/sandbox/v2/nothing', {}), expect: E.code(-1000) },
];

const ROWS: Row[] = [...BODY_ROWS, ...TYPE_ROWS, ...DECIMAL_ROWS, ...LENGTH_ROWS, ...PAGING_ROWS, ...VALUE_ROWS, ...FIELD_ROWS, ...STATE_ROWS, ...AUTH_ROWS];

/** docs/merchant-payments.md "The simulator and the sandbox API" with a merchant token while BOURSE_SANDBOX=0 (its own server). */
const SANDBOX_OFF_ROWS: Row[] = [
  { name: 'GET /sandbox/v2/modes with a token', wire: () => get('/sandbox/v2/modes'), expect: E.code(-5102) },
  { name: 'PUT /sandbox/v2/modes with a token', wire: () => put('/sandbox/v2/modes', { kyc: 'approve' }), expect: E.code(-5102) },
  { name: 'POST /sandbox/v2/deposits with a token', wire: () => post('/sandbox/v2/deposits', { merchantId: 1, fiat: 'MXN', amount: '10.00' }), expect: E.code(-5102) },
  { name: 'a sandbox KYC call with a token', wire: () => post('/sandbox/v2/merchants/1/kyc', { action: 'approve' }), expect: E.code(-5102) },
];

// ---------------------------------------------------------------- running rows

async function sendRow(baseUrl: string, token: string, wire: Wire): Promise<RawAnswer> {
  const headers: RawHeader[] = [...(wire.headers ?? [])];
  const rowToken = wire.token === undefined ? token : wire.token;
  if (rowToken !== null) headers.push(['X-BH-TOKEN', rowToken]);
  if (wire.contentType !== undefined) headers.push(['Content-Type', wire.contentType]);
  return rawRequest(baseUrl, { method: wire.method, target: wire.target, headers, body: wire.body });
}

function expectEnvelope(answer: RawAnswer, expected: Expected, data: unknown): void {
  const entry = CODES[expected.code];
  if (entry === undefined) throw new Error(`no docs/merchant-payments.md "Error codes" entry for ${expected.code}`);
  const [msg, http] = entry;
  expect(answer.status).not.toBe(500);
  expect({ status: answer.status, contentType: answer.headers['content-type']?.[0], body: answer.body }).toEqual({
    status: http,
    contentType: expect.stringMatching(/^application\/json/) as unknown,
    body: { code: expected.code, msg, detail: expected.detail === undefined ? (expect.any(String) as unknown) : (expect.stringMatching(expected.detail) as unknown), data },
  });
}

interface StateSnapshot {
  merchants: unknown;
  accounts: unknown;
  balances: unknown;
  beneficiaries: unknown;
  records: unknown;
  modes: unknown;
  verify: unknown;
}

async function snapshot(s: PaymentsStory): Promise<StateSnapshot> {
  const all = { pageSize: 1000 };
  const accounts = await s.client.ok<{ data: { merchantId: number; fiat: string; balance: string }[] }>('GET', ACCOUNTS, all);
  const verify = await s.op.ok<{ ok: boolean }>('GET', '/verify');
  return {
    merchants: await s.client.ok('GET', MERCHANTS, all),
    accounts,
    balances: accounts.data.map((a) => [a.merchantId, a.fiat, a.balance]),
    beneficiaries: await s.client.ok('GET', PAYMENTS, all),
    records: await s.client.ok('GET', RECORDS, all),
    modes: await s.client.ok('GET', '/sandbox/v2/modes'),
    verify: verify.ok,
  };
}

describe('bad input (area B: /v2, /openapi/v2, /sandbox/v2)', () => {
  let s: PaymentsStory;
  let scene: Scene;
  let before: StateSnapshot;

  beforeAll(async () => {
    s = await paymentsStory();
    const client = s.client;
    const merchantId = await onboardedMerchant(client, 'Acme MX');
    const otherId = await onboardedMerchant(client, 'Other MX');
    const deposit = await client.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '1000.00' });
    const beneficiaryId = (await client.ok<{ id: number; status: number }>('POST', PAYMENTS, { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldJson: SPEI_BENEFICIARY })).id;
    await client.ok('PUT', '/sandbox/v2/modes', { beneficiaryReview: 'manual', payout: 'manual', kyc: 'manual' });
    const reviewingId = (await client.ok<{ id: number }>('POST', PAYMENTS, { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', fieldJson: { 'CLABE number': '012180009876543210', 'Beneficiary Name': 'Rosa Diaz' } })).id;
    // A pending claim: 10.00 + 5.00 fee held, so the beneficiary is in use and 985.00 stays free.
    const heldClaimTx = (await client.ok<{ txId: number }>('POST', CLAIM, { merchantId, clientId: HELD_CLAIM, fiat: 'MXN', amount: '10.00', userPaymentId: beneficiaryId })).txId;
    const pendingId = (await client.ok<{ merchantId: number }>('POST', MERCHANTS, { merchantName: 'Pending Co', email: 'pending@example.mx', merchantType: 'INDIVIDUAL', callbackUrl: 'https://merchant.example/kyc-done' })).merchantId;
    const instructions = await client.ok<{ fieldList: Record<string, string> }>('GET', ADD_FUNDS, { merchantId, paymentId: 58, fiat: 'MXN' });
    scene = { merchantId, otherId, pendingId, beneficiaryId, reviewingId, heldClaimTx, depositTxId: deposit.txId, ownClabe: instructions.fieldList['Cuenta CLABE'], apiKey: client.apiKey };
    before = await snapshot(s);
  });
  afterAll(async () => s.t.stop());

  it('when the scene is set, then the merchants, accounts, beneficiaries and the held claim are as built', () => {
    const merchants = (before.merchants as { data: { merchantId: number; status: number }[] }).data.map((m) => [m.merchantId, m.status]);
    expect(merchants).toEqual([
      [scene.pendingId, 4],
      [scene.otherId, 2],
      [scene.merchantId, 2],
    ]);
    expect(before.balances).toEqual([
      [scene.otherId, 'MXN', '0.00'],
      [scene.merchantId, 'MXN', '985.00'],
    ]);
    const beneficiaries = (before.beneficiaries as { record: { id: number; status: number }[] }).record.map((b) => [b.id, b.status]);
    expect(beneficiaries).toEqual([
      [scene.reviewingId, 2],
      [scene.beneficiaryId, 1],
    ]);
    const records = (before.records as { data: { txId: number; type: string; status: number }[] }).data.map((r) => [r.txId, r.type, r.status]);
    expect(records).toEqual([
      [scene.heldClaimTx, 'WITHDRAW', 1],
      [scene.depositTxId, 'DEPOSIT', 2],
    ]);
    expect(scene.ownClabe).toMatch(/^706180[0-9]{12}$/);
    expect(before.verify).toBe(true);
  });

  it(`when the table is counted, then it has at least 70 rows (${ROWS.length + SANDBOX_OFF_ROWS.length})`, () => {
    expect(ROWS.length + SANDBOX_OFF_ROWS.length).toBeGreaterThanOrEqual(70);
    expect(new Set(ROWS.map((row) => row.name)).size).toBe(ROWS.length);
  });

  for (const row of ROWS) {
    const { code } = row.expect;
    it(`when ${row.name}, then ${CODES[code]?.[1] ?? '?'} ${code}`, async () => {
      const answer = await sendRow(s.t.url, s.client.token, row.wire(scene));
      expectEnvelope(answer, row.expect, row.expect.data?.(scene) ?? null);
    });
  }

  it('when every row has been refused, then merchants, accounts, pending funds, beneficiaries, records and modes are unchanged and verify is ok', async () => {
    const after = await snapshot(s);
    expect(after).toEqual(before);
    await s.verified();
  });
});

describe('bad input (docs/merchant-payments.md "The simulator and the sandbox API" with BOURSE_SANDBOX=0)', () => {
  let s: PaymentsStory;

  beforeAll(async () => {
    s = await paymentsStory({ BOURSE_SANDBOX: '0' });
  });
  afterAll(async () => s.t.stop());

  for (const row of SANDBOX_OFF_ROWS) {
    it(`when ${row.name}, then 404 -5102`, async () => {
      const answer = await sendRow(s.t.url, s.client.token, row.wire({} as Scene));
      expectEnvelope(answer, row.expect, null);
    });
  }
});
