import { createHmac } from 'node:crypto';

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (undefined if not JSON). */
  body: unknown;
}

async function answer(response: Response): Promise<HttpAnswer> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** Any raw HTTP request. */
export async function request(url: string, init: RequestInit = {}): Promise<HttpAnswer> {
  return answer(await fetch(url, init));
}

export function hmacHex(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message).digest('hex');
}

export interface SignedOptions {
  /** Where the parameters go: all in the query (default), all in a form body, or split. */
  place?: 'query' | 'body';
  headers?: Record<string, string>;
  /** Omit the automatic timestamp. */
  noTimestamp?: boolean;
  /** Replace the computed signature. */
  signature?: string;
}

/** A client of area A that signs like the BHEX SDKs: HMAC-SHA256 hex over query + body. */
export class SpotClient {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string,
    readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A public (NONE) request. */
  get(path: string, params: Record<string, string | number> = {}): Promise<HttpAnswer> {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
    return request(`${this.baseUrl}${path}${query ? `?${query}` : ''}`);
  }

  /** A signed request. */
  signed(method: string, path: string, params: Record<string, string | number> = {}, options: SignedOptions = {}): Promise<HttpAnswer> {
    const entries = Object.entries(params).map(([k, v]) => [k, String(v)]);
    if (options.noTimestamp !== true) entries.push(['timestamp', String(this.now())]);
    const payload = new URLSearchParams(entries).toString();
    const signature = options.signature ?? hmacHex(this.secret, payload);
    const headers: Record<string, string> = { 'X-BH-APIKEY': this.apiKey, ...options.headers };
    if (options.place === 'body') {
      return request(`${this.baseUrl}${path}`, {
        method,
        headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: `${payload}&signature=${signature}`,
      });
    }
    return request(`${this.baseUrl}${path}?${payload}&signature=${signature}`, { method, headers });
  }
}

/** A client of the operator API. */
export class AdminClient {
  constructor(
    readonly baseUrl: string,
    readonly token: string,
  ) {}

  send(method: string, path: string, body?: unknown): Promise<HttpAnswer> {
    return request(`${this.baseUrl}/admin/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
}
