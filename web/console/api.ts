/**
 * The console's only way to the server: the operator API (`/admin/v1`, bearer token, JSON in and
 * out, errors `{code, msg}`) and the public `/metrics` text. Values go out exactly as typed (strings,
 * or a configuration's counts as the digits typed) and come back as the server sent them: nothing
 * here parses or formats an amount.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    msg: string,
  ) {
    super(msg);
  }

  /** What the operator reads: the server's message, with its code. */
  get text(): string {
    return this.code === undefined ? this.message : `${this.message} (code ${this.code})`;
  }
}

export type Json = string | number | boolean | null | Json[] | { [name: string]: Json };

const TOKEN_KEY = 'bourse.console.adminToken';

/** The token lives in sessionStorage only: gone when the tab closes, never in localStorage. */
export function savedToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function saveToken(token: string | null): void {
  try {
    if (token === null) sessionStorage.removeItem(TOKEN_KEY);
    else sessionStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Storage refused (private mode): the token stays in memory for this page only.
  }
}

/** An answer's text as JSON; undefined when it is not JSON (an empty body, a proxy's error page). */
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Sends one request with the admin token (and `body`, JSON text, when given) and reads the whole
 * answer: its text and, when it is JSON, its value. A server that does not answer is an ApiError of status 0.
 */
export async function sendWithToken(token: string, method: string, path: string, body: string | undefined): Promise<{ response: Response; text: string; parsed: unknown }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body });
  } catch (error) {
    throw new ApiError(0, undefined, `The server did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await response.text();
  return { response, text, parsed: jsonOrUndefined(text) };
}

export class AdminApi {
  constructor(readonly token: string) {}

  call<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: Record<string, Json>): Promise<T> {
    return this.send<T>(method, path, body === undefined ? undefined : JSON.stringify(body));
  }

  /** `call` with the body already written as JSON text (config-members.ts: counts exactly as typed). */
  async send<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, bodyText: string | undefined): Promise<T> {
    const { response, text, parsed } = await sendWithToken(this.token, method, `/admin/v1${path}`, bodyText);
    if (!response.ok) {
      const failure = parsed as { code?: unknown; msg?: unknown } | undefined;
      const msg = typeof failure?.msg === 'string' ? failure.msg : `HTTP ${response.status}${text === '' ? '' : `: ${text.slice(0, 200)}`}`;
      throw new ApiError(response.status, typeof failure?.code === 'number' ? failure.code : undefined, msg);
    }
    return parsed as T;
  }

  get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }
}

/** Users come in pages of at most this many (the operator API's cap on GET /users). */
const USERS_PAGE = 1000;
/** A bound on the pages read, so a server that keeps answering full pages cannot hold the console forever. */
const MAX_USER_PAGES = 1000;

/** Every user, read page by page by userId (GET /users answers 100 by default). */
export async function allUsers(api: AdminApi): Promise<UserRow[]> {
  const users: UserRow[] = [];
  for (let page = 0; page < MAX_USER_PAGES; page++) {
    const from = users.length === 0 ? 0 : Number(users[users.length - 1].userId) + 1;
    const rows = await api.get<UserRow[]>(`/users?fromUserId=${from}&limit=${USERS_PAGE}`);
    users.push(...rows);
    if (rows.length < USERS_PAGE) break;
  }
  return users;
}

/** Path segments are the operator's text: escaped, never trusted to be digits. */
export const seg = (text: string): string => encodeURIComponent(text);

// ---- the answers the console reads (src/api/admin/schemas.ts) ----

export interface AccountRef {
  accountId: string;
  accountIndex: number;
  name: string;
}
export interface UserRow {
  userId: string;
  email: string;
  type: string;
  accounts: AccountRef[];
}
export interface BalanceRow {
  accountId: string;
  accountIndex: number;
  asset: string;
  free: string;
  locked: string;
  total: string;
}
export interface ApiKeyRow {
  apiKey: string;
  accountId: string;
  accountIndex: number;
  permissions: string[];
  ipWhitelist: string[];
  label: string;
  createdAt: number;
  revoked: boolean;
}
export interface CreatedApiKey {
  apiKey: string;
  secretKey: string;
  permissions: string[];
}
export interface AssetRow {
  asset: string;
  precision: number;
  kind: string;
  fullName: string;
  chains: string[];
  withdrawFee: string;
  minWithdraw: string;
  allowDeposit: boolean;
  allowWithdraw: boolean;
}
export interface SymbolRow {
  symbol: string;
  status: string;
  baseAsset: string;
  quoteAsset: string;
  tickSize: string;
  stepSize: string;
  minQty: string;
  maxQty: string;
  minPrice: string;
  maxPrice: string;
  minNotional: string;
}
export interface WithdrawalRow {
  withdrawalId: string;
  accountId: string;
  userId: string;
  status: string;
  asset: string;
  amount: string;
  fee: string;
  chainType: string;
  address: string;
  txId: string;
  time: number;
  updateTime: number;
}
export interface BanRow {
  ip: string;
  bannedUntil: number;
  banCount: number;
}
export type TradingConfig = Record<string, string | number | boolean>;
export interface VerifyReport {
  ok: boolean;
  checkedAt: number;
  details: Record<string, string>[];
  replay?: { ok: boolean; stateHash: string; replayHash: string; replicaHash?: string };
}

/** The permission names a key may hold (src/core/types.ts PERMISSIONS). */
export const PERMISSIONS = ['MARKET_DATA', 'USER_STREAM', 'USER_DATA', 'TRADE', 'SUB_ACCOUNT_LIST', 'ACCOUNT_TRANSFER', 'BALANCE_FLOW', 'TRANSFER', 'WITHDRAW'] as const;

/** A time in ms as ISO 8601 UTC, as the CLI shows it. */
export const isoTime = (ms: number): string => new Date(ms).toISOString();
