/**
 * The statements of one batch: its journal rows and every derived row, each kind in one
 * statement whatever the batch's size (`INSERT … SELECT * FROM unnest($1::bigint[], …)`, the
 * columns sent as arrays), upserted where SQLite upserts. The rows are turned into arrays when the
 * batch is handed over, so a caller may reuse its lists at once.
 */

import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { DerivedRows, StampedCommand } from '../../core/types.js';
import type { ModuleRow } from '../../payments/rows.js';
import type { SqlValue } from '../sql-shapes.js';
import { lastByKey, lastStates } from '../sqlite/batch-writer.js';
import { tableWriteOf } from '../sqlite/module-rows.js';
import { ROW_INSERTS, type RowInsert } from '../sqlite/rows.js';

/** Statement names by text: each text is parsed once per connection, then only bound. */
const names = new Map<string, string>();

function named(text: string, values: unknown[]): pg.QueryConfig {
  let name = names.get(text);
  if (name === undefined) {
    name = `bourse_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return { name, text, values };
}

/**
 * Rows (each the values of `columns`, in order) as one INSERT of arrays. A column's type follows
 * its values (integers BIGINT, strings TEXT), which every row must agree on. `upsert`: a row
 * whose key (the first column) is taken replaces the stored one, as SQLite's INSERT … ON CONFLICT
 * DO UPDATE does; the rows must then have distinct keys (PostgreSQL updates a row once per statement).
 */
function insertRows(table: string, columns: readonly string[], rows: readonly SqlValue[][], upsert: boolean): pg.QueryConfig {
  const arrays = columns.map((): SqlValue[] => []);
  const types = rows[0].map((value) => (typeof value === 'number' ? 'bigint' : 'text'));
  for (const row of rows) {
    if (row.length !== columns.length) throw new Error(`${table}: a row of ${row.length} values for ${columns.length} columns`);
    for (let i = 0; i < row.length; i++) {
      const value = row[i];
      if (typeof value === 'number' ? types[i] !== 'bigint' || !Number.isSafeInteger(value) : types[i] !== 'text') {
        throw new Error(`${table}.${columns[i]}: ${String(value)} is not a value of the column's type ${types[i]}`);
      }
      arrays[i].push(value);
    }
  }
  const unnest = types.map((type, i) => `$${i + 1}::${type}[]`).join(', ');
  let text = `INSERT INTO bourse.${table} (${columns.join(', ')}) SELECT * FROM unnest(${unnest})`;
  if (upsert) {
    const updates = columns.slice(1).map((column) => `${column} = excluded.${column}`);
    text += ` ON CONFLICT (${columns[0]}) ${updates.length === 0 ? 'DO NOTHING' : `DO UPDATE SET ${updates.join(', ')}`}`;
  }
  return named(text, arrays);
}

/** The journal rows and derived rows of a batch, as statements to run in order within one transaction. */
export function batchStatements(commands: readonly StampedCommand[], rows: DerivedRows): pg.QueryConfig[] {
  const statements: pg.QueryConfig[] = [];
  const add = <T>({ table, columns, values, upsert }: RowInsert<T>, list: readonly T[]): void => {
    if (list.length > 0) statements.push(insertRows(table, columns, list.map(values), upsert));
  };
  add(ROW_INSERTS.journal, commands);
  add(ROW_INSERTS.orders, lastStates(rows.orders));
  add(ROW_INSERTS.trades, rows.trades);
  add(ROW_INSERTS.flows, rows.flows);
  add(ROW_INSERTS.deposits, rows.deposits);
  // PostgreSQL updates a row once per statement: only each withdrawal's last state goes in.
  add(ROW_INSERTS.withdrawals, lastByKey(rows.withdrawals, (w) => w.withdrawalId));
  statements.push(...moduleRowStatements(rows.moduleRows));
  return statements;
}

/**
 * Area B's rows (module-rows.ts maps each to its table), in the order derived: a run of rows for
 * the same table and columns is one upsert (of each key's last row: with the same columns, the
 * last replaces the earlier ones whole), a purge a DELETE of its own where it came.
 */
function moduleRowStatements(rows: readonly ModuleRow[]): pg.QueryConfig[] {
  const statements: pg.QueryConfig[] = [];
  let run: { signature: string; table: string; columns: string[]; rows: SqlValue[][] } | undefined;
  const flush = (): void => {
    if (run === undefined) return;
    statements.push(insertRows(run.table, run.columns, lastByKey(run.rows, (values) => values[0]), true));
    run = undefined;
  };
  for (const moduleRow of rows) {
    const write = tableWriteOf(moduleRow);
    if ('purge' in write) {
      flush();
      // The trigger webhook_events_purged deletes the purged events' attempts, as SQLite's does.
      statements.push(named(`DELETE FROM bourse.${write.table} WHERE ${write.purge.column} > 0 AND ${write.purge.column} <= $1`, [write.purge.upTo]));
      continue;
    }
    const columns = Object.keys(write.values);
    const signature = `${write.table}(${columns.join(',')})`;
    if (run?.signature !== signature) {
      flush();
      run = { signature, table: write.table, columns, rows: [] };
    }
    run.rows.push(Object.values(write.values));
  }
  flush();
  return statements;
}
