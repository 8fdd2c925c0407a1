import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AdminApiError, cannotConnect, unexpectedAnswer } from './errors.js';

export const DEFAULT_BOURSE_URL = 'http://127.0.0.1:8080';
/** Long enough for `verify` over a large ledger; short enough that a hung server cannot hang a script. */
export const REQUEST_TIMEOUT_MS = 60_000;

export type CliEnv = Readonly<Record<string, string | undefined>>;
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface AdminAnswer {
  readonly status: number;
  /** The parsed JSON answer. */
  readonly body: unknown;
  /** The answer's text exactly as the server sent it, for `--json`. */
  readonly raw: string;
}

export interface AdminClient {
  send(method: HttpMethod, path: string, body?: Readonly<Record<string, unknown>>): Promise<AdminAnswer>;
}

export interface AdminClientOptions {
  readonly baseUrl: string;
  readonly token: string;
  readonly timeoutMs?: number;
}

export function adminBaseUrl(env: CliEnv): string {
  return env.BOURSE_URL?.trim() || DEFAULT_BOURSE_URL;
}

/** The operator token: `BOURSE_ADMIN_TOKEN`, else the file the server wrote on its first start. */
export async function readAdminToken(env: CliEnv): Promise<string> {
  const fromEnv = env.BOURSE_ADMIN_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  const file = resolve(env.BOURSE_DATA?.trim() || './data', 'admin-token');
  let text = '';
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = errnoCode(err);
    if (code !== 'ENOENT') throw cannotConnect(`cannot read the admin token file ${file} (${code ?? String(err)})`);
  }
  const fromFile = text.trim();
  if (fromFile) return fromFile;
  throw cannotConnect(
    `no admin token: set BOURSE_ADMIN_TOKEN, or BOURSE_DATA to the server's data directory (no token in ${file})`,
  );
}

/** `/admin/v1/<segments>`, each segment escaped so an id or an IPv6 address cannot change the path. */
export function adminPath(...segments: readonly string[]): string {
  return `/admin/v1/${segments.map((segment) => encodeURIComponent(segment)).join('/')}`;
}

export function createAdminClient(options: AdminClientOptions): AdminClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/i.test(baseUrl) || !URL.canParse(baseUrl)) {
    throw cannotConnect(`BOURSE_URL is not an http(s) URL: ${options.baseUrl}`);
  }
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  return {
    async send(method, path, body) {
      const url = baseUrl + path;
      const headers: Record<string, string> = {
        accept: 'application/json',
        authorization: `Bearer ${options.token}`,
      };
      if (body !== undefined) headers['content-type'] = 'application/json';
      let status: number;
      let statusText: string;
      let raw: string;
      try {
        const response = await fetch(url, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = response.status;
        statusText = response.statusText;
        raw = await response.text();
      } catch (err) {
        throw cannotConnect(`cannot reach the Bourse server at ${baseUrl} (${failureReason(err, timeoutMs)}); is it running? BOURSE_URL sets the address`);
      }
      return interpret(url, status, statusText, raw);
    },
  };
}

function interpret(url: string, status: number, statusText: string, raw: string): AdminAnswer {
  // A 204 or an empty 2xx is an empty object to scripts, so `--json` always prints JSON.
  const text = raw.trim() === '' && status < 300 ? '{}' : raw;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw unexpectedAnswer(`${url} answered HTTP ${status} ${statusText} with a body that is not JSON`);
  }
  if (status >= 200 && status < 300) return { status, body, raw: text };
  if (isErrorBody(body)) throw new AdminApiError(status, body.code, body.msg);
  throw unexpectedAnswer(`${url} answered HTTP ${status} ${statusText} without a {code,msg} body`);
}

function isErrorBody(body: unknown): body is { code: number | string; msg: string } {
  if (typeof body !== 'object' || body === null) return false;
  const { code, msg } = body as Record<string, unknown>;
  return (typeof code === 'number' || typeof code === 'string') && typeof msg === 'string';
}

function failureReason(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && err.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  // fetch wraps the socket error ("fetch failed"); its cause says what happened.
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  return errnoCode(cause) ?? (cause instanceof Error ? cause.message : String(cause));
}

function errnoCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  return typeof err.code === 'string' ? err.code : undefined;
}
