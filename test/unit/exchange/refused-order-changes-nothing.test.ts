import { describe, it, expect } from 'vitest';
import type { PlaceOrderCommand } from '../../../src/core/types.js';
import { serializeCore, stateHash } from '../../../src/exchange/snapshot.js';
import { createCoreHarness, limit, market } from '../../support/core-harness.js';

/** The derived rows as text; flows carry their amounts as bigint atoms. */
const rowsText = (rows: unknown): string => JSON.stringify(rows, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));

/** A core with resting orders both sides, and a fresh account that has never ordered. */
function setup() {
  const h = createCoreHarness();
  const maker = h.funded({ USDT: '100000', BTC: '1' });
  h.place(limit(maker, 'BTCUSDT', 'BUY', '29000', '0.1', { clientOrderId: 'used' }));
  h.place(limit(maker, 'BTCUSDT', 'SELL', '31000', '0.1'));
  const fresh = h.funded({ USDT: '1000', BTC: '0.01' });
  h.core.spot.limits = { maxOpenOrdersPerSymbol: 2, maxOpenOrdersPerAccount: 1000 };
  return { h, maker, fresh };
}

describe('a refused order (docs/spot-api.md "Order validation": no record, event or id)', () => {
  const refusals: [string, (ids: { maker: number; fresh: number }, now: number) => PlaceOrderCommand, number][] = [
    ['short balance from a fresh account', ({ fresh }) => limit(fresh, 'BTCUSDT', 'BUY', '29000', '1'), -1131],
    ['a LIMIT_MAKER that would take', ({ fresh }) => limit(fresh, 'BTCUSDT', 'BUY', '31000', '0.001', { orderType: 'LIMIT_MAKER' }), -1158],
    ['a duplicate client id', ({ maker }) => limit(maker, 'BTCUSDT', 'BUY', '29000', '0.1', { clientOrderId: 'used' }), -1141],
    ['the open-order limit', ({ maker }) => limit(maker, 'BTCUSDT', 'BUY', '29000', '0.1'), -2010],
    ['a filter', ({ fresh }) => limit(fresh, 'BTCUSDT', 'BUY', '29000.001', '0.001'), -1134],
    ['a MARKET SELL below minNotional at the best bid', ({ fresh }) => market(fresh, 'BTCUSDT', 'SELL', '0.00003'), -1140],
    ['a stale timestamp', ({ fresh }, now) => limit(fresh, 'BTCUSDT', 'BUY', '29000', '0.001', { timestamp: now - 10_000 }), -1021],
  ];

  it.each(refusals)('when refused for %s, then the state hash, the counters and the rows are unchanged', (_name, build, code) => {
    const { h, maker, fresh } = setup();
    const before = serializeCore(h.core);
    const rowsBefore = rowsText(h.rows);
    const lastSeq = h.core.lastSeq;
    expect(h.refuse(build({ maker, fresh }, h.now)).code).toBe(code);
    expect(serializeCore(h.core)).toBe(before);
    expect(rowsText(h.rows)).toBe(rowsBefore);
    expect(h.core.lastSeq).toBe(lastSeq);
    expect(h.place(limit(fresh, 'BTCUSDT', 'BUY', '100', '0.01')).order).toMatchObject({ orderId: 3, clientOrderId: '3' });
  });

  it('when an order is only checked (A12 test order), then nothing changes, even for a fresh account', () => {
    const { h, fresh } = setup();
    const before = stateHash(h.core);
    h.core.check(limit(fresh, 'BTCUSDT', 'BUY', '100', '0.01', { clientOrderId: 'probe' }), h.now);
    expect(stateHash(h.core)).toBe(before);
    expect(() => h.core.check(limit(fresh, 'BTCUSDT', 'BUY', '100', '100'), h.now)).toThrow('Balance insufficient');
    expect(stateHash(h.core)).toBe(before);
    expect(h.place(limit(fresh, 'BTCUSDT', 'BUY', '100', '0.01', { clientOrderId: 'probe' })).order.orderId).toBe(3);
  });
});
