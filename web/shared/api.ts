/**
 * The REST API from the browser: public GETs, and private calls signed here with Web Crypto
 * (HMAC-SHA256 of the query string followed by the body, hex). The secret stays in this tab.
 */
export interface Credentials {
  apiKey: string;
  secret: string;
}

/** A refusal from the server, carrying its `{code, msg}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    msg: string,
  ) {
    super(msg);
  }
}

type Params = Record<string, string | number | undefined>;

function encode(params: Params): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.append(name, String(value));
  return search.toString();
}

async function answer<T>(response: Response): Promise<T> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new ApiError(response.status, 0, `HTTP ${response.status}: ${text.slice(0, 200)}`);
  }
  if (!response.ok) {
    const refusal = body as { code?: number; msg?: string };
    throw new ApiError(response.status, Number(refusal.code ?? 0), refusal.msg ?? `HTTP ${response.status}`);
  }
  return body as T;
}

export async function getPublic<T>(path: string, params: Params = {}): Promise<T> {
  const query = encode(params);
  return answer<T>(await fetch(query === '' ? path : `${path}?${query}`));
}

const keys = new WeakMap<Credentials, Promise<CryptoKey>>();

function hmacKey(credentials: Credentials): Promise<CryptoKey> {
  let key = keys.get(credentials);
  if (key === undefined) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(credentials.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    keys.set(credentials, key);
  }
  return key;
}

export async function hmacHex(credentials: Credentials, text: string): Promise<string> {
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(credentials), new TextEncoder().encode(text));
  return Array.from(new Uint8Array(signature), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Server clock minus ours, so `timestamp` is never ahead of the server (it allows only 1 s). */
let clockOffset = 0;
export async function syncClock(): Promise<void> {
  const before = Date.now();
  const { serverTime } = await getPublic<{ serverTime: number | string }>('/openapi/v1/time');
  const after = Date.now();
  clockOffset = Number(serverTime) - Math.round((before + after) / 2);
}

/**
 * A signed call. GET and DELETE carry everything in the query; POST and PUT in a form body.
 */
export async function signed<T>(credentials: Credentials, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, params: Params = {}): Promise<T> {
  const text = encode({ ...params, recvWindow: 10000, timestamp: Date.now() + clockOffset - 500 });
  const signature = await hmacHex(credentials, text);
  const payload = `${text}&signature=${signature}`;
  const headers: Record<string, string> = { 'X-BH-APIKEY': credentials.apiKey };
  if (method === 'POST' || method === 'PUT') {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    return answer<T>(await fetch(path, { method, headers, body: payload }));
  }
  return answer<T>(await fetch(`${path}?${payload}`, { method, headers }));
}

/** A call that needs the API key only (the listenKey calls). */
export async function keyed<T>(credentials: Credentials, method: 'POST' | 'PUT' | 'DELETE', path: string, params: Params = {}): Promise<T> {
  const query = encode(params);
  return answer<T>(await fetch(query === '' ? path : `${path}?${query}`, { method, headers: { 'X-BH-APIKEY': credentials.apiKey } }));
}

/** ws:// or wss:// for a path on this page's host. */
export function socketUrl(path: string): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${path}`;
}
