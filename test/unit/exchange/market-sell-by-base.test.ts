import { describe, it, expect } from 'vitest';
import { createCoreHarness, limit, market } from '../../support/core-harness.js';

function bookWithBids(bids: [string, string][]) {
  const h = createCoreHarness();
  const buyer = h.funded({ USDT: '1000000' });
  for (const [price, qty] of bids) h.place(limit(buyer, 'BTCUSDT', 'BUY', price, qty));
  const seller = h.funded({ BTC: '2' });
  return { h, buyer, seller };
}

describe('MARKET SELL sized by base quantity', () => {
  it('when the quantity walks two bid levels, then it fills best bid first and is FILLED', () => {
    const { h, seller } = bookWithBids([
      ['30000', '0.2'],
      ['29990', '0.3'],
    ]);
    const result = h.place(market(seller, 'BTCUSDT', 'SELL', '0.4'));
    expect(result.fills.map((f) => [f.price, f.qty, f.commissionAsset])).toEqual([
      ['30000', '0.2', 'USDT'],
      ['29990', '0.2', 'USDT'],
    ]);
    expect(result.order).toMatchObject({ type: 'MARKET', timeInForce: 'IOC', price: '0', origQty: '0.4', executedQty: '0.4', cummulativeQuoteQty: '11998', status: 'FILLED' });
    expect(h.balance(seller, 'BTC')).toEqual({ free: '1.6', locked: '0' });
    expect(h.balance(seller, 'USDT')).toEqual({ free: '11998', locked: '0' });
  });

  it('when the quantity exceeds the bids, then it fills them all, is CANCELED and the unsold base is unlocked', () => {
    const { h, seller } = bookWithBids([['30000', '0.5']]);
    const result = h.place(market(seller, 'BTCUSDT', 'SELL', '1'));
    expect(result.order).toMatchObject({ status: 'CANCELED', executedQty: '0.5', cummulativeQuoteQty: '15000' });
    expect(h.balance(seller, 'BTC')).toEqual({ free: '1.5', locked: '0' });
  });

  it('when quantity × best bid reaches minNotional, then it is accepted even though it fills mostly at lower bids', () => {
    const { h, seller } = bookWithBids([
      ['100000', '0.00002'],
      ['10000', '1'],
    ]);
    // Leaves 0.000001 at 100000: the best bid, worth only 0.1.
    h.place(limit(seller, 'BTCUSDT', 'SELL', '100000', '0.000019'));
    const result = h.place(market(seller, 'BTCUSDT', 'SELL', '0.00001'));
    expect(result.fills.map((f) => [f.price, f.qty])).toEqual([
      ['100000', '0.000001'],
      ['10000', '0.000009'],
    ]);
    expect(result.order).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '0.19' });
  });

  it('when quantity × best bid is below minNotional, then -1140', () => {
    const { h, seller } = bookWithBids([['40000', '1']]);
    expect(h.refuse(market(seller, 'BTCUSDT', 'SELL', '0.000024')).toBody()).toEqual({ code: -1140, msg: 'Transaction amount lower than the minimum.' });
    expect(h.place(market(seller, 'BTCUSDT', 'SELL', '0.000025')).order.cummulativeQuoteQty).toBe('1');
  });

  it('when no bid rests, then -1112', () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '2' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30000', '0.1'));
    expect(h.refuse(market(seller, 'BTCUSDT', 'SELL', '0.1')).code).toBe(-1112);
  });

  it('when the quantity breaks LOT_SIZE on an empty book, then the filter error comes before -1112', () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '2' });
    expect(h.refuse(market(seller, 'BTCUSDT', 'SELL', '0.0000015')).code).toBe(-1137);
    expect(h.refuse(market(seller, 'BTCUSDT', 'SELL', '0')).code).toBe(-1136);
  });

  it('when the base balance is short, then -1131', () => {
    const { h, seller } = bookWithBids([['30000', '5']]);
    expect(h.refuse(market(seller, 'BTCUSDT', 'SELL', '2.000001')).code).toBe(-1131);
  });
});
