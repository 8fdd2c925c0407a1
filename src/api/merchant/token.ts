/**
 * Tokens of area B (docs/merchant-payments.md "Getting a token"): B0 issues one for a signed API key; every other call but
 * `/v2/base/*` presents it in `X-BH-TOKEN`. Only its SHA-256 is kept, so a copied database holds no
 * usable token; the token itself exists only in B0's answer.
 */
import { createHash, randomUUID } from 'node:crypto';
import { refuse } from '../../core/payment-errors.js';
import type { ApiKeyRecord } from '../../exchange/catalogue-module.js';
import type { TokenRecord } from '../../payments/model.js';
import { parseIpWhitelist, type IpMatcher } from '../auth/ip-whitelist.js';
import type { MerchantContext, MerchantEndpoint } from './merchant-endpoint.js';
import { ANSWERS } from './schemas.js';

/** The SHA-256 hex under which a token is stored and looked up. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Matchers by the whitelist array they were built from: a key record is replaced, never edited,
 * when it changes, so a cached matcher can never outlive the list it checks.
 */
const matchers = new WeakMap<readonly string[], IpMatcher>();

/** True when `ip` may use `key` (an empty whitelist admits any address). */
export function keyAllowsIp(key: ApiKeyRecord, ip: string): boolean {
  if (key.ipWhitelist.length === 0) return true;
  let matcher = matchers.get(key.ipWhitelist);
  if (matcher === undefined) {
    const parsed = parseIpWhitelist(key.ipWhitelist);
    // The operator API validates lists on entry; a list that no longer parses admits nobody.
    if (!parsed.ok) return false;
    matcher = parsed.matcher;
    matchers.set(key.ipWhitelist, matcher);
  }
  return matcher.matches(ip);
}

/** What token checks read of the exchange (the exchange itself, or a stand-in in unit tests). */
export interface TokenScope {
  readonly clock: () => number;
  readonly core: {
    readonly payments: { readonly tokens: ReadonlyMap<string, TokenRecord> };
    readonly catalogue: { readonly apiKeys: ReadonlyMap<string, ApiKeyRecord> };
  };
}

/**
 * The record of the token in `header`: -1002 (HTTP 401) when it is missing, unknown, revoked with
 * its key or expired, `detail` saying which; -2015 when `ip` is outside the key's whitelist.
 */
export function resolveToken(scope: TokenScope, header: string | string[] | undefined, ip: string): TokenRecord {
  // A repeated header is two tokens at once: none of them is taken.
  const token = typeof header === 'string' ? header.trim() : Array.isArray(header) ? undefined : '';
  if (token === '') refuse('UNAUTHORIZED', 'X-BH-TOKEN is missing');
  const record = token === undefined ? undefined : scope.core.payments.tokens.get(hashToken(token));
  if (record === undefined) refuse('UNAUTHORIZED', 'X-BH-TOKEN is unknown');
  const key = scope.core.catalogue.apiKeys.get(record.apiKey);
  if (key === undefined || key.revoked) refuse('UNAUTHORIZED', 'X-BH-TOKEN was revoked with its API key');
  if (scope.clock() >= record.expireTime) refuse('UNAUTHORIZED', `X-BH-TOKEN expired at ${record.expireTime}`);
  if (!keyAllowsIp(key, ip)) refuse('REJECTED_MBX_KEY', 'This IP is not in the API key\'s whitelist');
  return record;
}

/** B0's answer; `expireTime` in ms as a string (docs/merchant-payments.md "Values and rounding"). */
export interface IssuedToken {
  token: string;
  expireTime: string;
}

/** B0, reached only after the key checks of docs/merchant-payments.md "Getting a token" passed (the route's `KEY` auth). */
async function issueToken(ctx: MerchantContext): Promise<IssuedToken> {
  const token = randomUUID();
  const issued = await ctx.exchange.submit<{ expireTime: number }>({ type: 'issueToken', apiKey: ctx.apiKey, tokenHash: hashToken(token) });
  return { token, expireTime: String(issued.expireTime) };
}

export function tokenEndpoints(): MerchantEndpoint[] {
  return [
    {
      id: 'B0',
      summary: 'issue a token',
      method: 'GET',
      path: '/v2/token/generate',
      writes: true,
      auth: 'KEY',
      params: [
        { name: 'timestamp', type: 'LONG', required: true, description: 'ms the request was made' },
        { name: 'recvWindow', type: 'LONG', description: 'ms the request stays valid after timestamp; default 5000, max 60000' },
        { name: 'signature', type: 'STRING', required: true, description: 'HMAC-SHA256 hex, keyed with the API secret, of the raw query without signature' },
      ],
      ...ANSWERS.B0,
      handler: issueToken,
    },
  ];
}
