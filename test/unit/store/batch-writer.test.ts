import { describe, expect, it } from 'vitest';
import type { OrderRow } from '../../../src/core/types.js';
import { lastStates } from '../../../src/store/sqlite/batch-writer.js';

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
