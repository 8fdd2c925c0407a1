import { describe, it, expect } from 'vitest';
import { createCoreHarness, limit, market } from '../../support/core-harness.js';

describe('self-trade prevention: expire taker', () => {
  it("when a buy reaches the account's own ask after another's, then the earlier trade stands, the rest is CANCELED and the own ask is untouched", () => {
    const h = createCoreHarness();
    const trader = h.funded({ USDT: '100000', BTC: '1' });
    const other = h.funded({ BTC: '1' });
    h.place(limit(trader, 'BTCUSDT', 'SELL', '30010', '0.2'));
    h.place(limit(other, 'BTCUSDT', 'SELL', '30000', '0.1'));
    const result = h.place(limit(trader, 'BTCUSDT', 'BUY', '30020', '0.5'));
    expect(result.fills.map((f) => [f.price, f.qty, f.tradeId])).toEqual([['30000', '0.1', 1]]);
    expect(result.order).toMatchObject({ orderId: 3, status: 'CANCELED', executedQty: '0.1', cummulativeQuoteQty: '3000' });
    expect(h.bookOrderIds('BTCUSDT', 'SELL')).toEqual([1]);
    expect(h.bookOrderIds('BTCUSDT', 'BUY')).toEqual([]);
    const ownAsk = h.core.spot.liveOrders.get(1);
    expect(ownAsk).toMatchObject({ status: 'NEW', executedLots: 0, lockedAtoms: 20_000_000n });
    expect(h.core.spot.symbol('BTCUSDT').book.get(1)?.remainingLots).toBe(200_000);
    expect(h.lastRows.orders.map((o) => [o.orderId, o.status])).toEqual([
      [2, 'FILLED'],
      [3, 'CANCELED'],
    ]);
    expect(h.balance(trader, 'USDT')).toEqual({ free: '97000', locked: '0' });
    expect(h.balance(trader, 'BTC')).toEqual({ free: '0.9', locked: '0.2' });
  });

  it("when a GTC buy's first match is its own ask, then nothing trades and it does not rest", () => {
    const h = createCoreHarness();
    const trader = h.funded({ USDT: '100000', BTC: '1' });
    h.place(limit(trader, 'BTCUSDT', 'SELL', '30000', '0.2'));
    const result = h.place(limit(trader, 'BTCUSDT', 'BUY', '30000', '0.1'));
    expect(result.order).toMatchObject({ status: 'CANCELED', executedQty: '0' });
    expect(result.fills).toEqual([]);
    expect(h.bookOrderIds('BTCUSDT', 'BUY')).toEqual([]);
    expect(h.balance(trader, 'USDT')).toEqual({ free: '100000', locked: '0' });
  });

  it('when a MARKET sell meets its own bid first, then it is CANCELED with nothing sold', () => {
    const h = createCoreHarness();
    const trader = h.funded({ USDT: '100000', BTC: '1' });
    const other = h.funded({ USDT: '100000' });
    h.place(limit(trader, 'BTCUSDT', 'BUY', '30000', '0.1'));
    h.place(limit(other, 'BTCUSDT', 'BUY', '29000', '0.1'));
    const result = h.place(market(trader, 'BTCUSDT', 'SELL', '0.1'));
    expect(result.order).toMatchObject({ status: 'CANCELED', executedQty: '0' });
    expect(h.bookOrderIds('BTCUSDT', 'BUY')).toEqual([1, 2]);
    expect(h.balance(trader, 'BTC')).toEqual({ free: '1', locked: '0' });
  });

  it("when a buy's own ask rests behind another's ask at one price, then it fills the other and stops before its own", () => {
    const h = createCoreHarness();
    const trader = h.funded({ USDT: '100000', BTC: '1' });
    const other = h.funded({ BTC: '1' });
    h.place(limit(other, 'BTCUSDT', 'SELL', '30000', '0.1'));
    h.place(limit(trader, 'BTCUSDT', 'SELL', '30000', '0.1'));
    h.place(limit(other, 'BTCUSDT', 'SELL', '30000', '0.1'));
    const result = h.place(limit(trader, 'BTCUSDT', 'BUY', '30000', '0.3', { timeInForce: 'IOC' }));
    expect(result.order).toMatchObject({ status: 'CANCELED', executedQty: '0.1' });
    expect(h.bookOrderIds('BTCUSDT', 'SELL')).toEqual([2, 3]);
  });

  it('when two accounts of one user cross, then they trade with each other', () => {
    const h = createCoreHarness();
    const { userId, accountId: main } = h.ok<{ userId: number; accountId: number }>({ type: 'createUser', email: 'u@example.com', userType: 'user' });
    const { accountId: sub } = h.ok<{ accountId: number }>({ type: 'createSubAccount', userId, name: 'bot' });
    h.deposit(main, 'USDT', '100000');
    h.deposit(sub, 'BTC', '1');
    h.place(limit(sub, 'BTCUSDT', 'SELL', '30000', '0.1'));
    const result = h.place(limit(main, 'BTCUSDT', 'BUY', '30000', '0.1'));
    expect(result.order.status).toBe('FILLED');
    expect(h.lastRows.trades.map((t) => [t.accountId, t.isBuyer, t.isMaker])).toEqual([
      [main, true, false],
      [sub, false, true],
    ]);
    expect(h.balance(sub, 'USDT')).toEqual({ free: '2997', locked: '0' });
  });
});
