/**
 * Control and bidi-override characters in stored texts (docs/merchant-payments.md "Requests",
 * docs/operating.md "Values", docs/spot-api.md "Methods and parameters"): every free text a client
 * or the operator can store refuses a C0 or C1 control character and the bidirectional embeddings,
 * overrides and isolates, in the area's own format: the merchant payments API -4010 with `detail`
 * naming the member, the operator API and the spot API -1100 naming it. After the whole table
 * nothing of what the rows sent was stored. Accents, emoji and right-to-left marks still are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type HttpAnswer, type SpotClient } from '../support/clients.js';
import { BUSINESS_FIELDS, onboardedMerchant, SPEI_BENEFICIARY } from '../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../support/payments-story.js';

interface Scene {
  s: PaymentsStory;
  merchantId: number;
  spot: SpotClient;
}

type Area = 'merchant' | 'operator' | 'spot';

interface Row {
  area: Area;
  /** Where the text goes, for the test's name. */
  what: string;
  /** The parameter the refusal names (a member path for nested JSON). */
  param: string;
  /** The refused character, as the answer names it. */
  char: string;
  send: (scene: Scene) => Promise<HttpAnswer>;
}

const NUL = '\u0000';
const BEL = '\u0007';
const ESC = '\u001B';
const NEL = '\u0085';
const LRO = '\u202D';
const RLO = '\u202E';
const LRI = '\u2066';
const PDI = '\u2069';

const NEW_MERCHANT = { email: 'acme@example.mx', merchantType: 'BUSINESS', callbackUrl: 'https://merchant.example/kyc-done' };

/** A merchant payments API request with the story user's token. */
function merchant(scene: Scene, method: string, target: string, body: string | undefined, contentType = 'application/json'): Promise<HttpAnswer> {
  const headers: Record<string, string> = { 'X-BH-TOKEN': scene.s.client.token };
  if (body !== undefined) headers['Content-Type'] = contentType;
  return request(`${scene.s.t.url}${target}`, { method, headers, body });
}

const json = (scene: Scene, method: string, path: string, body: Record<string, unknown>): Promise<HttpAnswer> => merchant(scene, method, path, JSON.stringify(body));
const operator = (scene: Scene, method: string, path: string, body: Record<string, unknown>): Promise<HttpAnswer> => scene.s.op.admin.send(method, path, body);

const ROWS: Row[] = [
  // The merchant payments API: JSON bodies (every string, nested ones too), form bodies and queries.
  { area: 'merchant', what: 'B13 merchantName (JSON)', param: 'merchantName', char: 'U+0000', send: (c) => json(c, 'POST', '/v2/merchants', { ...NEW_MERCHANT, merchantName: `Ac${NUL}me` }) },
  { area: 'merchant', what: 'B13 merchantName (JSON)', param: 'merchantName', char: 'U+202E', send: (c) => json(c, 'POST', '/v2/merchants', { ...NEW_MERCHANT, merchantName: `${RLO}emca` }) },
  { area: 'merchant', what: 'B13 remark (JSON)', param: 'remark', char: 'U+2066', send: (c) => json(c, 'POST', '/v2/merchants', { ...NEW_MERCHANT, merchantName: 'Acme', remark: `paid by ${LRI}x${PDI}` }) },
  {
    area: 'merchant',
    what: 'B13 merchantName (form body)',
    param: 'merchantName',
    char: 'U+0000',
    send: (c) => merchant(c, 'POST', '/v2/merchants', `${new URLSearchParams(NEW_MERCHANT).toString()}&merchantName=Ac%00me`, 'application/x-www-form-urlencoded'),
  },
  {
    area: 'merchant',
    what: 'B13 merchantName (query)',
    param: 'merchantName',
    char: 'U+202E',
    send: (c) => merchant(c, 'POST', '/v2/merchants?merchantName=%E2%80%AEemca', JSON.stringify({ ...NEW_MERCHANT, merchantName: 'Acme' })),
  },
  { area: 'merchant', what: 'B13 callbackUrl', param: 'callbackUrl', char: 'U+202E', send: (c) => json(c, 'POST', '/v2/merchants', { ...NEW_MERCHANT, merchantName: 'Acme', callbackUrl: `https://merchant.example/${RLO}gpj.exe` }) },
  {
    area: 'merchant',
    what: 'B15 fieldList member (JSON)',
    param: 'fieldList.companyName',
    char: 'U+0085',
    send: (c) => json(c, 'POST', '/v2/merchant/accounts', { merchantId: c.merchantId, fiat: 'USD', fieldList: { ...BUSINESS_FIELDS, companyName: `Acme${NEL}` } }),
  },
  {
    area: 'merchant',
    what: 'B15 fieldList member (JSON text in a form body)',
    param: 'fieldList.address',
    char: 'U+001B',
    send: (c) =>
      merchant(
        c,
        'POST',
        '/v2/merchant/accounts',
        new URLSearchParams({ merchantId: String(c.merchantId), fiat: 'USD', fieldList: JSON.stringify({ ...BUSINESS_FIELDS, address: `Av. Reforma 1${ESC}[2J` }) }).toString(),
        'application/x-www-form-urlencoded',
      ),
  },
  {
    area: 'merchant',
    what: 'B25 realName',
    param: 'realName',
    char: 'U+202D',
    send: (c) => json(c, 'POST', '/v2/payments', { merchantId: c.merchantId, paymentId: 58, country: 'MX', fiat: 'MXN', realName: `${LRO}Juan`, fieldJson: SPEI_BENEFICIARY }),
  },
  {
    area: 'merchant',
    what: 'B25 fieldJson member',
    param: 'fieldJson.Beneficiary Name',
    char: 'U+0000',
    send: (c) => json(c, 'POST', '/v2/payments', { merchantId: c.merchantId, paymentId: 58, country: 'MX', fiat: 'MXN', fieldJson: { ...SPEI_BENEFICIARY, 'Beneficiary Name': `Juan${NUL}` } }),
  },
  {
    area: 'merchant',
    what: 'B25 remark',
    param: 'remark',
    char: 'U+0007',
    send: (c) => json(c, 'POST', '/v2/payments', { merchantId: c.merchantId, paymentId: 58, country: 'MX', fiat: 'MXN', fieldJson: SPEI_BENEFICIARY, remark: `ring${BEL}` }),
  },
  {
    area: 'merchant',
    what: 'B29 remark',
    param: 'remark',
    char: 'U+202E',
    send: (c) => json(c, 'POST', '/v2/order/fiat_to_crypto', { merchantId: c.merchantId, country: 'MX', fiat: 'MXN', crypto: 'USDT', fiatAmount: '100.00', paymentId: 58, remark: `${RLO}dnufer` }),
  },
  { area: 'merchant', what: 'B36 url', param: 'url', char: 'U+2066', send: (c) => json(c, 'POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: `https://merchant.example/${LRI}hooks` }) },
  {
    area: 'merchant',
    what: 'sandbox bank arrival payerName',
    param: 'payerName',
    char: 'U+0000',
    send: (c) => json(c, 'POST', '/sandbox/v2/deposits', { merchantId: c.merchantId, fiat: 'MXN', amount: '10.00', payerName: `Juan${NUL}Perez` }),
  },
  // The operator API: its JSON bodies, -1100 naming the member.
  { area: 'operator', what: 'user email', param: 'email', char: 'U+0000', send: (c) => operator(c, 'POST', '/users', { email: `a${NUL}b@example.com` }) },
  { area: 'operator', what: 'sub-account name', param: 'name', char: 'U+202E', send: (c) => operator(c, 'POST', `/users/${c.s.userId}/sub-accounts`, { name: `${RLO}tob` }) },
  { area: 'operator', what: 'API key label', param: 'label', char: 'U+000A', send: (c) => operator(c, 'POST', `/users/${c.s.userId}/api-keys`, { label: 'bot\nFAKE LOG LINE' }) },
  { area: 'operator', what: 'deposit txId', param: 'txId', char: 'U+0000', send: (c) => operator(c, 'POST', '/deposits', { accountId: 2, asset: 'USDT', amount: '1', txId: `0xabc${NUL}` }) },
  { area: 'operator', what: 'withdrawal reject reason', param: 'reason', char: 'U+2069', send: (c) => operator(c, 'POST', '/withdrawals/1/reject', { reason: `address check${PDI}` }) },
  { area: 'operator', what: 'asset fullName', param: 'fullName', char: 'U+0085', send: (c) => operator(c, 'POST', '/assets', { asset: 'CTRL', precision: 2, fullName: `Control${NEL}` }) },
  { area: 'operator', what: 'asset chains item', param: 'chains[1]', char: 'U+202D', send: (c) => operator(c, 'POST', '/assets', { asset: 'CTRL', precision: 2, chains: ['CTRL', `${LRO}X`] }) },
  {
    area: 'operator',
    what: 'payments config rail name',
    param: 'rails[0].paymentMethodName',
    char: 'U+202E',
    send: (c) => operator(c, 'PATCH', '/payments/config', { rails: [{ paymentId: 58, paymentMethodName: `${RLO}IEPS` }] }),
  },
  // The spot API's stored texts are formats (docs/spot-api.md "Methods and parameters"): refused as -1100 by those.
  {
    area: 'spot',
    what: 'A11 newClientOrderId',
    param: 'newClientOrderId',
    char: 'U+0000',
    send: (c) => c.spot.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '10', newClientOrderId: `a${NUL}b` }),
  },
  {
    area: 'spot',
    what: 'A22 withdraw address',
    param: 'address',
    char: 'U+202E',
    send: (c) => c.spot.signed('POST', '/openapi/v1/withdraw', { tokenId: 'USDT', clientOrderId: 'w-1', address: `${RLO}T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb`, withdrawQuantity: '10', chainType: 'TRC20' }),
  },
];

describe('control and bidi-override characters in stored texts', () => {
  let scene: Scene;
  /** What the operator and the merchant see before the first row: the table must leave it as it is. */
  let before: unknown[];

  /** Users with their accounts, the story user's merchants, the payments config and the ledger totals. */
  const storedState = async (): Promise<unknown[]> => [
    await scene.s.op.ok('GET', '/users?limit=1000'),
    await scene.s.client.ok('GET', '/v2/merchants', { pageSize: 1000 }),
    await scene.s.client.ok('GET', '/v2/payments', { merchantId: scene.merchantId, pageSize: 1000 }),
    await scene.s.client.ok('GET', '/v2/webhooks'),
    await scene.s.op.ok('GET', '/payments/config'),
    await scene.s.op.ok('GET', '/assets'),
    ((await scene.s.op.ok('GET', '/verify')) as { details: unknown }).details,
  ];

  beforeAll(async () => {
    const s = await paymentsStory();
    const merchantId = await onboardedMerchant(s.client, 'Table Texts');
    const spot = (await s.op.member({ USDT: '1000' })).client;
    scene = { s, merchantId, spot };
    before = await storedState();
  });
  afterAll(async () => scene.s.t.stop());

  it.each(ROWS.map((row) => [row.area, row.what, row.char, row] as const))('when the %s API gets %s holding %s, then it is refused naming it', async (area, _what, char, row) => {
    const answer = await row.send(scene);
    expect(answer.status).toBe(400);
    if (area === 'merchant') {
      expect(answer.body).toEqual({ code: -4010, msg: 'PARAM_IS_INVALID', detail: `${row.param} contains ${char}: control and bidi-override characters are refused`, data: null });
    } else {
      const body = answer.body as { code: number; msg: string };
      expect(body.code).toBe(-1100);
      expect(body.msg).toContain(`parameter '${row.param}'`);
      if (area === 'operator') expect(body.msg).toContain(`(found ${char})`);
    }
  });

  it('when the table has run, then nothing any row sent was stored', async () => {
    expect(await storedState()).toEqual(before);
  });

  it('when texts hold accents, emoji and right-to-left marks, then they are stored as sent', async () => {
    const merchantName = 'Café ☕ שלום\u200F';
    const created = await scene.s.client.ok<{ merchantId: number }>('POST', '/v2/merchants', { ...NEW_MERCHANT, email: 'cafe@example.mx', merchantName });
    const listed = await scene.s.client.ok<{ data: { merchantId: number; merchantName: string }[] }>('GET', '/v2/merchants', { merchantName });
    expect(listed.data.map((m) => [m.merchantId, m.merchantName])).toEqual([[created.merchantId, merchantName]]);

    const name = 'Ünïcødé 💱 حساب\u200F';
    const sub = await scene.s.op.ok<{ accountId: string }>('POST', `/users/${scene.s.userId}/sub-accounts`, { name });
    const users = await scene.s.op.ok<{ userId: string; accounts: { accountId: string; name: string }[] }[]>('GET', `/users?fromUserId=${scene.s.userId}&limit=1`);
    expect(users[0].accounts).toContainEqual({ accountId: sub.accountId, accountIndex: expect.any(Number), name });
  });
});
