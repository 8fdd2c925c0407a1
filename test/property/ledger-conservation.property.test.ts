import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { parseSignedDecimal } from '../../src/core/decimal.js';
import type { FlowPosting } from '../../src/core/types.js';
import type { ExchangeCore } from '../../src/exchange/exchange-core.js';
import { WITHDRAWAL_AUDITING } from '../../src/exchange/funds-commands.js';
import { restoreCore, serializeCore, stateHash } from '../../src/exchange/snapshot.js';
import { createCoreHarness, replay, type CoreHarness } from '../support/core-harness.js';
import { flowRowOf } from '../../src/ledger/flow-posting.js';
import { spotCommand, spotOpArb, spotParties } from '../support/spot-ops.js';

interface World {
  h: CoreHarness;
  accounts: number[];
}

/** The demo catalogue and the parties of test/support/spot-ops.ts: three users each with a sub-account, varied fee rates, and starting funds. */
function setupWorld(): World {
  const h = createCoreHarness();
  const setUp = spotParties();
  let step = setUp.next();
  while (step.done !== true) step = setUp.next(h.ok(step.value));
  return { h, accounts: step.value };
}

const key = (accountId: number, asset: string): string => `${accountId}:${asset}`;

/** A cheap assertion: these run tens of thousands of times per test. */
function check(condition: boolean, message: () => string): void {
  if (!condition) throw new Error(message());
}

function atomsOf(text: string): bigint {
  const atto = parseSignedDecimal(text);
  if (atto === null) throw new Error(`bad decimal ${text}`);
  return atto / 10n ** 10n;
}

/** Adds flow rows to the running sums; each row's total must be the sum right after it. */
function accumulate(sums: Map<string, bigint>, postings: FlowPosting[]): void {
  for (const flow of postings.map(flowRowOf)) {
    const k = key(flow.accountId, flow.asset);
    const next = (sums.get(k) ?? 0n) + atomsOf(flow.change);
    sums.set(k, next);
    check(atomsOf(flow.total) === next, () => `flow ${flow.flowId}: total ${flow.total} but the flows sum to ${next} atoms`);
  }
}

function checkInvariants(core: ExchangeCore, flowSums: Map<string, bigint>): void {
  for (const row of core.ledger.verifyTotals()) {
    check(row.total === row.deposits - row.withdrawals, () => `${row.asset}: total ${row.total} != ${row.deposits} - ${row.withdrawals}`);
  }
  const expectedLocked = new Map<string, bigint>();
  const addLocked = (accountId: number, asset: string, value: bigint): void => {
    expectedLocked.set(key(accountId, asset), (expectedLocked.get(key(accountId, asset)) ?? 0n) + value);
  };
  let resting = 0;
  for (const state of core.spot.symbols.values()) resting += state.book.size;
  check(resting === core.spot.liveOrders.size, () => `${resting} resting orders, ${core.spot.liveOrders.size} live`);
  for (const order of core.spot.liveOrders.values()) {
    const { spec, book } = core.spot.symbol(order.symbol);
    addLocked(order.accountId, order.side === 'BUY' ? spec.quoteAsset : spec.baseAsset, order.lockedAtoms);
    const remaining = book.get(order.orderId)?.remainingLots;
    check(remaining === order.origLots - order.executedLots, () => `order ${order.orderId} rests with ${remaining} lots`);
  }
  for (const withdrawal of core.funds.withdrawals.values()) {
    if (withdrawal.row.status === WITHDRAWAL_AUDITING) addLocked(withdrawal.row.accountId, withdrawal.row.asset, withdrawal.amountAtoms + withdrawal.feeAtoms);
  }
  let balances = 0;
  for (const account of core.ledger.accounts.values()) {
    const id = account.accountId;
    check(account.openOrderCount === core.spot.openOrderIdsOf(id).size, () => `account ${id} counts ${account.openOrderCount} open orders`);
    for (const [asset, balance] of account.balances) {
      const k = key(id, asset);
      check(balance.free >= 0n && balance.locked >= 0n, () => `${k} negative: ${balance.free}/${balance.locked}`);
      check(balance.free + balance.locked === (flowSums.get(k) ?? 0n), () => `${k}: balance ${balance.free + balance.locked} != flows ${flowSums.get(k)}`);
      check(balance.locked === (expectedLocked.get(k) ?? 0n), () => `${k}: locked ${balance.locked} != orders and withdrawals ${expectedLocked.get(k)}`);
      balances++;
    }
  }
  // Every flow sum belongs to a balance that exists (no row for an account or asset the ledger lost).
  check(balances >= flowSums.size, () => `${flowSums.size} flow sums for ${balances} balances`);
}

describe('ledger conservation under random command streams', () => {
  it('when any stream of orders, cancels, transfers and withdrawals runs, then funds are conserved after every command and a replay gives the same state', () => {
    let trades = 0;
    let accepted = 0;
    fc.assert(
      fc.property(fc.array(spotOpArb, { maxLength: 200, size: 'max' }), (ops) => {
        const world = setupWorld();
        const { h } = world;
        const flowSums = new Map<string, bigint>();
        accumulate(flowSums, h.rows.flows);
        checkInvariants(h.core, flowSums);
        for (const op of ops) {
          const before = h.accepted.length;
          h.run(spotCommand(op, { core: h.core, accounts: world.accounts }));
          if (h.accepted.length > before) {
            accepted++;
            trades += h.lastRows.trades.length / 2;
            accumulate(flowSums, h.lastRows.flows);
          }
          checkInvariants(h.core, flowSums);
        }
        const hash = stateHash(h.core);
        expect(stateHash(replay(h.accepted))).toBe(hash);
        expect(stateHash(restoreCore(serializeCore(h.core)))).toBe(hash);
      }),
      { seed: 20_250_601, numRuns: 200 },
    );
    // The streams must really trade, or the property says little.
    expect(accepted).toBeGreaterThan(9_000);
    expect(trades).toBeGreaterThan(2_000);
  });
});
