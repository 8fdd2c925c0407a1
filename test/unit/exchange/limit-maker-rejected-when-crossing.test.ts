import { describe, it, expect } from 'vitest';
import { createCoreHarness, limit } from '../../support/core-harness.js';
import { stateHash } from '../../../src/exchange/snapshot.js';

describe('LIMIT_MAKER', () => {
  it("when its price reaches another account's best ask, then -1158 and nothing changes", () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '1' });
    const buyer = h.funded({ USDT: '100000' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30000', '0.1'));
    const before = stateHash(h.core);
    const error = h.refuse(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.1', { orderType: 'LIMIT_MAKER' }));
    expect(error.toBody()).toEqual({ code: -1158, msg: 'Order would immediately match and take.' });
    expect(stateHash(h.core)).toBe(before);
    expect(h.refuse(limit(buyer, 'BTCUSDT', 'BUY', '31000', '0.1', { orderType: 'LIMIT_MAKER' })).code).toBe(-1158);
  });

  it("when its price reaches the account's own best bid, then -1158 too", () => {
    const h = createCoreHarness();
    const trader = h.funded({ BTC: '1', USDT: '100000' });
    h.place(limit(trader, 'BTCUSDT', 'BUY', '30000', '0.1'));
    expect(h.refuse(limit(trader, 'BTCUSDT', 'SELL', '30000', '0.1', { orderType: 'LIMIT_MAKER' })).code).toBe(-1158);
    expect(h.bookOrderIds('BTCUSDT', 'BUY')).toEqual([1]);
  });

  it('when it does not cross, then it rests NEW as a GTC LIMIT_MAKER, whatever timeInForce was sent', () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '1' });
    const buyer = h.funded({ USDT: '100000' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30000', '0.1'));
    const result = h.place(limit(buyer, 'BTCUSDT', 'BUY', '29999.99', '0.1', { orderType: 'LIMIT_MAKER', timeInForce: 'IOC' }));
    expect(result.order).toMatchObject({ type: 'LIMIT_MAKER', timeInForce: 'GTC', status: 'NEW', price: '29999.99' });
    expect(h.bookOrderIds('BTCUSDT', 'BUY')).toEqual([2]);
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '97000.001', locked: '2999.999' });
  });

  it('when it rests and is later taken, then it pays the maker rate', () => {
    const h = createCoreHarness();
    const maker = h.funded({ USDT: '100000' }, { maker: '0.0002', taker: '0.002' });
    const taker = h.funded({ BTC: '1' }, { maker: '0', taker: '0' });
    h.place(limit(maker, 'BTCUSDT', 'BUY', '30000', '0.5', { orderType: 'LIMIT_MAKER' }));
    h.place(limit(taker, 'BTCUSDT', 'SELL', '30000', '0.5'));
    expect(h.balance(maker, 'BTC')).toEqual({ free: '0.4999', locked: '0' });
  });

  it('when it would cross but the balance is short, then -1131 comes first (step 11 before 12)', () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '1' });
    const buyer = h.funded({ USDT: '100' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30000', '0.1'));
    expect(h.refuse(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.1', { orderType: 'LIMIT_MAKER' })).code).toBe(-1131);
  });
});
