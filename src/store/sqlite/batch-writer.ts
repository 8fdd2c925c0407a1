/**
 * Writes one batch (journal entries, and the derived rows of this and earlier batches with the
 * projection mark) in one transaction through statements prepared once: the group commit that
 * makes an acknowledgement durable. Rows go in multi-row INSERTs of CHUNK_ROWS rows each, which
 * costs SQLite about half the work per row of one INSERT per row; the tail of a batch goes in
 * statements of halving sizes (16, 8, … 1 rows), so a tail of 31 rows is 5 statements, not 31.
 */

import type Database from 'better-sqlite3';
import { emptyDerivedRows, type DerivedRows, type OrderRow, type StampedCommand } from '../../core/types.js';
import type { ModuleRow } from '../../payments/rows.js';
import type { SqlValue } from '../sql-shapes.js';
import { tableWriteOf } from './module-rows.js';
import { ROW_INSERTS, type RowInsert } from './rows.js';

/** 32 rows of the widest table bind 448 parameters, far below SQLite's limit of 32766. */
const CHUNK_ROWS = 32;

function insertSql(table: string, columns: readonly string[], rowCount: number): string {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array(rowCount).fill(tuple).join(', ')}`;
}

/**
 * Insert keyed by the first column, where a later state of the same key replaces the earlier one
 * (also within one multi-row statement: SQLite inserts its rows in order).
 */
function upsertSql(table: string, columns: readonly string[], rowCount: number): string {
  const updates = columns.slice(1).map((column) => `${column} = excluded.${column}`);
  return `${insertSql(table, columns, rowCount)} ON CONFLICT (${columns[0]}) DO UPDATE SET ${updates.join(', ')}`;
}

type RowsWrite<T> = (rows: readonly T[]) => void;

/** One multi-row statement (prepared when first needed) and the parameter list it is bound with, refilled for every run. */
interface SizedInsert {
  rowCount: number;
  statement: Database.Statement<SqlValue[]> | undefined;
  params: SqlValue[];
}

function prepareRowsWrite<T>(db: Database.Database, { table, columns, values, upsert }: RowInsert<T>): RowsWrite<T> {
  // CHUNK_ROWS, then halves down to 1: a tail of n rows is at most log2(CHUNK_ROWS) + 1 statements.
  const sizes: SizedInsert[] = [];
  for (let rowCount = CHUNK_ROWS; rowCount >= 1; rowCount >>= 1) sizes.push({ rowCount, statement: undefined, params: [] });
  return (rows) => {
    let next = 0;
    for (const size of sizes) {
      const { rowCount, params } = size;
      for (; next + rowCount <= rows.length; next += rowCount) {
        size.statement ??= db.prepare<SqlValue[]>((upsert ? upsertSql : insertSql)(table, columns, rowCount));
        let at = 0;
        for (let i = next; i < next + rowCount; i++) {
          const row = values(rows[i]);
          if (row.length !== columns.length) throw new Error(`${table}: a row of ${row.length} values for ${columns.length} columns`);
          for (const value of row) params[at++] = value;
        }
        // Spread: better-sqlite3 binds arguments faster than the items of one array argument (measured).
        size.statement.run(...params);
      }
    }
  };
}

/**
 * One row per order of a batch, its last state, in the order the last states were derived: an
 * order that rests and fills within one batch is written once, not once per state.
 */
export function lastStates(rows: readonly OrderRow[]): readonly OrderRow[] {
  return lastByKey(rows, (row) => row.orderId);
}

/** The last row of each key, in the order the last rows came: what writing them one by one would leave. */
export function lastByKey<T>(rows: readonly T[], key: (row: T) => SqlValue): readonly T[] {
  if (rows.length < 2) return rows;
  const latest = new Map<SqlValue, T>();
  for (const row of rows) {
    const k = key(row);
    latest.delete(k);
    latest.set(k, row);
  }
  return latest.size === rows.length ? rows : [...latest.values()];
}

/** The stored rows of several batches as one, in commit order: writing it leaves what writing each in turn would. */
export function mergeRows(batches: readonly DerivedRows[]): DerivedRows {
  const merged = emptyDerivedRows();
  for (const rows of batches) {
    append(merged.orders, rows.orders);
    append(merged.trades, rows.trades);
    append(merged.flows, rows.flows);
    append(merged.deposits, rows.deposits);
    append(merged.withdrawals, rows.withdrawals);
    append(merged.moduleRows, rows.moduleRows);
  }
  return merged;
}

/** `into.push(...from)` without spreading a long list into arguments. */
function append<T>(into: T[], from: readonly T[]): void {
  for (const item of from) into.push(item);
}

/**
 * Journal entries, then (when `projectedSeq` is given) derived rows and the projection mark: the
 * tables then hold every row derived by the commands up to `projectedSeq`.
 */
export type BatchWrite = (commands: readonly StampedCommand[], rows: DerivedRows, projectedSeq: number | undefined) => void;

export function prepareBatchWrite(db: Database.Database): BatchWrite {
  const journal = prepareRowsWrite(db, ROW_INSERTS.journal);
  const orders = prepareRowsWrite(db, ROW_INSERTS.orders);
  const trades = prepareRowsWrite(db, ROW_INSERTS.trades);
  const flows = prepareRowsWrite(db, ROW_INSERTS.flows);
  const deposits = prepareRowsWrite(db, ROW_INSERTS.deposits);
  const withdrawals = prepareRowsWrite(db, ROW_INSERTS.withdrawals);

  const moduleRows = prepareModuleRowsWrite(db);
  const projection = db.prepare<[number]>('UPDATE projection SET seq = ? WHERE id = 1');

  return db.transaction((commands: readonly StampedCommand[], rows: DerivedRows, projectedSeq: number | undefined): void => {
    journal(commands);
    if (projectedSeq === undefined) return;
    projection.run(projectedSeq);
    orders(lastStates(rows.orders));
    trades(rows.trades);
    flows(rows.flows);
    deposits(rows.deposits);
    withdrawals(rows.withdrawals);
    moduleRows(rows.moduleRows);
  });
}

/**
 * Upserts of area B's tables (module-rows.ts maps each row to its table), one statement per table
 * and column list, prepared when first met; an update may carry only the columns it changes (the
 * table gives the rest defaults).
 */
function prepareModuleRowsWrite(db: Database.Database): (rows: readonly ModuleRow[]) => void {
  const statements = new Map<string, Database.Statement<SqlValue[]>>();
  return (rows) => {
    for (const moduleRow of rows) {
      const row = tableWriteOf(moduleRow);
      if ('purge' in row) {
        const signature = `purge ${row.table}(${row.purge.column})`;
        let purge = statements.get(signature);
        if (purge === undefined) {
          purge = db.prepare<SqlValue[]>(`DELETE FROM ${row.table} WHERE ${row.purge.column} > 0 AND ${row.purge.column} <= ?`);
          statements.set(signature, purge);
        }
        purge.run(row.purge.upTo);
        continue;
      }
      const columns = Object.keys(row.values);
      const signature = `${row.table}(${columns.join(',')})`;
      let statement = statements.get(signature);
      if (statement === undefined) {
        statement = db.prepare<SqlValue[]>(upsertSql(row.table, columns, 1));
        statements.set(signature, statement);
      }
      statement.run(...Object.values(row.values));
    }
  };
}
