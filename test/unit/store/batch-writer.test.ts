import { describe, expect, it } from 'vitest';
import { emptyDerivedRows, type DepositCommand, type OrderRow, type StampedCommand } from '../../../src/core/types.js';
import { lastStates } from '../../../src/store/sqlite/batch-writer.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';

const row = (orderId: number, status: OrderRow['status'], updateTime: number): OrderRow => ({
  orderId,
  accountId: 1,
  symbol: 'BTCUSDT',
  clientOrderId: String(orderId),
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  price: '30000',
  origQty: '0.1',
  executedQty: status === 'FILLED' ? '0.1' : '0',
  cummulativeQuoteQty: status === 'FILLED' ? '3000' : '0',
  status,
  stopPrice: '0',
  icebergQty: '0',
  isWorking: status === 'NEW' || status === 'PARTIALLY_FILLED',
  time: 1,
  updateTime,
});

describe('lastStates: the order rows a batch writes', () => {
  it('when a batch holds several states of an order, then only the last is written, in the order the last states came', () => {
    const a1 = row(1, 'NEW', 1);
    const b1 = row(2, 'NEW', 2);
    const a2 = row(1, 'PARTIALLY_FILLED', 3);
    const c1 = row(3, 'NEW', 4);
    const b2 = row(2, 'FILLED', 5);
    const a3 = row(1, 'FILLED', 6);
    expect(lastStates([a1, b1, a2, c1, b2, a3])).toEqual([c1, b2, a3]);
  });

  it('when every order appears once, then the rows are written as they are', () => {
    const rows = [row(1, 'NEW', 1), row(2, 'FILLED', 2)];
    expect(lastStates(rows)).toBe(rows);
    expect(lastStates([])).toEqual([]);
  });
});

describe('a batch of any size', () => {
  // 32-row statements, then 16, 8, 4, 2, 1 for the tail: every size below takes a different mix.
  it.each([1, 31, 32, 63, 77, 256])('when a batch holds %i commands and order rows, then each is stored once, in order', (size) => {
    const store = openSqliteStore({ path: ':memory:', synchronous: 'NORMAL' });
    try {
      const commands: StampedCommand[] = Array.from({ length: size }, (_, i) => {
        const command: DepositCommand = { type: 'deposit', accountId: 1, asset: 'USDT', amount: `${i + 1}`, txId: `tx-${i}` };
        return { seq: i + 1, ts: 100 + i, command };
      });
      const rows = emptyDerivedRows();
      for (let i = 0; i < size; i++) rows.orders.push({ ...row(i + 1, 'NEW', 100 + i), price: `${30000 + i}` });
      store.appendBatch(commands, rows);

      expect([...store.readJournal(0)]).toEqual(commands);
      const stored = store.listOrders({ accountId: 1, final: false, limit: 1000 });
      expect(stored.map((o) => [o.orderId, o.price]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual(
        rows.orders.map((o) => [o.orderId, o.price]),
      );
    } finally {
      store.close();
    }
  });
});
