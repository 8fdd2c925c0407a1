import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateApiCredential } from '../../../src/api/auth/keys.js';
import { openSecretBox } from '../../../src/api/auth/secret-box.js';
import { PERMISSIONS } from '../../../src/core/types.js';
import { AdminClient, hmacHex } from '../../support/clients.js';
import { createUserKey, expectData, expectError, requestToken, type MerchantKey } from '../../support/merchant.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/**
 * B0 over HTTP (docs/merchant-payments.md "Getting a token"). The server runs in this process with `Date` faked, so the
 * test vectors' 2018 timestamp is "now", and each rate-limit window starts where a test puts it.
 */

const VECTOR_SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
const VECTOR_TS = 1_538_323_200_000;
const MINUTE = 60_000;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestServer;
let admin: AdminClient;

/** Moves the clock to one second into the next minute: a fresh rate-limit window, no strike left from before. */
function nextMinute(): number {
  const now = (Math.floor(Date.now() / MINUTE) + 2) * MINUTE + 1000;
  vi.setSystemTime(now);
  return now;
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(VECTOR_TS);
  t = await startTestServer();
  admin = new AdminClient(t.url, t.adminToken);
});
afterAll(async () => {
  await t?.stop();
  vi.useRealTimers();
});

describe('B0 test vectors (docs/merchant-payments.md "Getting a token")', () => {
  let vectorKey: string;

  beforeAll(async () => {
    // A key whose secret is the published one: sealed and created as the operator API would.
    const user = await createUserKey(admin);
    vectorKey = generateApiCredential();
    await t.server.exchange.submit({
      type: 'createApiKey',
      userId: user.userId,
      accountIndex: 0,
      apiKey: vectorKey,
      secretSealed: openSecretBox(t.dataDir).seal(VECTOR_SECRET),
      permissions: [...PERMISSIONS],
      ipWhitelist: [],
      label: 'vector',
    });
  });

  it.each([
    ['timestamp=1538323200000', 'b5bcf90d5740c5bf2fd601d4f4d4a80b328dcaa0a451b5686656fd1d4d758ef6'],
    ['timestamp=1538323200000&recvWindow=5000', 'b1f1cb7f23e1ea755d6c9ec75903ff98f9653f7920a5e7dd58243beaaba0e8ed'],
  ])('when the query is %s signed with the published vector, then a token is issued for 2 h', async (query, signature) => {
    vi.setSystemTime(VECTOR_TS + 100);
    const data = expectData(await requestToken(t.url, vectorKey, { query, signature })) as { token: string; expireTime: string };
    expect(Object.keys(data)).toEqual(['token', 'expireTime']);
    expect(data.token).toMatch(UUID_V4);
    expect(data.expireTime).toBe(String(VECTOR_TS + 100 + 7_200_000));
  });

  it('when the vector signature is sent in upper case, then it is accepted (compared case-insensitively)', async () => {
    vi.setSystemTime(VECTOR_TS + 200);
    const signature = 'b5bcf90d5740c5bf2fd601d4f4d4a80b328dcaa0a451b5686656fd1d4d758ef6'.toUpperCase();
    expect((await requestToken(t.url, vectorKey, { query: 'timestamp=1538323200000', signature })).status).toBe(200);
  });
});

describe('B0 issues durable, hashed tokens', () => {
  let key: MerchantKey;
  beforeAll(async () => {
    nextMinute();
    key = await createUserKey(admin);
  });

  it('when a token is issued, then the core holds its SHA-256 (not the token) for the key and its user', async () => {
    const now = Date.now();
    const data = expectData(await requestToken(t.url, key.apiKey, { query: `timestamp=${now}`, secret: key.secretKey })) as { token: string; expireTime: string };
    const hash = createHash('sha256').update(data.token).digest('hex');
    const record = t.server.exchange.core.payments.tokens.get(hash);
    expect(record).toMatchObject({ tokenHash: hash, apiKey: key.apiKey, userId: key.userId, expireTime: now + 7_200_000 });
    expect(t.server.exchange.core.payments.tokens.has(data.token)).toBe(false);
  });

  it('when a second token is issued, then the first stays valid (a new token revokes nothing)', async () => {
    const first = expectData(await requestToken(t.url, key.apiKey, { query: `timestamp=${Date.now()}`, secret: key.secretKey })) as { token: string };
    const second = expectData(await requestToken(t.url, key.apiKey, { query: `timestamp=${Date.now()}`, secret: key.secretKey })) as { token: string };
    expect(second.token).not.toBe(first.token);
    const tokens = t.server.exchange.core.payments.tokens;
    for (const token of [first.token, second.token]) expect(tokens.has(createHash('sha256').update(token).digest('hex'))).toBe(true);
  });
});

describe('B0 checks in order (docs/merchant-payments.md "Getting a token"): each refusal wins over every later one', () => {
  let merchant: MerchantKey;
  let plainUser: MerchantKey;

  beforeAll(async () => {
    merchant = await createUserKey(admin);
    plainUser = await createUserKey(admin, { type: 'user' });
  });

  it('when no X-BH-APIKEY is sent, then 401 -1002 (before anything else)', async () => {
    nextMinute();
    const body = expectError(await requestToken(t.url, undefined, { query: '' }), 401, -1002, 'UNAUTHORIZED');
    expect(body).toEqual({ code: -1002, msg: 'UNAUTHORIZED', detail: 'X-BH-APIKEY is missing', data: null });
  });

  it.each([
    ['unknown', () => 'A'.repeat(64)],
    ['not even of the key format', () => 'nope'],
  ])('when the key is %s, then 401 -2015 even without timestamp or signature', async (_what, keyOf) => {
    nextMinute();
    expectError(await requestToken(t.url, keyOf(), { query: '' }), 401, -2015, 'REJECTED_MBX_KEY');
  });

  it('when the key is revoked, then 401 -2015', async () => {
    nextMinute();
    const key = await createUserKey(admin);
    expect((await admin.send('DELETE', `/api-keys/${key.apiKey}`)).status).toBe(200);
    expectError(await requestToken(t.url, key.apiKey, { query: `timestamp=${Date.now()}`, secret: key.secretKey }), 401, -2015, 'REJECTED_MBX_KEY');
  });

  it("when the caller's IP is outside the key's whitelist, then 401 -2015", async () => {
    nextMinute();
    const key = await createUserKey(admin, { keyBody: { ipWhitelist: ['10.0.0.1'] } });
    expectError(await requestToken(t.url, key.apiKey, { query: `timestamp=${Date.now()}`, secret: key.secretKey }), 401, -2015, 'REJECTED_MBX_KEY');
  });

  it('when an 11th request comes within the minute, then 429 -1003 with Retry-After; refused requests counted too', async () => {
    const start = nextMinute();
    const key = await createUserKey(admin);
    // Ten refused requests (bad signature) use up the key's ten.
    for (let i = 0; i < 10; i++) {
      expectError(await requestToken(t.url, key.apiKey, { query: `timestamp=${start}`, signature: '0'.repeat(64) }), 401, -1022, 'INVALID_SIGNATURE');
    }
    const refused = await requestToken(t.url, key.apiKey, { query: `timestamp=${start}`, secret: key.secretKey });
    expect(expectError(refused, 429, -1003, 'TOO_MANY_REQUESTS').detail).toBe('limit 10 per MINUTE');
    expect(refused.headers.get('retry-after')).toBe('59');
    // Another key of the same IP has its own ten.
    expect((await requestToken(t.url, merchant.apiKey, { query: `timestamp=${start}`, secret: merchant.secretKey })).status).toBe(200);
    // The next window admits the key again.
    const later = nextMinute();
    expect((await requestToken(t.url, key.apiKey, { query: `timestamp=${later}`, secret: key.secretKey })).status).toBe(200);
  });

  it('when the rate limit is exceeded, then that wins over a missing timestamp', async () => {
    nextMinute();
    const key = await createUserKey(admin);
    for (let i = 0; i < 10; i++) await requestToken(t.url, key.apiKey, { query: '' });
    expectError(await requestToken(t.url, key.apiKey, { query: '' }), 429, -1003, 'TOO_MANY_REQUESTS');
  });

  it.each([
    ['no timestamp', '', 'anything', 'timestamp is required'],
    ['an empty timestamp', 'timestamp=', 'anything', 'timestamp is required'],
    ['no signature', 'timestamp=1', undefined, 'signature is required'],
    ['an empty signature', 'timestamp=1', '', 'signature is required'],
    ['a malformed timestamp', 'timestamp=12ab', 'anything', 'timestamp must be ms since the epoch'],
  ])('when there is %s, then 400 -1102, before the user type is looked at', async (_what, query, signature, detail) => {
    nextMinute();
    const parts = signature === undefined ? { query } : { query, signature };
    const body = expectError(await requestToken(t.url, plainUser.apiKey, parts), 400, -1102, 'MANDATORY_PARAM_EMPTY_OR_MALFORMED');
    expect(body.detail).toBe(detail);
  });

  it("when the key's user is not a merchant, then 403 -5033, before the timestamp and signature are checked", async () => {
    nextMinute();
    expectError(await requestToken(t.url, plainUser.apiKey, { query: 'timestamp=1', signature: '0'.repeat(64) }), 403, -5033, 'NOT_API_USER');
  });

  it.each([
    ['more than 1 s ahead', 1001],
    ['older than the default recvWindow of 5000 ms', -5001],
  ])('when the timestamp is %s, then 400 -1021, before the signature is checked', async (_what, offset) => {
    const now = nextMinute();
    expectError(await requestToken(t.url, merchant.apiKey, { query: `timestamp=${now + offset}`, signature: '0'.repeat(64) }), 400, -1021, 'INVALID_TIMESTAMP');
  });

  it.each([
    ['exactly 1 s ahead', 'timestamp=+1000'],
    ['exactly recvWindow old', 'timestamp=-5000'],
    ['59 s old with recvWindow=60000', 'timestamp=-59000&recvWindow=60000'],
  ])('when the timestamp is %s, then it is inside the window', async (_what, template) => {
    const now = nextMinute();
    const query = template.replace(/timestamp=([+-]\d+)/, (_m, offset: string) => `timestamp=${now + Number(offset)}`);
    expect((await requestToken(t.url, merchant.apiKey, { query, secret: merchant.secretKey })).status).toBe(200);
  });

  it.each(['0', '60001', 'abc'])('when recvWindow is %s, then 400 -4010 naming it', async (recvWindow) => {
    const now = nextMinute();
    const body = expectError(await requestToken(t.url, merchant.apiKey, { query: `timestamp=${now}&recvWindow=${recvWindow}`, secret: merchant.secretKey }), 400, -4010, 'PARAM_IS_INVALID');
    expect(body.detail).toMatch(/^recvWindow/);
  });

  it.each([
    ['signed with another secret', (query: string) => hmacHex('x'.repeat(64), query)],
    ['not hex', () => 'z'.repeat(64)],
    ['truncated', (query: string) => hmacHex(merchant.secretKey, query).slice(0, 63)],
  ])('when the signature is %s, then 401 -1022', async (_what, sign) => {
    const now = nextMinute();
    const query = `timestamp=${now}`;
    expectError(await requestToken(t.url, merchant.apiKey, { query, signature: sign(query) }), 401, -1022, 'INVALID_SIGNATURE');
  });

  it('when the signature covers a query other than the one sent, then 401 -1022', async () => {
    const now = nextMinute();
    const signature = hmacHex(merchant.secretKey, `timestamp=${now}`);
    expectError(await requestToken(t.url, merchant.apiKey, { query: `timestamp=${now}&recvWindow=6000`, signature }), 401, -1022, 'INVALID_SIGNATURE');
  });
});

describe('B0 and the IP ban (docs/merchant-payments.md "Rate limits")', () => {
  it('when an IP keeps sending after 429s, then 418 -1003 in the envelope with Retry-After, until the operator lifts the ban', async () => {
    const now = nextMinute();
    const key = await createUserKey(admin);
    for (let i = 0; i < 10; i++) await requestToken(t.url, key.apiKey, { query: `timestamp=${now}`, secret: key.secretKey });
    // Area A's rule: 20 strikes (429s) within 60 s start a ban of 2 minutes.
    for (let i = 0; i < 20; i++) expect((await requestToken(t.url, key.apiKey, { query: `timestamp=${now}`, secret: key.secretKey })).status).toBe(429);
    const banned = await requestToken(t.url, undefined, { query: '' });
    const body = expectError(banned, 418, -1003, 'TOO_MANY_REQUESTS');
    expect(body.detail).toBe(`IP banned until ${now + 120_000}`);
    expect(banned.headers.get('retry-after')).toBe('120');
    expect((await admin.send('DELETE', '/bans/127.0.0.1')).status).toBe(200);
    expectError(await requestToken(t.url, undefined, { query: '' }), 401, -1002, 'UNAUTHORIZED');
  });
});
