import { describe, it, expect } from 'vitest';
import { createCoreHarness, limit } from '../../support/core-harness.js';

function setup() {
  const h = createCoreHarness();
  const trader = h.funded({ USDT: '100000' });
  return { h, trader };
}

describe('timestamp and recvWindow (docs/spot-api.md "Timestamp and recvWindow")', () => {
  it('when the timestamp is older than the default 5000 ms window, then -1021; exactly 5000 ms old is accepted', () => {
    const { h, trader } = setup();
    const error = h.refuse(limit(trader, 'BTCUSDT', 'BUY', '100', '1', { timestamp: h.now - 5001 }));
    expect(error.toBody()).toEqual({ code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' });
    expect(h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '1', { timestamp: h.now - 5000 })).order.status).toBe('NEW');
  });

  it('when a recvWindow is sent, then it replaces the default', () => {
    const { h, trader } = setup();
    expect(h.refuse(limit(trader, 'BTCUSDT', 'BUY', '100', '1', { timestamp: h.now - 1001, recvWindow: 1000 })).code).toBe(-1021);
    expect(h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '1', { timestamp: h.now - 1000, recvWindow: 1000 })).order.status).toBe('NEW');
    expect(h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '1', { timestamp: h.now - 59_000, recvWindow: 60_000 })).order.status).toBe('NEW');
  });

  it('when the timestamp is more than 1 s in the future, then -1021; exactly 1 s ahead is accepted', () => {
    const { h, trader } = setup();
    expect(h.refuse(limit(trader, 'BTCUSDT', 'BUY', '100', '1', { timestamp: h.now + 1001 })).code).toBe(-1021);
    expect(h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '1', { timestamp: h.now + 1000 })).order.status).toBe('NEW');
  });

  it('when the timestamp is stale and the symbol unknown, then -1021 comes first (docs/spot-api.md "Order of checks")', () => {
    const { h, trader } = setup();
    expect(h.refuse(limit(trader, 'NOPE', 'BUY', '100', '1', { timestamp: h.now - 6000 })).code).toBe(-1021);
  });

  it('when no timestamp is given (operator or internal orders), then no window applies', () => {
    const { h, trader } = setup();
    expect(h.place(limit(trader, 'BTCUSDT', 'BUY', '100', '1')).order.status).toBe('NEW');
  });
});
