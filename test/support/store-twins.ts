/**
 * One command stream through two writers: each a real Sequencer over its own ExchangeCore, one on
 * an in-memory SQLite store, one on a PostgreSQL store, both stamped by the same clock. A turn
 * submits its commands to both in one event-loop turn (one batch each) and waits for both commits,
 * so the batches, the stamps and so the journals are the same on both; how each command ended
 * must be too. Commands are built against the SQLite side's core (`core`, `now`, `free`: a
 * PaymentsView), which is the PostgreSQL side's as long as they agree.
 */
import { Refusal } from '../../src/core/refusal.js';
import { emptyDerivedRows, type Command, type DerivedRows } from '../../src/core/types.js';
import { ExchangeCore } from '../../src/exchange/exchange-core.js';
import { snapshotOf } from '../../src/exchange/recovery.js';
import { Sequencer } from '../../src/exchange/sequencer.js';
import { stateHash } from '../../src/exchange/snapshot.js';
import type { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { T0 } from './core-harness.js';
import { openEmptyPostgresStore } from './empty-postgres-store.js';
import type { Submit } from './payments-core.js';

/** How a command ended, as text taken when it was answered (a later command may change a result's objects). */
export interface Ending {
  /** `ok <result as JSON>` or `refused <code>`. */
  text: string;
  result: unknown;
}

/** JSON that also takes bigints (as `123n`), so that a result with amounts in atoms compares whole. */
export function jsonOf(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? 'undefined';
}

/** One store with its own core and sequencer. */
export class Writer {
  readonly core = new ExchangeCore();
  /** The first fault that is not a refusal (a bug in the core, a commit that failed): the sequencer stops there. */
  fatal: unknown = undefined;
  readonly sequencer: Sequencer;

  constructor(
    readonly name: string,
    readonly store: Store,
    clock: () => number,
    onCommit?: (rows: DerivedRows) => void,
  ) {
    this.sequencer = new Sequencer({
      store,
      applier: this.core,
      clock,
      onCommit: onCommit === undefined ? undefined : (info) => onCommit(info.rows),
      onFatal: (error) => {
        this.fatal ??= error;
      },
    });
  }

  /** Submits the commands in this event-loop turn (one batch); how each ended. */
  run(commands: readonly Command[]): Promise<Ending[]> {
    return Promise.all(
      commands.map((command) =>
        this.sequencer.submit(command).then(
          (result): Ending => ({ text: `ok ${jsonOf(result)}`, result }),
          (error: unknown): Ending => {
            if (this.fatal !== undefined) throw this.fatal;
            if (!(error instanceof Refusal)) throw error;
            return { text: `refused ${error.code}`, result: error };
          },
        ),
      ),
    );
  }
}

export class StoreTwins {
  /** The clock both sequencers read: moved on by 1 ms per command submitted. */
  now = T0;
  /** Every row the SQLite side derived, in commit order. */
  readonly rows = emptyDerivedRows();
  readonly sqlite: Writer;
  readonly postgres: Writer;

  private constructor(
    readonly sqliteStore: SqliteStore,
    readonly postgresStore: PostgresStore,
  ) {
    const clock = (): number => this.now;
    this.sqlite = new Writer('SQLite', sqliteStore, clock, (rows) => {
      for (const key of Object.keys(rows) as (keyof DerivedRows)[]) (this.rows[key] as unknown[]).push(...rows[key]);
    });
    this.postgres = new Writer('PostgreSQL', postgresStore, clock);
  }

  /** Twins on a fresh in-memory SQLite store and the PostgreSQL database at `url`, emptied. */
  static async open(url: string): Promise<StoreTwins> {
    const postgresStore = await openEmptyPostgresStore(url);
    return new StoreTwins(openSqliteStore({ path: ':memory:', synchronous: 'NORMAL' }), postgresStore);
  }

  get core(): ExchangeCore {
    return this.sqlite.core;
  }

  free(accountId: number, asset: string): bigint {
    return this.core.ledger.account(accountId).balances.get(asset)?.free ?? 0n;
  }

  /** Submits the commands to both writers in one turn; how each ended, which must be the same on both. */
  async turn(commands: readonly Command[]): Promise<Ending[]> {
    this.now += commands.length;
    const [fromSqlite, fromPostgres] = await Promise.all([this.sqlite.run(commands), this.postgres.run(commands)]);
    for (const [i, command] of commands.entries()) {
      if (fromSqlite[i].text !== fromPostgres[i].text) {
        throw new Error(`${command.type} at ${this.now} ended differently:\n  command     ${jsonOf(command)}\n  SQLite      ${fromSqlite[i].text}\n  PostgreSQL  ${fromPostgres[i].text}`);
      }
    }
    return fromSqlite;
  }

  /** One command in a turn of its own, which must be accepted: its result. */
  readonly submit: Submit = async <T>(command: Command): Promise<T> => {
    const [ending] = await this.turn([command]);
    if (ending.result instanceof Refusal) throw new Error(`${command.type} refused: ${ending.text}`);
    return ending.result as T;
  };

  /** Saves each writer's state as a snapshot in its store; the states must be the same. */
  async snapshot(): Promise<void> {
    const [fromSqlite, fromPostgres] = [snapshotOf(this.sqlite.core), snapshotOf(this.postgres.core)];
    if (fromSqlite.hash !== fromPostgres.hash) throw new Error(`at seq ${fromSqlite.seq} the states differ: ${fromSqlite.hash} (SQLite), ${fromPostgres.hash} (PostgreSQL)`);
    this.sqliteStore.saveSnapshot(fromSqlite);
    await this.postgresStore.saveSnapshot(fromPostgres);
  }

  /** The live state's hash, the same on both writers. */
  stateHash(): string {
    const [fromSqlite, fromPostgres] = [stateHash(this.sqlite.core), stateHash(this.postgres.core)];
    if (fromSqlite !== fromPostgres) throw new Error(`the live states differ: ${fromSqlite} (SQLite), ${fromPostgres} (PostgreSQL)`);
    return fromSqlite;
  }

  /** Closes both writers, then both stores; the first fault, if any, is the one reported. */
  async close(): Promise<void> {
    const settled = await Promise.allSettled([this.sqlite.sequencer.close(), this.postgres.sequencer.close()]);
    this.sqliteStore.close();
    await this.postgresStore.close();
    const fatal = this.sqlite.fatal ?? this.postgres.fatal;
    const failed = settled.find((s) => s.status === 'rejected');
    if (fatal === undefined && failed !== undefined) throw failed.reason;
  }
}
