import { describe, it, expect } from 'vitest';
import { emptyDerivedRows } from '../../../src/core/types.js';
import type { PostingContext } from '../../../src/ledger/ledger.js';
import { createCoreHarness, limit } from '../../support/core-harness.js';

function context(ts: number): PostingContext {
  return { seq: 0, ts, rows: emptyDerivedRows(), recordRows: true, recordFlows: true, touched: new Map() };
}

describe('accounts touched by an order command (for account update events)', () => {
  it('when an order rests without trading, then its account is touched although no flow row is written', () => {
    const h = createCoreHarness();
    const buyer = h.funded({ USDT: '1000' });
    const ctx = context(h.now);
    h.core.spot.apply(limit(buyer, 'BTCUSDT', 'BUY', '100', '1'), ctx);
    expect(ctx.rows.flows).toEqual([]);
    expect([...ctx.touched.keys()]).toEqual([buyer]);
  });

  it('when an order is canceled, then its account is touched', () => {
    const h = createCoreHarness();
    const buyer = h.funded({ USDT: '1000' });
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '100', '1'));
    const ctx = context(h.now);
    h.core.spot.apply({ type: 'cancelOrder', accountId: buyer, orderId: 1 }, ctx);
    expect([...ctx.touched.keys()]).toEqual([buyer]);
  });

  it('when an order trades, then the taker, the maker and the FEE account are touched', () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '1' }, { maker: '0.001', taker: '0.001' });
    const buyer = h.funded({ USDT: '1000' }, { maker: '0.001', taker: '0.001' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '100', '1'));
    const ctx = context(h.now);
    h.core.spot.apply(limit(buyer, 'BTCUSDT', 'BUY', '100', '1'), ctx);
    expect([...ctx.touched.keys()].sort((a, b) => a - b)).toEqual([h.feeAccountId, seller, buyer]);
  });

  it('when an order is refused, then no account is touched', () => {
    const h = createCoreHarness();
    const buyer = h.funded({ USDT: '10' });
    const ctx = context(h.now);
    expect(() => h.core.spot.apply(limit(buyer, 'BTCUSDT', 'BUY', '100', '1'), ctx)).toThrow('Balance insufficient');
    expect(ctx.touched.size).toBe(0);
  });
});
