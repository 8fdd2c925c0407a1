/**
 * The status graph of area B orders (docs/merchant-payments.md "Order statuses"), for checks that an order only ever
 * moves forward along it: after any sequence of commands, a crash or a restart, an order seen in
 * status `from` may later be seen only in a status reachable from `from`.
 */
import type { OrderKind } from '../../src/payments/orders.js';

/** The direct moves of one kind: from → the statuses one transition can lead to. */
type Edges = Readonly<Record<number, readonly number[]>>;

/**
 * docs/merchant-payments.md "Order statuses" review prefix, shared by every kind (`paying` is 40 for f2c and c2f, 41 for f2f; `canceled`
 * 70 or 71): a review decision from 10 or 12; an upload from 11 or 31; confirm or the accept window
 * from 30; the documents window from 11 or 31.
 */
function reviewPrefix(paying: number, canceled: number): Edges {
  return {
    10: [paying, 11, 31, canceled],
    11: [12, canceled],
    12: [paying, 11, 31, canceled],
    30: [paying, canceled],
    31: [paying, canceled],
  };
}

export const ORDER_EDGES: Readonly<Record<OrderKind, Edges>> = {
  // docs/merchant-payments.md "Order statuses": 40 → 50 on the pay-in (or at once from the pending fund), 40 → 70 on the payment window; 50 → 60 in the same command.
  fiat_to_crypto: { ...reviewPrefix(40, 70), 40: [50, 70], 50: [60] },
  // docs/merchant-payments.md "Order statuses": 40 → 50 when the payout succeeds (at once to the pending fund), → 70 when it fails; 50 → 60 on release, confirm or the hold.
  crypto_to_fiat: { ...reviewPrefix(40, 70), 40: [50, 70], 50: [60] },
  // docs/merchant-payments.md "Order statuses": 41 → 51 on the pay-in, → 71 on the payment window; 51 → 60 when the payout succeeds, → 72 when it fails.
  fiat_to_fiat: { ...reviewPrefix(41, 71), 41: [51, 71], 51: [60, 72] },
};

/** Where an order starts: 10 (B29–B31) or 30 (docs/merchant-payments.md "The simulator and the sandbox API" place-on-behalf). */
export const INITIAL_STATUSES: readonly number[] = [10, 30];

export const TERMINAL: ReadonlySet<number> = new Set([60, 70, 71, 72]);

const closures = new Map<string, ReadonlySet<number>>();

/** Every status reachable from `from` in zero or more moves (`from` itself included). */
export function reachableFrom(kind: OrderKind, from: number): ReadonlySet<number> {
  const key = `${kind}:${from}`;
  const known = closures.get(key);
  if (known !== undefined) return known;
  const seen = new Set<number>([from]);
  const todo = [from];
  while (todo.length > 0) {
    const status = todo.pop() as number;
    for (const next of ORDER_EDGES[kind][status] ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        todo.push(next);
      }
    }
  }
  closures.set(key, seen);
  return seen;
}

/** Whether an order of `kind` last seen in `from` may now be in `to`. `from` undefined: not seen yet, so any status reachable from creation. */
export function mayMove(kind: OrderKind, from: number | undefined, to: number): boolean {
  const starts = from === undefined ? INITIAL_STATUSES : [from];
  return starts.some((start) => reachableFrom(kind, start).has(to));
}

/** Every status of a kind (docs/merchant-payments.md "Quotes and orders"). */
export function statusesOf(kind: OrderKind): number[] {
  return [...reachableFrom(kind, 10), 30].sort((a, b) => a - b);
}
