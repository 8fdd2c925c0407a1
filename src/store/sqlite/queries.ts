/**
 * Read-model queries of area A (A13, A17, A18, A20, A21, A24, A25, A31) and the ledger sums of
 * the operator's `verify`. Each optional filter changes the SQL text, so statements are prepared
 * on first use of a filter combination and kept (a few dozen combinations at most).
 */

import type Database from 'better-sqlite3';
import { formatAtto, parseSignedDecimal, unitsToAtto } from '../../core/decimal.js';
import type { DepositRow, FlowPosting, FlowRow, OrderRow, TradeRow, WithdrawalRow } from '../../core/types.js';
import {
  MAX_QUERY_LIMIT,
  type FlowQuery,
  type FlowSum,
  type FundingQuery,
  type OrderQuery,
  type TradeQuery,
  type WithdrawalKey,
} from '../store.js';
import {
  DEPOSIT_SELECT,
  FLOW_SELECT,
  ORDER_SELECT,
  TRADE_SELECT,
  WITHDRAWAL_SELECT,
  tradeFromStored,
  type SqlValue,
  type StoredTrade,
} from './rows.js';

/** Conjunction of conditions; an undefined value leaves its condition out. */
export class Where {
  private readonly parts: string[] = [];
  readonly values: SqlValue[] = [];

  when(condition: string, value: SqlValue | undefined): this {
    if (value !== undefined) {
      this.parts.push(condition);
      this.values.push(value);
    }
    return this;
  }

  get sql(): string {
    return this.parts.join(' AND ');
  }
}

function checkLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_QUERY_LIMIT) {
    throw new RangeError(`limit must be an integer in 1..${MAX_QUERY_LIMIT}: ${limit}`);
  }
  return limit;
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
}

export class ReadModel extends StatementCache {
  private readonly flowChanges: Database.Statement<[], [number, string, string]>;

  constructor(db: Database.Database) {
    super(db);
    this.flowChanges = db.prepare<[], [number, string, string]>('SELECT account_id, asset, change FROM flows').raw();
  }

  getOrder(accountId: number, orderId: number): OrderRow | undefined {
    return this.first(`SELECT ${ORDER_SELECT} FROM orders WHERE order_id = ? AND account_id = ?`, [orderId, accountId]);
  }

  listOrders(query: OrderQuery): OrderRow[] {
    const where = new Where()
      .when('account_id = ?', query.accountId)
      .when('list_class = ?', query.final ? 1 : 0)
      .when('symbol = ?', query.symbol)
      .when('side = ?', query.side)
      .when('order_id < ?', query.beforeOrderId)
      .when('time >= ?', query.startTime)
      .when('time <= ?', query.endTime);
    const sql = `SELECT ${ORDER_SELECT} FROM orders WHERE ${where.sql} ORDER BY order_id DESC LIMIT ?`;
    return this.all<OrderRow>(sql, [...where.values, checkLimit(query.limit)]).reverse();
  }

  /** The buyer's row of each trade with an id above `afterTradeId`, by id: one row per trade, all symbols. */
  tradesAfter(afterTradeId: number, limit: number): TradeRow[] {
    const sql = `SELECT ${TRADE_SELECT} FROM trades WHERE trade_id > ? AND is_buyer = 1 ORDER BY trade_id LIMIT ?`;
    return this.all<StoredTrade>(sql, [afterTradeId, checkLimit(limit)]).map(tradeFromStored);
  }

  listTrades(query: TradeQuery): TradeRow[] {
    const where = new Where()
      .when('account_id = ?', query.accountId)
      .when('symbol = ?', query.symbol)
      .when('order_id = ?', query.orderId)
      .when('time >= ?', query.startTime)
      .when('time <= ?', query.endTime)
      .when('trade_id < ?', query.fromId)
      .when('trade_id > ?', query.toId);
    // The seed's one ascending case: toId alone pages forward from it.
    const direction = query.toId !== undefined && query.fromId === undefined ? 'ASC' : 'DESC';
    const sql = `SELECT ${TRADE_SELECT} FROM trades WHERE ${where.sql} ORDER BY trade_id ${direction} LIMIT ?`;
    return this.all<StoredTrade>(sql, [...where.values, checkLimit(query.limit)]).map(tradeFromStored);
  }

  listFlows(query: FlowQuery): FlowRow[] {
    const where = new Where()
      .when('account_id = ?', query.accountId)
      .when('asset = ?', query.asset)
      .when('flow_type = ?', query.flowType)
      .when('flow_id < ?', query.fromFlowId)
      .when('flow_id > ?', query.endFlowId)
      .when('created >= ?', query.startTime)
      .when('created <= ?', query.endTime);
    const forward = query.endFlowId !== undefined && query.fromFlowId === undefined;
    const sql = `SELECT ${FLOW_SELECT} FROM flows WHERE ${where.sql} ORDER BY flow_id ${forward ? 'ASC' : 'DESC'} LIMIT ?`;
    const rows = this.all<FlowRow>(sql, [...where.values, checkLimit(query.limit)]);
    return forward ? rows : rows.reverse();
  }

  listDeposits(query: FundingQuery): DepositRow[] {
    return this.listFunding<DepositRow>('deposits', 'deposit_id', DEPOSIT_SELECT, query);
  }

  listWithdrawals(query: FundingQuery): WithdrawalRow[] {
    return this.listFunding<WithdrawalRow>('withdrawals', 'withdrawal_id', WITHDRAWAL_SELECT, query);
  }

  /** A21 and A24 select alike: fromId pages forward from it, otherwise the newest. */
  private listFunding<T>(table: string, idColumn: string, select: string, query: FundingQuery): T[] {
    const where = new Where()
      .when('account_id = ?', query.accountId)
      .when('asset = ?', query.asset)
      .when(`${idColumn} > ?`, query.fromId)
      .when('time >= ?', query.startTime)
      .when('time <= ?', query.endTime);
    const forward = query.fromId !== undefined;
    const sql = `SELECT ${select} FROM ${table} WHERE ${where.sql} ORDER BY ${idColumn} ${forward ? 'ASC' : 'DESC'} LIMIT ?`;
    const rows = this.all<T>(sql, [...where.values, checkLimit(query.limit)]);
    return forward ? rows : rows.reverse();
  }

  getWithdrawal(accountId: number, key: WithdrawalKey): WithdrawalRow | undefined {
    if (key.withdrawalId === undefined && key.clientOrderId === undefined) {
      throw new RangeError('getWithdrawal needs a withdrawalId or a clientOrderId');
    }
    const where = new Where()
      .when('account_id = ?', accountId)
      .when('withdrawal_id = ?', key.withdrawalId)
      .when('client_order_id = ?', key.clientOrderId);
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
