/**
 * Engine benchmark: one seeded command stream (bench/stream.ts) replayed identically through the
 * Bourse order book alone, through ExchangeCore.apply (engine + ledger, real placeOrder and
 * cancelOrder commands; with no user data stream open, then with every account's open) and through
 * nodejs-order-book. Each runner builds its book from the
 * stream's prefill, warms up on the next commands, then runs one measured segment without
 * per-command timing (commands/s: at sub-µs a timer per command would distort it) and the next
 * one timing every command with process.hrtime.bigint() (p50/p99/p99.9).
 *
 *   node --import tsx bench/engine.ts      (BENCH_ENGINE_COMMANDS=200000 per measured segment of a mix)
 */

import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OrderBook as NobOrderBook, SelfTradePreventionMode, Side } from 'nodejs-order-book';
import { formatUnits } from '../src/core/decimal.js';
import { BourseError } from '../src/core/errors.js';
import { emptyDerivedRows, type Command, type DerivedRows, type PlaceOrderCommand } from '../src/core/types.js';
import type { OrderBook } from '../src/engine/order-book.js';
import { ExchangeCore } from '../src/exchange/exchange-core.js';
import type { PlaceOrderResult } from '../src/exchange/order-commands.js';
import { FIRST_TS, setUpBenchMarket, SYMBOL, TICK_DECIMALS } from './bench-market.js';
import { elapsedNs, formatCount, formatNs, formatRate, formatShare, semiSpaceNote, summarizeLatencies, table, type LatencySummary } from './stats.js';
import { BookDriver, CANCEL, generateStream, LIMIT, type BenchStream, type StreamSpec } from './stream.js';

const SEED = 20_240_601;
const ACCOUNTS = 1_000;
const DEFAULT_MEASURED = 200_000;
const WARMUP = 20_000;
/** Turns each runner takes per measured segment. */
const CHUNKS = 20;
/**
 * Insert-only grows the book by every command; the ledger caps open orders at 200 per account and
 * symbol (trading config), so 1,000 accounts hold about 120 each at the end of this stream.
 */
const INSERT_ONLY_MEASURED = 50_000;
/** Commands per DerivedRows batch, as the sequencer starts new rows for each journal batch. */
const ROWS_BATCH_MASK = 255;

/** Replays stream commands on one system; the timed loops live here so every runner is measured the same way. */
abstract class Runner {
  constructor(protected readonly stream: BenchStream) {}

  abstract step(i: number): void;
  /** Resting orders, or -1 when the system does not say. */
  abstract depth(): number;
  abstract restingLots(): number;
  abstract notes(): string;

  run(from: number, to: number): void {
    for (let i = from; i < to; i++) this.step(i);
  }

  /** Runs [from, to) and writes each command's nanoseconds to `samplesNs[i - from]`. */
  runTimed(from: number, to: number, samplesNs: Float64Array): void {
    for (let i = from; i < to; i++) {
      const started = process.hrtime.bigint();
      this.step(i);
      samplesNs[i - from] = Number(process.hrtime.bigint() - started);
    }
  }
}

function bookLots(book: OrderBook): number {
  let lots = 0;
  for (const side of [book.bids, book.asks]) for (const level of side.topLevels(Infinity)) lots += level.totalLots;
  return lots;
}

/** The Bourse order book alone: match, then rest the remainder; cancel by id. */
class EngineRunner extends Runner {
  private readonly driver = new BookDriver();

  step(i: number): void {
    this.driver.apply(this.stream, i);
  }

  depth(): number {
    return this.driver.book.size;
  }

  restingLots(): number {
    return bookLots(this.driver.book);
  }

  notes(): string {
    return this.driver.cancelMisses === 0 ? '' : `cancel misses ${formatCount(this.driver.cancelMisses)}`;
  }
}

/**
 * ExchangeCore.apply with funded accounts: checks, locks, matching, settlement with fees, derived rows.
 * `streamed`: whether every account has a user data stream open (the core then also records order
 * and balance events for each) or none has, as on a server no stream client watches.
 */
class LedgerRunner extends Runner {
  private readonly core = new ExchangeCore();
  private rows: DerivedRows = emptyDerivedRows();
  private readonly accountIds: number[] = [];
  /** Place commands by stream index (cancels are built when replayed: they name the core's order id). */
  private readonly placeCommands: (PlaceOrderCommand | undefined)[];
  /** Core order id of each stream order id: equal unless the core refused an order. */
  private readonly coreOrderIds: Int32Array;
  private readonly refused = new Map<string, number>();

  constructor(stream: BenchStream, streamed: boolean) {
    super(stream);
    this.core.streamedAccounts = streamed ? undefined : new Set();
    this.setUp();
    this.placeCommands = buildPlaceCommands(stream, this.accountIds);
    this.coreOrderIds = new Int32Array(stream.maxOrderId + 1);
  }

  private setUp(): void {
    const setup = (command: Command): unknown => this.core.apply({ seq: this.core.lastSeq + 1, ts: FIRST_TS, command }, this.rows);
    this.accountIds.push(...setUpBenchMarket(setup, this.stream.spec.accounts));
    this.rows = emptyDerivedRows();
  }

  step(i: number): void {
    const stream = this.stream;
    const core = this.core;
    const isCancel = stream.kind[i] === CANCEL;
    const command: Command = isCancel
      ? { type: 'cancelOrder', accountId: this.accountIds[stream.account[i]], orderId: this.coreOrderIds[stream.orderId[i]] }
      : (this.placeCommands[i] as PlaceOrderCommand);
    if ((i & ROWS_BATCH_MASK) === 0) this.rows = emptyDerivedRows();
    try {
      const result = core.apply({ seq: core.lastSeq + 1, ts: FIRST_TS + i, command }, this.rows);
      if (!isCancel) this.coreOrderIds[stream.orderId[i]] = (result as PlaceOrderResult).order.orderId;
    } catch (error) {
      if (!(error instanceof BourseError)) throw error;
      const key = `${error.code} ${error.errorName}`;
      this.refused.set(key, (this.refused.get(key) ?? 0) + 1);
    }
  }

  depth(): number {
    return this.core.spot.symbol(SYMBOL).book.size;
  }

  restingLots(): number {
    return bookLots(this.core.spot.symbol(SYMBOL).book);
  }

  notes(): string {
    if (this.refused.size === 0) return 'refused 0';
    return `refused ${[...this.refused].map(([key, count]) => `${key} ×${formatCount(count)}`).join(', ')}`;
  }
}

/** Wire commands of every order in the stream; prices and quantities as decimal text, strings shared. */
function buildPlaceCommands(stream: BenchStream, accountIds: readonly number[]): (PlaceOrderCommand | undefined)[] {
  const priceText = new Map<number, string>();
  const lotsText = new Map<number, string>();
  const textOf = (cache: Map<number, string>, value: number, decimals: number): string => {
    let text = cache.get(value);
    if (text === undefined) {
      text = formatUnits(BigInt(value), decimals);
      cache.set(value, text);
    }
    return text;
  };
  const commands = new Array<PlaceOrderCommand | undefined>(stream.length);
  for (let i = 0; i < stream.length; i++) {
    const kind = stream.kind[i];
    if (kind === CANCEL) continue;
    const isBuy = stream.isBuy[i] === 1;
    const accountId = accountIds[stream.account[i]];
    const side = isBuy ? 'BUY' : 'SELL';
    // Literals spelled out: `{ ...common, more }` costs microseconds per object in V8 11 (Node 20).
    if (kind === LIMIT) {
      const quantity = textOf(lotsText, stream.lots[i], 0);
      const price = textOf(priceText, stream.priceTicks[i], TICK_DECIMALS);
      commands[i] = { type: 'placeOrder', accountId, symbol: SYMBOL, side, orderType: 'LIMIT', timeInForce: 'GTC', quantity, price };
    } else {
      // A MARKET BUY spends exactly what the same lots cost on the reference book (docs/spot-api.md "MARKET BUY amount": quote
      // amount). One that filled nothing there (self-trade at the first maker) spends "0", which the
      // ledger refuses with -1140: the only refusals this stream should see.
      const quantity = isBuy ? formatUnits(BigInt(stream.marketBuyTickLots[i]), TICK_DECIMALS) : textOf(lotsText, stream.lots[i], 0);
      commands[i] = { type: 'placeOrder', accountId, symbol: SYMBOL, side, orderType: 'MARKET', timeInForce: 'GTC', quantity };
    }
  }
  return commands;
}

/** nodejs-order-book 10.1.1 with the same ids, accounts and self-trade rule (expire taker) as Bourse. */
class NobRunner extends Runner {
  private readonly book = new NobOrderBook();
  private readonly ids: string[];
  private readonly accounts: string[];
  private cancelMisses = 0;
  /** Error code → count; 1202 is self-trade prevention expiring the taker. */
  private readonly errors = new Map<number, number>();

  constructor(stream: BenchStream) {
    super(stream);
    this.ids = Array.from({ length: stream.maxOrderId + 1 }, (_, id) => String(id));
    this.accounts = Array.from({ length: stream.spec.accounts }, (_, a) => `account${a}`);
  }

  step(i: number): void {
    const stream = this.stream;
    const kind = stream.kind[i];
    if (kind === CANCEL) {
      if (this.book.cancel(this.ids[stream.orderId[i]]) === undefined) this.cancelMisses++;
      return;
    }
    const side = stream.isBuy[i] === 1 ? Side.BUY : Side.SELL;
    const accountId = this.accounts[stream.account[i]];
    const stpMode = SelfTradePreventionMode.EXPIRE_TAKER;
    const response =
      kind === LIMIT
        ? this.book.limit({ side, id: this.ids[stream.orderId[i]], size: stream.lots[i], price: stream.priceTicks[i], accountId, stpMode })
        : this.book.market({ side, size: stream.lots[i], accountId, stpMode });
    if (response.err !== null) this.errors.set(response.err.code, (this.errors.get(response.err.code) ?? 0) + 1);
  }

  depth(): number {
    return -1;
  }

  restingLots(): number {
    const [asks, bids] = this.book.depth();
    let lots = 0;
    for (const [, size] of [...asks, ...bids]) lots += size;
    return lots;
  }

  notes(): string {
    const errors = [...this.errors].map(([code, count]) => `${code} ×${formatCount(count)}`).join(', ');
    return `errors ${errors || 'none'} (1202: self-trade), cancel misses ${formatCount(this.cancelMisses)}`;
  }
}

interface RunnerResult {
  runner: string;
  commands: number;
  commandsPerSecond: number;
  latency: LatencySummary;
  depth: number;
  restingLots: number;
  notes: string;
}

export interface ScenarioResult {
  stream: BenchStream;
  engine: RunnerResult;
  ledger: RunnerResult;
  /** The ledger runner with every account's user data stream open: its events recorded too. */
  streamedLedger: RunnerResult;
  reference: RunnerResult;
}

/**
 * Prefill and warm-up untimed; then the first measured segment timed as a whole per chunk, the
 * second per command. Runners measured together take turns chunk by chunk, so that load from other
 * processes on the machine falls on them alike and their ratio stays meaningful.
 */
function measure(stream: BenchStream, named: Record<string, Runner>): Map<string, RunnerResult> {
  const runners = Object.values(named);
  for (const runner of runners) runner.run(0, stream.warmupEnd);
  const chunk = Math.ceil((stream.throughputEnd - stream.warmupEnd) / CHUNKS);
  const seconds = runners.map(() => 0);
  for (let from = stream.warmupEnd; from < stream.throughputEnd; from += chunk) {
    const to = Math.min(from + chunk, stream.throughputEnd);
    runners.forEach((runner, r) => {
      const started = process.hrtime.bigint();
      runner.run(from, to);
      seconds[r] += elapsedNs(started) / 1e9;
    });
  }
  const samplesNs = runners.map(() => new Float64Array(stream.length - stream.throughputEnd));
  for (let from = stream.throughputEnd; from < stream.length; from += chunk) {
    const to = Math.min(from + chunk, stream.length);
    runners.forEach((runner, r) => runner.runTimed(from, to, samplesNs[r].subarray(from - stream.throughputEnd)));
  }
  const commands = stream.throughputEnd - stream.warmupEnd;
  return new Map(
    Object.entries(named).map(([name, runner], r) => [
      name,
      {
        runner: name,
        commands,
        commandsPerSecond: commands / seconds[r],
        latency: summarizeLatencies(samplesNs[r]),
        depth: runner.depth(),
        restingLots: runner.restingLots(),
        notes: runner.notes(),
      },
    ]),
  );
}

function resultOf(results: Map<string, RunnerResult>, name: string): RunnerResult {
  const result = results.get(name);
  if (result === undefined) throw new Error(`no result for ${name}`);
  return result;
}

/**
 * The engine alone and nodejs-order-book take turns; the ledger runs after them, alone, so that its
 * garbage (derived rows, bigints) is not collected during their turns; then once more with every
 * account streamed (the targets are the first's: no user data stream open, as bench/http runs).
 */
function runScenario(spec: StreamSpec): ScenarioResult {
  const stream = generateStream(spec);
  const pair = measure(stream, { 'bourse engine': new EngineRunner(stream), 'nodejs-order-book': new NobRunner(stream) });
  const engine = resultOf(pair, 'bourse engine');
  const reference = resultOf(pair, 'nodejs-order-book');
  if (engine.depth !== stream.finalDepth) throw new Error(`${spec.label}: engine ended at depth ${engine.depth}, stream at ${stream.finalDepth}`);
  const ledger = resultOf(measure(stream, { 'bourse engine+ledger': new LedgerRunner(stream, false) }), 'bourse engine+ledger');
  const streamedLedger = resultOf(measure(stream, { '…+events, all streamed': new LedgerRunner(stream, true) }), '…+events, all streamed');
  for (const other of [ledger, streamedLedger, reference]) {
    if (other.restingLots !== engine.restingLots) other.notes += `; resting lots ${other.restingLots} ≠ engine's ${engine.restingLots}`;
  }
  return { stream, engine, ledger, streamedLedger, reference };
}

function scenarios(measured: number): StreamSpec[] {
  const base = { seed: SEED, accounts: ACCOUNTS, warmup: WARMUP, measured };
  return [
    { ...base, label: 'mix @1k', shape: 'mix', targetDepth: 1_000 },
    { ...base, label: 'mix @100k', shape: 'mix', targetDepth: 100_000 },
    { ...base, label: 'insert-only', shape: 'insert', targetDepth: 1_000, measured: Math.min(measured, INSERT_ONLY_MEASURED) },
    { ...base, label: 'insert+cancel @1k', shape: 'insert+cancel', targetDepth: 1_000, measured: Math.ceil(measured / 2) },
    { ...base, label: 'insert+cancel @100k', shape: 'insert+cancel', targetDepth: 100_000, measured: Math.ceil(measured / 2) },
  ];
}

const { header, row } = table([
  { title: 'stream', width: 19, align: 'left' },
  { title: 'runner', width: 22, align: 'left' },
  { title: 'commands', width: 9, align: 'right' },
  { title: 'cmd/s', width: 8, align: 'right' },
  { title: 'p50', width: 7, align: 'right' },
  { title: 'p99', width: 7, align: 'right' },
  { title: 'p99.9', width: 7, align: 'right' },
  { title: 'max', width: 8, align: 'right' },
  { title: '×nob', width: 6, align: 'right' },
  { title: 'depth', width: 7, align: 'right' },
  { title: 'notes', width: 0, align: 'left' },
]);

function resultRow(label: string, result: RunnerResult, reference: RunnerResult): string {
  const { p50Ns, p99Ns, p999Ns, maxNs } = result.latency;
  return row([
    label,
    result.runner,
    formatCount(result.commands),
    formatRate(result.commandsPerSecond),
    formatNs(p50Ns),
    formatNs(p99Ns),
    formatNs(p999Ns),
    formatNs(maxNs),
    `${(result.commandsPerSecond / reference.commandsPerSecond).toFixed(1)}×`,
    result.depth < 0 ? '-' : formatCount(result.depth),
    result.notes,
  ]);
}

function describeStream(stream: BenchStream): string {
  const { stats, spec } = stream;
  const measured = stream.throughputEnd - stream.warmupEnd;
  const takers = stats.crossingLimits + stats.markets;
  const parts = [
    `${spec.label}: seed ${spec.seed}, prefill ${formatCount(stream.prefillEnd)}, warm-up ${formatCount(spec.warmup)}, measured 2 × ${formatCount(measured)}`,
    `limit ${formatShare(stats.limits, 2 * measured)} (crossing ${formatShare(stats.crossingLimits, stats.limits)})`,
    `cancel ${formatShare(stats.cancels, 2 * measured)}`,
    `market ${formatShare(stats.markets, 2 * measured)}`,
  ];
  if (takers > 0) parts.push(`${(stats.takerFills / takers).toFixed(2)} fills/taker`, `self-trade stops ${formatCount(stats.selfStops)}`);
  parts.push(`depth ${formatCount(stats.minDepth)}..${formatCount(stats.maxDepth)}, end ${formatCount(stream.finalDepth)}`);
  return `  ${parts.join(', ')}`;
}

interface Target {
  label: string;
  met: boolean;
  figure: string;
}

function targets(results: ScenarioResult[]): Target[] {
  const byLabel = new Map(results.map((r) => [r.stream.spec.label, r]));
  const out: Target[] = [];
  // The hot-path issue's targets: engine + ledger against the book library in the same run.
  for (const [label, minimum] of [
    ['mix @1k', 1.5],
    ['mix @100k', 5],
  ] as const) {
    const r = byLabel.get(label);
    if (r === undefined) continue;
    const ledgerRatio = r.ledger.commandsPerSecond / r.reference.commandsPerSecond;
    out.push({
      label: `engine+ledger ${label} ≥ ${minimum}× nodejs-order-book`,
      met: ledgerRatio >= minimum,
      figure: `${ledgerRatio.toFixed(2)}× (${formatRate(r.ledger.commandsPerSecond)})`,
    });
    out.push({ label: `engine+ledger ${label} p99 ≤ 10µs`, met: r.ledger.latency.p99Ns <= 10_000, figure: formatNs(r.ledger.latency.p99Ns) });
    const ratio = r.engine.commandsPerSecond / r.reference.commandsPerSecond;
    out.push({ label: `engine ${label} ≥ 5× nodejs-order-book`, met: ratio >= 5, figure: `${ratio.toFixed(1)}×` });
    const { minDepth, maxDepth } = r.stream.stats;
    const target = r.stream.spec.targetDepth;
    out.push({
      label: `${label} depth within ±20% of ${formatCount(target)}`,
      met: minDepth >= 0.8 * target && maxDepth <= 1.2 * target,
      figure: `${formatCount(minDepth)}..${formatCount(maxDepth)}`,
    });
  }
  return out;
}

/** Median cost of the two hrtime readings around a command, which every latency sample includes. */
function timerOverheadNs(): number {
  const samplesNs = new Float64Array(100_000);
  for (let i = 0; i < samplesNs.length; i++) {
    const started = process.hrtime.bigint();
    samplesNs[i] = Number(process.hrtime.bigint() - started);
  }
  return summarizeLatencies(samplesNs).p50Ns;
}

export async function main(): Promise<ScenarioResult[]> {
  const measured = Number(process.env.BENCH_ENGINE_COMMANDS ?? DEFAULT_MEASURED);
  if (!Number.isSafeInteger(measured) || measured < 1_000) throw new RangeError(`BENCH_ENGINE_COMMANDS must be ≥ 1000: ${measured}`);
  console.log(
    `engine: cmd/s from a measured segment run untimed; latency from the next segment, timing each command ` +
      `(timer overhead p50 ${formatNs(timerOverheadNs())}; node ${process.version}; ${semiSpaceNote()}; load average ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores)`,
  );
  console.log(header);
  const results: ScenarioResult[] = [];
  for (const spec of scenarios(measured)) {
    const result = runScenario(spec);
    results.push(result);
    for (const runnerResult of [result.engine, result.ledger, result.streamedLedger, result.reference]) {
      console.log(resultRow(spec.label, runnerResult, result.reference));
    }
    console.log(describeStream(result.stream));
  }
  for (const target of targets(results)) console.log(`${target.met ? 'met   ' : 'MISSED'} ${target.label}: ${target.figure}`);
  return results;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
