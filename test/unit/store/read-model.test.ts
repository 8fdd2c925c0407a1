import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emptyDerivedRows,
  type DepositRow,
  type DerivedRows,
  type FlowPosting,
  type FlowRow,
  type OrderRow,
  type OrderStatus,
  type Side,
  type TradeRow,
  type WithdrawalRow,
} from '../../../src/core/types.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

function order(orderId: number, accountId: number, status: OrderStatus, symbol: string, side: Side, time: number): OrderRow {
  return {
    orderId,
    accountId,
    symbol,
    clientOrderId: `c-${orderId}`,
    side,
    type: 'LIMIT',
    timeInForce: 'GTC',
    price: '100',
    origQty: '1',
    executedQty: '0',
    cummulativeQuoteQty: '0',
    status,
    time,
    updateTime: time,
  };
}

function trade(tradeId: number, accountId: number, orderId: number, symbol: string, time: number, isBuyer = true): TradeRow {
  return {
    tradeId,
    accountId,
    symbol,
    orderId,
    matchOrderId: 900 + tradeId,
    price: '100.5',
    qty: '0.25',
    quoteQty: '25.125',
    commission: '0.00025',
    commissionAsset: 'BTC',
    isBuyer,
    isMaker: !isBuyer,
    time,
  };
}

/** Change `<flowId>.5`, total `<flowId × 10>`, in tenths. */
function flow(flowId: number, accountId: number, asset: string, flowType: number, created: number): FlowPosting {
  return { flowId, accountId, asset, flowType, changeAtoms: BigInt(flowId * 10 + 5), totalAtoms: BigInt(flowId * 100), precision: 1, created, seq: 1 };
}

function depositRow(depositId: number, accountId: number, asset: string, time: number): DepositRow {
  return { depositId, accountId, asset, amount: `${depositId}00`, txId: `tx-${depositId}`, time };
}

function withdrawal(withdrawalId: number, accountId: number, asset: string, time: number): WithdrawalRow {
  return {
    withdrawalId,
    accountId,
    clientOrderId: `w-${withdrawalId}`,
    asset,
    chainType: 'TRC20',
    address: 'TXYZ',
    addressExt: '',
    amount: '10',
    fee: '1',
    status: 1,
    txId: '',
    time,
    updateTime: time,
  };
}

const ids = <T>(rows: T[], id: (row: T) => number): number[] => rows.map(id);
const orderIds = (rows: OrderRow[]): number[] => ids(rows, (r) => r.orderId);
const tradeIds = (rows: TradeRow[]): number[] => ids(rows, (r) => r.tradeId);
const flowIds = (rows: FlowRow[]): number[] => ids(rows, (r) => r.flowId);

describe('SqliteStore read models', () => {
  let store: SqliteStore;

  beforeAll(() => {
    store = openSqliteStore({ path: ':memory:', synchronous: 'NORMAL' });
    const rows: DerivedRows = {
      ...emptyDerivedRows(),
      orders: [
        order(1, 1, 'NEW', 'BTCUSDT', 'BUY', 1000),
        order(2, 1, 'FILLED', 'BTCUSDT', 'SELL', 2000),
        order(3, 1, 'CANCELED', 'ETHUSDT', 'BUY', 3000),
        order(4, 1, 'PARTIALLY_FILLED', 'ETHUSDT', 'SELL', 4000),
        order(5, 1, 'REJECTED', 'BTCUSDT', 'BUY', 5000),
        order(6, 1, 'NEW', 'BTCUSDT', 'SELL', 6000),
        order(7, 1, 'FILLED', 'BTCUSDT', 'BUY', 7000),
        order(8, 2, 'FILLED', 'BTCUSDT', 'BUY', 8000),
        order(9, 1, 'PENDING_CANCEL', 'BTCUSDT', 'BUY', 9000),
        order(10, 1, 'CANCELED', 'BTCUSDT', 'BUY', 10000),
      ],
      trades: [
        trade(1, 1, 2, 'BTCUSDT', 1000),
        trade(2, 1, 2, 'BTCUSDT', 2000),
        trade(3, 1, 4, 'ETHUSDT', 3000),
        trade(3, 2, 8, 'ETHUSDT', 3000, false),
        trade(4, 1, 7, 'BTCUSDT', 4000),
        trade(5, 1, 4, 'ETHUSDT', 5000),
        trade(6, 1, 7, 'BTCUSDT', 6000),
      ],
      flows: [
        flow(1, 1, 'BTC', 4, 1000),
        flow(2, 1, 'USDT', 1, 2000),
        flow(3, 1, 'BTC', 1, 3000),
        flow(4, 2, 'BTC', 1, 4000),
        flow(5, 1, 'BTC', 2, 5000),
        flow(6, 1, 'USDT', 1, 6000),
        flow(7, 1, 'BTC', 1, 7000),
      ],
      deposits: [
        depositRow(1, 1, 'USDT', 1000),
        depositRow(2, 1, 'BTC', 2000),
        depositRow(3, 2, 'USDT', 3000),
        depositRow(4, 1, 'USDT', 4000),
        depositRow(5, 1, 'USDT', 5000),
        depositRow(6, 1, 'BTC', 6000),
      ],
      withdrawals: [
        withdrawal(1, 1, 'USDT', 1000),
        withdrawal(2, 1, 'BTC', 2000),
        withdrawal(3, 2, 'USDT', 3000),
        withdrawal(4, 1, 'USDT', 4000),
        withdrawal(5, 1, 'USDT', 5000),
        withdrawal(6, 1, 'BTC', 6000),
      ],
    };
    store.appendBatch([{ seq: 1, ts: 1000, command: { type: 'setSymbolStatus', symbol: 'BTCUSDT', status: 'TRADING' } }], rows);
  });
  afterAll(() => {
    store.close();
  });

  describe('listOrders (A17, A18)', () => {
    it('when final orders are listed, then FILLED, CANCELED and REJECTED come oldest first', () => {
      expect(orderIds(store.listOrders({ accountId: 1, final: true, limit: 500 }))).toEqual([2, 3, 5, 7, 10]);
    });

    it('when open orders are listed, then NEW and PARTIALLY_FILLED come, PENDING_CANCEL in neither list', () => {
      expect(orderIds(store.listOrders({ accountId: 1, final: false, limit: 500 }))).toEqual([1, 4, 6]);
    });

    it('when the limit is below the matches, then the newest are returned, oldest first', () => {
      expect(orderIds(store.listOrders({ accountId: 1, final: true, limit: 2 }))).toEqual([7, 10]);
    });

    it('when beforeOrderId is given, then only ids below it are listed', () => {
      expect(orderIds(store.listOrders({ accountId: 1, final: true, beforeOrderId: 7, limit: 500 }))).toEqual([2, 3, 5]);
      expect(orderIds(store.listOrders({ accountId: 1, final: false, beforeOrderId: 6, limit: 1 }))).toEqual([4]);
    });

    it('when symbol or side is given, then only matching orders are listed', () => {
      expect(orderIds(store.listOrders({ accountId: 1, final: true, symbol: 'BTCUSDT', limit: 500 }))).toEqual([2, 5, 7, 10]);
      expect(orderIds(store.listOrders({ accountId: 1, final: true, side: 'BUY', limit: 500 }))).toEqual([3, 5, 7, 10]);
      expect(orderIds(store.listOrders({ accountId: 1, final: false, symbol: 'ETHUSDT', side: 'SELL', limit: 500 }))).toEqual([4]);
    });

    it('when startTime and endTime are given, then both bounds on time are inclusive', () => {
      expect(orderIds(store.listOrders({ accountId: 1, final: true, startTime: 3000, endTime: 7000, limit: 500 }))).toEqual([3, 5, 7]);
      expect(orderIds(store.listOrders({ accountId: 1, final: true, startTime: 7001, limit: 500 }))).toEqual([10]);
    });

    it('when another account is named, then only its orders are listed', () => {
      expect(orderIds(store.listOrders({ accountId: 2, final: true, limit: 500 }))).toEqual([8]);
      expect(orderIds(store.listOrders({ accountId: 2, final: false, limit: 500 }))).toEqual([]);
    });

    it('when the limit is out of range, then the query is refused', () => {
      expect(() => store.listOrders({ accountId: 1, final: true, limit: 0 })).toThrow(RangeError);
      expect(() => store.listOrders({ accountId: 1, final: true, limit: 10_001 })).toThrow(RangeError);
      expect(() => store.listOrders({ accountId: 1, final: true, limit: 1.5 })).toThrow(RangeError);
    });
  });

  describe('listTrades (A20)', () => {
    it('when neither fromId nor toId is given, then the most recent come in descending order', () => {
      expect(tradeIds(store.listTrades({ accountId: 1, limit: 500 }))).toEqual([6, 5, 4, 3, 2, 1]);
      expect(tradeIds(store.listTrades({ accountId: 1, limit: 2 }))).toEqual([6, 5]);
    });

    it('when only fromId is given, then ids below it come in descending order', () => {
      expect(tradeIds(store.listTrades({ accountId: 1, fromId: 4, limit: 500 }))).toEqual([3, 2, 1]);
      expect(tradeIds(store.listTrades({ accountId: 1, fromId: 4, limit: 2 }))).toEqual([3, 2]);
    });

    it('when only toId is given, then ids above it come in ascending order', () => {
      expect(tradeIds(store.listTrades({ accountId: 1, toId: 2, limit: 500 }))).toEqual([3, 4, 5, 6]);
      expect(tradeIds(store.listTrades({ accountId: 1, toId: 2, limit: 2 }))).toEqual([3, 4]);
    });

    it('when both are given, then ids between them come in descending order', () => {
      expect(tradeIds(store.listTrades({ accountId: 1, fromId: 6, toId: 2, limit: 500 }))).toEqual([5, 4, 3]);
      expect(tradeIds(store.listTrades({ accountId: 1, fromId: 6, toId: 2, limit: 2 }))).toEqual([5, 4]);
    });

    it('when orderId, symbol or a time range is given, then only matching trades come', () => {
      expect(tradeIds(store.listTrades({ accountId: 1, orderId: 4, limit: 500 }))).toEqual([5, 3]);
      expect(tradeIds(store.listTrades({ accountId: 1, symbol: 'BTCUSDT', limit: 500 }))).toEqual([6, 4, 2, 1]);
      expect(tradeIds(store.listTrades({ accountId: 1, startTime: 2000, endTime: 4000, limit: 500 }))).toEqual([4, 3, 2]);
    });

    it('when each side of a trade is read, then each account sees its own record under the shared id', () => {
      const [buyer] = store.listTrades({ accountId: 1, fromId: 4, toId: 2, limit: 500 });
      const [seller] = store.listTrades({ accountId: 2, limit: 500 });

      expect(buyer).toEqual(trade(3, 1, 4, 'ETHUSDT', 3000));
      expect(seller).toEqual(trade(3, 2, 8, 'ETHUSDT', 3000, false));
      expect([buyer.isBuyer, buyer.isMaker, seller.isBuyer, seller.isMaker]).toEqual([true, false, false, true]);
    });
  });

  describe('listFlows (A31)', () => {
    it('when no id bound is given, then the newest come, oldest first', () => {
      expect(flowIds(store.listFlows({ accountId: 1, limit: 100 }))).toEqual([1, 2, 3, 5, 6, 7]);
      expect(flowIds(store.listFlows({ accountId: 1, limit: 2 }))).toEqual([6, 7]);
    });

    it('when fromFlowId is given, then the newest ids below it come, oldest first', () => {
      expect(flowIds(store.listFlows({ accountId: 1, fromFlowId: 5, limit: 100 }))).toEqual([1, 2, 3]);
      expect(flowIds(store.listFlows({ accountId: 1, fromFlowId: 5, limit: 2 }))).toEqual([2, 3]);
    });

    it('when only endFlowId is given, then the first ids above it come, oldest first', () => {
      expect(flowIds(store.listFlows({ accountId: 1, endFlowId: 2, limit: 100 }))).toEqual([3, 5, 6, 7]);
      expect(flowIds(store.listFlows({ accountId: 1, endFlowId: 2, limit: 2 }))).toEqual([3, 5]);
    });

    it('when both are given, then the newest ids between them come, oldest first', () => {
      expect(flowIds(store.listFlows({ accountId: 1, fromFlowId: 7, endFlowId: 1, limit: 100 }))).toEqual([2, 3, 5, 6]);
      expect(flowIds(store.listFlows({ accountId: 1, fromFlowId: 7, endFlowId: 1, limit: 2 }))).toEqual([5, 6]);
    });

    it('when asset, flowType or a created range is given, then only matching flows come', () => {
      expect(flowIds(store.listFlows({ accountId: 1, asset: 'BTC', limit: 100 }))).toEqual([1, 3, 5, 7]);
      expect(flowIds(store.listFlows({ accountId: 1, flowType: 1, limit: 100 }))).toEqual([2, 3, 6, 7]);
      expect(flowIds(store.listFlows({ accountId: 1, asset: 'BTC', flowType: 1, limit: 100 }))).toEqual([3, 7]);
      expect(flowIds(store.listFlows({ accountId: 1, startTime: 3000, endTime: 6000, limit: 100 }))).toEqual([3, 5, 6]);
    });

    it('when a flow is read back, then change and total are its exact strings', () => {
      expect(store.listFlows({ accountId: 2, limit: 100 })).toEqual([{ flowId: 4, accountId: 2, asset: 'BTC', flowType: 1, change: '4.5', total: '40', created: 4000, seq: 1 }]);
    });
  });

  describe('listDeposits (A21) and listWithdrawals (A24)', () => {
    it('when fromId is given, then the first ids above it come, oldest first', () => {
      expect(store.listDeposits({ accountId: 1, fromId: 1, limit: 2 }).map((d) => d.depositId)).toEqual([2, 4]);
      expect(store.listWithdrawals({ accountId: 1, fromId: 1, limit: 2 }).map((w) => w.withdrawalId)).toEqual([2, 4]);
    });

    it('when fromId is absent, then the most recent come, oldest first', () => {
      expect(store.listDeposits({ accountId: 1, limit: 2 }).map((d) => d.depositId)).toEqual([5, 6]);
      expect(store.listWithdrawals({ accountId: 1, limit: 2 }).map((w) => w.withdrawalId)).toEqual([5, 6]);
      expect(store.listDeposits({ accountId: 1, limit: 500 }).map((d) => d.depositId)).toEqual([1, 2, 4, 5, 6]);
    });

    it('when asset or a time range is given, then only matching records come', () => {
      expect(store.listDeposits({ accountId: 1, asset: 'USDT', limit: 500 }).map((d) => d.depositId)).toEqual([1, 4, 5]);
      expect(store.listWithdrawals({ accountId: 1, asset: 'BTC', fromId: 2, limit: 500 }).map((w) => w.withdrawalId)).toEqual([6]);
      expect(store.listDeposits({ accountId: 1, startTime: 2000, endTime: 5000, limit: 500 }).map((d) => d.depositId)).toEqual([2, 4, 5]);
    });

    it('when a deposit is read back, then it is the row as written', () => {
      expect(store.listDeposits({ accountId: 2, limit: 500 })).toEqual([depositRow(3, 2, 'USDT', 3000)]);
    });
  });

  describe('getWithdrawal (A25)', () => {
    it('when named by id or by clientOrderId, then the account\'s record is found', () => {
      expect(store.getWithdrawal(1, { withdrawalId: 4 })).toEqual(withdrawal(4, 1, 'USDT', 4000));
      expect(store.getWithdrawal(1, { clientOrderId: 'w-4' })).toEqual(withdrawal(4, 1, 'USDT', 4000));
      expect(store.getWithdrawal(1, { withdrawalId: 4, clientOrderId: 'w-4' })).toEqual(withdrawal(4, 1, 'USDT', 4000));
    });

    it('when the keys disagree or name another account\'s record, then nothing is found', () => {
      expect(store.getWithdrawal(1, { withdrawalId: 4, clientOrderId: 'w-5' })).toBeUndefined();
      expect(store.getWithdrawal(1, { withdrawalId: 3 })).toBeUndefined();
      expect(store.getWithdrawal(1, { clientOrderId: 'w-3' })).toBeUndefined();
    });

    it('when neither key is given, then the lookup is refused', () => {
      expect(() => store.getWithdrawal(1, {})).toThrow(RangeError);
    });
  });
});
