import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signedPayloads, verifySignature } from '../../../../src/api/auth/signature.js';
import { hashToken, keyAllowsIp, resolveToken, type TokenScope } from '../../../../src/api/merchant/token.js';
import { PaymentError } from '../../../../src/core/payment-errors.js';
import type { ApiKeyRecord } from '../../../../src/exchange/catalogue-module.js';
import type { TokenRecord } from '../../../../src/payments/model.js';

const T0 = 1_750_000_000_000;
const TOKEN = '09ef3523-6242-4a8d-80e2-24cfbdb35851';

function keyRecord(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    apiKey: 'K'.repeat(64),
    userId: 7,
    accountId: 70,
    secretSealed: '',
    permissions: [],
    ipWhitelist: [],
    label: '',
    createdAt: T0,
    revoked: false,
    ...overrides,
  };
}

function scopeWith(options: { key?: ApiKeyRecord | undefined; now?: number; expireTime?: number } = {}): TokenScope {
  const key = 'key' in options ? options.key : keyRecord();
  const record: TokenRecord = { tokenHash: hashToken(TOKEN), apiKey: 'K'.repeat(64), userId: 7, expireTime: options.expireTime ?? T0 + 7_200_000, issuedAt: T0, issuedSeq: 1 };
  return {
    clock: () => options.now ?? T0 + 1,
    core: {
      payments: { tokens: new Map([[record.tokenHash, record]]) },
      catalogue: { apiKeys: new Map(key === undefined ? [] : [[key.apiKey, key]]) },
    },
  };
}

function refusal(run: () => unknown): { code: number; http: number; detail: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof PaymentError) return { code: error.code, http: error.http, detail: error.detail };
    throw error;
  }
  throw new Error('expected a PaymentError');
}

describe('B0 signing (docs/merchant-payments.md "Getting a token" test vectors)', () => {
  const SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';

  it.each([
    ['timestamp=1538323200000', 'b5bcf90d5740c5bf2fd601d4f4d4a80b328dcaa0a451b5686656fd1d4d758ef6'],
    ['timestamp=1538323200000&recvWindow=5000', 'b1f1cb7f23e1ea755d6c9ec75903ff98f9653f7920a5e7dd58243beaaba0e8ed'],
  ])('when the query is %s, then the signing string is the query without signature and the vector verifies', (query, signature) => {
    const candidates = signedPayloads(`${query}&signature=${signature}`, '', false);
    expect(candidates).toEqual([query]);
    expect(verifySignature(SECRET, candidates, signature)).toBe(true);
    expect(verifySignature(SECRET, candidates, signature.toUpperCase())).toBe(true);
    expect(verifySignature(SECRET, candidates, `${signature.slice(0, 63)}0`)).toBe(false);
  });
});

describe('hashToken', () => {
  it('when a token is hashed, then it is the SHA-256 hex of its UTF-8 text', () => {
    expect(hashToken(TOKEN)).toBe(createHash('sha256').update(TOKEN).digest('hex'));
    expect(hashToken(TOKEN)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('resolveToken (docs/merchant-payments.md "Getting a token")', () => {
  it('when the token is live and its key active, then its record is returned', () => {
    expect(resolveToken(scopeWith(), TOKEN, '127.0.0.1')).toMatchObject({ userId: 7, apiKey: 'K'.repeat(64) });
  });

  it('when the header has outer whitespace, then the token is still found', () => {
    expect(resolveToken(scopeWith(), ` ${TOKEN} `, '127.0.0.1').userId).toBe(7);
  });

  it.each([
    ['missing', undefined, 'X-BH-TOKEN is missing'],
    ['empty', '', 'X-BH-TOKEN is missing'],
    ['unknown', '00000000-0000-4000-8000-000000000000', 'X-BH-TOKEN is unknown'],
    ['sent twice', [TOKEN, TOKEN], 'X-BH-TOKEN is unknown'],
  ])('when the token is %s, then 401 -1002 saying so', (_what, header, detail) => {
    expect(refusal(() => resolveToken(scopeWith(), header, '127.0.0.1'))).toEqual({ code: -1002, http: 401, detail });
  });

  it('when now reaches expireTime, then 401 -1002 "expired" (valid while now < expireTime)', () => {
    expect(resolveToken(scopeWith({ now: T0 + 99, expireTime: T0 + 100 }), TOKEN, '127.0.0.1').userId).toBe(7);
    expect(refusal(() => resolveToken(scopeWith({ now: T0 + 100, expireTime: T0 + 100 }), TOKEN, '127.0.0.1'))).toEqual({
      code: -1002,
      http: 401,
      detail: `X-BH-TOKEN expired at ${T0 + 100}`,
    });
  });

  it.each([
    ['revoked', keyRecord({ revoked: true })],
    ['gone', undefined],
  ])('when its API key is %s, then 401 -1002 (revoking a key revokes its tokens)', (_what, key) => {
    expect(refusal(() => resolveToken(scopeWith({ key }), TOKEN, '127.0.0.1'))).toMatchObject({ code: -1002, http: 401 });
  });

  it("when the caller's IP is outside the key's whitelist, then 401 -2015", () => {
    const scope = scopeWith({ key: keyRecord({ ipWhitelist: ['10.0.0.0/8'] }) });
    expect(resolveToken(scope, TOKEN, '10.1.2.3').userId).toBe(7);
    expect(refusal(() => resolveToken(scope, TOKEN, '192.168.0.1'))).toMatchObject({ code: -2015, http: 401 });
  });
});

describe('keyAllowsIp', () => {
  it('when the whitelist is empty, then any address is allowed', () => {
    expect(keyAllowsIp(keyRecord(), '203.0.113.9')).toBe(true);
  });

  it('when the whitelist has addresses and blocks, then IPv4-mapped peers match their IPv4 entries', () => {
    const key = keyRecord({ ipWhitelist: ['127.0.0.1', '2001:db8::/32'] });
    expect(keyAllowsIp(key, '::ffff:127.0.0.1')).toBe(true);
    expect(keyAllowsIp(key, '2001:db8::5')).toBe(true);
    expect(keyAllowsIp(key, '127.0.0.2')).toBe(false);
  });

  it('when a stored list no longer parses, then nobody is allowed', () => {
    expect(keyAllowsIp(keyRecord({ ipWhitelist: ['not an address'] }), '127.0.0.1')).toBe(false);
  });
});
