import { describe, it, expect } from 'vitest';
import type { SymbolStatus } from '../../../src/core/types.js';
import type { CancelOrderResult } from '../../../src/exchange/order-commands.js';
import { createCoreHarness, limit, market } from '../../support/core-harness.js';

describe('symbol status HALT and BREAK', () => {
  it.each<SymbolStatus>(['HALT', 'BREAK'])('when %s, then new orders get -1151, the book is kept and cancels still work', (status) => {
    const h = createCoreHarness();
    const trader = h.funded({ USDT: '100000', BTC: '1' });
    h.place(limit(trader, 'BTCUSDT', 'BUY', '30000', '0.1'));
    h.place(limit(trader, 'BTCUSDT', 'BUY', '29000', '0.1'));
    h.place(limit(trader, 'BTCUSDT', 'SELL', '31000', '0.1'));
    expect(h.ok({ type: 'setSymbolStatus', symbol: 'BTCUSDT', status })).toEqual({ symbol: 'BTCUSDT', status });
    expect(h.refuse(limit(trader, 'BTCUSDT', 'BUY', '30000', '0.1')).toBody()).toEqual({ code: -1151, msg: 'Symbol is not open for trading.' });
    expect(h.refuse(market(trader, 'BTCUSDT', 'SELL', '0.1')).code).toBe(-1151);
    expect(h.bookOrderIds('BTCUSDT', 'BUY')).toEqual([1, 2]);
    expect(h.ok<CancelOrderResult>({ type: 'cancelOrder', accountId: trader, orderId: 1 }).order.status).toBe('CANCELED');
    expect(h.ok<unknown[]>({ type: 'cancelOrders', accountId: trader, symbol: 'BTCUSDT' }).length).toBe(2);
    expect(h.balance(trader, 'USDT')).toEqual({ free: '100000', locked: '0' });
    expect(h.place(limit(trader, 'ETHUSDT', 'BUY', '2000', '1')).order.status).toBe('NEW');
  });

  it('when set back to TRADING, then orders are taken again', () => {
    const h = createCoreHarness();
    const trader = h.funded({ USDT: '100000' });
    h.ok({ type: 'setSymbolStatus', symbol: 'BTCUSDT', status: 'BREAK' });
    h.ok({ type: 'setSymbolStatus', symbol: 'BTCUSDT', status: 'TRADING' });
    expect(h.place(limit(trader, 'BTCUSDT', 'BUY', '30000', '0.1')).order).toMatchObject({ orderId: 1, status: 'NEW' });
  });

  it('when the symbol is unknown, then setting its status is refused with -1000 naming it', () => {
    const h = createCoreHarness();
    expect(h.refuse({ type: 'setSymbolStatus', symbol: 'NOPE', status: 'HALT' }).toBody()).toEqual({ code: -1000, msg: 'symbol NOPE does not exist.' });
  });
});
