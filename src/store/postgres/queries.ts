/**
 * Read-model queries of area A (A13, A17, A18, A20, A21, A24, A25, A31) and the ledger sums of
 * the operator's `verify`: each the SQL of store/sqlite/queries.ts, whose answers, order and
 * paging they repeat exactly (every ORDER BY is on unique integer keys).
 */

import type pg from 'pg';
import { ATTO_SCALE, formatAtto } from '../../core/decimal.js';
import type { DepositRow, FlowRow, OrderRow, TradeRow, WithdrawalRow } from '../../core/types.js';
import type { FlowQuery, FlowSum, FundingQuery, OrderQuery, TradeQuery, WithdrawalKey } from '../store.js';
import {
  DEPOSIT_SELECT,
  FLOW_SELECT,
  ORDER_SELECT,
  TRADE_SELECT,
  WITHDRAWAL_SELECT,
  tradeFromStored,
  type SqlValue,
  type StoredTrade,
} from '../sqlite/rows.js';
import { PgWhere, checkLimit, quotedAliases } from './sql.js';

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
}

export class PgReadModel extends PgQueries {
  getOrder(accountId: number, orderId: number): Promise<OrderRow | undefined> {
    return this.first(`SELECT ${ORDERS} FROM bourse.orders WHERE order_id = $1 AND account_id = $2`, [orderId, accountId]);
  }

  async listOrders(query: OrderQuery): Promise<OrderRow[]> {
    const where = new PgWhere()
      .when('account_id = ?', query.accountId)
      .when('list_class = ?', query.final ? 1 : 0)
      .when('symbol = ?', query.symbol)
      .when('side = ?', query.side)
      .when('order_id < ?', query.beforeOrderId)
      .when('time >= ?', query.startTime)
      .when('time <= ?', query.endTime);
    const limit = where.bind(checkLimit(query.limit));
    const rows = await this.all<OrderRow>(`SELECT ${ORDERS} FROM bourse.orders WHERE ${where.sql} ORDER BY order_id DESC LIMIT ${limit}`, where.values);
    return rows.reverse();
  }

  /** The buyer's row of each trade with an id above `afterTradeId`, by id: one row per trade, all symbols. */
  async tradesAfter(afterTradeId: number, limit: number): Promise<TradeRow[]> {
    const sql = `SELECT ${TRADES} FROM bourse.trades WHERE trade_id > $1 AND is_buyer = 1 ORDER BY trade_id LIMIT $2`;
    return (await this.all<StoredTrade>(sql, [afterTradeId, checkLimit(limit)])).map(tradeFromStored);
  }

  async listTrades(query: TradeQuery): Promise<TradeRow[]> {
    const where = new PgWhere()
      .when('account_id = ?', query.accountId)
      .when('symbol = ?', query.symbol)
      .when('order_id = ?', query.orderId)
      .when('time >= ?', query.startTime)
      .when('time <= ?', query.endTime)
      .when('trade_id < ?', query.fromId)
      .when('trade_id > ?', query.toId);
    // The seed's one ascending case: toId alone pages forward from it.
    const direction = query.toId !== undefined && query.fromId === undefined ? 'ASC' : 'DESC';
    const limit = where.bind(checkLimit(query.limit));
    const sql = `SELECT ${TRADES} FROM bourse.trades WHERE ${where.sql} ORDER BY trade_id ${direction} LIMIT ${limit}`;
    return (await this.all<StoredTrade>(sql, where.values)).map(tradeFromStored);
  }

  async listFlows(query: FlowQuery): Promise<FlowRow[]> {
    const where = new PgWhere()
      .when('account_id = ?', query.accountId)
      .when('asset = ?', query.asset)
      .when('flow_type = ?', query.flowType)
      .when('flow_id < ?', query.fromFlowId)
      .when('flow_id > ?', query.endFlowId)
      .when('created >= ?', query.startTime)
      .when('created <= ?', query.endTime);
    const forward = query.endFlowId !== undefined && query.fromFlowId === undefined;
    const limit = where.bind(checkLimit(query.limit));
    const sql = `SELECT ${FLOWS} FROM bourse.flows WHERE ${where.sql} ORDER BY flow_id ${forward ? 'ASC' : 'DESC'} LIMIT ${limit}`;
    const rows = await this.all<FlowRow>(sql, where.values);
    return forward ? rows : rows.reverse();
  }

  listDeposits(query: FundingQuery): Promise<DepositRow[]> {
    return this.listFunding<DepositRow>('deposits', 'deposit_id', DEPOSITS, query);
  }

  listWithdrawals(query: FundingQuery): Promise<WithdrawalRow[]> {
    return this.listFunding<WithdrawalRow>('withdrawals', 'withdrawal_id', WITHDRAWALS, query);
  }

  /** A21 and A24 select alike: fromId pages forward from it, otherwise the newest. */
  private async listFunding<T>(table: string, idColumn: string, select: string, query: FundingQuery): Promise<T[]> {
    const where = new PgWhere()
      .when('account_id = ?', query.accountId)
      .when('asset = ?', query.asset)
      .when(`${idColumn} > ?`, query.fromId)
      .when('time >= ?', query.startTime)
      .when('time <= ?', query.endTime);
    const forward = query.fromId !== undefined;
    const limit = where.bind(checkLimit(query.limit));
    const sql = `SELECT ${select} FROM bourse.${table} WHERE ${where.sql} ORDER BY ${idColumn} ${forward ? 'ASC' : 'DESC'} LIMIT ${limit}`;
    const rows = await this.all<T>(sql, where.values);
    return forward ? rows : rows.reverse();
  }

  async getWithdrawal(accountId: number, key: WithdrawalKey): Promise<WithdrawalRow | undefined> {
    if (key.withdrawalId === undefined && key.clientOrderId === undefined) {
      throw new RangeError('getWithdrawal needs a withdrawalId or a clientOrderId');
    }
    const where = new PgWhere()
      .when('account_id = ?', accountId)
      .when('withdrawal_id = ?', key.withdrawalId)
      .when('client_order_id = ?', key.clientOrderId);
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
