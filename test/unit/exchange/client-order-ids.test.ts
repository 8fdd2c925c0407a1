import { describe, it, expect } from 'vitest';
import { createCoreHarness, limit } from '../../support/core-harness.js';

describe('client order ids (docs/spot-api.md "Client order ids")', () => {
  it('when none is sent, then the order id string is used', () => {
    const h = createCoreHarness();
    const trader = h.funded({ USDT: '100000' });
    expect(h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '0.1')).order.clientOrderId).toBe('1');
    expect(h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '0.1', { clientOrderId: 'mine' })).order.clientOrderId).toBe('mine');
  });

  it('when the order id string is taken in the account, then <orderId>-<k> with the smallest free k', () => {
    const h = createCoreHarness();
    const trader = h.funded({ USDT: '100000' });
    h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '0.1', { clientOrderId: '3' }));
    h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '0.1', { clientOrderId: '3-1' }));
    expect(h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '0.1')).order).toMatchObject({ orderId: 3, clientOrderId: '3-2' });
    h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '0.1', { clientOrderId: '5' }));
    expect(h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '0.1')).order).toMatchObject({ orderId: 5, clientOrderId: '5-1' });
  });

  it("when another account used the string, then it does not matter", () => {
    const h = createCoreHarness();
    const a = h.funded({ USDT: '100000' });
    const b = h.funded({ USDT: '100000' });
    h.place(limit(a, 'BTCUSDT', 'BUY', '100', '0.1', { clientOrderId: '2' }));
    expect(h.place(limit(b, 'BTCUSDT', 'BUY', '100', '0.1')).order.clientOrderId).toBe('2');
    expect(h.place(limit(b, 'BTCUSDT', 'BUY', '100', '0.1', { clientOrderId: '2-1' })).order.clientOrderId).toBe('2-1');
  });

  it('when a client id was used by any earlier order of the account, open, filled or canceled, or generated, then -1141', () => {
    const h = createCoreHarness();
    const trader = h.funded({ USDT: '100000' });
    const other = h.funded({ BTC: '1' });
    h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '0.1', { clientOrderId: 'filled' }));
    h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '0.1', { clientOrderId: 'gone' }));
    h.ok({ type: 'cancelOrder', accountId: trader, clientOrderId: 'gone' });
    h.place(limit(trader, 'BTCUSDT', 'BUY', '101', '0.1', { clientOrderId: 'ioc', timeInForce: 'IOC' }));
    expect(h.place(limit(trader, 'BTCUSDT', 'BUY', '99', '0.1')).order.clientOrderId).toBe('4');
    expect(h.place(limit(other, 'BTCUSDT', 'SELL', '100', '0.1')).fills.length).toBe(1);
    for (const clientOrderId of ['filled', 'gone', 'ioc', '4']) {
      expect(h.refuse(limit(trader, 'BTCUSDT', 'BUY', '100', '0.1', { clientOrderId })).code).toBe(-1141);
    }
    expect(h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '0.1', { clientOrderId: 'FILLED' })).order.clientOrderId).toBe('FILLED');
  });
});
