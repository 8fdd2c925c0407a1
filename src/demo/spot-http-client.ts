import { createHmac } from 'node:crypto';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface SpotHttpClientOptions {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  /** A request that takes longer is aborted, so a stuck server cannot hold a tick forever. */
  timeoutMs?: number;
  fetch?: FetchLike;
  now?: () => number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** An area A error reply (`{code, msg}` with a non-2XX status). */
export class SpotApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'SpotApiError';
  }
}

function errorOf(status: number, body: unknown, text: string): SpotApiError {
  if (typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'number') {
    const msg = 'msg' in body && typeof body.msg === 'string' ? body.msg : '';
    return new SpotApiError(status, body.code, msg);
  }
  return new SpotApiError(status, undefined, text.slice(0, 200));
}

/** A signing client of the spot API as its SDKs sign: HMAC-SHA256 hex of the query, key in `X-BH-APIKEY`. */
export class SpotHttpClient {
  private readonly fetch: FetchLike;
  private readonly now: () => number;
  private readonly timeoutMs: number;

  constructor(private readonly options: SpotHttpClientOptions) {
    this.fetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.now = options.now ?? Date.now;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** A signed request; resolves to the parsed body of a 2XX reply, else rejects with SpotApiError. */
  async signed(method: 'GET' | 'POST' | 'DELETE', path: string, params: Readonly<Record<string, string>>): Promise<unknown> {
    const payload = new URLSearchParams({ ...params, timestamp: String(this.now()) }).toString();
    const signature = createHmac('sha256', this.options.secretKey).update(payload).digest('hex');
    const response = await this.fetch(`${this.options.baseUrl}${path}?${payload}&signature=${signature}`, {
      method,
      headers: { 'X-BH-APIKEY': this.options.apiKey },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new SpotApiError(response.status, undefined, `reply is not JSON: ${text.slice(0, 200)}`);
    }
    if (!response.ok) throw errorOf(response.status, body, text);
    return body;
  }
}
