/**
 * How the journal and each derived row map to their tables, on both stores: the column list of
 * the insert (with the row's values in the same order) and the select list that reads it back
 * under the row type's own field names.
 */

import type { DepositRow, FlowPosting, OrderRow, StampedCommand, TradeRow, WithdrawalRow } from '../../core/types.js';
import { flowRowOf } from '../../ledger/flow-posting.js';
import { journalRecordOf } from '../journal-codec.js';
import type { SqlValue } from '../sql-shapes.js';

const ORDER_INSERT_COLUMNS = [
  'order_id',
  'account_id',
  'symbol',
  'client_order_id',
  'side',
  'type',
  'time_in_force',
  'price',
  'orig_qty',
  'executed_qty',
  'cummulative_quote_qty',
  'status',
  'time',
  'update_time',
  'stop_price',
  'iceberg_qty',
  'is_working',
] as const;

function orderValues(o: OrderRow): SqlValue[] {
  return [
    o.orderId,
    o.accountId,
    o.symbol,
    o.clientOrderId,
    o.side,
    o.type,
    o.timeInForce,
    o.price,
    o.origQty,
    o.executedQty,
    o.cummulativeQuoteQty,
    o.status,
    o.time,
    o.updateTime,
    o.stopPrice,
    o.icebergQty,
    o.isWorking ? 1 : 0,
  ];
}

export const ORDER_SELECT = `order_id AS orderId, account_id AS accountId, symbol, client_order_id AS clientOrderId,
  side, type, time_in_force AS timeInForce, price, orig_qty AS origQty, executed_qty AS executedQty,
  cummulative_quote_qty AS cummulativeQuoteQty, status, stop_price AS stopPrice, iceberg_qty AS icebergQty,
  is_working AS isWorking, time, update_time AS updateTime`;

/** An order as its table holds it: `isWorking` as 0 or 1. */
export type StoredOrder = Omit<OrderRow, 'isWorking'> & { isWorking: number };

export function orderFromStored(o: StoredOrder): OrderRow {
  return { ...o, isWorking: o.isWorking === 1 };
}

const TRADE_INSERT_COLUMNS = [
  'trade_id',
  'account_id',
  'symbol',
  'order_id',
  'match_order_id',
  'price',
  'qty',
  'quote_qty',
  'commission',
  'commission_asset',
  'is_buyer',
  'is_maker',
  'time',
] as const;

function tradeValues(t: TradeRow): SqlValue[] {
  return [
    t.tradeId,
    t.accountId,
    t.symbol,
    t.orderId,
    t.matchOrderId,
    t.price,
    t.qty,
    t.quoteQty,
    t.commission,
    t.commissionAsset,
    t.isBuyer ? 1 : 0,
    t.isMaker ? 1 : 0,
    t.time,
  ];
}

export const TRADE_SELECT = `trade_id AS tradeId, account_id AS accountId, symbol, order_id AS orderId,
  match_order_id AS matchOrderId, price, qty, quote_qty AS quoteQty, commission,
  commission_asset AS commissionAsset, is_buyer AS isBuyer, is_maker AS isMaker, time`;

/** A trade as SQLite returns it: booleans are stored as 0/1. */
export type StoredTrade = Omit<TradeRow, 'isBuyer' | 'isMaker'> & { isBuyer: number; isMaker: number };

export function tradeFromStored(t: StoredTrade): TradeRow {
  return { ...t, isBuyer: t.isBuyer === 1, isMaker: t.isMaker === 1 };
}

const FLOW_INSERT_COLUMNS = [
  'flow_id',
  'account_id',
  'asset',
  'flow_type',
  'change',
  'total',
  'created',
  'seq',
] as const;

/** The ledger derives flows in atoms; the text the API answers is made here, at the write. */
function flowValues(posting: FlowPosting): SqlValue[] {
  const f = flowRowOf(posting);
  return [f.flowId, f.accountId, f.asset, f.flowType, f.change, f.total, f.created, f.seq];
}

export const FLOW_SELECT = `flow_id AS flowId, account_id AS accountId, asset, flow_type AS flowType, change, total,
  created, seq`;

const DEPOSIT_INSERT_COLUMNS = ['deposit_id', 'account_id', 'asset', 'amount', 'tx_id', 'time'] as const;

function depositValues(d: DepositRow): SqlValue[] {
  return [d.depositId, d.accountId, d.asset, d.amount, d.txId, d.time];
}

export const DEPOSIT_SELECT = 'deposit_id AS depositId, account_id AS accountId, asset, amount, tx_id AS txId, time';

const WITHDRAWAL_INSERT_COLUMNS = [
  'withdrawal_id',
  'account_id',
  'client_order_id',
  'asset',
  'chain_type',
  'address',
  'address_ext',
  'amount',
  'fee',
  'status',
  'tx_id',
  'time',
  'update_time',
] as const;

function withdrawalValues(w: WithdrawalRow): SqlValue[] {
  return [
    w.withdrawalId,
    w.accountId,
    w.clientOrderId,
    w.asset,
    w.chainType,
    w.address,
    w.addressExt,
    w.amount,
    w.fee,
    w.status,
    w.txId,
    w.time,
    w.updateTime,
  ];
}

export const WITHDRAWAL_SELECT = `withdrawal_id AS withdrawalId, account_id AS accountId, client_order_id AS clientOrderId,
  asset, chain_type AS chainType, address, address_ext AS addressExt, amount, fee, status, tx_id AS txId, time,
  update_time AS updateTime`;

/**
 * How rows of one kind are inserted: into `table`, each row the values of `columns` in order;
 * with `upsert`, a row whose key (the first column) is stored replaces the stored row.
 */
export interface RowInsert<T> {
  table: string;
  columns: readonly string[];
  values: (row: T) => SqlValue[];
  upsert: boolean;
}

function journalValues(stamped: StampedCommand): SqlValue[] {
  const record = journalRecordOf(stamped);
  return [record.seq, record.ts, record.type, record.payload];
}

/** The journal's and the derived rows' inserts: an order's or a withdrawal's later state replaces the earlier. */
export const ROW_INSERTS: {
  journal: RowInsert<StampedCommand>;
  orders: RowInsert<OrderRow>;
  trades: RowInsert<TradeRow>;
  flows: RowInsert<FlowPosting>;
  deposits: RowInsert<DepositRow>;
  withdrawals: RowInsert<WithdrawalRow>;
} = {
  journal: { table: 'journal', columns: ['seq', 'ts', 'type', 'payload'], values: journalValues, upsert: false },
  orders: { table: 'orders', columns: ORDER_INSERT_COLUMNS, values: orderValues, upsert: true },
  trades: { table: 'trades', columns: TRADE_INSERT_COLUMNS, values: tradeValues, upsert: false },
  flows: { table: 'flows', columns: FLOW_INSERT_COLUMNS, values: flowValues, upsert: false },
  deposits: { table: 'deposits', columns: DEPOSIT_INSERT_COLUMNS, values: depositValues, upsert: false },
  withdrawals: { table: 'withdrawals', columns: WITHDRAWAL_INSERT_COLUMNS, values: withdrawalValues, upsert: true },
};
