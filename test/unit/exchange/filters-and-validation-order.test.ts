import { describe, it, expect } from 'vitest';
import type { PlaceOrderCommand } from '../../../src/core/types.js';
import { createCoreHarness, limit, market } from '../../support/core-harness.js';

const MESSAGES: Record<number, string> = {
  [-1132]: 'Order price too high.',
  [-1133]: 'Order price lower than the minimum.',
  [-1134]: 'Order price decimal too long.',
  [-1135]: 'Order quantity too large.',
  [-1136]: 'Order quantity lower than the minimum.',
  [-1137]: 'Order quantity decimal too long.',
  [-1140]: 'Transaction amount lower than the minimum.',
};

function trader() {
  const h = createCoreHarness();
  const accountId = h.funded({ USDT: '100000000', BTC: '2000' });
  return { h, accountId };
}

describe('PRICE_FILTER, LOT_SIZE and MIN_NOTIONAL on BTCUSDT (tick 0.01, step 0.000001, minNotional 1)', () => {
  const cases: [string, string, string, number][] = [
    ['price 0', '0', '0.1', -1133],
    ['price below minPrice and off tick', '0.001', '0.1', -1133],
    ['price above maxPrice', '10000000.01', '0.1', -1132],
    ['price above maxPrice and off tick', '10000001.001', '0.1', -1132],
    ['price off tick', '30000.001', '0.1', -1134],
    ['price off tick and quantity below minQty', '30000.001', '0.0000001', -1134],
    ['price too low and quantity too large', '0.001', '1000.000001', -1133],
    ['quantity 0', '30000', '0', -1136],
    ['quantity below minQty and off step', '30000', '0.0000001', -1136],
    ['quantity above maxQty', '30000', '1000.000001', -1135],
    ['quantity off step', '30000', '0.0000015', -1137],
    ['quantity off step and notional too small', '0.01', '0.0000015', -1137],
    ['notional 100 × 0.000009 = 0.0009', '100', '0.000009', -1140],
    ['notional 1 × 0.999999', '1', '0.999999', -1140],
  ];

  it.each(cases)('when the %s, then its code comes first', (_name, price, quantity, code) => {
    const { h, accountId } = trader();
    expect(h.refuse(limit(accountId, 'BTCUSDT', 'BUY', price, quantity)).toBody()).toEqual({ code, msg: MESSAGES[code] });
    expect(h.refuse(limit(accountId, 'BTCUSDT', 'SELL', price, quantity)).code).toBe(code);
  });

  it('when each value sits exactly on its bound, then the order is accepted', () => {
    const { h, accountId } = trader();
    expect(h.place(limit(accountId, 'BTCUSDT', 'BUY', '1', '1')).order.status).toBe('NEW');
    expect(h.place(limit(accountId, 'BTCUSDT', 'SELL', '10000000', '0.000001')).order.status).toBe('NEW');
    expect(h.place(limit(accountId, 'BTCUSDT', 'SELL', '10000000', '1000')).order.status).toBe('NEW');
    expect(h.place(limit(accountId, 'BTCUSDT', 'BUY', '0.01', '100')).order.status).toBe('NEW');
  });

  it('when values differ only by trailing zeros, then they compare as values', () => {
    const { h, accountId } = trader();
    expect(h.place(limit(accountId, 'BTCUSDT', 'BUY', '30000.10', '0.100000')).order).toMatchObject({ price: '30000.1', origQty: '0.1' });
  });

  it('when the price is missing on a LIMIT order, then -1102 names it', () => {
    const { h, accountId } = trader();
    const { price: _price, ...withoutPrice } = limit(accountId, 'BTCUSDT', 'BUY', '1', '1');
    expect(h.refuse(withoutPrice as PlaceOrderCommand).toBody()).toEqual({
      code: -1102,
      msg: "Mandatory parameter 'price' was not sent, was empty/null, or malformed.",
    });
  });
});

describe('validation order of docs/spot-api.md "Order validation" steps 5–12', () => {
  it('when the symbol is unknown, then -1121', () => {
    const { h, accountId } = trader();
    expect(h.refuse(limit(accountId, 'DOGEUSDT', 'BUY', '1', '1')).toBody()).toEqual({ code: -1121, msg: 'Invalid symbol.' });
  });

  it('when the symbol is halted and the price is off tick, then -1151 comes first (step 5)', () => {
    const { h, accountId } = trader();
    h.ok({ type: 'setSymbolStatus', symbol: 'BTCUSDT', status: 'HALT' });
    expect(h.refuse(limit(accountId, 'BTCUSDT', 'BUY', '30000.001', '0')).code).toBe(-1151);
  });

  it('when a MARKET sell meets an empty book with a used client id, then -1112 comes first (step 7 before 9)', () => {
    const { h, accountId } = trader();
    h.place(limit(accountId, 'BTCUSDT', 'SELL', '30000', '0.1', { clientOrderId: 'x' }));
    expect(h.refuse(market(accountId, 'BTCUSDT', 'SELL', '0.1', { clientOrderId: 'x' })).code).toBe(-1112);
  });

  it('when a MARKET sell is too small for the best bid with a used client id, then -1140 comes first (step 8 before 9)', () => {
    const { h, accountId } = trader();
    h.place(limit(accountId, 'BTCUSDT', 'BUY', '30000', '0.1', { clientOrderId: 'x' }));
    expect(h.refuse(market(accountId, 'BTCUSDT', 'SELL', '0.00003', { clientOrderId: 'x' })).code).toBe(-1140);
  });

  it('when the client id is used and the open-order limit is reached, then -1141 comes first (step 9 before 10)', () => {
    const { h, accountId } = trader();
    h.core.spot.limits = { maxOpenOrdersPerSymbol: 1, maxOpenOrdersPerAccount: 1000 };
    h.place(limit(accountId, 'BTCUSDT', 'BUY', '30000', '0.1', { clientOrderId: 'x' }));
    expect(h.refuse(limit(accountId, 'BTCUSDT', 'BUY', '30000', '0.1', { clientOrderId: 'x' })).toBody()).toEqual({
      code: -1141,
      msg: 'Duplicate clientOrderId',
    });
  });

  it('when the open-order limit is reached and the balance is short, then -2010 comes first (step 10 before 11)', () => {
    const { h, accountId } = trader();
    h.core.spot.limits = { maxOpenOrdersPerSymbol: 1, maxOpenOrdersPerAccount: 1000 };
    h.place(limit(accountId, 'BTCUSDT', 'BUY', '30000', '0.1'));
    expect(h.refuse(limit(accountId, 'BTCUSDT', 'BUY', '30000', '999')).code).toBe(-2010);
  });
});

describe('open-order limits (-2010)', () => {
  it('when the account holds maxOpenOrdersPerSymbol open orders on the symbol, then the next is refused there but not elsewhere', () => {
    const { h, accountId } = trader();
    h.deposit(accountId, 'ETH', '100');
    h.core.spot.limits = { maxOpenOrdersPerSymbol: 2, maxOpenOrdersPerAccount: 3 };
    h.place(limit(accountId, 'BTCUSDT', 'BUY', '30000', '0.1'));
    h.place(limit(accountId, 'BTCUSDT', 'SELL', '31000', '0.1'));
    expect(h.refuse(limit(accountId, 'BTCUSDT', 'BUY', '29000', '0.1')).toBody()).toEqual({
      code: -2010,
      msg: 'New order rejected: Filter failure: MAX_NUM_ORDERS.',
    });
    expect(h.refuse(limit(accountId, 'BTCUSDT', 'BUY', '29000', '0.1', { timeInForce: 'IOC' })).code).toBe(-2010);
    h.place(limit(accountId, 'ETHUSDT', 'SELL', '2000', '1'));
    expect(h.refuse(limit(accountId, 'ETHBTC', 'SELL', '0.05', '1')).toBody()).toEqual({
      code: -2010,
      msg: 'New order rejected: Filter failure: BROKER_MAX_NUM_ORDERS.',
    });
  });

  it('when an open order is canceled or filled, then its slot is free again', () => {
    const { h, accountId } = trader();
    const other = h.funded({ BTC: '1' });
    h.core.spot.limits = { maxOpenOrdersPerSymbol: 1, maxOpenOrdersPerAccount: 1000 };
    h.place(limit(accountId, 'BTCUSDT', 'BUY', '30000', '0.1'));
    h.ok({ type: 'cancelOrder', accountId, orderId: 1 });
    h.place(limit(accountId, 'BTCUSDT', 'BUY', '30000', '0.1'));
    h.place(limit(other, 'BTCUSDT', 'SELL', '30000', '0.1'));
    expect(h.core.ledger.account(accountId).openOrderCount).toBe(0);
    expect(h.place(limit(accountId, 'BTCUSDT', 'BUY', '30000', '0.1')).order.status).toBe('NEW');
  });
});

describe('balance (-1131)', () => {
  it('when a buy needs exactly the free quote, then it is accepted; one atom more is refused', () => {
    const h = createCoreHarness();
    const buyer = h.funded({ USDT: '3000' });
    expect(h.refuse(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.100001')).toBody()).toEqual({ code: -1131, msg: 'Balance insufficient' });
    expect(h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.1')).order.status).toBe('NEW');
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '0', locked: '3000' });
  });

  it('when a sell needs more base than is free, then -1131, locked base not counting', () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '1', USDT: '1000000' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '40000', '0.6'));
    expect(h.refuse(limit(seller, 'BTCUSDT', 'SELL', '40000', '0.400001')).code).toBe(-1131);
    expect(h.place(limit(seller, 'BTCUSDT', 'SELL', '40000', '0.4')).order.status).toBe('NEW');
  });
});
