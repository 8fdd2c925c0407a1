/**
 * Read-model queries of area A (A13, A17, A18, A20, A21, A24, A25, A31) and the ledger sums of
 * the operator's `verify`: each the SQL of store/sqlite/queries.ts, whose answers, order and
 * paging they repeat exactly (every ORDER BY is on unique integer keys).
 */

import type pg from 'pg';
import { ATTO_SCALE, formatAtto } from '../../core/decimal.js';
import type { DepositRow, FlowRow, OrderRow, TradeRow, WithdrawalRow } from '../../core/types.js';
import { checkLimit, flowPage, fundingPage, orderPage, tradePage, withdrawalKeyConditions, type CountedPage, type HistoryPage, type SqlValue } from '../sql-shapes.js';
import type { FlowQuery, FlowSum, FundingQuery, OrderQuery, TradeQuery, WithdrawalKey } from '../store.js';
import { DEPOSIT_SELECT, FLOW_SELECT, ORDER_SELECT, TRADE_SELECT, WITHDRAWAL_SELECT, orderFromStored, tradeFromStored, type StoredOrder, type StoredTrade } from '../sqlite/rows.js';
import { PgWhere, quotedAliases } from './sql.js';

const ORDERS = quotedAliases(ORDER_SELECT);
const TRADES = quotedAliases(TRADE_SELECT);
const FLOWS = quotedAliases(FLOW_SELECT);
const DEPOSITS = quotedAliases(DEPOSIT_SELECT);
const WITHDRAWALS = quotedAliases(WITHDRAWAL_SELECT);

/** A change as the writer formats it (flowRowOf): what the sum below may scale to atto exactly. */
const CHANGE_PATTERN = `^-?[0-9]+(\\.[0-9]{1,${ATTO_SCALE}})?$`;

/** Queries over the readers' pool. */
export class PgQueries {
  constructor(protected readonly pool: pg.Pool) {}

  protected async all<T>(text: string, values: SqlValue[] | unknown[]): Promise<T[]> {
    return (await this.pool.query<T & pg.QueryResultRow>(text, values)).rows;
  }

  protected async first<T>(text: string, values: SqlValue[] | unknown[]): Promise<T | undefined> {
    return (await this.all<T>(`${text} LIMIT 1`, values))[0];
  }

  /** The `select` (aliases quoted) of a history page (sql-shapes.ts), oldest first where the page says so. */
  protected async historyPage<T>(select: string, page: HistoryPage): Promise<T[]> {
    const where = new PgWhere(page.conditions);
    const limit = where.bind(page.limit);
    const rows = await this.all<T>(`SELECT ${select} FROM bourse.${page.table} WHERE ${where.sql} ORDER BY ${page.orderBy} LIMIT ${limit}`, where.values);
    return page.reverse ? rows.reverse() : rows;
  }

  /** The count of a counted page's rows (sql-shapes.ts) and the `select` (aliases quoted) of its page. */
  protected async countedPage<T>(select: string, page: CountedPage): Promise<{ total: number; rows: T[] }> {
    const where = new PgWhere(page.conditions);
    const total = (await this.first<{ total: number }>(`SELECT count(*) AS total FROM bourse.${page.table} WHERE ${where.sql}`, where.values))?.total ?? 0;
    const range = `LIMIT ${where.bind(page.limit)} OFFSET ${where.bind(page.offset)}`;
    const rows = await this.all<T>(`SELECT ${select} FROM bourse.${page.table} WHERE ${where.sql} ORDER BY ${page.orderBy} ${range}`, where.values);
    return { total, rows };
  }
}

export class PgReadModel extends PgQueries {
  async getOrder(accountId: number, orderId: number): Promise<OrderRow | undefined> {
    const stored = await this.first<StoredOrder>(`SELECT ${ORDERS} FROM bourse.orders WHERE order_id = $1 AND account_id = $2`, [orderId, accountId]);
    return stored === undefined ? undefined : orderFromStored(stored);
  }

  async listOrders(query: OrderQuery): Promise<OrderRow[]> {
    return (await this.historyPage<StoredOrder>(ORDERS, orderPage(query))).map(orderFromStored);
  }

  /** The buyer's row of each trade with an id above `afterTradeId`, by id: one row per trade, all symbols. */
  async tradesAfter(afterTradeId: number, limit: number): Promise<TradeRow[]> {
    const sql = `SELECT ${TRADES} FROM bourse.trades WHERE trade_id > $1 AND is_buyer = 1 ORDER BY trade_id LIMIT $2`;
    return (await this.all<StoredTrade>(sql, [afterTradeId, checkLimit(limit)])).map(tradeFromStored);
  }

  async listTrades(query: TradeQuery): Promise<TradeRow[]> {
    return (await this.historyPage<StoredTrade>(TRADES, tradePage(query))).map(tradeFromStored);
  }

  async listFlows(query: FlowQuery): Promise<FlowRow[]> {
    return this.historyPage(FLOWS, flowPage(query));
  }

  async listDeposits(query: FundingQuery): Promise<DepositRow[]> {
    return this.historyPage(DEPOSITS, fundingPage('deposits', query));
  }

  async listWithdrawals(query: FundingQuery): Promise<WithdrawalRow[]> {
    return this.historyPage(WITHDRAWALS, fundingPage('withdrawals', query));
  }

  async getWithdrawal(accountId: number, key: WithdrawalKey): Promise<WithdrawalRow | undefined> {
    const where = new PgWhere(withdrawalKeyConditions(accountId, key));
    return this.first(`SELECT ${WITHDRAWALS} FROM bourse.withdrawals WHERE ${where.sql} ORDER BY withdrawal_id DESC`, where.values);
  }

  /**
   * Per account and asset, the exact sum of the flow rows' changes, in the order SQLite's gives
   * (accounts by number, assets by JavaScript's string order). PostgreSQL adds them as NUMERIC,
   * which is exact, scaled to atto, so only one row per account and asset crosses the wire.
   */
  async flowSums(via: pg.Pool | pg.PoolClient = this.pool): Promise<FlowSum[]> {
    const { rows } = await via.query<{ accountId: number; asset: string; atto: string; wellFormed: boolean }>(
      `SELECT account_id AS "accountId", asset, trunc(sum(change::numeric) * 1${'0'.repeat(ATTO_SCALE)})::text AS atto,
         bool_and(change ~ $1) AS "wellFormed"
       FROM bourse.flows GROUP BY account_id, asset`,
      [CHANGE_PATTERN],
    );
    for (const row of rows) {
      if (!row.wellFormed) throw new Error(`a flow of account ${row.accountId} in ${row.asset} has a malformed change`);
    }
    rows.sort((a, b) => a.accountId - b.accountId || (a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0));
    return rows.map((row) => ({ accountId: row.accountId, asset: row.asset, sum: formatAtto(BigInt(row.atto)) }));
  }
}
