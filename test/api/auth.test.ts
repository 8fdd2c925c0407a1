import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, hmacHex, request, SpotClient, type HttpAnswer } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface Key {
  apiKey: string;
  secretKey: string;
}

const ERR = {
  unauthorized: { code: -1002, msg: 'You are not authorized to execute this request.' },
  keyFormat: { code: -2014, msg: 'API-key format invalid.' },
  invalidKey: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' },
  noSignature: { code: -1102, msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed." },
  noTimestamp: { code: -1102, msg: "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed." },
  badSignature: { code: -1022, msg: 'Signature for this request is not valid.' },
  noPermission: { code: -1005, msg: 'No permission for this action.' },
};

const ACCOUNT = '/openapi/v1/account';
const ORDER = '/openapi/v1/order';

describe('authentication of keyed endpoints (docs/spot-api.md "API keys", docs/spot-api.md "Signing", docs/spot-api.md "Timestamp and recvWindow", docs/spot-api.md "Order of checks")', () => {
  let t: TestServer;
  let admin: AdminClient;
  let demo: Key;
  /** A key of the demo user holding only USER_DATA. */
  let readOnly: Key;

  const createKey = async (body: Record<string, unknown>, userId = t.demo.userId): Promise<Key> => {
    const answer = await admin.send('POST', `/users/${userId}/api-keys`, body);
    expect(answer.status).toBe(200);
    return answer.body as Key;
  };

  /** A request with the given raw query and form body, signed with `secret` over Q+B unless `signature` says otherwise. */
  const send = (
    method: string,
    path: string,
    parts: { query?: string; body?: string; headers?: Record<string, string>; contentType?: string },
  ): Promise<HttpAnswer> => {
    const headers: Record<string, string> = { ...parts.headers };
    if (parts.body !== undefined) headers['Content-Type'] = parts.contentType ?? 'application/x-www-form-urlencoded';
    return request(`${t.url}${path}${parts.query === undefined ? '' : `?${parts.query}`}`, { method, headers, body: parts.body });
  };
  const keyHeader = (key: Key): Record<string, string> => ({ 'X-BH-APIKEY': key.apiKey });
  const now = (): string => String(Date.now());

  beforeAll(async () => {
    t = await startTestServer();
    admin = new AdminClient(t.url, t.adminToken);
    demo = { apiKey: t.demo.apiKey, secretKey: t.demo.secretKey };
    readOnly = await createKey({ permissions: ['USER_DATA'] });
  });
  afterAll(async () => t.stop());

  describe('the key', () => {
    it('when no key is sent, then 400 -1002', async () => {
      const query = `timestamp=${now()}`;
      const answer = await send('GET', ACCOUNT, { query: `${query}&signature=${hmacHex(demo.secretKey, query)}` });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(ERR.unauthorized);
    });

    it.each([
      ['63 characters', 'a'.repeat(63)],
      ['65 characters', 'a'.repeat(65)],
      ['a character outside [A-Za-z0-9]', `${'a'.repeat(63)}-`],
    ])('when the key has %s, then 400 -2014 before anything else is looked at', async (_what, apiKey) => {
      const answer = await send('GET', ACCOUNT, { query: 'timestamp=x', headers: { 'X-BH-APIKEY': apiKey } });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(ERR.keyFormat);
    });

    it('when the key is well-formed but unknown, then 400 -2015 even without a signature', async () => {
      const answer = await send('GET', ACCOUNT, { headers: { 'X-BH-APIKEY': 'A'.repeat(64) } });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(ERR.invalidKey);
    });

    it('when a key differs from a real one only in letter case, then it is unknown (-2015)', async () => {
      const swapped = demo.apiKey.replace(/[a-zA-Z]/, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
      const client = new SpotClient(t.url, swapped, demo.secretKey);
      expect((await client.signed('GET', ACCOUNT)).body).toEqual(ERR.invalidKey);
    });

    it('when a key is revoked, then the very next request with it is refused with -2015', async () => {
      const key = await createKey({ label: 'to-revoke' });
      const client = new SpotClient(t.url, key.apiKey, key.secretKey);
      expect((await client.signed('GET', ACCOUNT)).status).toBe(200);
      expect((await admin.send('DELETE', `/api-keys/${key.apiKey}`)).status).toBe(200);
      const answer = await client.signed('GET', ACCOUNT);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(ERR.invalidKey);
    });

    it('when the caller is outside the key IP whitelist, then -2015; inside it, then 200', async () => {
      const elsewhere = await createKey({ ipWhitelist: ['10.0.0.0/8'] });
      const refused = await new SpotClient(t.url, elsewhere.apiKey, elsewhere.secretKey).signed('GET', ACCOUNT);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(ERR.invalidKey);
      const here = await createKey({ ipWhitelist: ['10.0.0.0/8', '127.0.0.1'] });
      expect((await new SpotClient(t.url, here.apiKey, here.secretKey).signed('GET', ACCOUNT)).status).toBe(200);
    });

    it('when the key is sent as X-COINS-APIKEY, then the request is authenticated', async () => {
      const client = new SpotClient(t.url, demo.apiKey, demo.secretKey);
      const answer = await client.signed('GET', ACCOUNT, {}, { headers: { 'X-BH-APIKEY': '', 'X-COINS-APIKEY': demo.apiKey } });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ accountId: t.demo.accountId });
    });

    it('when the key is sent as the accessKey parameter (no header), then the request is authenticated', async () => {
      const query = `accessKey=${demo.apiKey}&timestamp=${now()}`;
      const answer = await send('GET', ACCOUNT, { query: `${query}&signature=${hmacHex(demo.secretKey, query)}` });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ accountId: t.demo.accountId });
    });
  });

  describe('the signature and timestamp', () => {
    it('when a signed endpoint gets no signature, then 400 -1102 naming signature', async () => {
      const answer = await send('GET', ACCOUNT, { query: `timestamp=${now()}`, headers: keyHeader(demo) });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(ERR.noSignature);
    });

    it('when the signature is an empty value, then it is absent: -1102', async () => {
      const answer = await send('GET', ACCOUNT, { query: `timestamp=${now()}&signature=`, headers: keyHeader(demo) });
      expect(answer.body).toEqual(ERR.noSignature);
    });

    it.each([
      ['absent', 'recvWindow=5000'],
      ['empty', 'timestamp=&recvWindow=5000'],
    ])('when the timestamp is %s, then 400 -1102 naming timestamp', async (_what, query) => {
      const answer = await send('GET', ACCOUNT, { query: `${query}&signature=${hmacHex(demo.secretKey, query)}`, headers: keyHeader(demo) });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(ERR.noTimestamp);
    });

    it.each(['abc', '-1', '1.5', '99999999999999999999'])('when the timestamp is %s, then 400 -1100', async (timestamp) => {
      const query = `timestamp=${timestamp}`;
      const answer = await send('GET', ACCOUNT, { query: `${query}&signature=${hmacHex(demo.secretKey, query)}`, headers: keyHeader(demo) });
      expect(answer.status).toBe(400);
      expect((answer.body as { code: number }).code).toBe(-1100);
      expect((answer.body as { msg: string }).msg).toMatch(/^Illegal characters found in parameter 'timestamp'/);
    });

    it('when the signature does not match, then 400 -1022', async () => {
      const query = `timestamp=${now()}`;
      const answer = await send('GET', ACCOUNT, { query: `${query}&signature=${'0'.repeat(64)}`, headers: keyHeader(demo) });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(ERR.badSignature);
    });

    it('when the signature was made with another key secret, then -1022', async () => {
      const query = `timestamp=${now()}`;
      const answer = await send('GET', ACCOUNT, { query: `${query}&signature=${hmacHex(readOnly.secretKey, query)}`, headers: keyHeader(demo) });
      expect(answer.body).toEqual(ERR.badSignature);
    });

    it('when the signature is not 64 hex digits, then -1022', async () => {
      const query = `timestamp=${now()}`;
      const answer = await send('GET', ACCOUNT, { query: `${query}&signature=${hmacHex(demo.secretKey, query).slice(1)}`, headers: keyHeader(demo) });
      expect(answer.body).toEqual(ERR.badSignature);
    });

    it('when a signed parameter is changed after signing, then -1022', async () => {
      const signed = `symbol=ETHUSDT&timestamp=${now()}`;
      const answer = await send('GET', '/openapi/v1/openOrders', {
        query: `${signed.replace('ETHUSDT', 'BTCUSDT')}&signature=${hmacHex(demo.secretKey, signed)}`,
        headers: keyHeader(demo),
      });
      expect(answer.body).toEqual(ERR.badSignature);
    });

    it('when the signature is upper-case hex, then it verifies', async () => {
      const query = `timestamp=${now()}`;
      const answer = await send('GET', ACCOUNT, { query: `${query}&signature=${hmacHex(demo.secretKey, query).toUpperCase()}`, headers: keyHeader(demo) });
      expect(answer.status).toBe(200);
    });

    it('when everything, signature included, is in the form body, then it verifies', async () => {
      const body = `timestamp=${now()}`;
      const answer = await send('POST', ACCOUNT, { body: `${body}&signature=${hmacHex(demo.secretKey, body)}`, headers: keyHeader(demo) });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ accountId: t.demo.accountId });
    });

    it('when a form body comes without Content-Type, then it is read as a form', async () => {
      const body = `timestamp=${now()}`;
      const answer = await request(`${t.url}${ACCOUNT}`, {
        method: 'POST',
        headers: keyHeader(demo),
        body: new TextEncoder().encode(`${body}&signature=${hmacHex(demo.secretKey, body)}`),
      });
      expect(answer.status).toBe(200);
    });

    it('when parameters are split between query and body, then the signature covers query then body with no separator (seed)', async () => {
      const query = 'symbol=ETHUSDT&side=BUY&type=LIMIT&timeInForce=GTC';
      const body = `quantity=0.01&price=100&recvWindow=5000&timestamp=${now()}`;
      const answer = await send('POST', ORDER, { query, body: `${body}&signature=${hmacHex(demo.secretKey, query + body)}`, headers: keyHeader(demo) });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ symbol: 'ETHUSDT', side: 'BUY', price: '100', origQty: '0.01', status: 'NEW' });
    });

    it('when the split request is signed with an & between query and body, then -1022', async () => {
      const query = 'symbol=ETHUSDT&side=BUY&type=LIMIT';
      const body = `quantity=0.01&price=100&timestamp=${now()}`;
      const answer = await send('POST', ORDER, { query, body: `${body}&signature=${hmacHex(demo.secretKey, `${query}&${body}`)}`, headers: keyHeader(demo) });
      expect(answer.body).toEqual(ERR.badSignature);
    });

    it('when the signature is in the query and also in the body, then the query one is used', async () => {
      const query = `timestamp=${now()}`;
      const answer = await send('POST', ACCOUNT, {
        query: `${query}&signature=${hmacHex(demo.secretKey, query)}`,
        body: `signature=${'f'.repeat(64)}`,
        headers: keyHeader(demo),
      });
      expect(answer.status).toBe(200);
    });

    it('when a JSON body is signed whole with the signature in the query, then it verifies', async () => {
      const json = JSON.stringify({ symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '101', timestamp: Date.now() });
      const answer = await send('POST', ORDER, {
        query: `signature=${hmacHex(demo.secretKey, json)}`,
        body: json,
        contentType: 'application/json',
        headers: keyHeader(demo),
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ price: '101', origQty: '0.01', status: 'NEW' });
    });

    it('when the query ends with && before the signature, then a signature over "…&" verifies (ccxt coinsph)', async () => {
      const query = `timestamp=${now()}&`;
      const answer = await send('GET', ACCOUNT, { query: `${query}&signature=${hmacHex(demo.secretKey, query)}`, headers: keyHeader(demo) });
      expect(answer.status).toBe(200);
    });

    it('when the query ends with && before the signature, then a signature without the trailing & also verifies', async () => {
      const query = `timestamp=${now()}`;
      const answer = await send('GET', ACCOUNT, { query: `${query}&&signature=${hmacHex(demo.secretKey, query)}`, headers: keyHeader(demo) });
      expect(answer.status).toBe(200);
    });

    it('when parameters come after the signature, then they are signed in place (signature segment removed)', async () => {
      const before = 'recvWindow=5000';
      const after = `timestamp=${now()}`;
      const signature = hmacHex(demo.secretKey, `${before}&${after}`);
      const answer = await send('GET', ACCOUNT, { query: `${before}&signature=${signature}&${after}`, headers: keyHeader(demo) });
      expect(answer.status).toBe(200);
    });
  });

  describe('permissions and check order', () => {
    it('when a USER_DATA-only key places an order (TRADE), then 400 -2015', async () => {
      const client = new SpotClient(t.url, readOnly.apiKey, readOnly.secretKey);
      const answer = await client.signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '100' });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(ERR.invalidKey);
    });

    it('when a USER_DATA-only key reads its account, then 200 with canTrade false', async () => {
      const client = new SpotClient(t.url, readOnly.apiKey, readOnly.secretKey);
      const answer = await client.signed('GET', ACCOUNT);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ canTrade: false, canWithdraw: false, canDeposit: true });
    });

    it('when the key lacks the permission and the parameters are bad too, then -2015 wins (permission before parameters)', async () => {
      const client = new SpotClient(t.url, readOnly.apiKey, readOnly.secretKey);
      const answer = await client.signed('POST', ORDER, { side: 'SIDEWAYS' });
      expect(answer.body).toEqual(ERR.invalidKey);
    });

    it('when the key lacks the permission and the signature is wrong, then -1022 wins (signature before permission)', async () => {
      const client = new SpotClient(t.url, readOnly.apiKey, readOnly.secretKey);
      const answer = await client.signed('POST', ORDER, { symbol: 'ETHUSDT' }, { signature: '0'.repeat(64) });
      expect(answer.body).toEqual(ERR.badSignature);
    });

    it('when the timestamp is malformed and the signature wrong, then -1100 wins (timestamp before signature)', async () => {
      const answer = await send('GET', ACCOUNT, { query: `timestamp=yesterday&signature=${'0'.repeat(64)}`, headers: keyHeader(demo) });
      expect((answer.body as { code: number }).code).toBe(-1100);
    });

    it('when the signature is missing and the timestamp too, then -1102 names signature (signature presence first)', async () => {
      const answer = await send('GET', ACCOUNT, { headers: keyHeader(demo) });
      expect(answer.body).toEqual(ERR.noSignature);
    });

    it('when the key is unknown and the signature missing, then -2015 (key checks first)', async () => {
      const answer = await send('GET', ACCOUNT, { headers: { 'X-BH-APIKEY': 'B'.repeat(64) } });
      expect(answer.body).toEqual(ERR.invalidKey);
    });

    it('when the signature is valid but the parameters are bad, then the parameter error is answered', async () => {
      const client = new SpotClient(t.url, demo.apiKey, demo.secretKey);
      const answer = await client.signed('POST', ORDER, { symbol: 'NOPE', side: 'BUY', type: 'LIMIT', quantity: '1', price: '1' });
      expect(answer.body).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    });

    it('when a sub-account key lists sub-accounts (main key only), then 400 -1005', async () => {
      const sub = await admin.send('POST', `/users/${t.demo.userId}/sub-accounts`, { name: 'bot' });
      expect(sub.status).toBe(200);
      const key = await createKey({ accountIndex: (sub.body as { accountIndex: number }).accountIndex });
      const answer = await new SpotClient(t.url, key.apiKey, key.secretKey).signed('POST', '/openapi/v1/subAccount/query');
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(ERR.noPermission);
    });

    it('when a bad signature is refused, then the key weight was still charged', async () => {
      const key = await createKey({ label: 'weights' });
      const client = new SpotClient(t.url, key.apiKey, key.secretKey);
      const refused = await client.signed('GET', ACCOUNT, {}, { signature: '0'.repeat(64) });
      expect(refused.body).toEqual(ERR.badSignature);
      expect(refused.headers.get('x-bh-used-weight-1m')).toBe('5');
      const accepted = await client.signed('GET', ACCOUNT);
      expect(accepted.headers.get('x-bh-used-weight-1m')).toBe('10');
    });
  });

  describe('public endpoints', () => {
    it.each([
      ['a garbage key header', { 'X-BH-APIKEY': 'not-a-key' }],
      ['an unknown key', { 'X-BH-APIKEY': 'C'.repeat(64) }],
      ['a revoked-looking coins key', { 'X-COINS-APIKEY': 'x' }],
    ])('when a NONE endpoint gets %s with empty timestamp and bad signature, then it answers normally', async (_what, headers) => {
      const answer = await request(`${t.url}/openapi/v1/pairs?timestamp=&recvWindow=&signature=zzz`, { headers });
      expect(answer.status).toBe(200);
      expect((answer.body as unknown[]).length).toBe(7);
    });

    it('when market data gets key, timestamp and signature parameters (Python SDK), then they are ignored', async () => {
      const answer = await request(`${t.url}/openapi/quote/v1/depth?symbol=ETHBTC&timestamp=1&recvWindow=0&signature=bad&accessKey=x`, {
        headers: { 'X-BH-APIKEY': demo.apiKey },
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ bids: [], asks: [] });
    });
  });
});
