import { describe, it, expect } from 'vitest';
import { createCoreHarness, limit, market } from '../../support/core-harness.js';

function bookWithAsks(asks: [string, string][]) {
  const h = createCoreHarness();
  const seller = h.funded({ BTC: '10' });
  for (const [price, qty] of asks) h.place(limit(seller, 'BTCUSDT', 'SELL', price, qty));
  const buyer = h.funded({ USDT: '20000' });
  return { h, seller, buyer };
}

describe('MARKET BUY sized by quote amount', () => {
  it('when the amount walks several levels, then each level buys floor(rest / price) to stepSize and the order is FILLED when the rest cannot buy one step', () => {
    const { h, buyer } = bookWithAsks([
      ['30000', '0.1'],
      ['30010', '0.2'],
      ['30020', '0.5'],
    ]);
    const result = h.place(market(buyer, 'BTCUSDT', 'BUY', '10000'));
    // 0.1 × 30000 = 3000; 0.2 × 30010 = 6002; rest 998 / 30020 = 0.0332445… → 0.033244 (997.98488); 0.01512 left.
    expect(result.fills.map((f) => [f.price, f.qty])).toEqual([
      ['30000', '0.1'],
      ['30010', '0.2'],
      ['30020', '0.033244'],
    ]);
    expect(result.order).toMatchObject({
      type: 'MARKET',
      timeInForce: 'IOC',
      price: '0',
      origQty: '10000',
      executedQty: '0.333244',
      cummulativeQuoteQty: '9999.98488',
      status: 'FILLED',
    });
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '10000.01512', locked: '0' });
    expect(h.balance(buyer, 'BTC')).toEqual({ free: '0.333244', locked: '0' });
    expect(h.core.spot.symbol('BTCUSDT').book.get(3)?.remainingLots).toBe(466_756);
  });

  it('when the amount is spent exactly, then the order is FILLED', () => {
    const { h, buyer } = bookWithAsks([['30000', '0.1']]);
    const result = h.place(market(buyer, 'BTCUSDT', 'BUY', '3000'));
    expect(result.order).toMatchObject({ status: 'FILLED', executedQty: '0.1', cummulativeQuoteQty: '3000' });
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '17000', locked: '0' });
  });

  it('when the rest cannot buy one step at the next, dearer level, then the order is FILLED', () => {
    const { h, buyer } = bookWithAsks([
      ['30000', '0.1'],
      ['40000', '0.1'],
    ]);
    const result = h.place(market(buyer, 'BTCUSDT', 'BUY', '3000.03'));
    expect(result.order).toMatchObject({ status: 'FILLED', executedQty: '0.1', cummulativeQuoteQty: '3000' });
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '17000', locked: '0' });
    expect(h.bookOrderIds('BTCUSDT', 'SELL')).toEqual([2]);
  });

  it('when the book runs out with amount left, then the order is CANCELED and the rest unlocked', () => {
    const { h, buyer } = bookWithAsks([['30000', '0.1']]);
    const result = h.place(market(buyer, 'BTCUSDT', 'BUY', '5000'));
    expect(result.order).toMatchObject({ status: 'CANCELED', executedQty: '0.1', cummulativeQuoteQty: '3000', origQty: '5000' });
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '17000', locked: '0' });
  });

  it('when the amount cannot buy one step at the best ask, then nothing is bought and the order is CANCELED', () => {
    const { h, buyer } = bookWithAsks([['2000000', '0.001']]);
    const result = h.place(market(buyer, 'BTCUSDT', 'BUY', '1.99'));
    expect(result.fills).toEqual([]);
    expect(result.order).toMatchObject({ orderId: 2, status: 'CANCELED', executedQty: '0', cummulativeQuoteQty: '0' });
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '20000', locked: '0' });
    expect(h.lastRows.orders.length).toBe(1);
  });

  it('when the amount is more than the free quote balance, then -1131', () => {
    const { h, buyer } = bookWithAsks([['30000', '1']]);
    expect(h.refuse(market(buyer, 'BTCUSDT', 'BUY', '20000.01')).code).toBe(-1131);
    expect(h.place(market(buyer, 'BTCUSDT', 'BUY', '20000')).order.executedQty).toBe('0.666666');
  });

  it('when the amount has more decimals than tickSize, then -1148, before -1140', () => {
    const { h, buyer } = bookWithAsks([['30000', '1']]);
    expect(h.refuse(market(buyer, 'BTCUSDT', 'BUY', '100.001')).toBody()).toEqual({ code: -1148, msg: 'Market order amount decimal too long.' });
    expect(h.refuse(market(buyer, 'BTCUSDT', 'BUY', '0.001')).code).toBe(-1148);
  });

  it('when the amount is below minNotional, then -1140, even on an empty book', () => {
    const h = createCoreHarness();
    const buyer = h.funded({ USDT: '20000' });
    expect(h.refuse(market(buyer, 'BTCUSDT', 'BUY', '0.99')).toBody()).toEqual({ code: -1140, msg: 'Transaction amount lower than the minimum.' });
  });

  it('when no ask rests, then -1112, whatever the bids', () => {
    const h = createCoreHarness();
    const buyer = h.funded({ USDT: '20000' });
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.1'));
    expect(h.refuse(market(buyer, 'BTCUSDT', 'BUY', '100')).toBody()).toEqual({ code: -1112, msg: 'No orders on book for symbol.' });
  });

  it("when the walk reaches the buyer's own ask with amount that could still buy, then it stops CANCELED and the own ask is untouched", () => {
    const h = createCoreHarness();
    const other = h.funded({ BTC: '1' });
    const buyer = h.funded({ USDT: '20000', BTC: '1' });
    h.place(limit(other, 'BTCUSDT', 'SELL', '30000', '0.1'));
    h.place(limit(buyer, 'BTCUSDT', 'SELL', '30010', '0.1'));
    const result = h.place(market(buyer, 'BTCUSDT', 'BUY', '5000'));
    expect(result.order).toMatchObject({ status: 'CANCELED', executedQty: '0.1', cummulativeQuoteQty: '3000' });
    expect(h.bookOrderIds('BTCUSDT', 'SELL')).toEqual([2]);
    expect(h.balance(buyer, 'BTC')).toEqual({ free: '1', locked: '0.1' });
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '17000', locked: '0' });
  });

  it("when the rest cannot buy one step at the buyer's own ask, then it is FILLED (checked before self-trade prevention)", () => {
    const h = createCoreHarness();
    const other = h.funded({ BTC: '1' });
    const buyer = h.funded({ USDT: '20000', BTC: '1' });
    h.place(limit(other, 'BTCUSDT', 'SELL', '30000', '0.1'));
    h.place(limit(buyer, 'BTCUSDT', 'SELL', '30010', '0.1'));
    const result = h.place(market(buyer, 'BTCUSDT', 'BUY', '3000.03'));
    expect(result.order).toMatchObject({ status: 'FILLED', executedQty: '0.1' });
  });
});
