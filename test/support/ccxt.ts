import { coinsph } from 'ccxt';
import type { Dict, NullableDict, Str } from 'ccxt';

/** The two key headers Bourse reads (docs/spot-api.md "API keys"): its own, and the one coinsph sends unmodified. */
export type KeyHeader = 'X-BH-APIKEY' | 'X-COINS-APIKEY';

/** A request as ccxt built it, kept so a failing test can show what was sent. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/**
 * ccxt's `coinsph` class pointed at Bourse (docs/spot-api.md "Compatibility": "all unchanged but coinsph's base URL").
 * With `X-BH-APIKEY` the key header is renamed, as the handbook describes; with `X-COINS-APIKEY`
 * the class is used as shipped. Its requests, parsing and error mapping are untouched: the subclass
 * only records what was sent, names the request in errors, and turns off ccxt's client-side throttle.
 */
export class BourseCoinsph extends coinsph {
  readonly sent: SentRequest[] = [];
  private readonly keyHeader: KeyHeader;

  constructor(baseUrl: string, apiKey: string, secret: string, keyHeader: KeyHeader) {
    super({
      apiKey,
      secret,
      urls: { api: { public: baseUrl, private: baseUrl } },
      // ccxt's client-side throttle would only slow the suite down: Bourse enforces its own limits.
      enableRateLimit: false,
    });
    this.keyHeader = keyHeader;
  }

  override sign(path: string, api = 'public', method = 'GET', params: Dict = {}, headers: NullableDict = undefined, body: Str = undefined): Dict {
    const request = super.sign(path, api, method, params, headers, body);
    const shipped = request.headers as Record<string, string> | undefined;
    const sentHeaders: Record<string, string> = {};
    if (shipped !== undefined) {
      for (const [name, value] of Object.entries(shipped)) sentHeaders[name === 'X-COINS-APIKEY' ? this.keyHeader : name] = value;
      request.headers = sentHeaders;
    }
    this.sent.push({ method: String(request.method), url: String(request.url), headers: sentHeaders });
    return request;
  }

  /** Names the request in the error, so a failing test says what ccxt sent, not only what Bourse answered. */
  override handleErrors(
    code: number,
    reason: string,
    url: string,
    method: string,
    headers: Dict,
    body: string,
    response: unknown,
    requestHeaders: unknown,
    requestBody: unknown,
  ): undefined {
    try {
      return super.handleErrors(code, reason, url, method, headers, body, response, requestHeaders, requestBody);
    } catch (error) {
      if (error instanceof Error) error.message += ` [HTTP ${code} to ${method} ${url}]`;
      throw error;
    }
  }

  /** The last request ccxt sent, for assertion messages. */
  lastSent(): SentRequest | undefined {
    return this.sent.at(-1);
  }
}
