import Fastify, { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_RATE_LIMITS, RateLimiter } from '../../../src/api/auth/rate-limiter.js';
import { openSecretBox } from '../../../src/api/auth/secret-box.js';
import type { MerchantContext, MerchantEndpoint } from '../../../src/api/merchant/merchant-endpoint.js';
import { registerMerchantRoutes, type MerchantRouteDeps } from '../../../src/api/merchant/merchant-routes.js';
import { hashToken } from '../../../src/api/merchant/token.js';
import { AdminClient, request, type HttpAnswer } from '../../support/clients.js';
import { createUserKey, expectData, expectError, issueToken, type MerchantKey } from '../../support/merchant.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/**
 * The area B framework (docs/merchant-payments.md "Requests", docs/merchant-payments.md "Getting a token", docs/merchant-payments.md "Answers and errors", docs/merchant-payments.md "The simulator and the sandbox API" auth, docs/merchant-payments.md "Rate limits") on test-only endpoints: a small
 * Fastify app registers them with `registerMerchantRoutes` against a real Bourse's exchange, so
 * tokens come from real B0 calls and live in the real core. `Date` is faked so that rate-limit
 * windows and token lifetimes are where each test puts them.
 */

const MINUTE = 60_000;
const T0 = Date.parse('2025-06-15T12:00:01.000Z');

function whoami(ctx: MerchantContext): Record<string, unknown> {
  return { userId: ctx.userId, admin: ctx.admin, apiKey: ctx.apiKey, ip: ctx.ip, sandbox: ctx.sandbox, publicBaseUrl: ctx.publicBaseUrl, path: ctx.path };
}

const endpoint = (id: string, method: MerchantEndpoint['method'], path: string, rest: Partial<MerchantEndpoint> = {}): MerchantEndpoint => ({
  id,
  summary: id,
  method,
  path,
  auth: 'TOKEN',
  params: [],
  // Routing is under test here, not the reference: any answer is allowed.
  response: {},
  example: null,
  handler: whoami,
  ...rest,
});

const ENDPOINTS: MerchantEndpoint[] = [
  endpoint('T1', 'GET', '/v2/test/whoami'),
  endpoint('T2', 'GET', '/v2/test/quote', { bucket: 'quote' }),
  endpoint('T3', 'GET', '/v2/test/heavy', { cost: 5 }),
  // Costly, so that a dozen calls fill the IP's 1200.
  endpoint('T4', 'GET', '/v2/test/public', { auth: 'OPTIONAL_TOKEN', cost: 100 }),
  endpoint('T5', 'POST', '/v2/test/echo/:orderId', {
    extraPaths: ['/openapi/v2/test/echo/:orderId'],
    handler: (ctx) => ({ path: ctx.path, amount: ctx.params.dec('amount', 2, { required: true }), note: ctx.params.str('note') ?? '' }),
  }),
  endpoint('T6', 'GET', '/sandbox/v2/test/whoami', { auth: 'SANDBOX' }),
  endpoint('T7', 'GET', '/v2/test/fail', {
    handler: () => {
      throw new Error('a bug');
    },
  }),
  endpoint('T8', 'POST', '/v2/test/upload', { multipart: true, handler: (ctx) => ({ bytes: ctx.params.rawBody.length, orderId: ctx.params.str('orderId') }) }),
];

let t: TestServer;
let admin: AdminClient;
let app: FastifyInstance;
let url: string;
let limiter: RateLimiter;

function nextMinute(): number {
  const now = (Math.floor(Date.now() / MINUTE) + 2) * MINUTE + 1000;
  vi.setSystemTime(now);
  return now;
}

const call = (method: string, path: string, options: { token?: string; headers?: Record<string, string>; body?: string | Buffer; contentType?: string } = {}): Promise<HttpAnswer> =>
  request(`${url}${path}`, {
    method,
    headers: {
      ...(options.token === undefined ? {} : { 'X-BH-TOKEN': options.token }),
      ...(options.body === undefined ? {} : { 'Content-Type': options.contentType ?? 'application/json' }),
      ...options.headers,
    },
    body: typeof options.body === 'string' || options.body === undefined ? options.body : new Uint8Array(options.body),
  });

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  t = await startTestServer();
  admin = new AdminClient(t.url, t.adminToken);
  limiter = new RateLimiter({ ...DEFAULT_RATE_LIMITS }, () => Date.now());
  app = Fastify();
  // As app.ts: bodies stay raw Buffers.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const deps: MerchantRouteDeps = {
    exchange: t.server.exchange,
    limiter,
    secretBox: openSecretBox(t.dataDir),
    adminToken: t.adminToken,
    sandbox: true,
    publicBaseUrl: () => 'http://bourse.test:8080/',
  };
  registerMerchantRoutes(app, ENDPOINTS, deps);
  registerMerchantRoutes(app, [endpoint('T9', 'GET', '/sandbox/v2/off/whoami', { auth: 'SANDBOX' })], { ...deps, sandbox: false });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
  await t?.stop();
  vi.useRealTimers();
});

describe('TOKEN auth (docs/merchant-payments.md "Getting a token")', () => {
  let key: MerchantKey;
  let token: string;

  beforeAll(async () => {
    nextMinute();
    key = await createUserKey(admin);
    token = (await issueToken(t.url, key)).token;
  });

  it('when a live token is sent, then the handler acts for its user and key, with the context filled in', async () => {
    expect(expectData(await call('GET', '/v2/test/whoami', { token }))).toEqual({
      userId: key.userId,
      admin: false,
      apiKey: key.apiKey,
      ip: '127.0.0.1',
      sandbox: true,
      publicBaseUrl: 'http://bourse.test:8080',
      path: {},
    });
  });

  it.each([
    ['no token', undefined, 'X-BH-TOKEN is missing'],
    ['an unknown token', '00000000-0000-4000-8000-000000000000', 'X-BH-TOKEN is unknown'],
  ])('when %s is sent, then 401 -1002 saying which', async (_what, sent, detail) => {
    expect(expectError(await call('GET', '/v2/test/whoami', { token: sent }), 401, -1002, 'UNAUTHORIZED').detail).toBe(detail);
  });

  it('when its API key is revoked, then the token is refused with 401 -1002', async () => {
    const other = await createUserKey(admin);
    const { token: doomed } = await issueToken(t.url, other);
    expect((await call('GET', '/v2/test/whoami', { token: doomed })).status).toBe(200);
    expect((await admin.send('DELETE', `/api-keys/${other.apiKey}`)).status).toBe(200);
    expectError(await call('GET', '/v2/test/whoami', { token: doomed }), 401, -1002, 'UNAUTHORIZED');
  });

  it("when the key's IP whitelist excludes the caller, then 401 -2015; when it includes it, then 200", async () => {
    for (const [ipWhitelist, status] of [
      [['10.0.0.1'], 401],
      [['127.0.0.0/8'], 200],
    ] as const) {
      const listed = await createUserKey(admin, { keyBody: { ipWhitelist } });
      // Issued through the core: B0 itself is refused from outside the whitelist.
      const own = randomUUID();
      await t.server.exchange.submit({ type: 'issueToken', apiKey: listed.apiKey, tokenHash: hashToken(own) });
      const answer = await call('GET', '/v2/test/whoami', { token: own });
      if (status === 401) expectError(answer, 401, -2015, 'REJECTED_MBX_KEY');
      else expect(answer.status).toBe(200);
    }
  });

  it('when the token has lived its 2 hours, then 401 -1002 "expired"', async () => {
    const { token: old, expireTime } = await issueToken(t.url, key);
    vi.setSystemTime(Number(expireTime) - 1);
    expect((await call('GET', '/v2/test/whoami', { token: old })).status).toBe(200);
    vi.setSystemTime(Number(expireTime));
    expect(expectError(await call('GET', '/v2/test/whoami', { token: old }), 401, -1002, 'UNAUTHORIZED').detail).toBe(`X-BH-TOKEN expired at ${expireTime}`);
  });
});

describe('parameters, bodies and the envelope (docs/merchant-payments.md "Requests", docs/merchant-payments.md "Answers and errors")', () => {
  let token: string;

  beforeAll(async () => {
    nextMinute();
    token = (await issueToken(t.url, await createUserKey(admin))).token;
  });

  it('when a JSON body and path parameter are sent, then the handler reads them; the /openapi/v2 alias is the same route', async () => {
    for (const prefix of ['/v2', '/openapi/v2']) {
      const answer = await call('POST', `${prefix}/test/echo/42`, { token, body: '{"amount":10.50,"note":"  hi  "}' });
      expect(answer.text).toBe('{"code":200,"msg":"SUCCESS","data":{"path":{"orderId":"42"},"amount":"10.50","note":"hi"}}');
    }
  });

  it('when a form body and the query name the same parameter, then the query wins', async () => {
    const answer = await call('POST', '/v2/test/echo/1?amount=2.00', { token, body: 'amount=1.00&note=x', contentType: 'application/x-www-form-urlencoded' });
    expect(expectData(answer)).toEqual({ path: { orderId: '1' }, amount: '2.00', note: 'x' });
  });

  it('when the body is broken and no token is sent, then the token is reported first (401 -1002)', async () => {
    expectError(await call('POST', '/v2/test/echo/1', { body: '{"amount":' }), 401, -1002, 'UNAUTHORIZED');
  });

  it.each([
    ['broken JSON', '{"amount":', 'application/json', 'body is not valid JSON'],
    ['a JSON array', '[1]', 'application/json', 'body is not one JSON object'],
    ['an unaccepted content type', 'amount=1', 'text/plain', 'body has Content-Type text/plain; send application/json or application/x-www-form-urlencoded'],
  ])('when the body is %s, then 400 -4010 "body"', async (_what, body, contentType, detail) => {
    expect(expectError(await call('POST', '/v2/test/echo/1', { token, body, contentType }), 400, -4010, 'PARAM_IS_INVALID').detail).toBe(detail);
  });

  it('when a required decimal has too many decimals, then 400 -4010 and nothing is rounded', async () => {
    expect(expectError(await call('POST', '/v2/test/echo/1', { token, body: '{"amount":"1.005"}' }), 400, -4010, 'PARAM_IS_INVALID').detail).toBe('amount has more than 2 decimals');
  });

  it('when a body is over 64 KiB (area A’s limit) but within 1 MiB, then it is read', async () => {
    const body = JSON.stringify({ amount: '1.00', note: 'x'.repeat(900 * 1024) });
    expect((await call('POST', '/v2/test/echo/1', { token, body })).status).toBe(200);
  });

  it('when a body is over 1 MiB, then 400 -4011', async () => {
    const body = JSON.stringify({ amount: '1.00', note: 'x'.repeat(1024 * 1024) });
    expectError(await call('POST', '/v2/test/echo/1', { token, body }), 400, -4011, 'PARAM_EXCEEDS_LIMIT_LENGTH');
  });

  it('when a multipart endpoint (B35) gets a 2 MiB multipart body, then the handler has its bytes and the query', async () => {
    const body = Buffer.alloc(2 * 1024 * 1024, 0x61);
    const answer = await call('POST', '/v2/test/upload?orderId=9', { token, body, contentType: 'multipart/form-data; boundary=x' });
    expect(expectData(answer)).toEqual({ bytes: body.length, orderId: '9' });
  });

  it('when a handler fails unexpectedly, then 500 -1001 (outcome unknown)', async () => {
    const body = expectError(await call('GET', '/v2/test/fail', { token }), 500, -1001, 'DISCONNECTED');
    expect(body.data).toBeNull();
  });
});

describe('SANDBOX auth (docs/merchant-payments.md "The simulator and the sandbox API")', () => {
  let key: MerchantKey;
  let token: string;

  beforeAll(async () => {
    nextMinute();
    key = await createUserKey(admin);
    token = (await issueToken(t.url, key)).token;
  });

  it('when the operator token is sent as a bearer, then the call is the operator’s (userId 0), whatever BOURSE_SANDBOX', async () => {
    for (const path of ['/sandbox/v2/test/whoami', '/sandbox/v2/off/whoami']) {
      const data = expectData(await call('GET', path, { headers: { Authorization: `Bearer ${t.adminToken}` } }));
      expect(data).toMatchObject({ userId: 0, admin: true, apiKey: '' });
    }
  });

  it('when another bearer token is sent, then 401 -1002', async () => {
    expectError(await call('GET', '/sandbox/v2/test/whoami', { headers: { Authorization: 'Bearer wrong' } }), 401, -1002, 'UNAUTHORIZED');
  });

  it('when BOURSE_SANDBOX=1 and a token is sent, then the call is the token user’s; without one, 401 -1002', async () => {
    expect(expectData(await call('GET', '/sandbox/v2/test/whoami', { token }))).toMatchObject({ userId: key.userId, admin: false });
    expectError(await call('GET', '/sandbox/v2/test/whoami'), 401, -1002, 'UNAUTHORIZED');
  });

  it.each([
    ['a valid token', true],
    ['no token', false],
  ])('when BOURSE_SANDBOX=0 and %s is sent, then 404 -5102', async (_what, withToken) => {
    expectError(await call('GET', '/sandbox/v2/off/whoami', withToken ? { token } : {}), 404, -5102, 'SANDBOX_DISABLED');
  });
});

describe('rate limits (docs/merchant-payments.md "Rate limits")', () => {
  it('when a user spends 1200 in a minute (cost 5 counts 5), then 429 -1003 on every general call, not on quotes', async () => {
    nextMinute();
    const key = await createUserKey(admin);
    const { token } = await issueToken(t.url, key);
    for (let i = 0; i < 240; i++) expect((await call('GET', '/v2/test/heavy', { token })).status).toBe(200);
    const refused = await call('GET', '/v2/test/heavy', { token });
    expect(expectError(refused, 429, -1003, 'TOO_MANY_REQUESTS').detail).toBe('limit 1200 per MINUTE');
    expect(refused.headers.get('retry-after')).toBe('59');
    expectError(await call('GET', '/v2/test/whoami', { token }), 429, -1003, 'TOO_MANY_REQUESTS');
    expect((await call('GET', '/v2/test/quote', { token })).status).toBe(200);
    // Another user has a bucket of their own.
    const { token: other } = await issueToken(t.url, await createUserKey(admin));
    expect((await call('GET', '/v2/test/heavy', { token: other })).status).toBe(200);
  });

  it('when a user asks for a 61st quote in a minute, then 429 -1003 "limit 60"', async () => {
    nextMinute();
    const { token } = await issueToken(t.url, await createUserKey(admin));
    for (let i = 0; i < 60; i++) expect((await call('GET', '/v2/test/quote', { token })).status).toBe(200);
    expect(expectError(await call('GET', '/v2/test/quote', { token }), 429, -1003, 'TOO_MANY_REQUESTS').detail).toBe('limit 60 per MINUTE');
    expect((await call('GET', '/v2/test/whoami', { token })).status).toBe(200);
  });

  it('when anonymous base reads fill the IP’s 1200, then 429; a valid token is charged to its user instead, a bad one is not', async () => {
    nextMinute();
    const { token } = await issueToken(t.url, await createUserKey(admin));
    for (let i = 0; i < 12; i++) expect((await call('GET', '/v2/test/public')).status).toBe(200);
    expectError(await call('GET', '/v2/test/public'), 429, -1003, 'TOO_MANY_REQUESTS');
    expectError(await call('GET', '/v2/test/public', { token: 'stale' }), 429, -1003, 'TOO_MANY_REQUESTS');
    expect(expectData(await call('GET', '/v2/test/public', { token }))).toMatchObject({ admin: false });
    expect(expectData(await call('GET', '/v2/test/public', { token }))).not.toMatchObject({ userId: 0 });
  });

  it('when 429s keep coming, then the IP is banned: 418 -1003 with Retry-After on every area B call', async () => {
    const now = nextMinute();
    const { token } = await issueToken(t.url, await createUserKey(admin));
    for (let i = 0; i < 12; i++) await call('GET', '/v2/test/public');
    for (let i = 0; i < 20; i++) expect((await call('GET', '/v2/test/public')).status).toBe(429);
    for (const answer of [await call('GET', '/v2/test/public'), await call('GET', '/v2/test/whoami', { token })]) {
      expect(expectError(answer, 418, -1003, 'TOO_MANY_REQUESTS').detail).toBe(`IP banned until ${now + 120_000}`);
      expect(answer.headers.get('retry-after')).toBe('120');
    }
    limiter.liftBan('127.0.0.1');
    expect((await call('GET', '/v2/test/whoami', { token })).status).toBe(200);
  });
});
