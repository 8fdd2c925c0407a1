import { describe, it, expect } from 'vitest';
import { createCoreHarness, limit } from '../../support/core-harness.js';
import { stateHash } from '../../../src/exchange/snapshot.js';

function withAsks(asks: [string, string][]) {
  const h = createCoreHarness();
  const seller = h.funded({ BTC: '10' });
  for (const [price, qty] of asks) h.place(limit(seller, 'BTCUSDT', 'SELL', price, qty));
  const buyer = h.funded({ USDT: '100000', BTC: '1' });
  return { h, seller, buyer };
}

describe('IOC', () => {
  it('when only part can fill, then that part trades and the rest is CANCELED at once', () => {
    const { h, buyer } = withAsks([['30000', '0.3']]);
    const result = h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.5', { timeInForce: 'IOC' }));
    expect(result.order).toMatchObject({ timeInForce: 'IOC', status: 'CANCELED', executedQty: '0.3', cummulativeQuoteQty: '9000' });
    expect(h.bookOrderIds('BTCUSDT', 'BUY')).toEqual([]);
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '91000', locked: '0' });
  });

  it('when everything fills, then it is FILLED', () => {
    const { h, buyer } = withAsks([['30000', '0.3']]);
    expect(h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.3', { timeInForce: 'IOC' })).order.status).toBe('FILLED');
  });

  it('when nothing can fill, then it is still recorded, CANCELED, with its order id used', () => {
    const { h, buyer } = withAsks([['30000', '0.3']]);
    const result = h.place(limit(buyer, 'BTCUSDT', 'BUY', '29999.99', '0.1', { timeInForce: 'IOC' }));
    expect(result.order).toMatchObject({ orderId: 2, clientOrderId: '2', status: 'CANCELED', executedQty: '0' });
    expect(result.fills).toEqual([]);
    expect(h.lastRows.orders.length).toBe(1);
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '100000', locked: '0' });
    expect(h.core.spot.nextOrderId).toBe(3);
  });
});

describe('FOK', () => {
  it('when the liquidity within the limit covers the quantity over several levels, then it is FILLED', () => {
    const { h, buyer } = withAsks([
      ['30000', '0.2'],
      ['30001', '0.3'],
    ]);
    const result = h.place(limit(buyer, 'BTCUSDT', 'BUY', '30001', '0.5', { timeInForce: 'FOK' }));
    expect(result.order).toMatchObject({ timeInForce: 'FOK', status: 'FILLED', executedQty: '0.5', cummulativeQuoteQty: '15000.3' });
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '84999.7', locked: '0' });
  });

  it('when the liquidity falls short, then nothing trades, it is CANCELED and the book is as before', () => {
    const { h, buyer } = withAsks([
      ['30000', '0.2'],
      ['30002', '0.3'],
    ]);
    const book = h.core.spot.symbol('BTCUSDT').book;
    const versionBefore = book.version;
    const result = h.place(limit(buyer, 'BTCUSDT', 'BUY', '30001', '0.5', { timeInForce: 'FOK' }));
    expect(result.order).toMatchObject({ status: 'CANCELED', executedQty: '0' });
    expect(result.fills).toEqual([]);
    expect(h.lastRows.trades).toEqual([]);
    expect(h.lastRows.flows).toEqual([]);
    expect(book.version).toBe(versionBefore);
    expect(h.bookOrderIds('BTCUSDT', 'SELL')).toEqual([1, 2]);
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '100000', locked: '0' });
  });

  it("when the buyer's own ask rests in the queue, then only the liquidity before it counts", () => {
    const { h, seller, buyer } = withAsks([['30000', '0.2']]);
    h.place(limit(buyer, 'BTCUSDT', 'SELL', '30000', '0.2'));
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30000', '0.3'));
    const before = stateHash(h.core);
    const refused = h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.4', { timeInForce: 'FOK' }));
    expect(refused.order).toMatchObject({ status: 'CANCELED', executedQty: '0' });
    expect(h.bookOrderIds('BTCUSDT', 'SELL')).toEqual([1, 2, 3]);
    expect(h.core.spot.symbol('BTCUSDT').book.get(1)?.remainingLots).toBe(200_000);
    expect(stateHash(h.core)).not.toBe(before);
    const filled = h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.2', { timeInForce: 'FOK' }));
    expect(filled.order).toMatchObject({ status: 'FILLED', executedQty: '0.2' });
    expect(h.bookOrderIds('BTCUSDT', 'SELL')).toEqual([2, 3]);
  });

  it('when a FOK sell meets enough bids, then it is FILLED at the bid prices', () => {
    const h = createCoreHarness();
    const buyer = h.funded({ USDT: '100000' });
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.1'));
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '29000', '0.1'));
    const seller = h.funded({ BTC: '1' });
    const result = h.place(limit(seller, 'BTCUSDT', 'SELL', '29000', '0.2', { timeInForce: 'FOK' }));
    expect(result.fills.map((f) => f.price)).toEqual(['30000', '29000']);
    expect(result.order).toMatchObject({ status: 'FILLED', cummulativeQuoteQty: '5900' });
  });
});
