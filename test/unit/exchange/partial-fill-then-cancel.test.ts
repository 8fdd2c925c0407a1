import { describe, it, expect } from 'vitest';
import { createCoreHarness, limit } from '../../support/core-harness.js';
import type { CancelOrderResult } from '../../../src/exchange/order-commands.js';
import type { OrderRow } from '../../../src/core/types.js';

describe('partial fill, then cancel', () => {
  function partlyFilledBuy() {
    const h = createCoreHarness();
    const buyer = h.funded({ USDT: '100000' });
    const seller = h.funded({ BTC: '1' });
    const placedAt = h.now;
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '1', { clientOrderId: 'bid-1' }));
    const filledAt = h.now;
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30000', '0.4'));
    return { h, buyer, seller, placedAt, filledAt };
  }

  it('when a resting buy is partly filled, then it stays PARTIALLY_FILLED with the rest locked', () => {
    const { h, buyer, filledAt } = partlyFilledBuy();
    expect(h.lastRows.orders[0]).toMatchObject({ orderId: 1, status: 'PARTIALLY_FILLED', executedQty: '0.4', cummulativeQuoteQty: '12000', updateTime: filledAt });
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '70000', locked: '18000' });
    expect(h.balance(buyer, 'BTC')).toEqual({ free: '0.4', locked: '0' });
  });

  it('when it is then canceled, then it is CANCELED with its fills kept and the rest unlocked', () => {
    const { h, buyer, placedAt } = partlyFilledBuy();
    const canceledAt = h.now;
    const result = h.ok<CancelOrderResult>({ type: 'cancelOrder', accountId: buyer, orderId: 1 });
    expect(result).toEqual({
      order: {
        orderId: 1,
        accountId: buyer,
        symbol: 'BTCUSDT',
        clientOrderId: 'bid-1',
        side: 'BUY',
        type: 'LIMIT',
        timeInForce: 'GTC',
        price: '30000',
        origQty: '1',
        executedQty: '0.4',
        cummulativeQuoteQty: '12000',
        status: 'CANCELED',
        stopPrice: '0',
        icebergQty: '0',
        isWorking: false,
        time: placedAt,
        updateTime: canceledAt,
      },
      transactTime: canceledAt,
    });
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '88000', locked: '0' });
    expect(h.bookOrderIds('BTCUSDT', 'BUY')).toEqual([]);
    expect(h.core.spot.liveOrders.size).toBe(0);
    expect(h.core.ledger.account(buyer).openOrderCount).toBe(0);
    expect(h.lastRows.orders).toEqual([result.order]);
    expect(h.lastRows.flows).toEqual([]);
  });

  it('when it is canceled by its client order id, then the same order is canceled', () => {
    const { h, buyer } = partlyFilledBuy();
    const result = h.ok<CancelOrderResult>({ type: 'cancelOrder', accountId: buyer, clientOrderId: 'bid-1' });
    expect([result.order.orderId, result.order.status]).toEqual([1, 'CANCELED']);
  });

  it('when it is canceled a second time, then the core answers -2013 and changes nothing', () => {
    const { h, buyer } = partlyFilledBuy();
    h.ok({ type: 'cancelOrder', accountId: buyer, orderId: 1 });
    const error = h.refuse({ type: 'cancelOrder', accountId: buyer, orderId: 1 });
    expect(error.toBody()).toEqual({ code: -2013, msg: 'Order does not exist.' });
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '88000', locked: '0' });
  });

  it('when another account names the order, or id and client id disagree, then -2013 and the order stays open', () => {
    const { h, buyer, seller } = partlyFilledBuy();
    expect(h.refuse({ type: 'cancelOrder', accountId: seller, orderId: 1 }).code).toBe(-2013);
    expect(h.refuse({ type: 'cancelOrder', accountId: buyer, orderId: 1, clientOrderId: '2' }).code).toBe(-2013);
    expect(h.refuse({ type: 'cancelOrder', accountId: buyer, clientOrderId: 'BID-1' }).code).toBe(-2013);
    expect(h.bookOrderIds('BTCUSDT', 'BUY')).toEqual([1]);
  });

  it('when all open orders of a symbol are canceled, then each is CANCELED oldest first and other symbols keep theirs', () => {
    const h = createCoreHarness();
    const trader = h.funded({ USDT: '100000', ETH: '10' });
    h.place(limit(trader, 'BTCUSDT', 'BUY', '30000', '0.1'));
    h.place(limit(trader, 'ETHUSDT', 'SELL', '2000', '1'));
    h.place(limit(trader, 'BTCUSDT', 'BUY', '29000', '0.1'));
    const rows = h.ok<OrderRow[]>({ type: 'cancelOrders', accountId: trader, symbol: 'BTCUSDT' });
    expect(rows.map((r) => [r.orderId, r.status])).toEqual([
      [1, 'CANCELED'],
      [3, 'CANCELED'],
    ]);
    expect(h.balance(trader, 'USDT')).toEqual({ free: '100000', locked: '0' });
    expect(h.bookOrderIds('ETHUSDT', 'SELL')).toEqual([2]);
    expect(h.ok<OrderRow[]>({ type: 'cancelOrders', accountId: trader, symbol: 'ETHUSDT', side: 'BUY' })).toEqual([]);
    expect(h.ok<OrderRow[]>({ type: 'cancelOrders', accountId: trader, side: 'SELL' }).map((r) => r.orderId)).toEqual([2]);
  });
});
