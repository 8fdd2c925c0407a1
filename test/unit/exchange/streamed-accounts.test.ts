import { describe, expect, it } from 'vitest';
import { createCoreHarness, limit } from '../../support/core-harness.js';

describe('events only for streamed accounts', () => {
  function trade(streamed: number[] | undefined) {
    const h = createCoreHarness();
    const buyer = h.funded({ USDT: '100000' });
    const seller = h.funded({ BTC: '1' });
    h.core.streamedAccounts = streamed === undefined ? undefined : new Set(streamed.map((i) => [buyer, seller][i]));
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '1'));
    const restRows = h.lastRows;
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30000', '0.4'));
    return { buyer, seller, restRows, fillRows: h.lastRows };
  }

  const accountsOf = (events: { accountId: number; kind: string }[]) => events.map((e) => `${e.kind} ${e.accountId}`);

  it('when no account is streamed, then a resting order and a fill record no event, and every stored row all the same', () => {
    const all = trade(undefined);
    const none = trade([]);
    expect(accountsOf(all.fillRows.events).length).toBeGreaterThan(0);
    expect([none.restRows.events, none.fillRows.events]).toEqual([[], []]);
    for (const list of ['orders', 'trades', 'flows'] as const) {
      expect(none.restRows[list]).toEqual(all.restRows[list]);
      expect(none.fillRows[list]).toEqual(all.fillRows[list]);
    }
  });

  it('when only the buyer is streamed, then exactly the events of every account recorded for the buyer remain', () => {
    const all = trade(undefined);
    const buyerOnly = trade([0]);
    expect(buyerOnly.fillRows.events).toEqual(all.fillRows.events.filter((e) => e.accountId === all.buyer));
    expect(buyerOnly.restRows.events).toEqual(all.restRows.events.filter((e) => e.accountId === all.buyer));
    expect(accountsOf(buyerOnly.fillRows.events)).toEqual([`order ${all.buyer}`, `balance ${all.buyer}`]);
  });
});
