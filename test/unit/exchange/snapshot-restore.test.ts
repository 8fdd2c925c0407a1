import { describe, it, expect } from 'vitest';
import { BourseError } from '../../../src/core/errors.js';
import { emptyDerivedRows, type Command } from '../../../src/core/types.js';
import { ExchangeCore } from '../../../src/exchange/exchange-core.js';
import type { PlaceOrderResult } from '../../../src/exchange/order-commands.js';
import { restoreCore, serializeCore, stateHash } from '../../../src/exchange/snapshot.js';
import { CoreHarness, createCoreHarness, limit, market, replay } from '../../support/core-harness.js';

interface Cast {
  a: number;
  b: number;
  bSub: number;
  c: number;
}

/** A core with something of everything: sub-accounts, fee rates, keys, a time-ordered level, partial fills, withdrawals, a halted symbol. */
function busyCore(): { h: CoreHarness; cast: Cast } {
  const h = createCoreHarness();
  const a = h.funded({ BTC: '5', USDT: '200000' }, { maker: '0.0001', taker: '0.0007' });
  const { userId: bUser, accountId: b } = h.ok<{ userId: number; accountId: number }>({ type: 'createUser', email: 'b@example.com', userType: 'user' });
  const { accountId: bSub } = h.ok<{ accountId: number }>({ type: 'createSubAccount', userId: bUser, name: 'bot' });
  h.deposit(b, 'BTC', '5');
  h.deposit(bSub, 'USDT', '100000');
  const c = h.funded({ BTC: '5', ETH: '50', USDT: '100000' });
  h.ok({
    type: 'createApiKey',
    userId: bUser,
    accountIndex: 1,
    apiKey: 'k'.repeat(64),
    secretSealed: 'sealed',
    permissions: ['TRADE', 'USER_DATA'],
    ipWhitelist: ['10.0.0.0/8'],
    label: 'bot key',
  });
  h.ok({ type: 'createApiKey', userId: bUser, accountIndex: 0, apiKey: 'r'.repeat(64), secretSealed: 's', permissions: [], ipWhitelist: [], label: '' });
  h.ok({ type: 'revokeApiKey', apiKey: 'r'.repeat(64) });
  // One level, three makers in time order b, a, c; a second level; a partly filled bid.
  h.place(limit(b, 'BTCUSDT', 'SELL', '30000', '0.1'));
  h.place(limit(a, 'BTCUSDT', 'SELL', '30000', '0.2', { clientOrderId: '9' }));
  h.place(limit(c, 'BTCUSDT', 'SELL', '30000', '0.3'));
  h.place(limit(a, 'BTCUSDT', 'SELL', '30010', '0.4'));
  h.place(limit(bSub, 'BTCUSDT', 'BUY', '29990', '1', { clientOrderId: 'bid' }));
  h.place(limit(c, 'BTCUSDT', 'SELL', '29990', '0.25'));
  h.place(limit(c, 'ETHUSDT', 'SELL', '2000', '3'));
  h.place(limit(a, 'BTCUSDT', 'BUY', '20000', '0.1'));
  h.ok({ type: 'cancelOrder', accountId: a, orderId: 8 });
  h.ok({ type: 'withdraw', accountId: c, asset: 'USDT', amount: '100', address: 'T1', addressExt: '', chainType: 'TRC20', clientOrderId: 'w1' });
  h.ok({ type: 'withdraw', accountId: c, asset: 'USDT', amount: '200', address: 'T1', addressExt: '', chainType: 'TRC20', clientOrderId: 'w2' });
  h.ok({ type: 'settleWithdrawal', withdrawalId: 1, approve: true, txId: 'tx', reason: '' });
  h.ok({ type: 'setSymbolStatus', symbol: 'ETHBTC', status: 'HALT' });
  h.core.spot.limits = { maxOpenOrdersPerSymbol: 50, maxOpenOrdersPerAccount: 100 };
  return { h, cast: { a, b, bSub, c } };
}

function furtherCommands({ a, b, bSub, c }: Cast): Command[] {
  // The next account id: D's main account, created by the first command.
  const d = c + 1;
  return [
    { type: 'createUser', email: 'd@example.com', userType: 'user' },
    { type: 'deposit', accountId: d, asset: 'USDT', amount: '50000', txId: 'd1' },
    limit(d, 'BTCUSDT', 'BUY', '30000', '0.5'),
    limit(a, 'BTCUSDT', 'SELL', '30010', '0.1'),
    limit(a, 'BTCUSDT', 'SELL', '30010', '0.1', { clientOrderId: '9' }),
    market(d, 'BTCUSDT', 'BUY', '10000'),
    { type: 'cancelOrder', accountId: bSub, clientOrderId: 'bid' },
    { type: 'cancelOrders', accountId: b },
    { type: 'settleWithdrawal', withdrawalId: 2, approve: false, txId: '', reason: 'no' },
    { type: 'withdraw', accountId: c, asset: 'USDT', amount: '200', address: 'T1', addressExt: '', chainType: 'TRC20', clientOrderId: 'w2' },
    limit(c, 'ETHBTC', 'SELL', '0.05', '1'),
    { type: 'setSymbolStatus', symbol: 'ETHBTC', status: 'TRADING' },
    limit(c, 'ETHBTC', 'SELL', '0.05', '1'),
    limit(a, 'ETHUSDT', 'BUY', '2000', '1', { timeInForce: 'FOK' }),
    { type: 'transfer', fromAccountId: bSub, toAccountId: b, asset: 'USDT', amount: '10', flowType: 'USER_ACCOUNT_TRANSFER' },
  ];
}

function outcome(result: unknown): unknown {
  return result instanceof BourseError ? result.toBody() : result;
}

/** An outcome in a word: the error code, the order status, or 'ok'. */
function gist(result: unknown): string | number {
  if (result instanceof BourseError) return result.code;
  if (typeof result === 'object' && result !== null && 'order' in result) return (result as PlaceOrderResult).order.status;
  return 'ok';
}

describe('snapshot and restore', () => {
  it('when a busy core is serialized and restored, then the restored core has the same state text and hash', () => {
    const { h } = busyCore();
    const text = serializeCore(h.core);
    const restored = restoreCore(text);
    expect(serializeCore(restored)).toBe(text);
    expect(stateHash(restored)).toBe(stateHash(h.core));
    expect(stateHash(restored)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('when the same commands follow on the original and the restored core, then results, rows and hashes are identical', () => {
    const { h, cast } = busyCore();
    const restored = new CoreHarness(restoreCore(serializeCore(h.core)));
    restored.now = h.now;
    const gists: (string | number)[] = [];
    for (const command of furtherCommands(cast)) {
      const original = h.run(command);
      gists.push(gist(original));
      expect(outcome(restored.run(command))).toEqual(outcome(original));
      expect(restored.lastRows).toEqual(h.lastRows);
      expect(stateHash(restored.core)).toBe(stateHash(h.core));
    }
    expect(gists).toEqual(['ok', 'ok', 'FILLED', 'NEW', -1141, 'FILLED', 'CANCELED', 'ok', 'ok', 'ok', -1151, 'ok', 'NEW', 'FILLED', 'ok']);
    expect(restored.core.lastSeq).toBe(h.core.lastSeq);
  });

  it('when a taker sweeps a level after restore, then the makers fill in their original time order', () => {
    const { h, cast } = busyCore();
    const restored = new CoreHarness(restoreCore(serializeCore(h.core)));
    restored.now = h.now;
    const d = restored.funded({ USDT: '50000' });
    const result = restored.place(limit(d, 'BTCUSDT', 'BUY', '30000', '0.6'));
    expect(restored.lastRows.trades.filter((t) => !t.isBuyer).map((t) => [t.accountId, t.orderId, t.qty])).toEqual([
      [cast.b, 1, '0.1'],
      [cast.a, 2, '0.2'],
      [cast.c, 3, '0.3'],
    ]);
    expect((result as PlaceOrderResult).order.status).toBe('FILLED');
  });

  it('when restored, then open-order counts, client ids and the book version carry over', () => {
    const { h, cast } = busyCore();
    const restored = restoreCore(serializeCore(h.core));
    for (const id of [cast.a, cast.b, cast.bSub, cast.c]) {
      const original = h.core.ledger.account(id);
      const copy = restored.ledger.account(id);
      expect([copy.openOrderCount, Object.fromEntries(copy.openOrdersBySymbol)]).toEqual([original.openOrderCount, Object.fromEntries(original.openOrdersBySymbol)]);
      expect([...restored.spot.openOrderIdsOf(id)]).toEqual([...h.core.spot.openOrderIdsOf(id)]);
    }
    expect(restored.spot.symbol('BTCUSDT').book.version).toBe(h.core.spot.symbol('BTCUSDT').book.version);
    expect(restored.spot.clientOrderIds.orderIdOf(cast.a, '9')).toBe(2);
    expect(restored.spot.symbol('ETHBTC').spec.status).toBe('HALT');
    expect(restored.spot.limits).toEqual({ maxOpenOrdersPerSymbol: 50, maxOpenOrdersPerAccount: 100 });
    expect(restored.ledger.verifyTotals()).toEqual(h.core.ledger.verifyTotals());
  });

  it('when the snapshot has an unknown version, then restore refuses it', () => {
    expect(() => restoreCore('{"version":99}')).toThrow('unknown snapshot version 99');
  });
});

describe('replay without rows', () => {
  it('when the journal is replayed with row recording off, then the state hash equals the live core and counters agree', () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '2' });
    const buyer = h.funded({ USDT: '100000' });
    h.ok(limit(seller, 'BTCUSDT', 'SELL', '30000', '1'));
    h.ok(limit(buyer, 'BTCUSDT', 'BUY', '30001', '0.4'));
    const silent = new ExchangeCore();
    const rows = emptyDerivedRows();
    for (const stamped of h.accepted) silent.apply(stamped, rows, 'none');
    expect(rows.flows).toEqual([]);
    expect(rows.trades).toEqual([]);
    expect(stateHash(silent)).toBe(stateHash(h.core));
    expect(stateHash(replay(h.accepted))).toBe(stateHash(h.core));
  });
});
