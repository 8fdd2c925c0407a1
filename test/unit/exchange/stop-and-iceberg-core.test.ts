import { describe, expect, it } from 'vitest';
import type { OrderEvent, PlaceOrderCommand } from '../../../src/core/types.js';
import { restoreCore, serializeCore, stateHash } from '../../../src/exchange/snapshot.js';
import { createCoreHarness, limit, market, replay, type CoreHarness } from '../../support/core-harness.js';

/** A core with the algoOrders option on and a last trade at 30000 on BTCUSDT. */
function tradedAt30000(): { h: CoreHarness; maker: number; taker: number } {
  const h = createCoreHarness();
  h.ok({ type: 'setTradingConfig', algoOrders: true });
  const maker = h.funded({ USDT: '1000000', BTC: '10' });
  const taker = h.funded({ USDT: '1000000', BTC: '10' });
  h.place(limit(maker, 'BTCUSDT', 'SELL', '30000', '0.1'));
  h.place(limit(taker, 'BTCUSDT', 'BUY', '30000', '0.1'));
  return { h, maker, taker };
}

function stop(accountId: number, orderType: PlaceOrderCommand['orderType'], side: 'BUY' | 'SELL', stopPrice: string, quantity: string, price?: string): PlaceOrderCommand {
  const command: PlaceOrderCommand = { type: 'placeOrder', accountId, symbol: 'BTCUSDT', side, orderType, timeInForce: 'GTC', quantity, stopPrice };
  if (price !== undefined) command.price = price;
  return command;
}

function orderEvents(h: CoreHarness, orderId: number): OrderEvent[] {
  return h.lastRows.events.filter((e): e is OrderEvent => e.kind === 'order' && e.order.orderId === orderId);
}

describe('stop orders in the core', () => {
  it('when the option is off, then a stop type is refused -1116 and an iceberg -1106', () => {
    const h = createCoreHarness();
    const a = h.funded({ USDT: '100000' });
    expect(h.refuse(stop(a, 'STOP_LOSS_LIMIT', 'BUY', '31000', '0.1', '31000')).code).toBe(-1116);
    expect(h.refuse(limit(a, 'BTCUSDT', 'BUY', '30000', '0.1', { icebergQty: '0.01' })).code).toBe(-1106);
  });

  it('when a stop-limit sell is placed, then it waits out of the book with its lock, and fires as a LIMIT when the last price falls to it', () => {
    const { h, maker, taker } = tradedAt30000();
    const seller = h.funded({ BTC: '1' });
    const placed = h.place(stop(seller, 'STOP_LOSS_LIMIT', 'SELL', '29000', '0.5', '28900'));
    expect(placed.order).toMatchObject({ status: 'NEW', isWorking: false, stopPrice: '29000', type: 'STOP_LOSS_LIMIT' });
    expect(h.balance(seller, 'BTC')).toEqual({ free: '0.5', locked: '0.5' });
    expect(h.bookOrderIds('BTCUSDT', 'SELL')).toEqual([]);
    // A trade at 29500 does not reach it; one at 29000 does.
    h.place(limit(maker, 'BTCUSDT', 'BUY', '29500', '0.1'));
    h.place(limit(taker, 'BTCUSDT', 'SELL', '29500', '0.1'));
    expect(h.core.spot.liveOrders.get(placed.order.orderId)?.untriggered).toBe(true);
    h.place(limit(maker, 'BTCUSDT', 'BUY', '29000', '0.3'));
    h.place(limit(taker, 'BTCUSDT', 'SELL', '29000', '0.1'));
    // Fired: it sold 0.2 to the rest of the 29000 bid, and rests 0.3 at 28900.
    const events = orderEvents(h, placed.order.orderId);
    expect(events[0].order).toMatchObject({ status: 'NEW', isWorking: true });
    expect(events.at(-1)?.order).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '0.2', isWorking: true });
    expect(h.bookOrderIds('BTCUSDT', 'SELL')).toEqual([placed.order.orderId]);
    expect(h.balance(seller, 'BTC')).toEqual({ free: '0.5', locked: '0.3' });
  });

  it('when a stop would trigger at once, then it is refused -2010 and nothing is locked', () => {
    const { h } = tradedAt30000();
    const a = h.funded({ USDT: '100000', BTC: '1' });
    expect(h.refuse(stop(a, 'STOP_LOSS', 'SELL', '30000', '0.1')).message).toBe('Order would trigger immediately.');
    expect(h.refuse(stop(a, 'TAKE_PROFIT', 'SELL', '29999', '0.1')).code).toBe(-2010);
    expect(h.refuse(stop(a, 'STOP_LOSS', 'BUY', '29999', '100')).code).toBe(-2010);
    expect(h.balance(a, 'BTC')).toEqual({ free: '1', locked: '0' });
  });

  it('when two stops cascade in one step, then each fires once, the farther crossed first', () => {
    const { h, maker } = tradedAt30000();
    const s1 = h.funded({ BTC: '1' });
    const s2 = h.funded({ BTC: '1' });
    const first = h.place(stop(s1, 'STOP_LOSS', 'SELL', '29900', '0.1')).order.orderId;
    const second = h.place(stop(s2, 'STOP_LOSS', 'SELL', '29700', '0.1')).order.orderId;
    h.place(limit(maker, 'BTCUSDT', 'BUY', '29800', '0.1'));
    h.place(limit(maker, 'BTCUSDT', 'BUY', '29600', '0.1'));
    // A sell at 29800 triggers the first stop; its MARKET sell trades at 29600, which triggers the second.
    const seller = h.funded({ BTC: '1' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '29800', '0.1'));
    expect(orderEvents(h, first).at(-1)?.order).toMatchObject({ status: 'FILLED', executedQty: '0.1' });
    // No bid is left: the second fires and is CANCELED, its funds back.
    expect(orderEvents(h, second).at(-1)?.order).toMatchObject({ status: 'CANCELED', executedQty: '0' });
    expect(h.balance(s2, 'BTC')).toEqual({ free: '1', locked: '0' });
    expect(h.core.spot.symbols.get('BTCUSDT')?.stops.size).toBe(0);
  });

  it('when an untriggered stop is canceled, then its lock returns and it leaves the algo count', () => {
    const { h } = tradedAt30000();
    const a = h.funded({ USDT: '10000' });
    const placed = h.place(stop(a, 'TAKE_PROFIT', 'BUY', '29000', '1000'));
    expect(h.balance(a, 'USDT')).toEqual({ free: '9000', locked: '1000' });
    h.ok({ type: 'cancelOrder', accountId: a, orderId: placed.order.orderId });
    expect(h.balance(a, 'USDT')).toEqual({ free: '10000', locked: '0' });
    expect(h.core.spot.algoCounts.get(a)).toBeUndefined();
  });
});

describe('iceberg orders in the core', () => {
  it('when a taker walks an iceberg, then it fills part after part and the book shows one part at a time', () => {
    const { h, taker } = tradedAt30000();
    const seller = h.funded({ BTC: '1' });
    const other = h.funded({ BTC: '1' });
    const ice = h.place(limit(seller, 'BTCUSDT', 'SELL', '31000', '0.4', { icebergQty: '0.1' })).order.orderId;
    h.place(limit(other, 'BTCUSDT', 'SELL', '31000', '0.05'));
    const level = h.core.spot.symbols.get('BTCUSDT')?.book.asks.best();
    expect(level?.totalLots).toBe(150_000);
    const result = h.place(limit(taker, 'BTCUSDT', 'BUY', '31000', '0.35'));
    // 0.1 (part 1), 0.05 (other), then parts 2, 3 and 0.1 of part 4... the taker wanted 0.35: 0.1 + 0.05 + 0.1 + 0.1.
    expect(result.fills.map((f) => f.qty)).toEqual(['0.1', '0.05', '0.1', '0.1']);
    expect(h.bookOrderIds('BTCUSDT', 'SELL')).toEqual([ice]);
    expect(h.core.spot.symbols.get('BTCUSDT')?.book.asks.best()?.totalLots).toBe(100_000);
    expect(h.balance(seller, 'BTC')).toEqual({ free: '0.6', locked: '0.1' });
  });

  it('when a snapshot is taken with an iceberg part-filled and stops waiting, then a restore and a replay give the same state', () => {
    const { h, taker } = tradedAt30000();
    const seller = h.funded({ BTC: '1' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '31000', '0.4', { icebergQty: '0.15' }));
    h.place(limit(taker, 'BTCUSDT', 'BUY', '31000', '0.05'));
    h.place(stop(seller, 'STOP_LOSS', 'SELL', '29000', '0.1'));
    const text = serializeCore(h.core);
    expect(stateHash(restoreCore(text))).toBe(stateHash(h.core));
    expect(stateHash(replay(h.accepted))).toBe(stateHash(h.core));
    const restored = restoreCore(text);
    expect(restored.spot.symbols.get('BTCUSDT')?.book.asks.best()?.totalLots).toBe(100_000);
    expect(market(taker, 'BTCUSDT', 'BUY', '1').orderType).toBe('MARKET');
  });
});
