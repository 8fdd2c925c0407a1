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
 * have a price, and merchant users of its own: area B's limits per user (docs/merchant-payments.md "Rate limits": 60 quotes and 1200
 * calls a clock minute) are fixed, so each flow goes to the next user in turn, and a user is given
 * at most QUOTES_PER_USER_MINUTE flows a minute (more users are set up, between segments, whenever
 * the fastest rate seen so far calls for them: a loop that waits for the next minute would measure
 * the bench, not the server, and is reported); their merchants' day and month limits are lifted. The server's set-up, the users,
 * the flow and the loops that run it are bench/payments-setup.ts's, which bench/webhooks.ts shares.
 *
 *   node --import tsx bench/payments.ts
 *
 * BENCH_PAYMENTS_SECONDS (default 10, at least 5) measured per target, BENCH_PAYMENTS_LOOPS (default
 * 32) concurrent flows and autocannon connections, BENCH_PAYMENTS_USERS (default 64) merchant users at least;
 * BENCH_PAYMENTS_PROFILE=<dir> runs the Bourse child under `--cpu-prof` and writes its profile there.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CpuMeter } from './cpu-meter.js';
import { startChildServer, type ChildServer } from './http-child.js';
import { LoadTarget, type HttpRunResult } from './http-load.js';
import { OrderFlow } from './http-orders.js';
import { adminRequest, BOURSE_ENTRY, bourseEnv, positiveIntegerFromEnv, ROUNDS, tallyNote, WARMUP_SECONDS } from './http.js';
import {
  addMerchantUsers,
  callB,
  closeFlowConnections,
  dataOf,
  FLOW_FIAT_AMOUNT,
  flowNotes,
  MerchantPool,
  newFlowTally,
  preparePaymentsBourse,
  QUOTES_PER_USER_MINUTE,
  REQUESTS_PER_FLOW,
  runFlows,
  type MerchantUser,
} from './payments-setup.js';
import { elapsedNs, formatCount, formatNs, summarizeLatencies, table } from './stats.js';

const DEFAULT_SECONDS = 10;
const DEFAULT_LOOPS = 32;
const DEFAULT_USERS = 64;

/** The hot-path issue's target; the flows' p99 is printed for information. */
const TARGET_SHARE_OF_ORDERS = 0.2;

interface Settings {
  seconds: number;
  loops: number;
  users: number;
  profileDir: string | undefined;
}

function settingsFromEnv(): Settings {
  const profile = process.env.BENCH_PAYMENTS_PROFILE;
  return {
    seconds: positiveIntegerFromEnv('BENCH_PAYMENTS_SECONDS', DEFAULT_SECONDS, ROUNDS),
    loops: positiveIntegerFromEnv('BENCH_PAYMENTS_LOOPS', DEFAULT_LOOPS, 1),
    users: positiveIntegerFromEnv('BENCH_PAYMENTS_USERS', DEFAULT_USERS, 1),
    profileDir: profile === undefined || profile === '' ? undefined : resolve(profile),
  };
}

export interface FlowResult {
  flowsPerSecond: number;
  flows: number;
  failed: number;
  /** How often a loop waited for the next clock minute because every user's quotes were used up: the rate is then the bench's, not the server's. */
  waits: number;
  requestsPerFlow: number;
  p50Ns: number;
  p99Ns: number;
  maxNs: number;
  /** CPU the server and this process used, in cores, as HttpRunResult has them. */
  serverCores: number | undefined;
  benchCores: number;
  notes: string[];
}

/**
 * Room for this many times the fastest rate seen so far over the next segment, in quotes left this
 * clock minute: the first warm-up runs cold and the measured rate has come out five times its rate.
 */
const QUOTA_MARGIN = 3;

/** `loops` concurrent flows over HTTP, measured in segments like a LoadTarget. */
class FlowTarget {
  private readonly tally = newFlowTally();
  private readonly cpu: CpuMeter;
  /** Flows per second of the fastest warm-up or segment so far. */
  private peakPerSecond = 0;

  constructor(
    private readonly server: ChildServer,
    private readonly pool: MerchantPool,
    private readonly loops: number,
    /** Sets up merchant users until the pool holds `count` (between segments: never measured). */
    private readonly addUsers: (count: number) => Promise<void>,
  ) {
    this.cpu = new CpuMeter(server);
  }

  /** Unmeasured; answers the flows completed. */
  async warmUp(seconds: number): Promise<number> {
    await this.topUpUsers(seconds);
    const tally = newFlowTally();
    await runFlows(this.server.url, this.pool, this.loops, seconds, tally);
    this.peakPerSecond = Math.max(this.peakPerSecond, tally.samplesNs.length / seconds);
    // Only the measured segments' waits make a rate the bench's rather than the server's.
    this.pool.waits = 0;
    return tally.samplesNs.length;
  }

  async runSegment(seconds: number): Promise<void> {
    await this.topUpUsers(seconds);
    const before = this.tally.samplesNs.length;
    await this.cpu.measure(() => runFlows(this.server.url, this.pool, this.loops, seconds, this.tally));
    this.peakPerSecond = Math.max(this.peakPerSecond, (this.tally.samplesNs.length - before) / seconds);
  }

  /** So that no loop waits on area B's quote limit: users enough for QUOTA_MARGIN × the peak rate over `seconds`. */
  private async topUpUsers(seconds: number): Promise<void> {
    const short = QUOTA_MARGIN * this.peakPerSecond * seconds - this.pool.quotesLeft();
    if (short > 0) await this.addUsers(this.pool.users.length + Math.ceil(short / QUOTES_PER_USER_MINUTE));
  }

  async result(): Promise<FlowResult> {
    const { samplesNs, failures, requests, last } = this.tally;
    if (samplesNs.length === 0) throw new Error(`no flow completed; failures: ${JSON.stringify([...failures])}`);
    const latency = summarizeLatencies(Float64Array.from(samplesNs));
    const { failed, notes } = flowNotes(this.pool, this.tally, 'BENCH_PAYMENTS_USERS');
    if (last !== undefined) {
      const detail = dataOf<{ orderStatus: number }>('B33', await callB(this.server.url, last.user.token, 'GET', `/v2/order/detail?orderId=${last.orderId}`));
      notes.push(`last order ${last.orderId}: status ${detail.orderStatus}`);
    }
    const cores = this.cpu.cores();
    return {
      flowsPerSecond: samplesNs.length / this.cpu.wallSeconds,
      flows: samplesNs.length,
      failed,
      waits: this.pool.waits,
      requestsPerFlow: requests / samplesNs.length,
      p50Ns: latency.p50Ns,
      p99Ns: latency.p99Ns,
      maxNs: latency.maxNs,
      serverCores: cores.server,
      benchCores: cores.bench,
      notes,
    };
  }
}

const { header, row } = table([
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
]);

export interface PaymentsBenchResult {
  flows: FlowResult;
  orders: HttpRunResult;
}

async function runAll(server: ChildServer, dataDir: string, settings: Settings): Promise<PaymentsBenchResult> {
  const { adminToken, demo, merchant } = await preparePaymentsBourse(server, dataDir);
  const { url } = server;
  const users: MerchantUser[] = [];
  const setUpStarted = process.hrtime.bigint();
  await addMerchantUsers(url, adminToken, users, settings.users);
  console.log(`  ${users.length} merchant users set up in ${formatNs(elapsedNs(setUpStarted))}`);

  const flowTarget = new FlowTarget(server, new MerchantPool(users), settings.loops, (count) => addMerchantUsers(url, adminToken, users, count));
  const orderFlow = new OrderFlow(demo, merchant);
  const orderTarget = new LoadTarget('A signed order', server, { url, connections: settings.loops, requests: [orderFlow.request()] });
  // Twice: the first runs cold; the second, at about the measured rate, sizes the users for the segments.
  const warmUpFlows = [await flowTarget.warmUp(WARMUP_SECONDS), await flowTarget.warmUp(WARMUP_SECONDS)];
  console.log(`  ${warmUpFlows.map((n) => formatCount(n / WARMUP_SECONDS)).join(' then ')} flows/s in the warm-ups: ${users.length} merchant users so far`);
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
  console.log(header);
  const flowCells = [formatCount(flows.flowsPerSecond), formatNs(flows.p50Ns), formatNs(flows.p99Ns), formatNs(flows.maxNs), formatCount(flows.flows), formatCount(flows.failed)];
  const flowCpu = cpuCells(flows.serverCores, flows.flowsPerSecond, flows.benchCores);
  console.log(row(['payment flow', ...flowCells, flows.requestsPerFlow.toFixed(2), ...flowCpu, `${(100 * share).toFixed(1)}%`]));
  for (const note of flows.notes) console.log(`  ${note}`);
  const orderCells = [formatCount(orders.okPerSecond), `${orders.p50Ms}ms`, `${orders.p99Ms}ms`, `${orders.maxMs}ms`, formatCount(orders.ok), formatCount(orders.non200 + orders.errors)];
  console.log(row([orders.label, ...orderCells, '1', ...cpuCells(orders.serverCores, orders.okPerSecond, orders.benchCores), '100%']));
  for (const note of orders.notes) console.log(`  ${note}`);
  const p99Ms = flows.p99Ns / 1e6;
  const met = share >= TARGET_SHARE_OF_ORDERS && flows.failed === 0 && flows.waits === 0;
  console.log(
    `${met ? 'met   ' : 'MISSED'} flows ≥ ${100 * TARGET_SHARE_OF_ORDERS}% of the area A order rate, none failed, no loop waited on a quote limit: ` +
      `${formatCount(flows.flowsPerSecond)} flows/s ÷ ${formatCount(orders.okPerSecond)} orders/s = ${(100 * share).toFixed(1)}%, p99 ${p99Ms.toFixed(1)} ms (no target), ${formatCount(flows.failed)} failed, ${formatCount(flows.waits)} waits`,
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
    const nodeArgs = settings.profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', settings.profileDir];
    server = await startChildServer(BOURSE_ENTRY, { env: bourseEnv(dataDir, 'inline'), nodeArgs });
    const result = await runAll(server, dataDir, settings);
    report(result);
    console.log(`load average at the end ${loadavg()[0].toFixed(2)}`);
    return result;
  } finally {
    // Reported, not thrown: a throw here would hide the error that may be on its way out of the try.
    closeFlowConnections();
    await server?.stop().catch((error: unknown) => console.error(`bench server: ${String(error)}`));
    rmSync(dataDir, { recursive: true, force: true });
    if (settings.profileDir !== undefined) console.log(`Bourse CPU profile written to ${settings.profileDir}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
