/**
 * Read-model queries of area A (A13, A17, A18, A20, A21, A24, A25, A31) and the ledger sums of
 * the operator's `verify`. Each optional filter changes the SQL text, so statements are prepared
 * on first use of a filter combination and kept (a few dozen combinations at most).
 */

import type Database from 'better-sqlite3';
import { formatAtto, parseSignedDecimal, unitsToAtto } from '../../core/decimal.js';
import type { DepositRow, FlowPosting, FlowRow, OrderRow, TradeRow, WithdrawalRow } from '../../core/types.js';
import type { FlowQuery, FlowSum, FundingQuery, OrderQuery, TradeQuery, WithdrawalKey } from '../store.js';
import { checkLimit, flowPage, fundingPage, orderPage, tradePage, withdrawalKeyConditions, type Condition, type CountedPage, type HistoryPage, type SqlValue } from '../sql-shapes.js';
import { DEPOSIT_SELECT, FLOW_SELECT, ORDER_SELECT, TRADE_SELECT, WITHDRAWAL_SELECT, orderFromStored, tradeFromStored, type StoredOrder, type StoredTrade } from './rows.js';

/** Conjunction of conditions, bound with `?` as written; an undefined value leaves its condition out. */
export class Where {
  private readonly parts: string[] = [];
  readonly values: SqlValue[] = [];

  constructor(conditions: readonly Condition[]) {
    for (const [condition, value] of conditions) {
      if (value !== undefined) {
        this.parts.push(condition);
        this.values.push(value);
      }
    }
  }

  /** The conjunction, 1 (true) when there is no condition. */
  get sql(): string {
    return this.parts.length === 0 ? '1' : this.parts.join(' AND ');
  }
}

/** Statements prepared on first use of their text and kept. */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement<SqlValue[]>>();

  constructor(protected readonly db: Database.Database) {}

  protected all<T>(sql: string, values: SqlValue[]): T[] {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare<SqlValue[]>(sql);
      this.statements.set(sql, statement);
    }
    return statement.all(...values) as T[];
  }

  protected first<T>(sql: string, values: SqlValue[]): T | undefined {
    return this.all<T>(`${sql} LIMIT 1`, values)[0];
  }

  /** The `select` of a history page (sql-shapes.ts), oldest first where the page says so. */
  protected historyPage<T>(select: string, page: HistoryPage): T[] {
    const where = new Where(page.conditions);
    const sql = `SELECT ${select} FROM ${page.table} WHERE ${where.sql} ORDER BY ${page.orderBy} LIMIT ?`;
    const rows = this.all<T>(sql, [...where.values, page.limit]);
    return page.reverse ? rows.reverse() : rows;
  }

  /** The count of a counted page's rows (sql-shapes.ts) and the `select` of its page. */
  protected countedPage<T>(select: string, page: CountedPage): { total: number; rows: T[] } {
    const where = new Where(page.conditions);
    const total = this.first<{ total: number }>(`SELECT count(*) AS total FROM ${page.table} WHERE ${where.sql}`, where.values)?.total ?? 0;
    const rows = this.all<T>(
      `SELECT ${select} FROM ${page.table} WHERE ${where.sql} ORDER BY ${page.orderBy} LIMIT ? OFFSET ?`,
      [...where.values, page.limit, page.offset],
    );
    return { total, rows };
  }
}

export class ReadModel extends StatementCache {
  private readonly flowChanges: Database.Statement<[], [number, string, string]>;

  constructor(db: Database.Database) {
    super(db);
    this.flowChanges = db.prepare<[], [number, string, string]>('SELECT account_id, asset, change FROM flows').raw();
  }

  getOrder(accountId: number, orderId: number): OrderRow | undefined {
    const stored = this.first<StoredOrder>(`SELECT ${ORDER_SELECT} FROM orders WHERE order_id = ? AND account_id = ?`, [orderId, accountId]);
    return stored === undefined ? undefined : orderFromStored(stored);
  }

  listOrders(query: OrderQuery): OrderRow[] {
    return this.historyPage<StoredOrder>(ORDER_SELECT, orderPage(query)).map(orderFromStored);
  }

  /** The buyer's row of each trade with an id above `afterTradeId`, by id: one row per trade, all symbols. */
  tradesAfter(afterTradeId: number, limit: number): TradeRow[] {
    const sql = `SELECT ${TRADE_SELECT} FROM trades WHERE trade_id > ? AND is_buyer = 1 ORDER BY trade_id LIMIT ?`;
    return this.all<StoredTrade>(sql, [afterTradeId, checkLimit(limit)]).map(tradeFromStored);
  }

  listTrades(query: TradeQuery): TradeRow[] {
    return this.historyPage<StoredTrade>(TRADE_SELECT, tradePage(query)).map(tradeFromStored);
  }

  listFlows(query: FlowQuery): FlowRow[] {
    return this.historyPage(FLOW_SELECT, flowPage(query));
  }

  listDeposits(query: FundingQuery): DepositRow[] {
    return this.historyPage(DEPOSIT_SELECT, fundingPage('deposits', query));
  }

  listWithdrawals(query: FundingQuery): WithdrawalRow[] {
    return this.historyPage(WITHDRAWAL_SELECT, fundingPage('withdrawals', query));
  }

  getWithdrawal(accountId: number, key: WithdrawalKey): WithdrawalRow | undefined {
    const where = new Where(withdrawalKeyConditions(accountId, key));
    return this.first(`SELECT ${WITHDRAWAL_SELECT} FROM withdrawals WHERE ${where.sql} ORDER BY withdrawal_id DESC`, where.values);
  }

  /** Per account and asset, the sum of the flow rows' changes, with `unwritten` flows (not in the table yet) added. */
  flowSums(unwritten: readonly FlowPosting[] = []): FlowSum[] {
    const sums = new Map<number, Map<string, bigint>>();
    const add = (accountId: number, asset: string, atto: bigint): void => {
      let byAsset = sums.get(accountId);
      if (byAsset === undefined) {
        byAsset = new Map();
        sums.set(accountId, byAsset);
      }
      byAsset.set(asset, (byAsset.get(asset) ?? 0n) + atto);
    };
    for (const [accountId, asset, change] of this.flowChanges.iterate()) {
      const atto = parseSignedDecimal(change);
      if (atto === null) throw new Error(`flow of account ${accountId} in ${asset} has a malformed change: ${change}`);
      add(accountId, asset, atto);
    }
    for (const flow of unwritten) add(flow.accountId, flow.asset, unitsToAtto(flow.changeAtoms, flow.precision));
    const result: FlowSum[] = [];
    for (const accountId of [...sums.keys()].sort((a, b) => a - b)) {
      const byAsset = sums.get(accountId) ?? new Map<string, bigint>();
      for (const asset of [...byAsset.keys()].sort()) {
        result.push({ accountId, asset, sum: formatAtto(byAsset.get(asset) ?? 0n) });
      }
    }
    return result;
  }
}
