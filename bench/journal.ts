/**
 * Journal throughput: commands/s through Sequencer + SqliteStore with every reply released only
 * after its batch commit, and the submit-to-reply latency, for synchronous=NORMAL and FULL; then the
 * same through Sequencer + PostgresStore (a batch is one transaction; the store holds the next batch
 * until the commit returns), beside SQLite's durable figure (FULL: like PostgreSQL with fsync and
 * synchronous_commit on, a commit survives a power loss).
 * 256 clients in a closed loop each place a resting limit order, await the reply, place the next.
 * Two ceilings measured in the same run say what bounds the rate: the same commands appended by
 * the store alone, batch after batch, without their order rows and with them.
 *
 *   node --import tsx bench/journal.ts
 *
 * BENCH_JOURNAL_COMMANDS (default 200000) commands in all; BENCH_JOURNAL_ACCOUNTS (default 256, one
 * per client) accounts place them. Fewer accounts touch fewer index pages per commit: each batch
 * writes about one page per distinct account for each account-keyed index.
 * PostgreSQL: the server at BOURSE_BENCH_POSTGRES_URL, else an embedded durable one
 * (bench/postgres-database.ts); a database of the benchmark's own is created and dropped.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { emptyDerivedRows, type DerivedRows, type OrderRow, type PlaceOrderCommand, type StampedCommand } from '../src/core/types.js';
import { INLINE_ROWS_EVERY_COMMITS } from '../src/exchange/core-host.js';
import { Sequencer, type Applier } from '../src/exchange/sequencer.js';
import { openPostgresStore } from '../src/store/postgres/postgres-store.js';
import { openSqliteStore, type SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { openBenchDatabase } from './postgres-database.js';

const CLIENTS = 256;

/** What the workload measured on one store. */
interface WorkloadFigures {
  commands: number;
  commandsPerSecond: number;
  ackP50Ms: number;
  ackP99Ms: number;
  batchesAvg: number;
  /** The ceiling: the same commands appended to the journal alone, batch after batch (one commit each), no sequencer, no derived rows. */
  rawAppendPerSecond: number;
  /** The store's share: the same, with each command's order row written as the loop's store writes it; no sequencer, no clients. */
  storeAppendPerSecond: number;
}

export interface JournalBenchResult extends WorkloadFigures {
  synchronous: 'NORMAL' | 'FULL';
}

/** The same workload on PostgreSQL. */
export interface PostgresJournalResult extends WorkloadFigures {
  /** What the server was: version, where, fsync and synchronous_commit. */
  server: string;
}

/** The hot-path issue's targets for durable commands. */
const TARGET_COMMANDS_PER_SECOND = 150_000;
const TARGET_ACK_P99_MS = 10;
/** Issue 24's targets for PostgreSQL: a share of SQLite's durable (FULL) rate measured in the same run. */
const TARGET_POSTGRES_SHARE_OF_FULL = 0.5;
const TARGET_POSTGRES_ACK_P99_MS = 20;

/** Stands in for the engine: every order rests untouched, deriving its one order row. */
class RestingOrderApplier implements Applier {
  private nextOrderId = 1;

  apply(stamped: StampedCommand, rows: DerivedRows): OrderRow {
    const command = stamped.command;
    if (command.type !== 'placeOrder') throw new Error(`unexpected command ${command.type}`);
    const orderId = this.nextOrderId++;
    const order: OrderRow = {
      orderId,
      accountId: command.accountId,
      symbol: command.symbol,
      clientOrderId: command.clientOrderId ?? String(orderId),
      side: command.side,
      type: command.orderType,
      timeInForce: command.timeInForce,
      price: command.price ?? '0',
      origQty: command.quantity,
      executedQty: '0',
      cummulativeQuoteQty: '0',
      status: 'NEW',
      stopPrice: '0',
      icebergQty: '0',
      isWorking: true,
      time: stamped.ts,
      updateTime: stamped.ts,
    };
    rows.orders.push(order);
    return order;
  }
}

function placeOrder(accounts: number, client: number, n: number): PlaceOrderCommand {
  const buy = n % 2 === 0;
  return {
    type: 'placeOrder',
    accountId: 1001 + (client % accounts),
    symbol: 'BTCUSDT',
    side: buy ? 'BUY' : 'SELL',
    orderType: 'LIMIT',
    timeInForce: 'GTC',
    quantity: `0.${String(1 + (n % 997)).padStart(4, '0')}`,
    price: buy ? `29${String(n % 1000).padStart(3, '0')}.5` : `31${String(n % 1000).padStart(3, '0')}.25`,
    clientOrderId: `bench-${client}-${n}`,
    timestamp: 1_700_000_000_000 + n,
    recvWindow: 5000,
  };
}

function percentile(sorted: Float64Array, fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

/**
 * The submitters: CLIENTS closed loops through a Sequencer over `store` until `total` commands are
 * answered (the sequencer is closed after); every figure but the two append-alone ceilings.
 */
async function closedLoop(store: Store, total: number, accounts: number): Promise<Omit<WorkloadFigures, 'rawAppendPerSecond' | 'storeAppendPerSecond'>> {
  let batches = 0;
  const sequencer = new Sequencer({
    store,
    applier: new RestingOrderApplier(),
    clock: Date.now,
    onCommit: () => {
      batches++;
    },
  });
  const ackMs = new Float64Array(total);
  let issued = 0;
  const client = async (id: number): Promise<void> => {
    let n = 0;
    while (issued < total) {
      const index = issued++;
      const started = process.hrtime.bigint();
      await sequencer.submit(placeOrder(accounts, id, n++));
      ackMs[index] = Number(process.hrtime.bigint() - started) / 1e6;
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CLIENTS }, (_, id) => client(id)));
  await sequencer.close();
  const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
  ackMs.sort();
  return {
    commands: total,
    commandsPerSecond: total / elapsedS,
    ackP50Ms: percentile(ackMs, 0.5),
    ackP99Ms: percentile(ackMs, 0.99),
    batchesAvg: total / Math.max(1, batches),
  };
}

/**
 * Commands appended through `store` alone, after what it holds: batches of CLIENTS commands, each
 * committed before the next; with `withRows`, each batch also carries its commands' order rows.
 */
async function appendRate(store: Store, total: number, accounts: number, withRows: boolean): Promise<number> {
  const firstSeq = store.lastSeq() + 1;
  const firstTs = store.lastTs();
  const commands: StampedCommand[] = Array.from({ length: total }, (_, i) => ({ seq: firstSeq + i, ts: firstTs + i, command: placeOrder(accounts, i % CLIENTS, i) }));
  const batches: DerivedRows[] = [];
  const applier = new RestingOrderApplier();
  for (let from = 0; from < total; from += CLIENTS) {
    const rows = emptyDerivedRows();
    if (withRows) for (const stamped of commands.slice(from, from + CLIENTS)) applier.apply(stamped, rows);
    batches.push(rows);
  }
  const started = process.hrtime.bigint();
  for (let from = 0; from < total; from += CLIENTS) await store.appendBatch(commands.slice(from, from + CLIENTS), batches[from / CLIENTS]);
  return total / (Number(process.hrtime.bigint() - started) / 1e9);
}

export async function runJournalBench(
  synchronous: 'NORMAL' | 'FULL',
  total: number,
  accounts: number,
): Promise<JournalBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bourse-bench-journal-'));
  // As the inline writer opens it (core-host.ts).
  const open = (file: string): SqliteStore =>
    openSqliteStore({ path: join(dir, file), synchronous, checkpoints: 'background', rowsEveryCommits: INLINE_ROWS_EVERY_COMMITS });
  const store = open('bourse.db');
  try {
    const figures = await closedLoop(store, total, accounts);
    // The ceilings on files of their own, which start from an empty journal as the loop did.
    const rate = async (file: string, withRows: boolean): Promise<number> => {
      const alone = open(file);
      try {
        return await appendRate(alone, total, accounts, withRows);
      } finally {
        alone.close();
      }
    };
    return { synchronous, ...figures, rawAppendPerSecond: await rate('raw.db', false), storeAppendPerSecond: await rate('rows.db', true) };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same workload through a PostgresStore on a fresh database (BOURSE_BENCH_POSTGRES_URL's server, or an embedded one). */
export async function runPostgresJournalBench(total: number, accounts: number): Promise<PostgresJournalResult> {
  const database = await openBenchDatabase('journal');
  try {
    const store = await openPostgresStore({ url: database.url });
    try {
      const figures = await closedLoop(store, total, accounts);
      const rawAppendPerSecond = await appendRate(store, total, accounts, false);
      return { server: database.description, ...figures, rawAppendPerSecond, storeAppendPerSecond: await appendRate(store, total, accounts, true) };
    } finally {
      await store.close();
    }
  } finally {
    await database.close();
  }
}

function formatFigures(label: string, r: WorkloadFigures): string {
  return (
    `${label}: ${Math.round(r.commandsPerSecond)} commands/s, ` +
    `ack p50 ${r.ackP50Ms.toFixed(2)} ms, p99 ${r.ackP99Ms.toFixed(2)} ms, batches avg ${Math.round(r.batchesAvg)}; ` +
    `journal rows alone ${Math.round(r.rawAppendPerSecond)}/s (${((100 * r.commandsPerSecond) / r.rawAppendPerSecond).toFixed(0)}% of it), ` +
    `with their order rows ${Math.round(r.storeAppendPerSecond)}/s (${((100 * r.commandsPerSecond) / r.storeAppendPerSecond).toFixed(0)}% of it)`
  );
}

export function formatJournalResult(r: JournalBenchResult): string {
  return formatFigures(`journal synchronous=${r.synchronous}`, r);
}

function targetLines(r: JournalBenchResult): string[] {
  const lines: [boolean, string][] = [
    [r.commandsPerSecond >= TARGET_COMMANDS_PER_SECOND, `durable commands ≥ ${TARGET_COMMANDS_PER_SECOND / 1000}k/s: ${Math.round(r.commandsPerSecond / 1000)}k/s`],
    [r.ackP99Ms <= TARGET_ACK_P99_MS, `ack p99 ≤ ${TARGET_ACK_P99_MS} ms: ${r.ackP99Ms.toFixed(1)} ms`],
  ];
  return lines.map(([met, text]) => `${met ? 'met   ' : 'MISSED'} journal synchronous=${r.synchronous}: ${text}`);
}

export function formatPostgresResult(r: PostgresJournalResult): string {
  return formatFigures('journal postgres', r);
}

function postgresTargetLines(r: PostgresJournalResult, full: JournalBenchResult): string[] {
  const share = r.commandsPerSecond / full.commandsPerSecond;
  const lines: [boolean, string][] = [
    [
      share >= TARGET_POSTGRES_SHARE_OF_FULL,
      `rate ≥ ${100 * TARGET_POSTGRES_SHARE_OF_FULL}% of SQLite's durable (synchronous=FULL) rate: ` +
        `${Math.round(r.commandsPerSecond)}/s is ${(100 * share).toFixed(1)}% of ${Math.round(full.commandsPerSecond)}/s`,
    ],
    [r.ackP99Ms <= TARGET_POSTGRES_ACK_P99_MS, `ack p99 ≤ ${TARGET_POSTGRES_ACK_P99_MS} ms: ${r.ackP99Ms.toFixed(1)} ms`],
  ];
  return lines.map(([met, text]) => `${met ? 'met   ' : 'MISSED'} journal postgres: ${text}`);
}

function positiveEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be an integer ≥ 1: ${value}`);
  return value;
}

export async function main(): Promise<{ sqlite: JournalBenchResult[]; postgres: PostgresJournalResult }> {
  const total = positiveEnv('BENCH_JOURNAL_COMMANDS', 200_000);
  const accounts = positiveEnv('BENCH_JOURNAL_ACCOUNTS', CLIENTS);
  const sqlite: JournalBenchResult[] = [];
  for (const synchronous of ['NORMAL', 'FULL'] as const) {
    const result = await runJournalBench(synchronous, total, accounts);
    console.log(formatJournalResult(result));
    for (const line of targetLines(result)) console.log(line);
    sqlite.push(result);
  }
  const postgres = await runPostgresJournalBench(total, accounts);
  console.log(`  ${postgres.server}`);
  console.log(formatPostgresResult(postgres));
  const full = sqlite.find((r) => r.synchronous === 'FULL') as JournalBenchResult;
  for (const line of postgresTargetLines(postgres, full)) console.log(line);
  return { sqlite, postgres };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
