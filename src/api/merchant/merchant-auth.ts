/**
 * Who may call an area B endpoint, and how often (docs/merchant-payments.md "Getting a token", docs/merchant-payments.md "The simulator and the sandbox API", docs/merchant-payments.md "Rate limits"): the IP ban, the
 * endpoint's `MerchantAuth`, then its rate-limit bucket. Signatures, whitelists, counters and bans
 * are area A's (signature.ts, ip-whitelist.ts, rate-limiter.ts); only the answers are area B's.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { refuse } from '../../core/payment-errors.js';
import { DEFAULT_RECV_WINDOW_MS, insideRecvWindow, MAX_RECV_WINDOW_MS } from '../../core/recv-window.js';
import type { Exchange } from '../../exchange/exchange.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import type { SecretBox } from '../auth/secret-box.js';
import { findSignature, signedPayloads, verifySignature } from '../auth/signature.js';
import type { RequestHeaders } from '../auth/keys.js';
import { parseLenientParams } from '../params.js';
import { IpBannedError } from './envelope.js';
import type { MerchantEndpoint } from './merchant-endpoint.js';
import { keyAllowsIp, resolveToken } from './token.js';

/** docs/merchant-payments.md "Rate limits" limits, per fixed minute. */
export const MERCHANT_LIMITS = {
  /** B0, per API key. */
  tokenPerKey: 10,
  /** B22, B23 (bucket `quote`), per user. */
  quotePerUser: 60,
  /** Every other `/v2`, `/openapi/v2`, `/sandbox/v2` call, per user, weighted by `cost`. */
  generalPerUser: 1200,
  /** `/v2/base/*` without a valid token, per IP. */
  basePerIp: 1200,
} as const;

/** A ms timestamp as digits: 15 digits reach far past any real time and stay below 2^53. */
const TIMESTAMP = /^[0-9]{1,15}$/;
const BEARER = 'Bearer ';

/** Who is calling: the token's user, the operator (docs/merchant-payments.md "The simulator and the sandbox API", `userId` 0), or nobody (a base read). */
export interface Caller {
  userId: number;
  admin: boolean;
  /** The API key behind the token, or that signed B0; "" otherwise. */
  apiKey: string;
}

const ANONYMOUS: Caller = { userId: 0, admin: false, apiKey: '' };

/** The request as the checks need it: `rawBody` one character per byte, as signatures cover it. */
export interface GateRequest {
  headers: RequestHeaders;
  rawQuery: string;
  rawBody: string;
  bodyIsJson: boolean;
  contentType: string | undefined;
  ip: string;
}

export interface MerchantGateDeps {
  exchange: Exchange;
  limiter: RateLimiter;
  secretBox: SecretBox;
  adminToken: string;
  sandbox: boolean;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function headerText(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  // Node joins a repeated custom header into one string; an array is treated as one unknown value.
  if (Array.isArray(value)) return value.join(', ');
  return value === undefined || value.length === 0 ? undefined : value;
}

export class MerchantGate {
  private readonly adminDigest: Buffer;

  constructor(private readonly deps: MerchantGateDeps) {
    this.adminDigest = digest(deps.adminToken);
  }

  /**
   * Admits a request to `endpoint` or throws its PaymentError. Writes `Retry-After` into
   * `headers` on -1003. Every admitted request has been charged to its bucket.
   */
  admit(endpoint: MerchantEndpoint, request: GateRequest, headers: Record<string, string>): Caller {
    this.checkBan(request.ip, headers);
    const cost = endpoint.cost ?? 1;
    switch (endpoint.auth) {
      case 'KEY':
        return this.checkSignedKey(request, headers);
      case 'TOKEN': {
        const caller = this.tokenCaller(request);
        this.chargeUser(endpoint, caller.userId, cost, request.ip, headers);
        return caller;
      }
      case 'OPTIONAL_TOKEN': {
        let caller: Caller | undefined;
        try {
          caller = this.tokenCaller(request);
        } catch {
          // docs/merchant-payments.md "Getting a token": a public read does not fail on a stale header.
          caller = undefined;
        }
        if (caller === undefined) {
          this.charge(`B:ip:${request.ip}`, cost, MERCHANT_LIMITS.basePerIp, request.ip, headers);
          return ANONYMOUS;
        }
        this.chargeUser(endpoint, caller.userId, cost, request.ip, headers);
        return caller;
      }
      case 'SANDBOX': {
        const authorization = headerText(request.headers, 'authorization');
        if (authorization?.startsWith(BEARER) === true) {
          // Hashing first makes the comparison constant-time whatever the token's length.
          if (!timingSafeEqual(digest(authorization.slice(BEARER.length)), this.adminDigest)) {
            refuse('UNAUTHORIZED', 'The bearer token is not the operator token');
          }
          // The operator is not rate-limited, as on the operator API.
          return { userId: 0, admin: true, apiKey: '' };
        }
        if (!this.deps.sandbox) refuse('SANDBOX_DISABLED', 'BOURSE_SANDBOX=0: the sandbox API takes the operator token only');
        const caller = this.tokenCaller(request);
        this.chargeUser(endpoint, caller.userId, cost, request.ip, headers);
        return caller;
      }
    }
  }

  /** 418 while the IP is banned: first on every area B request, as in area A. */
  private checkBan(ip: string, headers: Record<string, string>): void {
    const ban = this.deps.limiter.banStatus(ip);
    if (ban === undefined) return;
    headers['Retry-After'] = String(ban.retryAfterSec);
    throw new IpBannedError(ban.bannedUntil);
  }

  /** Charges a bucket; over its limit → 429 -1003, and a strike towards area A's ban. */
  private charge(counterKey: string, cost: number, limit: number, ip: string, headers: Record<string, string>): void {
    const charge = this.deps.limiter.chargeWeight(counterKey, cost, limit);
    if (charge.ok) return;
    headers['Retry-After'] = String(charge.retryAfterSec);
    this.deps.limiter.strike(ip);
    refuse('TOO_MANY_REQUESTS', `limit ${charge.limit} per MINUTE`);
  }

  private chargeUser(endpoint: MerchantEndpoint, userId: number, cost: number, ip: string, headers: Record<string, string>): void {
    if (endpoint.bucket === 'quote') this.charge(`B:quote:${userId}`, cost, MERCHANT_LIMITS.quotePerUser, ip, headers);
    else this.charge(`B:user:${userId}`, cost, MERCHANT_LIMITS.generalPerUser, ip, headers);
  }

  private tokenCaller(request: GateRequest): Caller {
    const record = resolveToken(this.deps.exchange, request.headers['x-bh-token'], request.ip);
    return { userId: record.userId, admin: false, apiKey: record.apiKey };
  }

  /** B0: the checks of docs/merchant-payments.md "Getting a token", each with its code. */
  private checkSignedKey(request: GateRequest, headers: Record<string, string>): Caller {
    const { exchange } = this.deps;
    const apiKey = headerText(request.headers, 'x-bh-apikey');
    if (apiKey === undefined) refuse('UNAUTHORIZED', 'X-BH-APIKEY is missing');
    const key = exchange.core.catalogue.apiKeys.get(apiKey);
    if (key === undefined || key.revoked || !keyAllowsIp(key, request.ip)) refuse('REJECTED_MBX_KEY', 'API key unknown, revoked, or not allowed from this IP');
    // Charged before the signature is checked, so a flood of bad signatures is throttled too.
    this.charge(`B0:key:${apiKey}`, 1, MERCHANT_LIMITS.tokenPerKey, request.ip, headers);

    const params = parseLenientParams(request.rawQuery, request.rawBody, request.contentType);
    const timestampText = params.get('timestamp');
    const signature = findSignature(request.rawQuery, request.rawBody, request.bodyIsJson);
    if (timestampText === undefined) refuse('MANDATORY_PARAM_EMPTY_OR_MALFORMED', 'timestamp is required');
    if (signature === undefined) refuse('MANDATORY_PARAM_EMPTY_OR_MALFORMED', 'signature is required');
    if (!TIMESTAMP.test(timestampText)) refuse('MANDATORY_PARAM_EMPTY_OR_MALFORMED', 'timestamp must be ms since the epoch');

    if (exchange.core.ledger.users.get(key.userId)?.userType !== 'merchant') refuse('NOT_API_USER', 'This API key\'s user is not a merchant user');

    const recvWindow = this.recvWindow(params.get('recvWindow'));
    const timestamp = Number(timestampText);
    const now = exchange.clock();
    if (!insideRecvWindow(timestamp, recvWindow, now)) {
      refuse('INVALID_TIMESTAMP', `timestamp ${timestamp} is outside the recvWindow of ${recvWindow} ms around the server time ${now}`);
    }
    const candidates = signedPayloads(request.rawQuery, request.rawBody, request.bodyIsJson);
    if (!verifySignature(this.deps.secretBox.open(key.secretSealed), candidates, signature)) refuse('INVALID_SIGNATURE', 'Signature for this request is not valid');
    return { userId: key.userId, admin: false, apiKey: key.apiKey };
  }

  /** `recvWindow`: 1–60000 ms, default 5000; anything else is -4010 (docs/merchant-payments.md "Getting a token" names no code for it). */
  private recvWindow(text: string | undefined): number {
    if (text === undefined) return DEFAULT_RECV_WINDOW_MS;
    const value = /^[0-9]{1,5}$/.test(text) ? Number(text) : NaN;
    if (!(value >= 1 && value <= MAX_RECV_WINDOW_MS)) refuse('PARAM_IS_INVALID', `recvWindow must be 1-${MAX_RECV_WINDOW_MS}`);
    return value;
  }
}
