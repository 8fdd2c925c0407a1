/**
 * HTTP benchmark: autocannon in this process against servers in child processes of their own.
 * Five targets at the same connections and measured time; after a warm-up each, their measured
 * segments run in turns (bench/http-load.ts) so that background load skews no ratio:
 *   hello world   a bare Fastify 5 app with one route: the ceiling of this machine and Node
 *   POST order    signed LIMIT orders on BTCUSDT (bench/http-orders.ts), each acknowledged only
 *                 once journaled: "ok/s" counts 200s, i.e. durable orders per second
 *   GET depth     `/openapi/quote/v1/depth` at the default limit (100) on a book of 100 levels a side
 * the last two against each placement of the core (BOURSE_CORE_THREAD): `inline`, the default, where
 * the core and the journal share the HTTP thread, and `worker`, where they run in a worker thread.
 * Each Bourse runs from a fresh temporary BOURSE_DATA with the demo data (BOURSE_DEMO=1, no market
 * maker), LOG_LEVEL=warn and its rate limits raised through the operator API.
 *
 *   node --import tsx bench/http.ts
 *
 * BENCH_HTTP_SECONDS (default 10, at least 5) measured per target, BENCH_HTTP_CONNECTIONS (default 64);
 * BENCH_HTTP_PROFILE=<dir> runs the Bourse child under `--cpu-prof` and writes its profile there.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startChildServer, type ChildServer } from './http-child.js';
import { formatCount, table } from './stats.js';
import { LoadTarget, type HttpRunResult, type SegmentHooks } from './http-load.js';
import { accountIdOf, AnswerTally, ORDER_FLOW_FUNDS, OrderFlow, placeDepthLadder, SYMBOL, type Trader } from './http-orders.js';

const DEFAULT_SECONDS = 10;
const DEFAULT_CONNECTIONS = 64;
export const WARMUP_SECONDS = 2;
/** Each target's measured time is split into this many segments, run in turns with the other targets'. */
export const ROUNDS = 5;
const DEPTH_LEVELS = 100;
const DEPTH_PATH = `/openapi/quote/v1/depth?symbol=${SYMBOL}&limit=${DEPTH_LEVELS}`;
/** Operator API body: limits far above what one machine can send, so no answer is a 429. */
const UNLIMITED_TRADING_CONFIG = {
  ordersPerSecond: 10_000_000,
  ordersPerDay: 1_000_000_000,
  requestWeightPerMinute: 1_000_000_000,
  maxOpenOrdersPerSymbol: 100_000,
  maxOpenOrdersPerAccount: 100_000,
};
const HELLO_ENTRY = new URL('./http-hello-server.ts', import.meta.url);
export const BOURSE_ENTRY = new URL('./http-bourse-server.ts', import.meta.url);

// The hot-path issue's targets, as shares of hello world measured in the same run (machines differ
// up to 4× in absolute rates). Depth has no target any more: its share is printed for information.
const TARGET_ORDERS_P99_MS = 20;
const TARGET_ORDERS_SHARE_OF_HELLO = 0.3;

interface Settings {
  seconds: number;
  connections: number;
  profileDir: string | undefined;
}

const CORE_THREADS = ['inline', 'worker'] as const;
type CoreThread = (typeof CORE_THREADS)[number];

interface BourseUnderTest {
  coreThread: CoreThread;
  server: ChildServer;
  dataDir: string;
}

export interface CoreThreadResult {
  coreThread: CoreThread;
  orders: HttpRunResult;
  depth: HttpRunResult;
}

export interface HttpBenchResult {
  hello: HttpRunResult;
  /** The default placement first. */
  bourses: CoreThreadResult[];
}

export function positiveIntegerFromEnv(name: string, fallback: number, minimum: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < minimum) throw new RangeError(`${name} must be an integer ≥ ${minimum}: ${text}`);
  return value;
}

function settingsFromEnv(): Settings {
  const profile = process.env.BENCH_HTTP_PROFILE;
  return {
    seconds: positiveIntegerFromEnv('BENCH_HTTP_SECONDS', DEFAULT_SECONDS, ROUNDS),
    connections: positiveIntegerFromEnv('BENCH_HTTP_CONNECTIONS', DEFAULT_CONNECTIONS, 1),
    profileDir: profile === undefined || profile === '' ? undefined : resolve(profile),
  };
}

async function fetchJson(url: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(url, init);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${init.method ?? 'GET'} ${url} → ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}

interface DemoCredentialsFile {
  apiKey: string;
  secretKey: string;
  merchantApiKey: string;
  merchantSecretKey: string;
}

function readTraders(dataDir: string): { demo: Trader; merchant: Trader } {
  const credentials = JSON.parse(readFileSync(join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentialsFile;
  return {
    demo: { apiKey: credentials.apiKey, secretKey: credentials.secretKey },
    merchant: { apiKey: credentials.merchantApiKey, secretKey: credentials.merchantSecretKey },
  };
}

export async function adminRequest(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  return fetchJson(`${baseUrl}/admin/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

interface DepthAnswer {
  bids: [string, string][];
  asks: [string, string][];
}

async function readDepth(baseUrl: string, limit: number): Promise<DepthAnswer> {
  return (await fetchJson(`${baseUrl}/openapi/quote/v1/depth?symbol=${SYMBOL}&limit=${limit}`)) as DepthAnswer;
}

/** The sequencer's own figures from `/metrics`, summed over the order segments: how the journal batched them. */
class JournalWatch {
  private commands = 0;
  private batches = 0;
  private commitSeconds = 0;
  private seconds = 0;
  private before: { commands: number; batches: number; commitSeconds: number; startedNs: bigint } | undefined;

  constructor(private readonly baseUrl: string) {}

  readonly hooks: SegmentHooks = {
    before: async () => {
      this.before = { ...(await this.read()), startedNs: process.hrtime.bigint() };
    },
    after: async () => {
      const before = this.before;
      if (before === undefined) throw new Error('journal counters read after a segment without one before it');
      const after = await this.read();
      this.seconds += Number(process.hrtime.bigint() - before.startedNs) / 1e9;
      this.commands += after.commands - before.commands;
      this.batches += after.batches - before.batches;
      this.commitSeconds += after.commitSeconds - before.commitSeconds;
      this.before = undefined;
    },
  };

  note(): string {
    if (!(this.batches > 0)) return 'journal: no commits seen in /metrics';
    return (
      `journal: ${formatCount(this.commands)} commands in ${formatCount(this.batches)} commits, ` +
      `${(this.commands / this.batches).toFixed(1)} per commit, ${((1000 * this.commitSeconds) / this.batches).toFixed(2)} ms per commit, ` +
      `committing ${((100 * this.commitSeconds) / this.seconds).toFixed(0)}% of the time`
    );
  }

  private async read(): Promise<{ commands: number; batches: number; commitSeconds: number }> {
    const response = await fetch(`${this.baseUrl}/metrics`);
    const lines = (await response.text()).split('\n');
    const value = (name: string): number => {
      const line = lines.find((l) => l.startsWith(`${name} `));
      if (line === undefined) throw new Error(`/metrics has no ${name}`);
      return Number(line.slice(name.length + 1));
    };
    return {
      commands: value('bourse_batch_size_sum'),
      batches: value('bourse_batch_size_count'),
      commitSeconds: value('bourse_commit_latency_seconds_sum'),
    };
  }
}

export function tallyNote(tally: AnswerTally): string {
  return `answers: ${tally
    .entries()
    .map(([key, count]) => `${key} ×${formatCount(count)}`)
    .join(', ')}`;
}

/** Limits out of the way, funds for the one-way order flow and a book for depth to show; returns the operator token and the two traders. */
export async function prepareBourse(bourse: ChildServer, dataDir: string): Promise<{ adminToken: string; demo: Trader; merchant: Trader }> {
  const adminToken = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
  const { demo, merchant } = readTraders(dataDir);
  await adminRequest(bourse.url, adminToken, 'PATCH', '/trading/config', UNLIMITED_TRADING_CONFIG);
  const deposits: [Trader, string, string][] = [
    [demo, 'USDT', ORDER_FLOW_FUNDS.buyerUsdt],
    [merchant, 'BTC', ORDER_FLOW_FUNDS.sellerBtc],
  ];
  for (const [trader, asset, amount] of deposits) {
    await adminRequest(bourse.url, adminToken, 'POST', '/deposits', { accountId: await accountIdOf(bourse.url, trader), asset, amount });
  }
  await placeDepthLadder(bourse.url, demo, merchant, DEPTH_LEVELS);
  return { adminToken, demo, merchant };
}

interface BourseTargets {
  bourse: BourseUnderTest;
  adminToken: string;
  flow: OrderFlow;
  journal: JournalWatch;
  orders: LoadTarget;
  depth: LoadTarget;
}

async function bourseTargets(bourse: BourseUnderTest, connections: number): Promise<BourseTargets> {
  const { adminToken, demo, merchant } = await prepareBourse(bourse.server, bourse.dataDir);
  const { url } = bourse.server;
  const flow = new OrderFlow(demo, merchant);
  const journal = new JournalWatch(url);
  return {
    bourse,
    adminToken,
    flow,
    journal,
    orders: new LoadTarget(`POST order ${bourse.coreThread}`, bourse.server, { url, connections, requests: [flow.request()] }, journal.hooks),
    depth: new LoadTarget(`GET depth ${bourse.coreThread}`, bourse.server, { url: `${url}${DEPTH_PATH}`, connections }),
  };
}

async function collect(targets: BourseTargets): Promise<CoreThreadResult> {
  const { url } = targets.bourse.server;
  const orders = targets.orders.result();
  orders.notes.push(targets.journal.note(), tallyNote(targets.flow.tally));
  const httpCores = orders.httpThreadCores;
  if (httpCores !== undefined && httpCores > 0) {
    orders.notes.push(
      `HTTP thread: ${((1e6 * httpCores) / orders.okPerSecond).toFixed(0)} µs CPU per order, ${formatCount(orders.okPerSecond / httpCores)}/s were it the only limit`,
    );
  }
  const book = await readDepth(url, 1000);
  orders.notes.push(`book after: ${book.bids.length - DEPTH_LEVELS} bid and ${book.asks.length - DEPTH_LEVELS} ask levels besides the ladder`);

  const depth = targets.depth.result();
  const sample = await fetch(`${url}${DEPTH_PATH}`);
  depth.notes.unshift(`${DEPTH_LEVELS} levels a side, ${formatCount((await sample.arrayBuffer()).byteLength)} bytes per answer`);
  const verify = (await adminRequest(url, targets.adminToken, 'GET', '/verify')) as { ok?: unknown };
  depth.notes.push(`ledger verify at the end: ${verify.ok === true ? 'ok' : JSON.stringify(verify)}`);
  return { coreThread: targets.bourse.coreThread, orders, depth };
}

async function runAll(hello: ChildServer, bourses: BourseUnderTest[], settings: Settings): Promise<HttpBenchResult> {
  const connections = settings.connections;
  const helloTarget = new LoadTarget('hello world', hello, { url: hello.url, connections });
  const perBourse: BourseTargets[] = [];
  for (const bourse of bourses) perBourse.push(await bourseTargets(bourse, connections));
  const targets = [helloTarget, ...perBourse.flatMap((b) => [b.orders, b.depth])];

  for (const target of targets) await target.warmUp(WARMUP_SECONDS);
  for (const b of perBourse) b.flow.tally.clear();
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) await target.runSegment(settings.seconds / ROUNDS);
  }
  const results: CoreThreadResult[] = [];
  for (const b of perBourse) results.push(await collect(b));
  return { hello: helloTarget.result(), bourses: results };
}

const { header, row } = table([
  { title: 'run', width: 19, align: 'left' },
  { title: 'ok/s', width: 7, align: 'right' },
  { title: 'p50', width: 6, align: 'right' },
  { title: 'p99', width: 6, align: 'right' },
  { title: 'p99.9', width: 6, align: 'right' },
  { title: 'max', width: 6, align: 'right' },
  { title: 'ok', width: 9, align: 'right' },
  { title: 'non-200', width: 7, align: 'right' },
  { title: 'errors', width: 6, align: 'right' },
  { title: 'server', width: 6, align: 'right' },
  { title: 'http', width: 5, align: 'right' },
  { title: 'µs/ok', width: 5, align: 'right' },
  { title: 'bench', width: 5, align: 'right' },
  { title: '÷hello', width: 6, align: 'right' },
]);

function formatMs(ms: number): string {
  return `${ms}ms`;
}

function formatCores(cores: number | undefined): string {
  return cores === undefined ? '-' : cores.toFixed(2);
}

function resultRow(run: HttpRunResult, hello: HttpRunResult): string {
  return row([
    run.label,
    formatCount(run.okPerSecond),
    formatMs(run.p50Ms),
    formatMs(run.p99Ms),
    formatMs(run.p999Ms),
    formatMs(run.maxMs),
    formatCount(run.ok),
    formatCount(run.non200),
    formatCount(run.errors),
    formatCores(run.serverCores),
    formatCores(run.httpThreadCores),
    run.serverCores === undefined ? '-' : ((1e6 * run.serverCores) / run.okPerSecond).toFixed(0),
    formatCores(run.benchCores),
    `${((100 * run.okPerSecond) / hello.okPerSecond).toFixed(0)}%`,
  ]);
}

function targetLines(hello: HttpRunResult, { coreThread, orders, depth }: CoreThreadResult): string[] {
  const share = orders.okPerSecond / hello.okPerSecond;
  const depthShare = depth.okPerSecond / hello.okPerSecond;
  const targets: [boolean, string][] = [
    [orders.p99Ms <= TARGET_ORDERS_P99_MS, `signed orders p99 ≤ ${TARGET_ORDERS_P99_MS} ms: ${orders.p99Ms} ms`],
    [share >= TARGET_ORDERS_SHARE_OF_HELLO, `signed orders ≥ ${100 * TARGET_ORDERS_SHARE_OF_HELLO}% of hello world: ${(100 * share).toFixed(1)}%`],
    [orders.non200 === 0 && orders.errors === 0, `signed orders all answered 200: ${formatCount(orders.non200)} non-200, ${formatCount(orders.errors)} errors`],
  ];
  // The issue's targets are the default placement's (inline); the worker's figures are for comparison.
  const verdict = (met: boolean): string => (coreThread !== 'inline' ? 'info  ' : met ? 'met   ' : 'MISSED');
  return [
    ...targets.map(([met, text]) => `${verdict(met)} ${coreThread}: ${text}`),
    `info   ${coreThread}: depth ${(100 * depthShare).toFixed(1)}% of hello world (no target)`,
  ];
}

export function bourseEnv(dataDir: string, coreThread: CoreThread): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BOURSE_CORE_THREAD: coreThread,
    BOURSE_DATA: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    BOURSE_DEMO: '1',
    BOURSE_DEMO_MARKET_MAKER: '0',
  };
  // The token is read back from <BOURSE_DATA>/admin-token, which the server writes only when the environment names none.
  delete env.BOURSE_ADMIN_TOKEN;
  return env;
}

export async function main(): Promise<HttpBenchResult> {
  const settings = settingsFromEnv();
  const profileArgs = settings.profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', settings.profileDir];
  console.log(
    `http: autocannon, ${settings.connections} connections, ${settings.seconds} s per target in ${ROUNDS} rounds taken in turns, after a ${WARMUP_SECONDS} s warm-up each; ` +
      `servers in child processes; synchronous=${process.env.BOURSE_SYNCHRONOUS ?? 'NORMAL'}; node ${process.version}; ` +
      `load average ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores`,
  );
  console.log(
    '  ok/s: 200 answers per second; latencies of the 200s; server, bench: CPU used, in cores (http: the server\'s main thread); µs/ok: server CPU per 200 answer; ÷hello: ok/s over hello world’s; ' +
      'inline/worker: the core and journal on the HTTP thread (default) or in a worker thread',
  );
  let hello: ChildServer | undefined;
  const bourses: BourseUnderTest[] = [];
  try {
    hello = await startChildServer(HELLO_ENTRY);
    for (const coreThread of CORE_THREADS) {
      const dataDir = mkdtempSync(join(tmpdir(), `bourse-bench-http-${coreThread}-`));
      const server = await startChildServer(BOURSE_ENTRY, { env: bourseEnv(dataDir, coreThread), nodeArgs: profileArgs });
      bourses.push({ coreThread, server, dataDir });
    }
    const result = await runAll(hello, bourses, settings);
    console.log(header);
    for (const run of [result.hello, ...result.bourses.flatMap((b) => [b.orders, b.depth])]) {
      console.log(resultRow(run, result.hello));
      for (const note of run.notes) console.log(`  ${note}`);
    }
    for (const bourse of result.bourses) for (const line of targetLines(result.hello, bourse)) console.log(line);
    const [inline, worker] = result.bourses;
    console.log(
      `worker over inline: orders ×${(worker.orders.okPerSecond / inline.orders.okPerSecond).toFixed(2)}, ` +
        `depth ×${(worker.depth.okPerSecond / inline.depth.okPerSecond).toFixed(2)}`,
    );
    // Other processes' load shows in every figure but µs/ok and the ratios: worth seeing next to them.
    console.log(`load average at the end ${loadavg()[0].toFixed(2)}`);
    return result;
  } finally {
    const stops = await Promise.allSettled([hello?.stop(), ...bourses.map((b) => b.server.stop())]);
    for (const bourse of bourses) rmSync(bourse.dataDir, { recursive: true, force: true });
    // Reported, not thrown: a throw here would hide the error that may be on its way out of the try.
    for (const stop of stops) if (stop.status === 'rejected') console.error(`bench server: ${String(stop.reason)}`);
    if (settings.profileDir !== undefined) console.log(`Bourse CPU profiles written to ${settings.profileDir}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
