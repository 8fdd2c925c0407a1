/**
 * Start-up time over a long journal (target: 1,000,000 journaled commands replayed in ≤ 3 s).
 * Builds a journal by driving a real ExchangeCore and the SQLite store directly (catalogue, 1,000
 * funded users, then the engine benchmark's seeded place/cancel/market mix), appended in batches of
 * 4,096 with their derived rows as the sequencer does, with a snapshot at 90% of the commands. Then,
 * each on a freshly opened store, times `recover` without the snapshot (the whole journal) and with
 * it, and splits the full replay into its parts: SQLite reads, decoding (frames, and JSON as rows
 * written before frames are), the reading thread's share and this thread's, and `apply` (engine
 * and ledger, state only, as recovery replays). Last, the journal's frames are rewritten as the
 * JSON rows of an older journal and the full replay timed again.
 *
 *   node --import tsx bench/replay.ts          (BENCH_REPLAY_COMMANDS=1000000)
 *   node --cpu-prof --import tsx bench/replay.ts   for a profile of the same
 */

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { formatUnits } from '../src/core/decimal.js';
import { BourseError } from '../src/core/errors.js';
import { emptyDerivedRows, type Command, type DerivedRows, type StampedCommand } from '../src/core/types.js';
import { ExchangeCore } from '../src/exchange/exchange-core.js';
import type { PlaceOrderResult } from '../src/exchange/order-commands.js';
import { recover, takeSnapshot } from '../src/exchange/recovery.js';
import { DEFAULT_MAX_BATCH } from '../src/exchange/sequencer.js';
import { FIRST_TS, setUpBenchMarket, SYMBOL, TICK_DECIMALS } from './bench-market.js';
import { hashState, restoreCore, stateHash } from '../src/exchange/snapshot.js';
import { ChunkReader } from '../src/store/journal-chunk.js';
import { decodeCommand } from '../src/store/journal-codec.js';
import { isFrameText } from '../src/store/journal-frame.js';
import { JournalReadThread } from '../src/store/journal-read-thread.js';
import type { SyncJournal } from '../src/store/store.js';
import { prepareJournalRead } from '../src/store/sqlite/journal-reader.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { elapsedNs, formatCount, formatRate, semiSpaceNote } from './stats.js';
import { CANCEL, generateStream, LIMIT, type BenchStream } from './stream.js';

const DEFAULT_COMMANDS = 1_000_000;
const TARGET_SECONDS_PER_MILLION = 3;
const SEED = 20_240_602;
const ACCOUNTS = 1_000;
const TARGET_DEPTH = 10_000;
/** The sequencer's largest batch: one transaction and one DerivedRows per batch. */
const BATCH = DEFAULT_MAX_BATCH;
const SNAPSHOT_FRACTION = 0.9;
/** The stream is longer than the journal needs: the core refuses a few of its commands. */
const STREAM_MARGIN = 1.1;

export interface ReplayTiming {
  seconds: number;
  /** Garbage collection pauses within `seconds`. */
  gcSeconds: number;
  snapshotSeq: number;
  replayed: number;
  commandsPerSecond: number;
}

export interface ReplayBenchResult {
  commands: number;
  buildSeconds: number;
  databaseBytes: number;
  snapshotBytes: number;
  full: ReplayTiming;
  fromSnapshot: ReplayTiming;
  /** Full replay of the same journal with every row JSON, as written before frames. */
  fullJson: ReplayTiming;
  /** Parts of a recovery, each timed alone. */
  parts: ReplayParts;
  /** Full replay within the target. */
  targetMet: boolean;
  /** Full replay of the JSON rows within the target. */
  jsonTargetMet: boolean;
  /** Snapshot plus the replay after it within the target. */
  snapshotTargetMet: boolean;
}

/** Command i of the stream as a client would have sent it; cancels name the core's id of the order. */
function streamCommand(stream: BenchStream, i: number, accountIds: readonly number[], coreOrderIds: Int32Array, ts: number): Command {
  const accountId = accountIds[stream.account[i]];
  const kind = stream.kind[i];
  if (kind === CANCEL) return { type: 'cancelOrder', accountId, orderId: coreOrderIds[stream.orderId[i]] };
  const side = stream.isBuy[i] === 1 ? 'BUY' : 'SELL';
  if (kind === LIMIT) {
    const price = formatUnits(BigInt(stream.priceTicks[i]), TICK_DECIMALS);
    return { type: 'placeOrder', accountId, symbol: SYMBOL, side, orderType: 'LIMIT', timeInForce: 'GTC', quantity: String(stream.lots[i]), price, timestamp: ts, recvWindow: 5000 };
  }
  // A MARKET BUY spends what the same lots cost on the stream's reference book (docs/spot-api.md "MARKET BUY amount").
  const quantity = side === 'BUY' ? formatUnits(BigInt(stream.marketBuyTickLots[i]), TICK_DECIMALS) : String(stream.lots[i]);
  return { type: 'placeOrder', accountId, symbol: SYMBOL, side, orderType: 'MARKET', timeInForce: 'GTC', quantity, timestamp: ts };
}

/** Journals `commands` accepted commands; returns the state hash at the end. */
function buildJournal(store: SyncJournal, commands: number): string {
  const core = new ExchangeCore();
  const snapshotSeq = Math.floor(commands * SNAPSHOT_FRACTION);
  let batch: StampedCommand[] = [];
  let rows: DerivedRows = emptyDerivedRows();
  const flush = (): void => {
    store.appendBatch(batch, rows);
    batch = [];
    rows = emptyDerivedRows();
  };
  const journal = (command: Command, ts: number): unknown => {
    const stamped: StampedCommand = { seq: core.lastSeq + 1, ts, command };
    const marks = [rows.orders.length, rows.trades.length, rows.flows.length, rows.deposits.length, rows.withdrawals.length];
    try {
      const result = core.apply(stamped, rows);
      batch.push(stamped);
      if (core.lastSeq === snapshotSeq) {
        flush();
        takeSnapshot(core, store);
      } else if (batch.length === BATCH) {
        flush();
      }
      return result;
    } catch (error) {
      if (!(error instanceof BourseError)) throw error;
      // Refused commands are not journaled and leave no rows, as in the sequencer.
      [rows.orders.length, rows.trades.length, rows.flows.length, rows.deposits.length, rows.withdrawals.length] = marks;
      return undefined;
    }
  };

  const accountIds = setUpBenchMarket((command) => journal(command, FIRST_TS), ACCOUNTS);
  const measured = Math.ceil(((commands - core.lastSeq) * STREAM_MARGIN) / 2);
  const stream = generateStream({ label: 'replay', shape: 'mix', seed: SEED, targetDepth: TARGET_DEPTH, warmup: 0, measured, accounts: ACCOUNTS });
  const coreOrderIds = new Int32Array(stream.maxOrderId + 1);
  for (let i = 0; i < stream.length && core.lastSeq < commands; i++) {
    const ts = FIRST_TS + i;
    const result = journal(streamCommand(stream, i, accountIds, coreOrderIds, ts), ts);
    if (stream.kind[i] !== CANCEL && result !== undefined) coreOrderIds[stream.orderId[i]] = (result as PlaceOrderResult).order.orderId;
  }
  if (core.lastSeq < commands) throw new Error(`the stream ran out at ${core.lastSeq} journaled commands`);
  if (batch.length > 0) flush();
  return stateHash(core);
}

function timed<T>(work: () => T): { value: T; seconds: number } {
  const started = process.hrtime.bigint();
  const value = work();
  return { value, seconds: elapsedNs(started) / 1e9 };
}

/** `timed`, plus the garbage collection pauses the work caused. */
async function timedWithGc<T>(work: () => T): Promise<{ value: T; seconds: number; gcSeconds: number }> {
  let gcMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  observer.observe({ entryTypes: ['gc'] });
  const result = timed(work);
  // GC entries are queued during the work and handed over after it.
  await new Promise((resolve) => setImmediate(resolve));
  for (const entry of observer.takeRecords()) gcMs += entry.duration;
  observer.disconnect();
  return { ...result, gcSeconds: gcMs / 1000 };
}

/** `recover` on a freshly opened store, checked against the state the journal was built to. */
async function timeRecovery(path: string, expectedHash: string, ignoreSnapshots: boolean): Promise<ReplayTiming> {
  const store = openSqliteStore({ path, synchronous: 'NORMAL' });
  try {
    const { value, seconds, gcSeconds } = await timedWithGc(() => recover(store, { ignoreSnapshots }));
    const hash = stateHash(value.core);
    if (hash !== expectedHash) throw new Error(`replay reached state ${hash}, the journal was built to ${expectedHash}`);
    return { seconds, gcSeconds, snapshotSeq: value.snapshotSeq, replayed: value.replayed, commandsPerSecond: value.replayed / seconds };
  } finally {
    store.close();
  }
}

export interface ReplayParts {
  /** Journal rows out of SQLite on this thread, nothing decoded. */
  sqliteReadSeconds: number;
  /** Rows read and decoded on this thread (the reader of a short tail): frames, and the same rows as JSON. */
  readAndDecodeSeconds: number;
  readAndParseJsonSeconds: number;
  /** The reading thread alone (rows read, checked, handed over as chunks), and this thread decoding those chunks. */
  readingThreadSeconds: number;
  chunkDecodeSeconds: number;
  applySeconds: number;
  snapshotLoadSeconds: number;
}

/** Rows out of SQLite alone; then read and decoded by the store's reader on this thread. */
function timeRead(path: string): { sqliteReadSeconds: number; readAndDecode: { value: StampedCommand[]; seconds: number } } {
  const db = new Database(path, { readonly: true });
  try {
    let chars = 0;
    const sqliteRead = timed(() => {
      for (const row of db.prepare<[], { seq: number; ts: number; type: string; payload: string }>('SELECT seq, ts, type, payload FROM journal ORDER BY seq').iterate()) {
        chars += row.payload.length;
      }
    });
    if (chars === 0) throw new Error('empty journal');
    return { sqliteReadSeconds: sqliteRead.seconds, readAndDecode: timed(() => [...prepareJournalRead(db, Infinity)(0)]) };
  } finally {
    db.close();
  }
}

/** The reading thread alone (its chunks kept), then this thread's decoding of them. */
function timeThreadedRead(path: string, commands: number): { readingThreadSeconds: number; chunkDecodeSeconds: number } {
  const chunks: ArrayBuffer[] = [];
  const reading = timed(() => {
    const thread = new JournalReadThread(path);
    thread.start(0);
    try {
      for (let chunk = thread.next(); chunk !== undefined; chunk = thread.next()) chunks.push(chunk);
    } finally {
      thread.close();
    }
  });
  const decode = timed(() => {
    const rows = new ChunkReader(0);
    let decoded = 0;
    for (const chunk of chunks) {
      rows.load(chunk);
      while (rows.next() !== undefined) decoded++;
    }
    return decoded;
  });
  if (decode.value !== commands) throw new Error(`the reading thread handed over ${decode.value} commands of ${commands}`);
  return { readingThreadSeconds: reading.seconds, chunkDecodeSeconds: decode.seconds };
}

/** The parts of a recovery of the journal as built (frames), each timed alone; JSON parsing is timed later. */
function timeParts(path: string): Omit<ReplayParts, 'readAndParseJsonSeconds'> {
  const { sqliteReadSeconds, readAndDecode } = timeRead(path);
  const commands = readAndDecode.value;
  const core = new ExchangeCore();
  const apply = timed(() => {
    let rows = emptyDerivedRows();
    for (let i = 0; i < commands.length; i++) {
      // As recovery replays what the tables hold already: state only.
      core.apply(commands[i], rows, 'none');
      if ((i + 1) % BATCH === 0) rows = emptyDerivedRows();
    }
  });
  const threaded = timeThreadedRead(path, commands.length);
  const store = openSqliteStore({ path, synchronous: 'NORMAL' });
  try {
    const snapshotLoad = timed(() => {
      const snapshot = store.loadLatestSnapshot();
      if (snapshot === undefined) throw new Error('no snapshot');
      if (hashState(snapshot.state) !== snapshot.hash || stateHash(restoreCore(snapshot.state)) !== snapshot.hash) throw new Error('snapshot hash mismatch');
    });
    return {
      sqliteReadSeconds,
      readAndDecodeSeconds: readAndDecode.seconds,
      ...threaded,
      applySeconds: apply.seconds,
      snapshotLoadSeconds: snapshotLoad.seconds,
    };
  } finally {
    store.close();
  }
}

/** Rewrites every frame of the journal as JSON text: the journal as written before frames. */
function rewriteAsJson(path: string): void {
  const db = new Database(path);
  try {
    const rewrite = db.prepare<[string, number]>('UPDATE journal SET payload = ? WHERE seq = ?');
    const rows = db.prepare<[], { seq: number; payload: string }>('SELECT seq, payload FROM journal ORDER BY seq').all();
    db.transaction(() => {
      for (const row of rows) if (isFrameText(row.payload)) rewrite.run(JSON.stringify(decodeCommand(row.payload)), row.seq);
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

function timingLine(label: string, t: ReplayTiming): string {
  // With a snapshot the time includes loading it, so a rate would mislead.
  const replay = t.snapshotSeq === 0 ? `no snapshot, replayed ${formatCount(t.replayed)} at ${formatRate(t.commandsPerSecond)}` : `snapshot at ${formatCount(t.snapshotSeq)}, replayed ${formatCount(t.replayed)}`;
  return `${label}: ${t.seconds.toFixed(2)} s (${replay}; GC ${t.gcSeconds.toFixed(2)} s)`;
}

export async function main(): Promise<ReplayBenchResult> {
  const commands = Number(process.env.BENCH_REPLAY_COMMANDS ?? DEFAULT_COMMANDS);
  if (!Number.isSafeInteger(commands) || commands < 10_000) throw new RangeError(`BENCH_REPLAY_COMMANDS must be an integer ≥ 10000: ${commands}`);
  const dir = mkdtempSync(join(tmpdir(), 'bourse-replay-'));
  const path = join(dir, 'bourse.db');
  try {
    const store = openSqliteStore({ path, synchronous: 'NORMAL' });
    const build = timed(() => buildJournal(store, commands));
    const snapshotBytes = store.loadLatestSnapshot()?.state.length ?? 0;
    store.close();
    const databaseBytes = statSync(path).size;
    console.log(
      `journal: ${formatCount(commands)} commands built in ${build.seconds.toFixed(1)} s; database ${(databaseBytes / 2 ** 20).toFixed(0)} MiB,` +
        ` snapshot at ${formatCount(Math.floor(commands * SNAPSHOT_FRACTION))} ${(snapshotBytes / 2 ** 20).toFixed(1)} MiB; ${semiSpaceNote()}`,
    );

    const full = await timeRecovery(path, build.value, true);
    const fromSnapshot = await timeRecovery(path, build.value, false);
    const framedParts = timeParts(path);
    rewriteAsJson(path);
    const fullJson = await timeRecovery(path, build.value, true);
    const parts: ReplayParts = { ...framedParts, readAndParseJsonSeconds: timeRead(path).readAndDecode.seconds };
    const targetSeconds = (TARGET_SECONDS_PER_MILLION * commands) / 1_000_000;
    const targetMet = full.seconds <= targetSeconds;
    const jsonTargetMet = fullJson.seconds <= targetSeconds;
    const snapshotTargetMet = fromSnapshot.seconds <= targetSeconds;
    console.log(timingLine('recover, full replay  ', full));
    console.log(timingLine('recover, from snapshot', fromSnapshot));
    console.log(timingLine('recover, full replay of JSON rows (a journal written before frames)', fullJson));
    const s = (seconds: number): string => `${seconds.toFixed(2)} s`;
    console.log(
      `parts: SQLite read ${s(parts.sqliteReadSeconds)}, + decode here ${s(parts.readAndDecodeSeconds - parts.sqliteReadSeconds)} (frames)` +
        ` or ${s(parts.readAndParseJsonSeconds - parts.sqliteReadSeconds)} (JSON.parse);` +
        ` read on the reading thread ${s(parts.readingThreadSeconds)} (frames, its start included), decoded here from its chunks ${s(parts.chunkDecodeSeconds)};` +
        ` apply (engine and ledger, state only, as recovery) ${s(parts.applySeconds)}; snapshot load ${s(parts.snapshotLoadSeconds)}`,
    );
    const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');
    console.log(
      `target: start-up over ${formatCount(commands)} journaled commands ≤ ${targetSeconds.toFixed(1)} s:` +
        ` full replay ${verdict(targetMet)} (${full.seconds.toFixed(2)} s), from the snapshot ${verdict(snapshotTargetMet)} (${fromSnapshot.seconds.toFixed(2)} s),` +
        ` full replay of JSON rows ${verdict(jsonTargetMet)} (${fullJson.seconds.toFixed(2)} s)`,
    );
    return { commands, buildSeconds: build.seconds, databaseBytes, snapshotBytes, full, fromSnapshot, fullJson, parts, targetMet, jsonTargetMet, snapshotTargetMet };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
