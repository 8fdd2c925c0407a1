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
 * at most QUOTES_PER_USER_MINUTE flows a minute (more users are set up after the warm-up if its rate
 * calls for them); their merchants' day and month limits are lifted. The server's set-up, the users,
 * the flow and the loops that run it are bench/payments-setup.ts's, which bench/webhooks.ts shares.
 *
 *   node --import tsx bench/payments.ts
 *
 * BENCH_PAYMENTS_SECONDS (default 10, at least 5) measured per target, BENCH_PAYMENTS_LOOPS (default
 * 32) concurrent flows and autocannon connections, BENCH_PAYMENTS_USERS (default 64) merchant users at least.
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
  private readonly tally = newFlowTally();
  private readonly cpu: CpuMeter;

  constructor(
    private readonly server: ChildServer,
    private readonly pool: MerchantPool,
    private readonly loops: number,
  ) {
    this.cpu = new CpuMeter(server);
  }

  /** Unmeasured; answers the flows completed. */
  async warmUp(seconds: number): Promise<number> {
    const tally = newFlowTally();
    await runFlows(this.server.url, this.pool, this.loops, seconds, tally);
    return tally.samplesNs.length;
  }

  async runSegment(seconds: number): Promise<void> {
    await this.cpu.measure(() => runFlows(this.server.url, this.pool, this.loops, seconds, this.tally));
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
  console.log(header);
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
    closeFlowConnections();
    await server?.stop().catch((error: unknown) => console.error(`bench server: ${String(error)}`));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
