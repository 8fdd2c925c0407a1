/**
 * What a bench needs to drive merchant on-ramp flows over HTTP (area B, /v2) against a Bourse in a
 * child process: the payments set-up of the server, merchant users and the pool that hands them
 * out within the per-user limits of docs/merchant-payments.md "Rate limits", the flow itself, and the loops that run flows and tally them
 * (bench/payments.ts, bench/webhooks.ts).
 *
 * One flow is what test/e2e/payments/on-ramp-paid-by-spei.test.ts does:
 *   B22    quote MXN → USDT for 1000.00 MXN with createQuoteId=true
 *   B29    an on-ramp for that amount with the quote (SPEI, paymentId 58)
 *   S16    `/sandbox/v2/orders/{id}/pay`: the bank pays the amount due; the answer must be ORDER_PAID (→ 60)
 */

import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { BUSINESS_FIELDS as TEST_BUSINESS_FIELDS } from '../test/support/merchant-fields.js';
import type { ChildServer } from './http-child.js';
import { accountIdOf, placeOrder, signedForm, type Trader } from './http-orders.js';
import { adminRequest, prepareBourse } from './http.js';
import { elapsedNs, formatCount } from './stats.js';

/** docs/merchant-payments.md "Rate limits" allows 60 quotes a user a clock minute; 2 spare for a quote counted here in one minute and charged there in the next. */
export const QUOTES_PER_USER_MINUTE = 58;
const MINUTE_MS = 60_000;
const SETUP_PARALLEL = 8;
export const FLOW_FIAT_AMOUNT = '1000.00';
export const REQUESTS_PER_FLOW = 3;
const QUOTE_PATH = `/v2/user/crypto-quote?country=Mexico&from=MXN&to=USDT&amount=${FLOW_FIAT_AMOUNT}&createQuoteId=true`;
/** The USDTMXN book of docs/merchant-payments.md "Quotes and orders" (ask 19.1680, bid 19.1500), 50000 USDT deep, rested by the demo user. */
const USDTMXN_BOOK = ['side=SELL&price=19.1680', 'side=BUY&price=19.1500'].map((p) => `symbol=USDTMXN&${p}&type=LIMIT&timeInForce=GTC&quantity=50000`);
/** B15 fields of a BUSINESS merchant that pass every rule: the tests', under the bench's own names. */
const BUSINESS_FIELDS = { ...TEST_BUSINESS_FIELDS, companyName: 'Bench MX SA de CV', aliasName: 'Bench' };
/**
 * The desk sells each flow 51.8586 USDT: the demo's 1000000 would last some 19000 flows, this many
 * more some two million. Its account is the one after the demo users' three (src/demo/demo-data.ts
 * creates the demo user, the demo merchant and the demo market maker, then the desk), which no API names.
 */
const DESK_USDT = '100000000';
const DESK_AFTER_DEMO_ACCOUNT = 3;
/** 0 = no cap: 1000.00 MXN is 50 USD, and the default day limit (25000.00 USD) would stop a merchant at 500 flows. */
const NO_MERCHANT_LIMITS = { dayFiatLimit: '0', monthFiatLimit: '0', monthCryptoLimit: '0' };

/** An area B answer: the HTTP status and the docs/merchant-payments.md "Answers and errors" envelope. */
export interface Envelope {
  status: number;
  code: number;
  data: unknown;
}

/** Keep-alive connections for the flows: node:http costs the bench far less CPU per request than fetch. */
const agent = new Agent({ keepAlive: true });

/** Closes the flows' kept-alive connections (at the end of a bench). */
export function closeFlowConnections(): void {
  agent.destroy();
}

export function callB(url: string, token: string, method: string, path: string, body?: unknown): Promise<Envelope> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { 'X-BH-TOKEN': token, ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }) };
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        try {
          const { code, data } = JSON.parse(text) as { code: number; data: unknown };
          resolve({ status: res.statusCode ?? 0, code, data });
        } catch (error) {
          reject(error as Error);
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** A step that failed, by what it answered: `B22 429 -1003`. */
export class StepFailure extends Error {}

export function dataOf<T>(step: string, answer: Envelope): T {
  if (answer.code !== 200) throw new StepFailure(`${step} ${answer.status} ${answer.code}`);
  return answer.data as T;
}

export interface MerchantUser {
  index: number;
  token: string;
  merchantId: number;
  /** The clock minute `quotes` counts in. */
  minute: number;
  quotes: number;
}

/** Calls /v2 (or /sandbox/v2) as `user`, answering `data` or throwing a StepFailure. */
export type UserCall = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** B0 as docs/merchant-payments.md "Getting a token" signs it, with the key's secret. */
async function merchantToken(url: string, key: Trader): Promise<string> {
  const response = await fetch(`${url}/v2/token/generate?${signedForm(key.secretKey, 'recvWindow=5000', Date.now())}`, { headers: { 'X-BH-APIKEY': key.apiKey } });
  const body = (await response.json()) as { code: number; data: { token: string } };
  return dataOf<{ token: string }>('B0', { status: response.status, code: body.code, data: body.data }).token;
}

/**
 * The server as bench/payments.ts sets it up: prepareBourse's (limits lifted), no cap on open
 * orders per merchant, a desk with USDT to sell and a USDTMXN book so quotes have a price.
 */
export async function preparePaymentsBourse(server: ChildServer, dataDir: string): Promise<{ adminToken: string; demo: Trader; merchant: Trader }> {
  const prepared = await prepareBourse(server, dataDir);
  const { url } = server;
  await adminRequest(url, prepared.adminToken, 'PATCH', '/payments/config', { maxOpenOrdersPerMerchant: 1_000_000 });
  const deskAccountId = (await accountIdOf(url, prepared.demo)) + DESK_AFTER_DEMO_ACCOUNT;
  await adminRequest(url, prepared.adminToken, 'POST', '/deposits', { accountId: deskAccountId, asset: 'USDT', amount: DESK_USDT });
  for (const params of USDTMXN_BOOK) await placeOrder(url, prepared.demo, params);
  return prepared;
}

export interface MerchantUserOptions {
  /** Tells one set of users from another in their e-mail addresses (default `bench`). */
  prefix?: string;
  /** Runs last, as the user (e.g. to register webhooks). */
  extra?: (call: UserCall) => Promise<void>;
}

/** A merchant-type user with a key and a token, a verified merchant with an active MXN account, and no limits in the way. */
async function setUpMerchantUser(url: string, adminToken: string, index: number, { prefix = 'bench', extra }: MerchantUserOptions): Promise<MerchantUser> {
  const user = (await adminRequest(url, adminToken, 'POST', '/users', { type: 'merchant', email: `${prefix}-merchant-${index}@example.mx` })) as { userId: string };
  const key = (await adminRequest(url, adminToken, 'POST', `/users/${user.userId}/api-keys`, {})) as Trader;
  const token = await merchantToken(url, key);
  const call: UserCall = async <T>(method: string, path: string, body?: unknown): Promise<T> => dataOf<T>(`${method} ${path}`, await callB(url, token, method, path, body));
  const { merchantId } = await call<{ merchantId: number }>('POST', '/v2/merchants', {
    merchantName: `Bench ${index}`,
    email: `pay-${index}@${prefix}.mx`,
    merchantType: 'BUSINESS',
    callbackUrl: 'https://merchant.example/kyc-done',
  });
  await call('POST', '/v2/merchant/accounts', { merchantId, fiat: 'MXN', fieldList: BUSINESS_FIELDS });
  await call('PUT', `/sandbox/v2/merchants/${merchantId}/limits`, NO_MERCHANT_LIMITS);
  await call('PUT', '/sandbox/v2/user/limit', { monthLimit: '0' });
  await extra?.(call);
  return { index, token, merchantId, minute: 0, quotes: 0 };
}

/** Sets up merchant users until `users` holds `count`. */
export async function addMerchantUsers(url: string, adminToken: string, users: MerchantUser[], count: number, options: MerchantUserOptions = {}): Promise<void> {
  let next = users.length;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < count; index = next++) users[index] = await setUpMerchantUser(url, adminToken, index, options);
  };
  await Promise.all(Array.from({ length: SETUP_PARALLEL }, worker));
}

/** The merchant users in turn, each given at most QUOTES_PER_USER_MINUTE flows a clock minute. */
export class MerchantPool {
  private next = 0;
  /** How often a loop found every user's minute used up and waited for the next one. */
  waits = 0;
  maxQuotes = 0;

  constructor(readonly users: MerchantUser[]) {}

  /** Quotes the users have left in the current clock minute. */
  quotesLeft(now = Date.now()): number {
    const minute = Math.floor(now / MINUTE_MS);
    return this.users.reduce((sum, user) => sum + QUOTES_PER_USER_MINUTE - (user.minute === minute ? user.quotes : 0), 0);
  }

  async take(): Promise<MerchantUser> {
    for (;;) {
      const now = Date.now();
      const minute = Math.floor(now / MINUTE_MS);
      // Users added after a warm-up are fresh while the first ones may be used up: look at each once
      // before waiting, so that a loop waits only when every user's minute is used up.
      for (let tried = 0; tried < this.users.length; tried++) {
        const user = this.users[this.next++ % this.users.length];
        if (user.minute !== minute) Object.assign(user, { minute, quotes: 0 });
        if (user.quotes < QUOTES_PER_USER_MINUTE) {
          this.maxQuotes = Math.max(this.maxQuotes, ++user.quotes);
          return user;
        }
      }
      this.waits++;
      await sleep((minute + 1) * MINUTE_MS - now + 10);
    }
  }
}

/** One on-ramp flow as `user` (REQUESTS_PER_FLOW requests, each told to `onRequest` as it is sent); answers the order id once paid. */
export async function onRampFlow(url: string, user: MerchantUser, onRequest?: () => void): Promise<number> {
  const call = (method: string, path: string, body?: unknown): Promise<Envelope> => {
    onRequest?.();
    return callB(url, user.token, method, path, body);
  };
  const { quoteId } = dataOf<{ quoteId: string }>('B22', await call('GET', QUOTE_PATH));
  const order = { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: FLOW_FIAT_AMOUNT, paymentId: 58, merchantId: user.merchantId, quoteId };
  const { orderId } = dataOf<{ orderId: number }>('B29', await call('POST', '/v2/order/fiat_to_crypto', order));
  const { result } = dataOf<{ result: string }>('pay', await call('POST', `/sandbox/v2/orders/${orderId}/pay`, {}));
  if (result !== 'ORDER_PAID') throw new StepFailure(`pay ${result}`);
  return orderId;
}

/** What flow loops add up. */
export interface FlowTally {
  /** Requests sent, failed flows' included. */
  requests: number;
  /** Each completed flow's time. */
  samplesNs: number[];
  /** Failed flows by what failed: a StepFailure's message (`B22 429 -1003`) or the error. */
  failures: Map<string, number>;
  /** The last order paid. */
  last: { user: MerchantUser; orderId: number } | undefined;
}

export function newFlowTally(): FlowTally {
  return { requests: 0, samplesNs: [], failures: new Map(), last: undefined };
}

/** `loops` concurrent flows from `pool` for `seconds` (a loop finishes the flow it is in), added to `tally`. */
export async function runFlows(url: string, pool: MerchantPool, loops: number, seconds: number, tally: FlowTally): Promise<void> {
  const endsAt = Date.now() + 1000 * seconds;
  const loop = async (): Promise<void> => {
    while (Date.now() < endsAt) {
      const user = await pool.take();
      const started = process.hrtime.bigint();
      try {
        const orderId = await onRampFlow(url, user, () => tally.requests++);
        tally.samplesNs.push(elapsedNs(started));
        tally.last = { user, orderId };
      } catch (error) {
        const key = error instanceof StepFailure ? error.message : String(error);
        tally.failures.set(key, (tally.failures.get(key) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
}

/**
 * The failed flows, and the notes printed under a flow row: how many users took turns and how
 * many quotes they had to use, and what failed. `usersSetting` is the variable that adds users.
 */
export function flowNotes(pool: MerchantPool, tally: FlowTally, usersSetting: string): { failed: number; notes: string[] } {
  const failed = [...tally.failures.values()].reduce((sum, n) => sum + n, 0);
  const notes = [`${pool.users.length} merchant users in turn, at most ${pool.maxQuotes} quotes each in a clock minute (limit 60)`];
  if (pool.waits > 0) notes.push(`every user's quotes were used up ${pool.waits} times: loops waited for the next minute, raise ${usersSetting}`);
  if (failed > 0) notes.push(`failed: ${[...tally.failures].map(([key, n]) => `${key} ×${formatCount(n)}`).join(', ')}`);
  return { failed, notes };
}
