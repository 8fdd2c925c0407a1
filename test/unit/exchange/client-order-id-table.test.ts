/**
 * The compact table behind docs/spot-api.md "Client order ids": plain generated ids live as an owner per order id, the rest
 * as strings. Whatever the representation, lookups must answer as a plain map of every id would.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClientOrderIds } from '../../../src/exchange/client-order-ids.js';

describe('ClientOrderIds', () => {
  it('when ids are generated and chosen, then each lookup finds its order only in its own account', () => {
    const ids = new ClientOrderIds();
    expect(ids.assign(7, 1)).toBe('1');
    expect(ids.assign(7, 2, 'mine')).toBe('mine');
    // A client took the number of an order that does not exist yet: that order gets <id>-1.
    expect(ids.assign(7, 3, '4')).toBe('4');
    expect(ids.assign(7, 4)).toBe('4-1');
    expect(ids.assign(8, 5)).toBe('5');
    expect(ids.orderIdOf(7, '1')).toBe(1);
    expect(ids.orderIdOf(7, 'mine')).toBe(2);
    expect(ids.orderIdOf(7, '4')).toBe(3);
    expect(ids.orderIdOf(7, '4-1')).toBe(4);
    expect(ids.orderIdOf(8, '5')).toBe(5);
    for (const [account, id] of [[8, '1'], [7, '5'], [7, '2'], [7, '01'], [7, '+1'], [7, '1.0'], [7, '3'], [7, '0']] as const) {
      expect(ids.orderIdOf(account, id)).toBeUndefined();
    }
  });

  it('when order ids pass the initial table size, then the table grows and keeps every owner', () => {
    const ids = new ClientOrderIds();
    for (let orderId = 1; orderId <= 5000; orderId++) ids.assign((orderId % 3) + 1, orderId);
    expect(ids.orderIdOf(2, '1')).toBe(1);
    expect(ids.orderIdOf(2, '4999')).toBe(4999);
    expect(ids.orderIdOf(1, '4999')).toBeUndefined();
    expect(ids.orderIdOf(2, '5000')).toBeUndefined();
    expect(ids.orderIdOf(3, '5000')).toBe(5000);
  });

  it('when any sequence of orders is assigned, then lookups, image and restore agree with a plain map of every id', () => {
    const step = fc.record({ account: fc.integer({ min: 1, max: 3 }), chosen: fc.option(fc.constantFrom('1', '2', '3', '3-1', '7', 'a', 'b', '05'), { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const ids = new ClientOrderIds();
        const plain = new Map<string, number>();
        let orderId = 0;
        for (const { account, chosen } of steps) {
          // A chosen id in use is refused before assignment (-1141): the table is never asked to take it.
          if (chosen !== undefined && plain.has(`${account}:${chosen}`)) continue;
          orderId++;
          const id = ids.assign(account, orderId, chosen);
          if (chosen !== undefined) expect(id).toBe(chosen);
          expect(plain.has(`${account}:${id}`)).toBe(false);
          plain.set(`${account}:${id}`, orderId);
        }
        const restored = ClientOrderIds.fromImage(ids.image(orderId + 1));
        const legacy = ClientOrderIds.fromEntries(
          [1, 2, 3].map((account): [number, [string, number][]] => [
            account,
            [...plain].filter(([key]) => key.startsWith(`${account}:`)).map(([key, id]) => [key.slice(2), id]),
          ]),
        );
        for (const account of [1, 2, 3]) {
          for (const id of ['1', '2', '3', '3-1', '4', '4-1', '7', '7-1', 'a', 'b', '05', '9']) {
            const expected = plain.get(`${account}:${id}`);
            expect(ids.orderIdOf(account, id)).toBe(expected);
            expect(restored.orderIdOf(account, id)).toBe(expected);
            expect(legacy.orderIdOf(account, id)).toBe(expected);
          }
        }
        expect(restored.image(orderId + 1)).toEqual(ids.image(orderId + 1));
      }),
      { seed: 4_7, numRuns: 300 },
    );
  });
});
