/**
 * `bourse migrate-store`: a SQLite deployment copied into an empty PostgreSQL database
 * (docs/operating.md "Moving a SQLite deployment to PostgreSQL"). Derived rows are a pure function
 * of the journal, so the copy replays the SQLite journal in seq order on a fresh core and appends
 * each batch of commands with the rows they derive, as the sequencer does, with the journal's
 * stamps unchanged; then it snapshots the final state into PostgreSQL and checks that every way
 * of reading the state back gives its hash before it calls the copy good.
 */

import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openSecretBox, type SecretBox } from '../api/auth/secret-box.js';
import { checkDeploymentKey } from '../cluster/deployment-key.js';
import { redactUrl } from '../config.js';
import { derivedRowCount, emptyDerivedRows, type StampedCommand } from '../core/types.js';
import { ExchangeCore } from '../exchange/exchange-core.js';
import { DEFAULT_MAX_BATCH } from '../exchange/sequencer.js';
import { recover, recoverAsync, snapshotOf } from '../exchange/recovery.js';
import { stateHash } from '../exchange/snapshot.js';
import { FileDocumentStore } from '../store/documents.js';
import { openPostgresStore, type PostgresStore } from '../store/postgres/postgres-store.js';
import { openSqliteStore, type SqliteStore } from '../store/sqlite/sqlite-store.js';
import type { Snapshot } from '../store/store.js';
import { cannotConnect, CliError, usageError } from './errors.js';

/** Commands per PostgreSQL transaction: the sequencer's largest batch, so no transaction is larger than the ones a leader commits. */
const MIGRATION_BATCH_COMMANDS = DEFAULT_MAX_BATCH;
/** A batch is also cut at this many derived rows (a command may derive many: a sweep of the book). */
const MIGRATION_BATCH_ROWS = 20_000;
/** Batches handed to PostgreSQL and not yet committed, at most. */
const MIGRATION_BATCHES_IN_FLIGHT = 4;
/** How often a long copy reports on stderr. */
const PROGRESS_EVERY_COMMANDS = 100_000;

export interface StoreMigration {
  /** The SQLite server's data directory (its BOURSE_DATA): `bourse.db` in it. */
  dataDir: string;
  /** postgres://… of an empty database. */
  targetUrl: string;
  /**
   * `BOURSE_SECRET_KEY` if set: the deployment's secret-sealing key, as the SQLite server took it
   * (else its data directory's `secret.key`). It must open the API secrets, and it seals the check
   * every node of the database makes at start.
   */
  secretKeyBase64: string | undefined;
  /** Told what is happening, on the way (stderr). */
  progress(line: string): void;
}

export interface MigrationReport {
  /** Journaled commands copied: seqs 1 to this. */
  commands: number;
  snapshotSeq: number;
  stateHash: string;
  /** Documents B35 stored under `<dataDir>/uploads`, now in the database. */
  documents: number;
}

/** After the first append: what the operator does with the database the copy left. */
const START_OVER = 'Start no node on this database: drop its schema (DROP SCHEMA bourse CASCADE), then run migrate-store again';

/** Refused before anything is written, or a copy that must not be used: exit 1 with the reason. */
function refused(message: string): CliError {
  return new CliError(`error: ${message}`, 1);
}

export async function migrateStore(migration: StoreMigration): Promise<MigrationReport> {
  const dbPath = path.join(migration.dataDir, 'bourse.db');
  // openSqliteStore would create an empty database where none is: a mistyped --from must say so instead.
  if (!existsSync(dbPath)) throw refused(`no SQLite store at ${dbPath}: --from takes the SQLite server's data directory (its BOURSE_DATA)`);
  const key = deploymentKey(migration.dataDir, migration.secretKeyBase64);
  let source: SqliteStore;
  try {
    source = openSqliteStore({ path: dbPath, synchronous: 'NORMAL' });
  } catch (error) {
    throw refused(`cannot open the SQLite store ${dbPath}: ${(error as Error).message}`);
  }
  try {
    const total = source.lastSeq();
    if (total === 0) throw refused(`the journal of ${dbPath} is empty: there is nothing to move`);
    // Recovered as its server would start, before anything is written: the hash the copy must have.
    const sqliteHash = recoveredHash(source, total, key);
    const target = await openTarget(migration.targetUrl);
    try {
      if (target.lastSeq() !== 0) {
        throw refused(`${redactUrl(migration.targetUrl)} already holds a journal (up to seq ${target.lastSeq()}): migrate-store copies into an empty database only`);
      }
      await storeKeyCheck(migration.targetUrl, key.box);
      migration.progress(`copying ${total} journaled commands from ${dbPath} (its server must stay stopped until this ends)`);
      let snapshot: Snapshot;
      let documents: number;
      try {
        snapshot = await copyJournal(source, target, total, migration.progress);
        await target.saveSnapshot(snapshot);
        documents = await copyDocuments(migration.dataDir, target);
      } catch (error) {
        throw refused(`the copy stopped: ${(error as Error).message}. ${START_OVER}`);
      }
      migration.progress(`snapshot at seq ${snapshot.seq} saved; checking the state hash`);
      await checkStateHash(target, snapshot, sqliteHash).catch((error: unknown) => {
        throw error instanceof CliError ? error : refused(`the copy could not be checked: ${(error as Error).message}. ${START_OVER}`);
      });
      return { commands: total, snapshotSeq: snapshot.seq, stateHash: snapshot.hash, documents };
    } finally {
      await target.close();
    }
  } finally {
    source.close();
  }
}

/** Most documents one order holds (B35 takes at most 10 files an order): a directory with more was not B35's. */
const MAX_DOCUMENTS_PER_ORDER = 1000;

/** The uploaded documents (files under `<dataDir>/uploads/<orderId>/`) into the database's document store. */
async function copyDocuments(dataDir: string, target: PostgresStore): Promise<number> {
  const root = path.join(dataDir, 'uploads');
  if (!existsSync(root)) return 0;
  const files = new FileDocumentStore(dataDir);
  let copied = 0;
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const orderId = Number(entry.name);
    if (!entry.isDirectory() || !Number.isSafeInteger(orderId) || orderId < 1 || String(orderId) !== entry.name) continue;
    for (const document of await files.list(orderId, MAX_DOCUMENTS_PER_ORDER)) {
      const stored = await files.get(orderId, document.sha256);
      if (stored === undefined) continue;
      await target.documents.put(orderId, document.sha256, stored.ext, stored.bytes);
      copied++;
    }
  }
  return copied;
}

/** The deployment's key as the SQLite server took it, and where it came from (for messages). */
interface DeploymentKey {
  box: SecretBox;
  source: string;
}

function deploymentKey(dataDir: string, base64: string | undefined): DeploymentKey {
  const text = base64?.trim();
  if (text) {
    const key = Buffer.from(text, 'base64');
    if (key.length !== 32 || key.toString('base64') !== text) throw usageError('BOURSE_SECRET_KEY must be the base64 of exactly 32 bytes');
    return { box: openSecretBox(dataDir, key), source: 'BOURSE_SECRET_KEY' };
  }
  const file = path.join(dataDir, 'secret.key');
  // openSecretBox would make a new key where none is: one that opens nothing of this deployment.
  if (!existsSync(file)) throw refused(`no ${file}: set BOURSE_SECRET_KEY to the key the SQLite server ran with`);
  try {
    return { box: openSecretBox(dataDir), source: file };
  } catch (error) {
    throw refused(`cannot read the secret-sealing key ${file}: ${(error as Error).message}`);
  }
}

async function openTarget(url: string): Promise<PostgresStore> {
  try {
    // No term: the copy is the database's only writer, before any node leads it.
    return await openPostgresStore({ url, readers: 1 });
  } catch (error) {
    throw cannotConnect(`cannot open the PostgreSQL database ${redactUrl(url)}: ${(error as Error).message}`);
  }
}

/** Stores the value sealed with the deployment's key, so that a node started with another key refuses (docs/deployment.md). */
async function storeKeyCheck(url: string, secretBox: SecretBox): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1, application_name: 'bourse migrate-store' });
  pool.on('error', () => undefined);
  try {
    await checkDeploymentKey(pool, secretBox);
  } catch (error) {
    throw refused(`the key check of ${redactUrl(url)} failed: ${(error as Error).message}`);
  } finally {
    await pool.end();
  }
}

/** Replays the SQLite journal into a fresh core and appends it to PostgreSQL with its rows; the final state's snapshot. */
async function copyJournal(source: SqliteStore, target: PostgresStore, total: number, progress: (line: string) => void): Promise<Snapshot> {
  const core = new ExchangeCore();
  // No stream is open: the rows need no stream events.
  core.streamedAccounts = new Set();
  let commands: StampedCommand[] = [];
  let rows = emptyDerivedRows();
  let copied = 0;
  // Appends commit in the order they were made: the next batch is derived while PostgreSQL writes the ones before.
  const inFlight: { committed: Promise<void>; size: number }[] = [];
  const settleOldest = async (): Promise<void> => {
    const oldest = inFlight.shift();
    if (oldest === undefined) return;
    await oldest.committed;
    const before = copied;
    copied += oldest.size;
    if (Math.floor(copied / PROGRESS_EVERY_COMMANDS) > Math.floor(before / PROGRESS_EVERY_COMMANDS)) progress(`${copied} of ${total} commands copied`);
  };
  const flush = async (): Promise<void> => {
    const committed = target.appendBatch(commands, rows);
    // Awaited in turn below; one that fails after an earlier failure must not go unhandled meanwhile.
    committed.catch(() => undefined);
    inFlight.push({ committed, size: commands.length });
    commands = [];
    rows = emptyDerivedRows();
    if (inFlight.length >= MIGRATION_BATCHES_IN_FLIGHT) await settleOldest();
  };
  for (const stamped of source.readJournal(0, MIGRATION_BATCH_COMMANDS)) {
    if (stamped.seq > total) throw grewWhileCopied(total);
    try {
      core.apply(stamped, rows, 'all');
    } catch (error) {
      throw new Error(`the SQLite journal does not replay at seq ${stamped.seq} (${stamped.command.type}): ${(error as Error).message}`);
    }
    // A follow-up is a journaled command of its own, the next in the journal: it is not applied twice.
    rows.followUps.length = 0;
    commands.push(stamped);
    if (commands.length === MIGRATION_BATCH_COMMANDS || derivedRowCount(rows) >= MIGRATION_BATCH_ROWS) await flush();
  }
  if (commands.length > 0) await flush();
  while (inFlight.length > 0) await settleOldest();
  if (copied !== total) throw new Error(`the SQLite journal ends at seq ${copied}, not at ${total} as it did when the copy began`);
  // A command journaled after the last page was read: a server is writing to this store.
  for (const _ of source.readJournal(total, 1)) throw grewWhileCopied(total);
  return snapshotOf(core);
}

function grewWhileCopied(total: number): Error {
  return new Error(`the SQLite journal grew past seq ${total} during the copy: its server is running; stop it`);
}

/**
 * The SQLite store's state hash at `seq`, recovered as its server would start (its snapshot, then
 * its journal), read only; and a check that the key opens the API secrets sealed in that state,
 * without which no node could check a signature.
 */
function recoveredHash(source: SqliteStore, seq: number, key: DeploymentKey): string {
  let core: ExchangeCore;
  try {
    core = recover(source, { deriveRows: false, untilSeq: seq }).core;
  } catch (error) {
    throw refused(`the SQLite store does not recover: ${(error as Error).message}`);
  }
  const sealed = core.catalogue.apiKeys.values().next().value?.secretSealed;
  if (sealed !== undefined) {
    try {
      key.box.open(sealed);
    } catch {
      throw refused(`the key of ${key.source} does not open the API secrets in this store: give migrate-store the key its server ran with (BOURSE_SECRET_KEY)`);
    }
  }
  return stateHash(core);
}

/**
 * The copy is good when the copied state's hash is the SQLite store's, and so are those of the
 * snapshot saved in PostgreSQL as a node would load it and of the PostgreSQL journal replayed from
 * its first command.
 */
async function checkStateHash(target: PostgresStore, snapshot: Snapshot, sqliteHash: string): Promise<void> {
  const loadedHash = stateHash((await recoverAsync(target)).core);
  const replayedHash = stateHash((await recoverAsync(target, { ignoreSnapshots: true })).core);
  const hashes = { sqlite: sqliteHash, copied: snapshot.hash, 'postgres snapshot': loadedHash, 'postgres journal replay': replayedHash };
  if (Object.values(hashes).some((hash) => hash !== sqliteHash)) {
    const listed = Object.entries(hashes).map(([name, hash]) => `${name} ${hash}`).join(', ');
    throw refused(`the state hashes differ (${listed}). ${START_OVER}, and report this`);
  }
}
