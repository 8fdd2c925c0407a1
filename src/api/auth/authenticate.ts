import { BourseError } from '../../core/errors.js';
import type { ApiKeyRecord } from '../../exchange/catalogue-module.js';
import type { Exchange } from '../../exchange/exchange.js';
import type { Endpoint } from '../endpoint.js';
import { readLong, type Params } from '../params.js';
import { parseIpWhitelist, type IpMatcher } from './ip-whitelist.js';
import { extractApiKey, type RequestHeaders } from './keys.js';
import type { RateLimiter } from './rate-limiter.js';
import type { SecretBox } from './secret-box.js';
import { findSignature, signedPayloads, verifySignature } from './signature.js';

/** The request as the checks of docs/spot-api.md "Order of checks" need it. */
export interface IncomingRequest {
  rawQuery: string;
  rawBody: string;
  bodyIsJson: boolean;
  params: Params;
  headers: RequestHeaders;
  ip: string;
}

const ALWAYS_SIGNED = new Set<string>(['USER_DATA', 'TRADE', 'SUB_ACCOUNT_LIST', 'ACCOUNT_TRANSFER', 'BALANCE_FLOW', 'TRANSFER', 'WITHDRAW']);

/**
 * The check order of docs/spot-api.md "Order of checks" up to the parameters: ban, key, weight, signature, timestamp,
 * permission, main-key rules, ORDERS count. Writes the rate-limit headers into `headers`, also
 * when it refuses.
 */
export class Authenticator {
  private readonly secrets = new Map<string, string>();
  private readonly whitelists = new Map<string, IpMatcher>();

  constructor(
    private readonly exchange: Exchange,
    private readonly secretBox: SecretBox,
    readonly limiter: RateLimiter,
  ) {}

  /** 418 while the IP is banned (checked first on every area A and B request, and on handshakes). */
  checkBan(ip: string, headers: Record<string, string>): void {
    const ban = this.limiter.banStatus(ip);
    if (ban !== undefined) {
      headers['Retry-After'] = String(ban.retryAfterSec);
      throw new BourseError('IP_BANNED', [ban.bannedUntil]);
    }
  }

  /** Charges a weight to a counter; a refusal is a strike against the IP. */
  chargeWeight(counterKey: string, weight: number, ip: string, headers: Record<string, string>): void {
    const charge = this.limiter.chargeWeight(counterKey, weight);
    headers['X-BH-USED-WEIGHT-1M'] = String(charge.used);
    if (!charge.ok) {
      headers['Retry-After'] = String(charge.retryAfterSec);
      this.limiter.strike(ip);
      throw new BourseError('TOO_MANY_REQUESTS', [charge.limit, 'MINUTE']);
    }
  }

  authorize(endpoint: Endpoint, request: IncomingRequest, headers: Record<string, string>): ApiKeyRecord | undefined {
    // The key is read once; a malformed one is answered at the key step, after the ban (and not at all on a NONE endpoint).
    let apiKey: string | undefined;
    let keyError: unknown;
    try {
      apiKey = extractApiKey(request.headers, request.params);
    } catch (error) {
      keyError = error;
    }
    // An exempt key (the demo market maker's) is neither banned with its address nor charged.
    const exempt = apiKey !== undefined && this.isExemptRequest(request, apiKey);
    if (!exempt) this.checkBan(request.ip, headers);
    const weight = typeof endpoint.weight === 'number' ? endpoint.weight : endpoint.weight(request.params);
    if (endpoint.security === 'NONE') {
      this.chargeWeight(`ip:${request.ip}`, weight, request.ip, headers);
      return undefined;
    }
    if (keyError !== undefined) throw keyError;
    // extractApiKey answers only keys of the right shape (-2014 otherwise).
    if (apiKey === undefined) throw new BourseError('UNAUTHORIZED');
    const key = this.exchange.core.catalogue.apiKeys.get(apiKey);
    if (key === undefined || key.revoked || !this.ipAllowed(key, request.ip)) throw new BourseError('INVALID_API_KEY');
    if (!exempt) this.chargeWeight(`key:${apiKey}`, weight, request.ip, headers);

    const signature = findSignature(request.rawQuery, request.rawBody, request.bodyIsJson);
    const mustSign = ALWAYS_SIGNED.has(endpoint.security);
    if (mustSign && signature === undefined) throw new BourseError('MANDATORY_PARAM', ['signature']);
    if (signature !== undefined) {
      readLong(request.params, 'timestamp', { required: true });
      const candidates = signedPayloads(request.rawQuery, request.rawBody, request.bodyIsJson);
      if (!verifySignature(this.secretOf(key), candidates, signature)) throw new BourseError('INVALID_SIGNATURE');
    }
    if (!key.permissions.includes(endpoint.security)) throw new BourseError('INVALID_API_KEY');
    if (endpoint.mainKeyOnly === true && this.exchange.core.ledger.account(key.accountId).accountIndex !== 0) {
      throw new BourseError('NO_PERMISSION');
    }
    if (endpoint.countsOrder === true && !exempt) {
      const charge = this.limiter.chargeOrder(apiKey);
      headers['X-BH-ORDER-COUNT-1S'] = String(charge.countSecond);
      headers['X-BH-ORDER-COUNT-1D'] = String(charge.countDay);
      if (!charge.ok) {
        headers['Retry-After'] = String(charge.retryAfterSec);
        this.limiter.strike(request.ip);
        throw new BourseError('TOO_MANY_ORDERS', [charge.limit, charge.exceeded]);
      }
    }
    return key;
  }

  /** True for a request with an exempt, active key and a valid signature (a bare key header is not enough). */
  private isExemptRequest(request: IncomingRequest, apiKey: string): boolean {
    try {
      if (!this.limiter.isExempt(apiKey)) return false;
      const key = this.exchange.core.catalogue.apiKeys.get(apiKey);
      if (key === undefined || key.revoked || !this.ipAllowed(key, request.ip)) return false;
      const signature = findSignature(request.rawQuery, request.rawBody, request.bodyIsJson);
      if (signature === undefined) return false;
      return verifySignature(this.secretOf(key), signedPayloads(request.rawQuery, request.rawBody, request.bodyIsJson), signature);
    } catch {
      // Malformed keys or signatures are answered by the ordinary checks.
      return false;
    }
  }

  /** Forgets cached material of a key (after revocation). */
  forget(apiKey: string): void {
    this.secrets.delete(apiKey);
    this.whitelists.delete(apiKey);
  }

  private secretOf(key: ApiKeyRecord): string {
    let secret = this.secrets.get(key.apiKey);
    if (secret === undefined) {
      secret = this.secretBox.open(key.secretSealed);
      this.secrets.set(key.apiKey, secret);
    }
    return secret;
  }

  private ipAllowed(key: ApiKeyRecord, ip: string): boolean {
    if (key.ipWhitelist.length === 0) return true;
    let matcher = this.whitelists.get(key.apiKey);
    if (matcher === undefined) {
      const parsed = parseIpWhitelist(key.ipWhitelist);
      if (!parsed.ok) return false;
      matcher = parsed.matcher;
      this.whitelists.set(key.apiKey, matcher);
    }
    return matcher.matches(ip);
  }
}
