import { describe, it, expect } from 'vitest';
import { createCoreHarness, limit } from '../../support/core-harness.js';

describe('LIMIT GTC', () => {
  it('when a buy finds no seller, then it rests NEW and locks price × quantity of quote', () => {
    const h = createCoreHarness();
    const buyer = h.funded({ USDT: '100000' });
    const ts = h.now;
    const result = h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.5'));
    expect(result).toEqual({
      order: {
        orderId: 1,
        accountId: buyer,
        symbol: 'BTCUSDT',
        clientOrderId: '1',
        side: 'BUY',
        type: 'LIMIT',
        timeInForce: 'GTC',
        price: '30000',
        origQty: '0.5',
        executedQty: '0',
        cummulativeQuoteQty: '0',
        status: 'NEW',
        stopPrice: '0',
        icebergQty: '0',
        isWorking: true,
        time: ts,
        updateTime: ts,
      },
      fills: [],
    });
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '85000', locked: '15000' });
    expect(h.bookOrderIds('BTCUSDT', 'BUY')).toEqual([1]);
    expect(h.lastRows.flows).toEqual([]);
    expect(h.lastRows.orders).toEqual([result.order]);
  });

  it('when a sell finds no buyer, then it rests and locks its quantity of base', () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '2' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30000', '0.75'));
    expect(h.balance(seller, 'BTC')).toEqual({ free: '1.25', locked: '0.75' });
    expect(h.bookOrderIds('BTCUSDT', 'SELL')).toEqual([1]);
  });

  it('when a buy takes less than the resting quantity, then it is FILLED and the maker rests PARTIALLY_FILLED', () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '1' });
    const buyer = h.funded({ USDT: '100000' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30000', '1'));
    const result = h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.4'));
    expect(result.order).toMatchObject({ orderId: 2, status: 'FILLED', executedQty: '0.4', cummulativeQuoteQty: '12000' });
    expect(result.fills).toEqual([{ price: '30000', qty: '0.4', commission: '0', commissionAsset: 'BTC', tradeId: 1 }]);
    expect(h.lastRows.orders.map((o) => [o.orderId, o.status, o.executedQty])).toEqual([
      [1, 'PARTIALLY_FILLED', '0.4'],
      [2, 'FILLED', '0.4'],
    ]);
    expect(h.core.spot.symbol('BTCUSDT').book.get(1)?.remainingLots).toBe(600_000);
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '88000', locked: '0' });
    expect(h.balance(buyer, 'BTC')).toEqual({ free: '0.4', locked: '0' });
    expect(h.balance(seller, 'BTC')).toEqual({ free: '0', locked: '0.6' });
    expect(h.balance(seller, 'USDT')).toEqual({ free: '12000', locked: '0' });
  });

  it('when a buy wants more than rests, then it fills what there is and rests the rest PARTIALLY_FILLED', () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '0.5' });
    const buyer = h.funded({ USDT: '100000' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30000', '0.5'));
    const result = h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.7'));
    expect(result.order).toMatchObject({ status: 'PARTIALLY_FILLED', origQty: '0.7', executedQty: '0.5', cummulativeQuoteQty: '15000' });
    expect(h.bookOrderIds('BTCUSDT', 'SELL')).toEqual([]);
    expect(h.bookOrderIds('BTCUSDT', 'BUY')).toEqual([2]);
    expect(h.core.spot.liveOrders.get(2)?.lockedAtoms).toBe(600_000_000_000n);
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '79000', locked: '6000' });
    expect(h.lastRows.orders.map((o) => [o.orderId, o.status])).toEqual([
      [1, 'FILLED'],
      [2, 'PARTIALLY_FILLED'],
    ]);
    expect(h.core.spot.liveOrders.has(1)).toBe(false);
  });

  it('when a buy meets exactly its quantity over two makers, then both makers and the taker are FILLED and nothing stays locked', () => {
    const h = createCoreHarness();
    const s1 = h.funded({ BTC: '1' });
    const s2 = h.funded({ BTC: '1' });
    const buyer = h.funded({ USDT: '100000' });
    h.place(limit(s1, 'BTCUSDT', 'SELL', '30000', '0.25'));
    h.place(limit(s2, 'BTCUSDT', 'SELL', '30000', '0.75'));
    const result = h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '1'));
    expect(result.order).toMatchObject({ status: 'FILLED', executedQty: '1', cummulativeQuoteQty: '30000' });
    expect(result.fills.map((f) => [f.tradeId, f.price, f.qty])).toEqual([
      [1, '30000', '0.25'],
      [2, '30000', '0.75'],
    ]);
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '70000', locked: '0' });
    expect(h.balance(s1, 'BTC')).toEqual({ free: '0.75', locked: '0' });
    expect(h.balance(s2, 'USDT')).toEqual({ free: '22500', locked: '0' });
    expect(h.core.spot.symbol('BTCUSDT').book.size).toBe(0);
    expect(h.core.spot.liveOrders.size).toBe(0);
  });

  it('when a buy fills below its limit and rests, then the price difference is freed at once and only the rest stays locked', () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '1' });
    const buyer = h.funded({ USDT: '100000' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '29000', '0.3'));
    const result = h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.5'));
    expect(result.fills).toEqual([{ price: '29000', qty: '0.3', commission: '0', commissionAsset: 'BTC', tradeId: 1 }]);
    expect(result.order).toMatchObject({ price: '30000', executedQty: '0.3', cummulativeQuoteQty: '8700', status: 'PARTIALLY_FILLED' });
    // 100000 − 8700 paid − 0.2 × 30000 still locked; the 0.3 × 1000 improvement is free.
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '85300', locked: '6000' });
    expect(h.core.spot.liveOrders.get(2)?.lockedAtoms).toBe(600_000_000_000n);
  });

  it('when a sell crosses a higher bid, then it trades at the bid (the resting price)', () => {
    const h = createCoreHarness();
    const buyer = h.funded({ USDT: '100000' });
    const seller = h.funded({ BTC: '1' });
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.1'));
    const result = h.place(limit(seller, 'BTCUSDT', 'SELL', '29000', '0.1'));
    expect(result.fills).toEqual([{ price: '30000', qty: '0.1', commission: '0', commissionAsset: 'USDT', tradeId: 1 }]);
    expect(h.balance(seller, 'USDT')).toEqual({ free: '3000', locked: '0' });
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '97000', locked: '0' });
  });

  it('when makers rest at two prices, then a buy sweeping both fills the cheaper first and rests nothing', () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '1' });
    const buyer = h.funded({ USDT: '100000' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30010', '0.2'));
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30000', '0.1'));
    const ts = h.now;
    const result = h.place(limit(buyer, 'BTCUSDT', 'BUY', '30010', '0.3'));
    expect(result.fills.map((f) => [f.price, f.qty])).toEqual([
      ['30000', '0.1'],
      ['30010', '0.2'],
    ]);
    expect(result.order).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '9002' });
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '90998', locked: '0' });
    expect([result.order.time, result.order.updateTime]).toEqual([ts, ts]);
  });
});
