/**
 * Payments benchmark: whole merchant on-ramp flows over HTTP (area B, /v2) against a Bourse in a
 * child process, next to the area A signed-order rate of the same server at the same concurrency.
 * One flow is what test/e2e/payments/on-ramp-paid-by-spei.test.ts does:
 *   B22    quote MXN → USDT for 1000.00 MXN with createQuoteId=true
 *   B29    an on-ramp for that amount with the quote (SPEI, paymentId 58)
 *   S16    `/sandbox/v2/orders/{id}/pay`: the bank pays the amount due; the answer must be ORDER_PAID (→ 60)
 * Flow loops and autocannon's signed orders (bench/http-orders.ts) run in turns, as bench/http.ts
 * runs its targets, so that background load skews no ratio. The server is set up as bench/http.ts
 * sets it up (BOURSE_DEMO=1, no market maker, area A limits lifted), plus a USDTMXN book so quotes
 * have a price, and merchant users of its own: area B's limits per user (§9.1: 60 quotes and 1200
 * calls a clock minute) are fixed, so each flow goes to the next user in turn, and a user is given
 * at most QUOTES_PER_USER_MINUTE flows a minute (more users are set up after the warm-up if its rate
 * calls for them); their merchants' day and month limits are lifted.
 *
 *   node --import tsx bench/payments.ts
 *
 * BENCH_PAYMENTS_SECONDS (default 10, at least 5) measured per target, BENCH_PAYMENTS_LOOPS (default
 * 32) concurrent flows and autocannon connections, BENCH_PAYMENTS_USERS (default 64) merchant users at least.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { startChildServer, type ChildServer } from './http-child.js';
import { LoadTarget, type HttpRunResult } from './http-load.js';
import { accountIdOf, OrderFlow, placeOrder, signedForm, type Trader } from './http-orders.js';
import { adminRequest, BOURSE_ENTRY, bourseEnv, positiveIntegerFromEnv, prepareBourse, ROUNDS, tallyNote, WARMUP_SECONDS } from './http.js';
import { elapsedNs, formatCount, formatNs, formatRow, summarizeLatencies, type Align } from './stats.js';

const DEFAULT_SECONDS = 10;
const DEFAULT_LOOPS = 32;
const DEFAULT_USERS = 64;
/** §9.1 allows 60 quotes a user a clock minute; 2 spare for a quote counted here in one minute and charged there in the next. */
const QUOTES_PER_USER_MINUTE = 58;
const MINUTE_MS = 60_000;
const SETUP_PARALLEL = 8;
const FLOW_FIAT_AMOUNT = '1000.00';
const REQUESTS_PER_FLOW = 3;
const QUOTE_PATH = `/v2/user/crypto-quote?country=Mexico&from=MXN&to=USDT&amount=${FLOW_FIAT_AMOUNT}&createQuoteId=true`;
/** Area B §4.1's USDTMXN book (ask 19.1680, bid 19.1500), 50000 USDT deep, rested by the demo user. */
const USDTMXN_BOOK = ['side=SELL&price=19.1680', 'side=BUY&price=19.1500'].map((p) => `symbol=USDTMXN&${p}&type=LIMIT&timeInForce=GTC&quantity=50000`);
/** B15 fields of a BUSINESS merchant that pass every rule (as test/support/merchant-client.ts's). */
const BUSINESS_FIELDS = {
  idNoType: 'RFC',
  idNo: 'ACM010101AB1',
  cardIssueDate: '2020-01-15',
  cardExpireDate: '2030-01-15',
  address: 'Av. Reforma 1',
  city: 'Ciudad de México',
  state: 'CDMX',
  zipCode: '06600',
  phone: '+525512345678',
  companyName: 'Bench MX SA de CV',
  aliasName: 'Bench',
  companyType: 'SA de CV',
  incorporationDate: '2010-05-01',
};
/**
 * The desk sells each flow 51.8586 USDT: the demo's 1000000 would last some 19000 flows, this many
 * more some two million. Its account is the one after the demo users' three (src/demo/demo-data.ts
 * creates the demo user, the demo merchant and the demo market maker, then the desk), which no API names.
 */
const DESK_USDT = '100000000';
const DESK_AFTER_DEMO_ACCOUNT = 3;
/** 0 = no cap: 1000.00 MXN is 50 USD, and the default day limit (25000.00 USD) would stop a merchant at 500 flows. */
const NO_MERCHANT_LIMITS = { dayFiatLimit: '0', monthFiatLimit: '0', monthCryptoLimit: '0' };

const TARGET_SHARE_OF_ORDERS = 0.25;
const TARGET_FLOW_P99_MS = 50;

interface Settings {
  seconds: number;
  loops: number;
  users: number;
}

function settingsFromEnv(): Settings {
  return {
    seconds: positiveIntegerFromEnv('BENCH_PAYMENTS_SECONDS', DEFAULT_SECONDS, ROUNDS),
    loops: positiveIntegerFromEnv('BENCH_PAYMENTS_LOOPS', DEFAULT_LOOPS, 1),
    users: positiveIntegerFromEnv('BENCH_PAYMENTS_USERS', DEFAULT_USERS, 1),
  };
}

/** An area B answer: the HTTP status and the §1.3 envelope. */
interface Envelope {
  status: number;
  code: number;
  data: unknown;
}

/** Keep-alive connections for the flows: node:http costs the bench far less CPU per request than fetch. */
const agent = new Agent({ keepAlive: true });

function callB(url: string, token: string, method: string, path: string, body?: unknown): Promise<Envelope> {
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
class StepFailure extends Error {}

function dataOf<T>(step: string, answer: Envelope): T {
  if (answer.code !== 200) throw new StepFailure(`${step} ${answer.status} ${answer.code}`);
  return answer.data as T;
}

interface MerchantUser {
  token: string;
  merchantId: number;
  /** The clock minute `quotes` counts in. */
  minute: number;
  quotes: number;
}

/** B0 as §1.2 signs it, with the key's secret. */
async function merchantToken(url: string, key: Trader): Promise<string> {
  const response = await fetch(`${url}/v2/token/generate?${signedForm(key.secretKey, 'recvWindow=5000', Date.now())}`, { headers: { 'X-BH-APIKEY': key.apiKey } });
  const body = (await response.json()) as { code: number; data: { token: string } };
  return dataOf<{ token: string }>('B0', { status: response.status, code: body.code, data: body.data }).token;
}

/** A merchant-type user with a key and a token, a verified merchant with an active MXN account, and no limits in the way. */
async function setUpMerchantUser(url: string, adminToken: string, index: number): Promise<MerchantUser> {
  const user = (await adminRequest(url, adminToken, 'POST', '/users', { type: 'merchant', email: `bench-merchant-${index}@example.mx` })) as { userId: string };
  const key = (await adminRequest(url, adminToken, 'POST', `/users/${user.userId}/api-keys`, {})) as Trader;
  const token = await merchantToken(url, key);
  const call = async <T>(method: string, path: string, body: unknown): Promise<T> => dataOf<T>(`${method} ${path}`, await callB(url, token, method, path, body));
  const { merchantId } = await call<{ merchantId: number }>('POST', '/v2/merchants', {
    merchantName: `Bench ${index}`,
    email: `pay-${index}@bench.mx`,
    merchantType: 'BUSINESS',
    callbackUrl: 'https://merchant.example/kyc-done',
  });
  await call('POST', '/v2/merchant/accounts', { merchantId, fiat: 'MXN', fieldList: BUSINESS_FIELDS });
  await call('PUT', `/sandbox/v2/merchants/${merchantId}/limits`, NO_MERCHANT_LIMITS);
  await call('PUT', '/sandbox/v2/user/limit', { monthLimit: '0' });
  return { token, merchantId, minute: 0, quotes: 0 };
}

/** Sets up merchant users until `users` holds `count`. */
async function addMerchantUsers(url: string, adminToken: string, users: MerchantUser[], count: number): Promise<void> {
  let next = users.length;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < count; index = next++) users[index] = await setUpMerchantUser(url, adminToken, index);
  };
  await Promise.all(Array.from({ length: SETUP_PARALLEL }, worker));
}

/** The merchant users in turn, each given at most QUOTES_PER_USER_MINUTE flows a clock minute. */
class MerchantPool {
  private next = 0;
  /** How often a loop found every user's minute used up and waited for the next one. */
  waits = 0;
  maxQuotes = 0;

  constructor(readonly users: MerchantUser[]) {}

  async take(): Promise<MerchantUser> {
    for (;;) {
      const now = Date.now();
      const minute = Math.floor(now / MINUTE_MS);
      const user = this.users[this.next++ % this.users.length];
      if (user.minute !== minute) Object.assign(user, { minute, quotes: 0 });
      if (user.quotes < QUOTES_PER_USER_MINUTE) {
        this.maxQuotes = Math.max(this.maxQuotes, ++user.quotes);
        return user;
      }
      // Taken in turn, the users use their minutes up together: wait for the next minute.
      this.waits++;
      await sleep((minute + 1) * MINUTE_MS - now + 10);
    }
  }
}

interface FlowTally {
  requests: number;
  samplesNs: number[];
  failures: Map<string, number>;
}

export interface FlowResult {
  flowsPerSecond: number;
  flows: number;
  failed: number;
  requestsPerFlow: number;
  p50Ns: number;
  p99Ns: number;
  maxNs: number;
  /** CPU the server and this process used, in cores, as HttpRunResult has them. */
  serverCores: number | undefined;
  benchCores: number;
  notes: string[];
}

/** `loops` concurrent flows over HTTP, measured in segments like a LoadTarget. */
class FlowTarget {
  private readonly tally: FlowTally = { requests: 0, samplesNs: [], failures: new Map() };
  private seconds = 0;
  private serverCpuSeconds: number | undefined = 0;
  private benchCpuSeconds = 0;
  private last: { user: MerchantUser; orderId: number } | undefined;

  constructor(
    private readonly server: ChildServer,
    private readonly pool: MerchantPool,
    private readonly loops: number,
  ) {}

  /** Unmeasured; answers the flows completed. */
  async warmUp(seconds: number): Promise<number> {
    const tally: FlowTally = { requests: 0, samplesNs: [], failures: new Map() };
    await this.run(seconds, tally);
    return tally.samplesNs.length;
  }

  async runSegment(seconds: number): Promise<void> {
    const serverCpuBefore = this.server.cpuSeconds();
    const benchCpuBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    await this.run(seconds, this.tally);
    this.seconds += elapsedNs(started) / 1e9;
    const benchCpu = process.cpuUsage(benchCpuBefore);
    this.benchCpuSeconds += (benchCpu.user + benchCpu.system) / 1e6;
    const serverCpuAfter = this.server.cpuSeconds();
    this.serverCpuSeconds = this.serverCpuSeconds === undefined || serverCpuBefore === undefined || serverCpuAfter === undefined ? undefined : this.serverCpuSeconds + serverCpuAfter - serverCpuBefore;
  }

  private async run(seconds: number, tally: FlowTally): Promise<void> {
    const endsAt = Date.now() + 1000 * seconds;
    const loop = async (): Promise<void> => {
      while (Date.now() < endsAt) {
        const user = await this.pool.take();
        const started = process.hrtime.bigint();
        try {
          await this.flow(user, tally);
          tally.samplesNs.push(elapsedNs(started));
        } catch (error) {
          const key = error instanceof StepFailure ? error.message : String(error);
          tally.failures.set(key, (tally.failures.get(key) ?? 0) + 1);
        }
      }
    };
    await Promise.all(Array.from({ length: this.loops }, loop));
  }

  private async flow(user: MerchantUser, tally: FlowTally): Promise<void> {
    const call = (method: string, path: string, body?: unknown): Promise<Envelope> => {
      tally.requests++;
      return callB(this.server.url, user.token, method, path, body);
    };
    const { quoteId } = dataOf<{ quoteId: string }>('B22', await call('GET', QUOTE_PATH));
    const order = { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: FLOW_FIAT_AMOUNT, paymentId: 58, merchantId: user.merchantId, quoteId };
    const { orderId } = dataOf<{ orderId: number }>('B29', await call('POST', '/v2/order/fiat_to_crypto', order));
    const { result } = dataOf<{ result: string }>('pay', await call('POST', `/sandbox/v2/orders/${orderId}/pay`, {}));
    if (result !== 'ORDER_PAID') throw new StepFailure(`pay ${result}`);
    this.last = { user, orderId };
  }

  async result(): Promise<FlowResult> {
    const { samplesNs, failures, requests } = this.tally;
    if (samplesNs.length === 0) throw new Error(`no flow completed; failures: ${JSON.stringify([...failures])}`);
    const latency = summarizeLatencies(Float64Array.from(samplesNs));
    const failed = [...failures.values()].reduce((sum, n) => sum + n, 0);
    const notes = [`${this.pool.users.length} merchant users in turn, at most ${this.pool.maxQuotes} quotes each in a clock minute (limit 60)`];
    if (this.pool.waits > 0) notes.push(`every user's quotes were used up ${this.pool.waits} times: loops waited for the next minute, raise BENCH_PAYMENTS_USERS`);
    if (failed > 0) notes.push(`failed: ${[...failures].map(([key, n]) => `${key} ×${formatCount(n)}`).join(', ')}`);
    if (this.last !== undefined) {
      const detail = dataOf<{ orderStatus: number }>('B33', await callB(this.server.url, this.last.user.token, 'GET', `/v2/order/detail?orderId=${this.last.orderId}`));
      notes.push(`last order ${this.last.orderId}: status ${detail.orderStatus}`);
    }
    return {
      flowsPerSecond: samplesNs.length / this.seconds,
      flows: samplesNs.length,
      failed,
      requestsPerFlow: requests / samplesNs.length,
      p50Ns: latency.p50Ns,
      p99Ns: latency.p99Ns,
      maxNs: latency.maxNs,
      serverCores: this.serverCpuSeconds === undefined ? undefined : this.serverCpuSeconds / this.seconds,
      benchCores: this.benchCpuSeconds / this.seconds,
      notes,
    };
  }
}

const COLUMNS: { title: string; width: number; align: Align }[] = [
  { title: 'run', width: 16, align: 'left' },
  { title: 'ok/s', width: 7, align: 'right' },
  { title: 'p50', width: 8, align: 'right' },
  { title: 'p99', width: 8, align: 'right' },
  { title: 'max', width: 8, align: 'right' },
  { title: 'ok', width: 8, align: 'right' },
  { title: 'failed', width: 6, align: 'right' },
  { title: 'req/op', width: 6, align: 'right' },
  { title: 'server', width: 6, align: 'right' },
  { title: 'µs/op', width: 5, align: 'right' },
  { title: 'bench', width: 5, align: 'right' },
  { title: '÷A order', width: 8, align: 'right' },
];

function row(cells: string[]): string {
  return formatRow(
    cells,
    COLUMNS.map((c) => c.width),
    COLUMNS.map((c) => c.align),
  );
}

export interface PaymentsBenchResult {
  flows: FlowResult;
  orders: HttpRunResult;
}

async function runAll(server: ChildServer, dataDir: string, settings: Settings): Promise<PaymentsBenchResult> {
  const { adminToken, demo, merchant } = await prepareBourse(server, dataDir);
  const { url } = server;
  await adminRequest(url, adminToken, 'PATCH', '/payments/config', { maxOpenOrdersPerMerchant: 1_000_000 });
  const deskAccountId = (await accountIdOf(url, demo)) + DESK_AFTER_DEMO_ACCOUNT;
  await adminRequest(url, adminToken, 'POST', '/deposits', { accountId: deskAccountId, asset: 'USDT', amount: DESK_USDT });
  for (const params of USDTMXN_BOOK) await placeOrder(url, demo, params);
  const users: MerchantUser[] = [];
  const setUpStarted = process.hrtime.bigint();
  await addMerchantUsers(url, adminToken, users, settings.users);
  console.log(`  ${users.length} merchant users set up in ${formatNs(elapsedNs(setUpStarted))}`);

  const flowTarget = new FlowTarget(server, new MerchantPool(users), settings.loops);
  const orderFlow = new OrderFlow(demo, merchant);
  const orderTarget = new LoadTarget('A signed order', server, { url, connections: settings.loops, requests: [orderFlow.request()] });
  const warmUpFlows = await flowTarget.warmUp(WARMUP_SECONDS);
  // No clock minute may run out of quotes: room for twice the warm-up's rate over the warm-up and the measured time.
  const needed = Math.ceil((2 * warmUpFlows * (1 + settings.seconds / WARMUP_SECONDS)) / QUOTES_PER_USER_MINUTE);
  if (needed > users.length) {
    await addMerchantUsers(url, adminToken, users, needed);
    console.log(`  ${formatCount(warmUpFlows / WARMUP_SECONDS)} flows/s in the warm-up: ${users.length} merchant users in all`);
  }
  await orderTarget.warmUp(WARMUP_SECONDS);
  orderFlow.tally.clear();
  for (let round = 0; round < ROUNDS; round++) {
    await flowTarget.runSegment(settings.seconds / ROUNDS);
    await orderTarget.runSegment(settings.seconds / ROUNDS);
  }
  const flows = await flowTarget.result();
  const orders = orderTarget.result();
  orders.notes.push(tallyNote(orderFlow.tally));
  const verify = (await adminRequest(url, adminToken, 'GET', '/verify')) as { ok?: unknown };
  flows.notes.push(`ledger verify at the end: ${verify.ok === true ? 'ok' : JSON.stringify(verify)}`);
  return { flows, orders };
}

function cpuCells(serverCores: number | undefined, perSecond: number, benchCores: number): string[] {
  if (serverCores === undefined) return ['-', '-', benchCores.toFixed(2)];
  return [serverCores.toFixed(2), ((1e6 * serverCores) / perSecond).toFixed(0), benchCores.toFixed(2)];
}

function report({ flows, orders }: PaymentsBenchResult): void {
  const share = flows.flowsPerSecond / orders.okPerSecond;
  console.log(row(COLUMNS.map((c) => c.title)));
  const flowCells = [formatCount(flows.flowsPerSecond), formatNs(flows.p50Ns), formatNs(flows.p99Ns), formatNs(flows.maxNs), formatCount(flows.flows), formatCount(flows.failed)];
  const flowCpu = cpuCells(flows.serverCores, flows.flowsPerSecond, flows.benchCores);
  console.log(row(['payment flow', ...flowCells, flows.requestsPerFlow.toFixed(2), ...flowCpu, `${(100 * share).toFixed(1)}%`]));
  for (const note of flows.notes) console.log(`  ${note}`);
  const orderCells = [formatCount(orders.okPerSecond), `${orders.p50Ms}ms`, `${orders.p99Ms}ms`, `${orders.maxMs}ms`, formatCount(orders.ok), formatCount(orders.non200 + orders.errors)];
  console.log(row([orders.label, ...orderCells, '1', ...cpuCells(orders.serverCores, orders.okPerSecond, orders.benchCores), '100%']));
  for (const note of orders.notes) console.log(`  ${note}`);
  const p99Ms = flows.p99Ns / 1e6;
  const met = share >= TARGET_SHARE_OF_ORDERS && p99Ms <= TARGET_FLOW_P99_MS && flows.failed === 0;
  console.log(
    `${met ? 'met   ' : 'MISSED'} flow ≥ ${100 * TARGET_SHARE_OF_ORDERS}% of the area A order rate, p99 ≤ ${TARGET_FLOW_P99_MS} ms: ` +
      `${formatCount(flows.flowsPerSecond)} flows/s ÷ ${formatCount(orders.okPerSecond)} orders/s = ${(100 * share).toFixed(1)}%, p99 ${p99Ms.toFixed(1)} ms, ${formatCount(flows.failed)} failed`,
  );
}

export async function main(): Promise<PaymentsBenchResult> {
  const settings = settingsFromEnv();
  console.log(
    `payments: ${settings.loops} concurrent flows (B22 quote, B29 on-ramp ${FLOW_FIAT_AMOUNT} MXN, sandbox pay → 60; ${REQUESTS_PER_FLOW} requests) over ${settings.users} merchant users, ` +
      `against ${settings.loops} autocannon connections of area A signed orders; ${settings.seconds} s each in ${ROUNDS} rounds taken in turns, after a ${WARMUP_SECONDS} s warm-up each; ` +
      `node ${process.version}; load average ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores`,
  );
  console.log(
    '  ok/s: flows completed (every step answered 200, the pay ORDER_PAID) or orders answered 200 per second; latencies per flow or per order; ' +
      "req/op: HTTP requests per flow; server, bench: CPU used, in cores; µs/op: server CPU per flow or order; ÷A order: ok/s over the area A order rate",
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'bourse-bench-payments-'));
  let server: ChildServer | undefined;
  try {
    server = await startChildServer(BOURSE_ENTRY, { env: bourseEnv(dataDir, 'inline') });
    const result = await runAll(server, dataDir, settings);
    report(result);
    console.log(`load average at the end ${loadavg()[0].toFixed(2)}`);
    return result;
  } finally {
    // Reported, not thrown: a throw here would hide the error that may be on its way out of the try.
    agent.destroy();
    await server?.stop().catch((error: unknown) => console.error(`bench server: ${String(error)}`));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
