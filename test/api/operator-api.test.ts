import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance } from '../support/account-reads.js';
import { AdminClient, request, SpotClient, type HttpAnswer } from '../support/clients.js';
import { Operator } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface User {
  userId: string;
  accountId: string;
}
interface Key {
  apiKey: string;
  secretKey: string;
  permissions: string[];
}
interface ErrorBody {
  code: number;
  msg: string;
}

const ALL_PERMISSIONS = ['ACCOUNT_TRANSFER', 'BALANCE_FLOW', 'MARKET_DATA', 'SUB_ACCOUNT_LIST', 'TRADE', 'TRANSFER', 'USER_DATA', 'USER_STREAM', 'WITHDRAW'];
const DEFAULT_CONFIG = {
  requestWeightPerMinute: 3000,
  ordersPerSecond: 20,
  ordersPerDay: 350000,
  maxOpenOrdersPerSymbol: 200,
  maxOpenOrdersPerAccount: 1000,
  defaultMakerFeeRate: '0.001',
  defaultTakerFeeRate: '0.001',
  listenKeyTtlMs: 3600000,
  banStrikes: 20,
  banBaseMs: 120000,
  banMaxMs: 259200000,
  algoOrders: false,
  maxAlgoOrdersPerSymbol: 5,
  maxAlgoOrdersPerAccount: 100,
  maxIcebergParts: 10,
};

/** Moves a table row's request body to the end, so that titles can print the codes that follow it. */
function bodyLast<B, R extends unknown[]>(rows: [string, B, ...R][]): [string, ...R, B][] {
  return rows.map(([what, body, ...rest]) => [what, ...rest, body]);
}

/** A 4xx `{code, msg}` refusal: exact status and code, and `msg` containing `mentions` when given. */
function expectRefusal(answer: HttpAnswer, status: number, code: number, mentions?: string): void {
  expect(answer.status).toBe(status);
  const body = answer.body as ErrorBody;
  expect(Object.keys(body).sort()).toEqual(['code', 'msg']);
  expect(body.code).toBe(code);
  if (mentions !== undefined) expect(body.msg).toContain(mentions);
}

describe('operator API /admin/v1', () => {
  let t: TestServer;
  let admin: AdminClient;
  let op: Operator;

  const createUser = (body: Record<string, unknown> = {}): Promise<User> => op.ok<User>('POST', '/users', body);
  const createKey = (userId: string, body: Record<string, unknown> = {}): Promise<Key> => op.ok<Key>('POST', `/users/${userId}/api-keys`, body);

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    admin = op.admin;
  });
  afterAll(async () => t.stop());

  describe('authentication and errors', () => {
    it('when no token is sent, then 401 -1002', async () => {
      const answer = await request(`${t.url}/admin/v1/trading/config`);
      expectRefusal(answer, 401, -1002);
    });

    it('when the Authorization header is not a bearer token, then 401 -1002', async () => {
      const answer = await request(`${t.url}/admin/v1/trading/config`, { headers: { Authorization: `Basic ${t.adminToken}` } });
      expectRefusal(answer, 401, -1002);
    });

    it.each(['wrong', 'x', 'a'.repeat(300)])('when a wrong bearer token is sent (%#), then 401 -2015', async (token) => {
      const answer = await new AdminClient(t.url, token).send('GET', '/trading/config');
      expectRefusal(answer, 401, -2015);
    });

    it('when the token is right but one character longer, then 401 -2015', async () => {
      expectRefusal(await new AdminClient(t.url, `${t.adminToken}x`).send('GET', '/verify'), 401, -2015);
    });

    it('when a wrong token calls a mutating endpoint, then nothing is created', async () => {
      const before = (await admin.send('GET', '/verify')).body as { details: unknown[] };
      expectRefusal(await new AdminClient(t.url, 'nope').send('POST', '/assets', { asset: 'EVIL', precision: 2 }), 401, -2015);
      expect(((await admin.send('GET', '/verify')).body as { details: unknown[] }).details).toEqual(before.details);
    });

    it.each([
      ['GET', '/nothing'],
      ['PUT', '/users'],
      ['PUT', '/trading/config'],
    ])('when %s /admin/v1%s is not an operator route, then 404 -1000', async (method, path) => {
      expectRefusal(await admin.send(method, path), 404, -1000);
    });

    it.each([
      ['malformed JSON', '{"email":'],
      ['a JSON array', '[]'],
      ['a JSON string', '"user"'],
    ])('when the body is %s, then 400 -1100', async (_what, body) => {
      const answer = await request(`${t.url}/admin/v1/users`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${t.adminToken}`, 'Content-Type': 'application/json' },
        body,
      });
      expectRefusal(answer, 400, -1100);
    });

    it.each([
      ['text/plain', 'name=bot'],
      ['text/plain;charset=UTF-8', '{"email":"plain@example.com"}'],
      ['application/x-www-form-urlencoded', 'email=form@example.com'],
    ])('when the body is sent as %s, then 415 -1000 names that type and application/json, and no user is created', async (type, body) => {
      const before = (await op.ok<unknown[]>('GET', '/users?limit=1000')).length;
      const answer = await request(`${t.url}/admin/v1/users`, { method: 'POST', headers: { Authorization: `Bearer ${t.adminToken}`, 'Content-Type': type }, body });
      expectRefusal(answer, 415, -1000, `(Content-Type ${type.split(';')[0].toLowerCase()}; the operator API takes application/json)`);
      expect((await op.ok<unknown[]>('GET', '/users?limit=1000')).length).toBe(before);
    });

    it('when a JSON body comes without a Content-Type, then it is read as JSON', async () => {
      // A Blob without a type makes fetch send no Content-Type at all.
      const answer = await request(`${t.url}/admin/v1/users`, { method: 'POST', headers: { Authorization: `Bearer ${t.adminToken}` }, body: new Blob(['{"email":"untyped@example.com"}']) });
      expect(answer.status).toBe(200);
      const users = await op.ok<{ email: string }[]>('GET', '/users?limit=1000');
      expect(users.map((u) => u.email)).toContain('untyped@example.com');
    });
  });

  describe('users, sub-accounts and API keys', () => {
    it('when a user is created, then ids come as digit strings and the main account is usable', async () => {
      const user = await createUser({ email: 'a@example.com' });
      expect(Object.keys(user).sort()).toEqual(['accountId', 'userId']);
      expect(user.userId).toMatch(/^[1-9][0-9]*$/);
      expect(user.accountId).toMatch(/^[1-9][0-9]*$/);
      const key = await createKey(user.userId);
      const account = await new SpotClient(t.url, key.apiKey, key.secretKey).signed('GET', '/openapi/v1/account');
      expect(account.body).toMatchObject({ accountId: user.accountId });
    });

    it('when a merchant user is created, then it answers like any user', async () => {
      const user = await createUser({ type: 'merchant' });
      expect(user.userId).toMatch(/^[1-9][0-9]*$/);
    });

    it.each(
      bodyLast<Record<string, unknown>, [number]>([
      ['an unknown type', { type: 'robot' }, -1130],
      ['an email that is not a string', { email: 5 }, -1100],
      ]),
    )('when a user is created with %s, then 400 %i', async (_what, code, body) => {
      expectRefusal(await admin.send('POST', '/users', body), 400, code);
    });

    it('when sub-accounts are created, then they take the next indexes and A29 lists them after the main account', async () => {
      const owner = await op.member();
      const first = await admin.send('POST', `/users/${owner.userId}/sub-accounts`, {});
      const second = await admin.send('POST', `/users/${owner.userId}/sub-accounts`, { name: 'bot-a' });
      expect(first.body).toEqual({ accountId: expect.stringMatching(/^[0-9]+$/), accountIndex: 1 });
      expect(second.body).toEqual({ accountId: expect.stringMatching(/^[0-9]+$/), accountIndex: 2 });
      const listed = await owner.client.signed('POST', '/openapi/v1/subAccount/query');
      expect(listed.body).toEqual([
        { accountId: owner.accountId, accountName: '', accountType: 1, accountIndex: 0 },
        { accountId: (first.body as { accountId: string }).accountId, accountName: 'sub1', accountType: 1, accountIndex: 1 },
        { accountId: (second.body as { accountId: string }).accountId, accountName: 'bot-a', accountType: 1, accountIndex: 2 },
      ]);
    });

    it('when a sub-account name is over 32 characters, then -1130; for an unknown user, then 404 naming it', async () => {
      const owner = await createUser();
      expectRefusal(await admin.send('POST', `/users/${owner.userId}/sub-accounts`, { name: 'n'.repeat(33) }), 400, -1130);
      expectRefusal(await admin.send('POST', '/users/987654/sub-accounts', {}), 404, -1000, '987654');
    });

    it('when a key is created without options, then it has 64-character key and secret and every permission', async () => {
      const user = await createUser();
      const key = await createKey(user.userId);
      expect(key.apiKey).toMatch(/^[A-Za-z0-9]{64}$/);
      expect(key.secretKey).toMatch(/^[A-Za-z0-9]{64}$/);
      expect(key.apiKey).not.toBe(key.secretKey);
      expect([...key.permissions].sort()).toEqual(ALL_PERMISSIONS);
    });

    it('when a key is created with permissions, whitelist and label, then the list shows them and never the secret', async () => {
      const user = await createUser();
      const key = await createKey(user.userId, { permissions: ['USER_DATA', 'TRADE'], ipWhitelist: ['127.0.0.1', '10.0.0.0/8'], label: 'bot' });
      expect(key.permissions).toEqual(['USER_DATA', 'TRADE']);
      const listed = await admin.send('GET', `/users/${user.userId}/api-keys`);
      expect(listed.status).toBe(200);
      const entries = listed.body as Record<string, unknown>[];
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ apiKey: key.apiKey, permissions: ['USER_DATA', 'TRADE'], ipWhitelist: ['127.0.0.1', '10.0.0.0/8'], label: 'bot', revoked: false });
      expect(JSON.stringify(listed.body)).not.toContain(key.secretKey);
    });

    it.each(
      bodyLast<Record<string, unknown>, [number]>([
      ['an unknown permission', { permissions: ['ADMIN'] }, -1130],
      ['permissions that are not an array', { permissions: 'TRADE' }, -1100],
      ['a whitelist entry that is no address', { ipWhitelist: ['999.1.1.1'] }, -1130],
      ]),
    )('when a key is created with %s, then 400 %i', async (_what, code, body) => {
      const user = await createUser();
      expectRefusal(await admin.send('POST', `/users/${user.userId}/api-keys`, body), 400, code);
    });

    it('when a key is created for an unknown user or account index, then 404 -1000 naming it', async () => {
      expectRefusal(await admin.send('POST', '/users/876543/api-keys', {}), 404, -1000, '876543');
      const user = await createUser();
      expectRefusal(await admin.send('POST', `/users/${user.userId}/api-keys`, { accountIndex: 7 }), 404, -1000);
    });

    it('when a key is revoked, then it is refused at once and listed as revoked; revoking it again is 404', async () => {
      const owner = await op.member();
      const key = await createKey(owner.userId);
      const client = new SpotClient(t.url, key.apiKey, key.secretKey);
      expect((await client.signed('GET', '/openapi/v1/account')).status).toBe(200);
      expect((await admin.send('DELETE', `/api-keys/${key.apiKey}`)).status).toBe(200);
      expect((await client.signed('GET', '/openapi/v1/account')).body).toEqual({ code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
      const listed = (await admin.send('GET', `/users/${owner.userId}/api-keys`)).body as { apiKey: string; revoked: boolean }[];
      expect(listed.find((k) => k.apiKey === key.apiKey)?.revoked).toBe(true);
      expect(listed.find((k) => k.apiKey !== key.apiKey)?.revoked).toBe(false);
      expectRefusal(await admin.send('DELETE', `/api-keys/${key.apiKey}`), 404, -1000);
    });

    it('when an unknown key is revoked, then 404 -1000', async () => {
      expectRefusal(await admin.send('DELETE', `/api-keys/${'Q'.repeat(64)}`), 404, -1000);
    });
  });

  describe('deposits', () => {
    it('when a deposit is credited, then A19 and A21 show it with the operator txId', async () => {
      const owner = await op.member();
      const answer = await admin.send('POST', '/deposits', { accountId: owner.accountId, asset: 'BTC', amount: '0.50', txId: 'chain-tx-1' });
      expect(answer.status).toBe(200);
      const { depositId } = answer.body as { depositId: string };
      expect(depositId).toMatch(/^[1-9][0-9]*$/);
      expect(await balance(owner.client, 'BTC')).toEqual({ asset: 'BTC', assetId: 'BTC', assetName: 'BTC', total: '0.5', free: '0.5', locked: '0' });
      const listed = (await owner.client.signed('GET', '/openapi/v1/depositOrders')).body as Record<string, unknown>[];
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ orderId: depositId, accountId: owner.accountId, tokenId: 'BTC', quantity: '0.5', status: 2, statusCode: 'DEPOSIT_CAN_WITHDRAW', txid: 'chain-tx-1' });
    });

    it('when accountId and amount come as JSON numbers, then they are accepted', async () => {
      const owner = await op.member();
      expect((await admin.send('POST', '/deposits', { accountId: Number(owner.accountId), asset: 'ETH', amount: 1.25 })).status).toBe(200);
      expect(await balance(owner.client, 'ETH')).toMatchObject({ total: '1.25' });
    });

    it.each(
      bodyLast<Record<string, unknown>, [number, number]>([
      ['amount 0', { asset: 'BTC', amount: '0' }, 400, -1130],
      ['more decimals than the asset has', { asset: 'BTC', amount: '0.000000001' }, 400, -1130],
      ['a negative amount', { asset: 'BTC', amount: '-1' }, 400, -1100],
      ['an amount that is no decimal', { asset: 'BTC', amount: 'abc' }, 400, -1100],
      ['an amount with an exponent', { asset: 'BTC', amount: '1e3' }, 400, -1100],
      ['no amount', { asset: 'BTC' }, 400, -1102],
      ['no asset', { amount: '1' }, 400, -1102],
      ['an unknown asset', { asset: 'DOGE', amount: '1' }, 404, -1000],
      ]),
    )('when a deposit has %s, then %i %i and the balance is unchanged', async (_what, status, code, body) => {
      const owner = await op.member();
      expectRefusal(await admin.send('POST', '/deposits', { accountId: owner.accountId, ...body }), status, code);
      expect(await balance(owner.client, 'BTC')).toMatchObject({ total: '0' });
    });

    it('when a deposit names an unknown or missing account, then 404 naming it / -1102', async () => {
      expectRefusal(await admin.send('POST', '/deposits', { accountId: '999999', asset: 'BTC', amount: '1' }), 404, -1000, '999999');
      expectRefusal(await admin.send('POST', '/deposits', { asset: 'BTC', amount: '1' }), 400, -1102);
    });
  });

  describe('withdrawals', () => {
    const withdraw = async (client: SpotClient, clientOrderId: string, quantity: string): Promise<string> => {
      const answer = await client.signed('POST', '/openapi/v1/withdraw', { tokenId: 'USDT', chainType: 'TRC20', address: 'TXYZabc123', withdrawQuantity: quantity, clientOrderId });
      expect(answer.status).toBe(200);
      return (answer.body as { orderId: string }).orderId;
    };
    const detail = async (client: SpotClient, orderId: string): Promise<Record<string, unknown>> =>
      (await client.signed('GET', '/openapi/v1/withdraw/detail', { orderId })).body as Record<string, unknown>;

    it('when a pending withdrawal is approved, then it is sent with the txId and its locked amount and fee leave the account', async () => {
      const owner = await op.member({ USDT: '1000' });
      const orderId = await withdraw(owner.client, 'w-approve', '100');
      expect(await balance(owner.client, 'USDT')).toMatchObject({ total: '1000', free: '899', locked: '101' });
      const answer = await admin.send('POST', `/withdrawals/${orderId}/approve`, { txId: '0xfeed' });
      expect(answer.status).toBe(200);
      expect(await balance(owner.client, 'USDT')).toMatchObject({ total: '899', free: '899', locked: '0' });
      const record = await detail(owner.client, orderId);
      expect(record).toMatchObject({ orderId, status: 6, statusCode: 'WITHDRAWAL_SUCCESS_STATUS', txid: '0xfeed', quantity: '100', fee: '1' });
      expect(record.walletHandleTime).not.toBe('0');
    });

    it('when a pending withdrawal is rejected, then its funds are unlocked', async () => {
      const owner = await op.member({ USDT: '1000' });
      const orderId = await withdraw(owner.client, 'w-reject', '50');
      expect(await balance(owner.client, 'USDT')).toMatchObject({ free: '949', locked: '51' });
      expect((await admin.send('POST', `/withdrawals/${orderId}/reject`, { reason: 'address on a sanctions list' })).status).toBe(200);
      expect(await balance(owner.client, 'USDT')).toMatchObject({ total: '1000', free: '1000', locked: '0' });
      expect(await detail(owner.client, orderId)).toMatchObject({ status: 2, statusCode: 'BROKER_REJECT_STATUS', txid: '' });
    });

    it('when a settled withdrawal is approved or rejected again, then -1130 and nothing moves', async () => {
      const owner = await op.member({ USDT: '1000' });
      const orderId = await withdraw(owner.client, 'w-twice', '10');
      await admin.send('POST', `/withdrawals/${orderId}/approve`, {});
      const after = await balance(owner.client, 'USDT');
      expectRefusal(await admin.send('POST', `/withdrawals/${orderId}/approve`, {}), 400, -1130);
      expectRefusal(await admin.send('POST', `/withdrawals/${orderId}/reject`, {}), 400, -1130);
      expect(await balance(owner.client, 'USDT')).toEqual(after);
    });

    it.each(['approve', 'reject'])('when %s names an unknown withdrawal, then 404 -1000 naming it', async (verb) => {
      expectRefusal(await admin.send('POST', `/withdrawals/424242/${verb}`, {}), 404, -1000, '424242');
      expectRefusal(await admin.send('POST', `/withdrawals/abc/${verb}`, {}), 404, -1000);
    });
  });

  describe('assets and symbols', () => {
    it('when a crypto asset is added, then A3 lists its token and A19 shows a zero balance', async () => {
      const answer = await admin.send('POST', '/assets', { asset: 'SOL', precision: 9, fullName: 'Solana', chains: ['SOL'], withdrawFee: '0.01', minWithdraw: '0.1' });
      expect(answer.status).toBe(200);
      const info = (await request(`${t.url}/openapi/v1/exchange`)).body as { tokens: { tokenId: string }[] };
      expect(info.tokens.find((token) => token.tokenId === 'SOL')).toEqual({
        tokenId: 'SOL',
        tokenName: 'SOL',
        tokenFullName: 'Solana',
        allowDeposit: true,
        allowWithdraw: true,
        chainTypes: [{ chainType: 'SOL', allowDeposit: true, allowWithdraw: true }],
      });
      expect(info.tokens.map((token) => token.tokenId)).toEqual(['BTC', 'ETH', 'EUR', 'MXN', 'SOL', 'USD', 'USDT']);
      const owner = await op.member();
      expect(await balance(owner.client, 'SOL')).toEqual({ asset: 'SOL', assetId: 'SOL', assetName: 'SOL', total: '0', free: '0', locked: '0' });
    });

    it('when a fiat asset is added, then its token has no chains and no deposit or withdrawal', async () => {
      expect((await admin.send('POST', '/assets', { asset: 'JPY', precision: 2, kind: 'fiat' })).status).toBe(200);
      const info = (await request(`${t.url}/openapi/v1/exchange`)).body as { tokens: { tokenId: string }[] };
      expect(info.tokens.find((token) => token.tokenId === 'JPY')).toEqual({
        tokenId: 'JPY',
        tokenName: 'JPY',
        tokenFullName: 'JPY',
        allowDeposit: false,
        allowWithdraw: false,
        chainTypes: [],
      });
    });

    it.each(
      bodyLast<Record<string, unknown>, [number]>([
      ['precision 19', { asset: 'ZZA', precision: 19 }, -1130],
      ['an unknown kind', { asset: 'ZZB', precision: 2, kind: 'stock' }, -1130],
      ['an existing name', { asset: 'BTC', precision: 8 }, -1130],
      ['no precision', { asset: 'ZZC' }, -1102],
      ['no name', { precision: 2 }, -1102],
      ['a withdrawal fee finer than the precision', { asset: 'ZZD', precision: 2, withdrawFee: '0.001' }, -1130],
      ]),
    )('when an asset is added with %s, then 400 %i', async (_what, code, body) => {
      expectRefusal(await admin.send('POST', '/assets', body), 400, code);
    });

    it('when a symbol is added, then A3 and A4 list it TRADING with the default filters and orders work on it', async () => {
      const answer = await admin.send('POST', '/symbols', { symbol: 'ETHEUR', baseAsset: 'ETH', quoteAsset: 'EUR', tickSize: '0.01', stepSize: '0.001', minNotional: '5' });
      expect(answer.status).toBe(200);
      const info = (await request(`${t.url}/openapi/v1/exchange`)).body as { symbols: { symbol: string }[] };
      expect(info.symbols.find((s) => s.symbol === 'ETHEUR')).toEqual({
        symbol: 'ETHEUR',
        symbolName: 'ETHEUR',
        status: 'TRADING',
        exchangeId: '301',
        baseAsset: 'ETH',
        baseAssetName: 'ETH',
        baseAssetPrecision: '0.001',
        quoteAsset: 'EUR',
        quoteAssetName: 'EUR',
        quotePrecision: '0.01',
        quoteAssetPrecision: '0.01',
        icebergAllowed: false,
        isAggregate: false,
        allowMargin: false,
        filters: [
          { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '10000000', tickSize: '0.01' },
          { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000000', stepSize: '0.001' },
          { filterType: 'MIN_NOTIONAL', minNotional: '5' },
        ],
      });
      expect(((await request(`${t.url}/openapi/v1/pairs`)).body as unknown[])).toContainEqual({ symbol: 'ETHEUR', quoteToken: 'EUR', baseToken: 'ETH' });
      const owner = await op.member({ EUR: '100' });
      const order = await owner.client.signed('POST', '/openapi/v1/order', { symbol: 'ETHEUR', side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '20' });
      expect(order.body).toMatchObject({ symbol: 'ETHEUR', status: 'NEW' });
    });

    const SYMBOL = { symbol: 'BTCEUR', baseAsset: 'BTC', quoteAsset: 'EUR', tickSize: '0.01', stepSize: '0.0001', minNotional: '1' };
    it.each(
      bodyLast<Record<string, unknown>, [number]>([
      ['tickSize 0', { ...SYMBOL, tickSize: '0' }, -1130],
      ['minNotional 0', { ...SYMBOL, minNotional: '0' }, -1130],
      ['minPrice off tickSize', { ...SYMBOL, minPrice: '0.015' }, -1130],
      ['maxPrice off tickSize', { ...SYMBOL, maxPrice: '1000.001' }, -1130],
      ['minQty off stepSize', { ...SYMBOL, minQty: '0.00015' }, -1130],
      ['maxQty off stepSize', { ...SYMBOL, maxQty: '10.00001' }, -1130],
      ['stepSize finer than the base precision', { ...SYMBOL, stepSize: '0.000000001' }, -1130],
      ['tick and step decimals beyond the quote precision', { ...SYMBOL, tickSize: '0.00001', stepSize: '0.0001' }, -1130],
      ['an existing symbol', { ...SYMBOL, symbol: 'BTCUSDT', quoteAsset: 'USDT' }, -1130],
      ['the same base and quote', { ...SYMBOL, symbol: 'BTCBTC', quoteAsset: 'BTC' }, -1130],
      ['no tickSize', { ...SYMBOL, tickSize: undefined }, -1102],
      ['no minNotional', { ...SYMBOL, minNotional: undefined }, -1102],
      ['a tickSize that is no decimal', { ...SYMBOL, tickSize: 'abc' }, -1100],
      ]),
    )('when a symbol is listed with %s, then 400 %i and it is not listed', async (_what, code, body) => {
      expectRefusal(await admin.send('POST', '/symbols', body), 400, code);
      const info = (await request(`${t.url}/openapi/v1/exchange`)).body as { symbols: { symbol: string }[] };
      expect(info.symbols.map((s) => s.symbol)).not.toContain('BTCEUR');
    });

    it('when a symbol is halted, then A11 is -1151 while cancels work, and resuming restores trading', async () => {
      const owner = await op.member({ USDT: '1000' });
      const params = { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '10' };
      const resting = (await owner.client.signed('POST', '/openapi/v1/order', params)).body as { orderId: string };
      const halted = await admin.send('PATCH', '/symbols/ETHUSDT', { status: 'HALT' });
      expect(halted.status).toBe(200);
      try {
        expect((await owner.client.signed('POST', '/openapi/v1/order', params)).body).toEqual({ code: -1151, msg: 'Symbol is not open for trading.' });
        const info = (await request(`${t.url}/openapi/v1/exchange`)).body as { symbols: { symbol: string; status: string }[] };
        expect(info.symbols.find((s) => s.symbol === 'ETHUSDT')?.status).toBe('HALT');
        const canceled = await owner.client.signed('DELETE', '/openapi/v1/order', { orderId: resting.orderId });
        expect(canceled.body).toMatchObject({ orderId: resting.orderId, status: 'CANCELED' });
      } finally {
        expect((await admin.send('PATCH', '/symbols/ETHUSDT', { status: 'TRADING' })).status).toBe(200);
      }
      expect((await owner.client.signed('POST', '/openapi/v1/order', params)).body).toMatchObject({ status: 'NEW' });
    });

    it('when a symbol goes to BREAK, then A11 is -1151 too', async () => {
      const owner = await op.member({ BTC: '1' });
      await admin.send('PATCH', '/symbols/ETHBTC', { status: 'BREAK' });
      try {
        const answer = await owner.client.signed('POST', '/openapi/v1/order', { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.01' });
        expect(answer.body).toEqual({ code: -1151, msg: 'Symbol is not open for trading.' });
      } finally {
        await admin.send('PATCH', '/symbols/ETHBTC', { status: 'TRADING' });
      }
    });

    it.each<[string, string, Record<string, unknown>, number, number]>([
      ['an unknown status', 'ETHUSDT', { status: 'PAUSED' }, 400, -1130],
      ['no status', 'ETHUSDT', {}, 400, -1102],
      ['an unknown symbol', 'NOPEUSDT', { status: 'HALT' }, 404, -1000],
    ])('when a symbol status change has %s, then %s answers %i %i', async (_what, symbol, body, status, code) => {
      expectRefusal(await admin.send('PATCH', `/symbols/${symbol}`, body), status, code);
    });
  });

  describe('fee rates', () => {
    it('when an account gets fee rates, then A19 shows them and the next fill charges them', async () => {
      const maker = await op.member({ ETH: '1' });
      const taker = await op.member({ USDT: '10000' });
      const patched = await admin.send('PATCH', `/accounts/${taker.accountId}`, { makerFeeRate: '0.0002', takerFeeRate: '0.0005' });
      expect(patched.status).toBe(200);
      expect((await taker.client.signed('GET', '/openapi/v1/account')).body).toMatchObject({ makerFeeRate: '0.0002', takerFeeRate: '0.0005' });
      await maker.client.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '1', price: '3000' });
      const fill = await taker.client.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '3000' });
      expect((fill.body as { fills: unknown[] }).fills).toMatchObject([{ price: '3000', qty: '1', commission: '0.0005', commissionAsset: 'ETH' }]);
    });

    it('when only the taker rate is sent, then the maker rate stays', async () => {
      const owner = await op.member();
      expect((await admin.send('PATCH', `/accounts/${owner.accountId}`, { takerFeeRate: '0' })).status).toBe(200);
      expect((await owner.client.signed('GET', '/openapi/v1/account')).body).toMatchObject({ makerFeeRate: '0.001', takerFeeRate: '0' });
    });

    it.each(
      bodyLast<Record<string, unknown>, [number]>([
      ['a rate over 0.1', { makerFeeRate: '0.2' }, -1130],
      ['a rate with 9 decimals', { takerFeeRate: '0.000000001' }, -1130],
      ['no rate at all', {}, -1102],
      ['a rate that is no decimal', { makerFeeRate: 'cheap' }, -1100],
      ]),
    )('when fee rates have %s, then 400 %i and the rates stay', async (_what, code, body) => {
      const owner = await op.member();
      expectRefusal(await admin.send('PATCH', `/accounts/${owner.accountId}`, body), 400, code);
      expect((await owner.client.signed('GET', '/openapi/v1/account')).body).toMatchObject({ makerFeeRate: '0.001', takerFeeRate: '0.001' });
    });

    it('when fee rates name an unknown account, then 404 naming it', async () => {
      expectRefusal(await admin.send('PATCH', '/accounts/777777', { makerFeeRate: '0.001' }), 404, -1000, '777777');
    });
  });

  describe('trading config', () => {
    it('when read on a fresh server, then every setting of docs/operating.md "Trading settings and listings" has its default', async () => {
      const answer = await admin.send('GET', '/trading/config');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(DEFAULT_CONFIG);
    });

    it('when settings are patched, then the answer and later reads show them, and new accounts get the new default fees', async () => {
      try {
        const patched = await admin.send('PATCH', '/trading/config', { ordersPerSecond: 50, maxOpenOrdersPerSymbol: 150, defaultMakerFeeRate: '0.002' });
        expect(patched.status).toBe(200);
        const expected = { ...DEFAULT_CONFIG, ordersPerSecond: 50, maxOpenOrdersPerSymbol: 150, defaultMakerFeeRate: '0.002' };
        expect(patched.body).toEqual(expected);
        expect((await admin.send('GET', '/trading/config')).body).toEqual(expected);
        const owner = await op.member();
        expect((await owner.client.signed('GET', '/openapi/v1/account')).body).toMatchObject({ makerFeeRate: '0.002', takerFeeRate: '0.001' });
      } finally {
        await admin.send('PATCH', '/trading/config', { ordersPerSecond: 20, maxOpenOrdersPerSymbol: 200, defaultMakerFeeRate: '0.001' });
      }
    });

    it('when algoOrders and the algo limits are patched, then the answer and later reads show them, and the option decides whether a stop order is accepted', async () => {
      // A market of its own that has never traded: any stop price is accepted there.
      await op.listUsdtMarket({ asset: 'STP', precision: 8, chains: ['STP'] });
      const owner = await op.member({ USDT: '1000' });
      const stopOrder = (newClientOrderId: string) =>
        owner.client.signed('POST', '/openapi/v1/order', { symbol: 'STPUSDT', side: 'BUY', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', quantity: '1', price: '100', stopPrice: '99', newClientOrderId });
      try {
        expectRefusal(await stopOrder('algo-off'), 400, -1116);
        const algo = { algoOrders: true, maxAlgoOrdersPerSymbol: 2, maxAlgoOrdersPerAccount: 3, maxIcebergParts: 4 };
        const patched = await admin.send('PATCH', '/trading/config', algo);
        expect(patched.status).toBe(200);
        expect(patched.body).toEqual({ ...DEFAULT_CONFIG, ...algo });
        expect((await admin.send('GET', '/trading/config')).body).toEqual({ ...DEFAULT_CONFIG, ...algo });
        const placed = await stopOrder('algo-on');
        expect(placed.status).toBe(200);
        expect(placed.body).toMatchObject({ type: 'STOP_LOSS_LIMIT', status: 'NEW', stopPrice: '99' });

        // Off again: new stop orders are refused, the one placed stays open.
        expect((await admin.send('PATCH', '/trading/config', { algoOrders: false })).body).toEqual({ ...DEFAULT_CONFIG, ...algo, algoOrders: false });
        expectRefusal(await stopOrder('algo-off-again'), 400, -1116);
        const open = (await owner.client.signed('GET', '/openapi/v1/openOrders', { symbol: 'STPUSDT' })).body as { clientOrderId: string }[];
        expect(open.map((order) => order.clientOrderId)).toEqual(['algo-on']);
      } finally {
        await admin.send('PATCH', '/trading/config', { algoOrders: false, maxAlgoOrdersPerSymbol: 5, maxAlgoOrdersPerAccount: 100, maxIcebergParts: 10 });
      }
      expect((await admin.send('GET', '/trading/config')).body).toEqual(DEFAULT_CONFIG);
    });

    it.each(
      bodyLast<Record<string, unknown>, [number]>([
      ['ordersPerSecond 0', { ordersPerSecond: 0 }, -1130],
      ['ordersPerSecond not a number', { ordersPerSecond: 'many' }, -1100],
      ['requestWeightPerMinute -1', { requestWeightPerMinute: -1 }, -1100],
      ['requestWeightPerMinute 1.5', { requestWeightPerMinute: 1.5 }, -1100],
      ['a default fee over 0.1', { defaultTakerFeeRate: '0.11' }, -1130],
      ['a good value next to a bad one', { ordersPerDay: 5, maxOpenOrdersPerAccount: 0 }, -1130],
      ['algoOrders as the string "true"', { algoOrders: 'true' }, -1100],
      ['algoOrders 1', { algoOrders: 1 }, -1100],
      ['algoOrders an array', { algoOrders: [true] }, -1100],
      ['maxAlgoOrdersPerSymbol 0', { maxAlgoOrdersPerSymbol: 0 }, -1130],
      ['maxAlgoOrdersPerAccount 1.5', { maxAlgoOrdersPerAccount: 1.5 }, -1100],
      ['maxIcebergParts as the string "5.0"', { maxIcebergParts: '5.0' }, -1100],
      ['maxIcebergParts -1', { maxIcebergParts: -1 }, -1100],
      ['algoOrders true next to a bad limit', { algoOrders: true, maxIcebergParts: 0 }, -1130],
      ]),
    )('when the patch has %s, then 400 %i and no setting changes', async (_what, code, body) => {
      const before = (await admin.send('GET', '/trading/config')).body;
      expectRefusal(await admin.send('PATCH', '/trading/config', body), 400, code);
      expect((await admin.send('GET', '/trading/config')).body).toEqual(before);
    });

    it.each([
      ['-1', -1, 400, -1100, "Illegal characters found in parameter 'requestWeightPerMinute'; legal range is '1-9007199254740991'."],
      ['"-5"', '-5', 400, -1100, "Illegal characters found in parameter 'requestWeightPerMinute'; legal range is '1-9007199254740991'."],
      ['0', 0, 400, -1130, "Data sent for paramter 'requestWeightPerMinute' is not valid. (legal range is 1-9007199254740991)"],
    ])('when requestWeightPerMinute is %s, then the answer states the legal range', async (_what, value, status, code, msg) => {
      const answer = await admin.send('PATCH', '/trading/config', { requestWeightPerMinute: value });
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual({ code, msg });
    });

    it.each([
      ['algoOrders', '"true"', 'true', "Illegal characters found in parameter 'algoOrders'; legal range is 'true or false'."],
      ['maxIcebergParts', '"5.0"', '5.0', "Illegal characters found in parameter 'maxIcebergParts'; legal range is '1-9007199254740991'."],
      ['maxAlgoOrdersPerSymbol', '1.5', 1.5, "Illegal characters found in parameter 'maxAlgoOrdersPerSymbol'; legal range is '1-9007199254740991'."],
    ])('when %s is %s, then 400 -1100 says which JSON values it takes', async (name, _what, value, msg) => {
      const answer = await admin.send('PATCH', '/trading/config', { [name]: value });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: -1100, msg });
    });
  });

  describe('bans', () => {
    it('when an IP collects banStrikes 429s, then it is banned (418), listed, and lifting the ban serves it again', async () => {
      const owner = await op.member();
      try {
        expect((await admin.send('PATCH', '/trading/config', { requestWeightPerMinute: 1, banStrikes: 2 })).status).toBe(200);
        let refusals = 0;
        // At most 2 + 2 requests: the first may still fit the 1-weight minute, then 2 strikes ban.
        for (let sent = 0; sent < 4 && refusals < 2; sent++) {
          if ((await request(`${t.url}/openapi/v1/pairs`)).status === 429) refusals++;
        }
        expect(refusals).toBe(2);
        const banned = await request(`${t.url}/openapi/v1/ping`);
        expect(banned.status).toBe(418);
        const { code, msg } = banned.body as ErrorBody;
        expect(code).toBe(-1003);
        const until = Number(/^Way too many requests; IP banned until ([0-9]+)\.$/.exec(msg)?.[1]);
        expect(until - Date.now()).toBeGreaterThan(110_000);
        expect(until - Date.now()).toBeLessThanOrEqual(120_000);
        const retryAfter = Number(banned.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(110);
        expect(retryAfter).toBeLessThanOrEqual(120);
        expect((await owner.client.signed('GET', '/openapi/v1/account')).status).toBe(418);
        expect((await request(`${t.url}/health`)).status).toBe(200);
        const listed = await admin.send('GET', '/bans');
        expect(listed.body).toEqual([{ ip: '127.0.0.1', bannedUntil: until, banCount: 1 }]);
        expect((await admin.send('DELETE', '/bans/127.0.0.1')).status).toBe(200);
        expect((await admin.send('GET', '/bans')).body).toEqual([]);
      } finally {
        await admin.send('PATCH', '/trading/config', { requestWeightPerMinute: 3000, banStrikes: 20 });
        await admin.send('DELETE', '/bans/127.0.0.1');
      }
      expect((await request(`${t.url}/openapi/v1/pairs`)).status).toBe(200);
      expect((await owner.client.signed('GET', '/openapi/v1/account')).status).toBe(200);
    });

    it('when no IP is banned, then the list is empty', async () => {
      expect((await admin.send('GET', '/bans')).body).toEqual([]);
    });

    it.each(['not-an-ip%00', 'not-an-ip', '127.0.0.1%20', '300.1.2.3', '127.0.0.1%2F8'])('when the ban of %s is lifted, then 400 -1100 names ip', async (ip) => {
      expectRefusal(await admin.send('DELETE', `/bans/${ip}`), 400, -1100, "parameter 'ip'; legal range is 'an IPv4 or IPv6 address'");
    });

    it.each([
      ['0:0:0:0:0:0:0:1', '::1'],
      ['2001:DB8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
      ['::ffff:127.0.0.1', '127.0.0.1'],
    ])('when the ban of %s is lifted, then the answer names the address as bans record it (%s)', async (sent, recorded) => {
      const answer = await admin.send('DELETE', `/bans/${encodeURIComponent(sent)}`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ ip: recorded, lifted: false });
    });
  });

  describe('verify, health and metrics', () => {
    it('when the ledger is checked, then it balances and each asset entry gives total, deposits and withdrawals', async () => {
      await admin.send('POST', '/assets', { asset: 'VRF', precision: 4 });
      const owner = await op.member({ VRF: '1.5' });
      await op.deposit(owner.accountId, 'VRF', '2.25');
      const before = Date.now();
      const answer = await admin.send('GET', '/verify');
      expect(answer.status).toBe(200);
      const body = answer.body as { ok: boolean; checkedAt: number; details: Record<string, string>[] };
      expect(body.ok).toBe(true);
      expect(body.checkedAt).toBeGreaterThanOrEqual(before);
      expect(body.checkedAt).toBeLessThanOrEqual(Date.now());
      expect(body.details).toContainEqual({ asset: 'VRF', total: '3.75', deposits: '3.75', withdrawals: '0' });
      for (const detail of body.details) {
        expect(detail).not.toHaveProperty('mismatch');
        expect(new Decimal(detail.total).equals(new Decimal(detail.deposits).minus(detail.withdrawals))).toBe(true);
      }
    });

    it('when a withdrawal was approved, then verify counts it and still balances', async () => {
      const owner = await op.member({ BTC: '1' });
      const withdrawal = await owner.client.signed('POST', '/openapi/v1/withdraw', { tokenId: 'BTC', address: 'bc1qexample', withdrawQuantity: '0.1', clientOrderId: 'v-1' });
      const before = ((await admin.send('GET', '/verify')).body as { details: { asset: string; withdrawals: string }[] }).details.find((d) => d.asset === 'BTC');
      await admin.send('POST', `/withdrawals/${(withdrawal.body as { orderId: string }).orderId}/approve`, {});
      const report = (await admin.send('GET', '/verify')).body as { ok: boolean; details: { asset: string; withdrawals: string }[] };
      expect(report.ok).toBe(true);
      const after = report.details.find((d) => d.asset === 'BTC');
      expect(new Decimal(after?.withdrawals ?? 'NaN').minus(before?.withdrawals ?? 'NaN').toString()).toBe('0.1');
    });

    it('when /health is asked, then {"status":"ok"}', async () => {
      const answer = await request(`${t.url}/health`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: 'ok' });
    });

    it('when /metrics is asked, then it is Prometheus text with every Bourse metric', async () => {
      const answer = await request(`${t.url}/metrics`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
      for (const line of [
        '# TYPE bourse_commands_total counter',
        '# TYPE bourse_batch_size histogram',
        '# TYPE bourse_commit_latency_seconds histogram',
        '# TYPE bourse_open_orders gauge',
        '# TYPE bourse_connections gauge',
      ]) {
        expect(answer.text).toContain(line);
      }
      expect(answer.text).toMatch(/^bourse_commands_total [1-9][0-9]*$/m);
      expect(answer.text).toMatch(/^bourse_connections [1-9][0-9]*$/m);
    });

    it('when an order rests, then bourse_open_orders grows by one and bourse_commands_total by at least one', async () => {
      const owner = await op.member({ USDT: '100' });
      const read = async (name: string): Promise<number> => {
        const text = (await request(`${t.url}/metrics`)).text;
        return Number(new RegExp(`^${name} ([0-9.e+]+)$`, 'm').exec(text)?.[1]);
      };
      const openBefore = await read('bourse_open_orders');
      const commandsBefore = await read('bourse_commands_total');
      await owner.client.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '10' });
      expect(await read('bourse_open_orders')).toBe(openBefore + 1);
      expect(await read('bourse_commands_total')).toBeGreaterThan(commandsBefore);
    });
  });
});
