/**
 * Property: whatever interleaving of area B part 1 runs (merchants and their KYC, merchant accounts
 * in MXN/USD/EUR and their reviews, beneficiaries, refund accounts, bank arrivals, claims and their
 * payouts, transfers between merchants of one user, sandbox modes switched at random between
 * automatic and manual with docs/merchant-payments.md "The simulator and the sandbox API" decisions on random objects) beside crypto deposits into merchant
 * accounts, area A transfers into and out of them and area A trading on USDTMXN, then:
 *
 * - every command is either applied or refused; any other error is a bug and fails the property;
 * - an area A transfer of fiat into or out of a merchant account M is always refused (-1172),
 *   one of crypto is refused at most for want of funds;
 * - after every step: per asset, balances sum to deposits minus withdrawals; every balance equals
 *   its flow rows in the store; no balance is negative; the locked fiat of each M equals the totals
 *   of its pending WITHDRAW records (the module's check, and this file's own count);
 * - after every run: the funding records in the store explain each M's fiat balance, the store's
 *   pending records are the module's, `verify` with replay holds, a replay of the journal and a
 *   snapshot round trip reach the same state hash, and so does a snapshot taken after a random step
 *   once the rest of the journal is applied to it.
 *
 * Commands go through the real Sequencer into the real ExchangeCore and an in-memory SQLite store
 * (test/support/payments-core.ts), automatic decisions as journaled follow-ups. Each step submits
 * 1–2 commands in the same event-loop turn, so they share one batch. Commands are built from the
 * state when the step starts (test/support/payments-ops.ts); most aim at an object they can act on,
 * the rest at any, so that both the accepted paths and the refusals are exercised.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Refusal } from '../../src/core/refusal.js';
import { emptyDerivedRows, type Command } from '../../src/core/types.js';
import { restoreCore, serializeCore, stateHash } from '../../src/exchange/snapshot.js';
import { verifyLedger } from '../../src/exchange/verify.js';
import { unitsOf } from '../../src/payments/money.js';
import { FUNDING_COMPLETED, FUNDING_PENDING } from '../../src/payments/model.js';
import { checkLedgerWhole, PaymentsCore } from '../support/payments-core.js';
import { ATOMS_PER_CENT, createPaymentsParties, FIATS, merchantsOf, paymentsCommand, paymentsStepsArb, PRECISION, type PaymentsWorld } from '../support/payments-ops.js';

interface World extends PaymentsWorld {
  h: PaymentsCore;
  /** What happened, over all runs, so that the property is seen to say something. */
  seen: Map<string, number>;
}

function tally(seen: Map<string, number>, what: string, times = 1): void {
  seen.set(what, (seen.get(what) ?? 0) + times);
}

async function createWorld(seen: Map<string, number>): Promise<World> {
  const h = new PaymentsCore();
  const parties = await createPaymentsParties((command) => h.submit(command), await h.setUp());
  return { h, ...parties, seen };
}

function fail(message: string): never {
  throw new Error(message);
}

/** Whether an area A transfer touches a merchant's ledger account M. */
function touchesMerchant(world: World, command: Command): boolean {
  if (command.type !== 'transfer') return false;
  return merchantsOf(world.h).some((m) => m.accountId === command.fromAccountId || m.accountId === command.toAccountId);
}

/** What every step must leave: conservation, flows, no negative balance, M's locked fiat = its pending claims. */
function checkStep(world: World, step: number): void {
  const { h } = world;
  const core = h.core;
  checkLedgerWhole(h, step);
  // The same invariant, counted here rather than by the module: fiat of M is locked by pending WITHDRAW records only, crypto never.
  const reserved = new Map<string, bigint>();
  for (const record of core.payments.state.pendingFunding.values()) {
    if (record.type !== 'WITHDRAW') continue;
    const key = `${record.merchantId}:${record.fiat}`;
    reserved.set(key, (reserved.get(key) ?? 0n) + record.totalAmount * 10n ** BigInt(PRECISION - record.accuracy));
  }
  for (const m of merchantsOf(h)) {
    for (const [asset, balance] of core.ledger.account(m.accountId).balances) {
      const expected = reserved.get(`${m.merchantId}:${asset}`) ?? 0n;
      if (balance.locked !== expected) fail(`after step ${step}, merchant ${m.merchantId} has ${balance.locked} atoms of ${asset} locked, its pending claims ${expected}`);
    }
  }
  const report = verifyLedger(core, h.store, h.now);
  if (!report.ok) fail(`after step ${step}, verify failed: ${JSON.stringify(report.details.filter((d) => d.mismatch !== undefined))}`);
}

/** The funding records in the store explain each M's fiat, and its pending ones are the module's. */
function checkFundingRecords(world: World): void {
  const { h } = world;
  const explained = new Map<string, bigint>();
  const storedPending = new Set<number>();
  for (const { userId } of world.merchantUsers) {
    const { total, rows } = h.store.listFundingRecords({ userId, offset: 0, limit: 100_000 });
    expect(rows.length).toBe(total);
    for (const row of rows) {
      const key = `${row.merchantId}:${row.fiat}`;
      const cents = (text: string): bigint => unitsOf(text, 2) ?? fail(`record ${row.txId}: amount ${text}`);
      let change = 0n;
      if (row.type === 'DEPOSIT' && row.status === FUNDING_COMPLETED) change = cents(row.amount);
      if (row.type === 'WITHDRAW' && row.status === FUNDING_COMPLETED) change = -cents(row.totalAmount);
      if (row.type === 'TRANSFER_IN') change = cents(row.amount);
      if (row.type === 'TRANSFER_OUT') change = -cents(row.totalAmount);
      explained.set(key, (explained.get(key) ?? 0n) + change);
      if (row.status === FUNDING_PENDING) storedPending.add(row.txId);
    }
  }
  expect([...storedPending].sort()).toEqual([...h.core.payments.state.pendingFunding.keys()].sort());
  for (const m of merchantsOf(h)) {
    for (const fiatName of FIATS) {
      const atoms = h.free(m.accountId, fiatName) + h.locked(m.accountId, fiatName);
      expect({ merchant: m.merchantId, fiat: fiatName, atoms }).toEqual({ merchant: m.merchantId, fiat: fiatName, atoms: (explained.get(`${m.merchantId}:${fiatName}`) ?? 0n) * ATOMS_PER_CENT });
    }
  }
}

/** What the journal of a run holds, tallied by command (and decision). */
function tallyJournal(world: World, fromSeq: number): void {
  for (const { command } of world.h.store.readJournal(fromSeq)) {
    const action = 'action' in command ? `:${command.action}` : '';
    tally(world.seen, `${command.type}${action}`);
  }
}

describe('payments: conservation under any interleaving of area B part 1 and area A', () => {
  it('when merchants, accounts, beneficiaries, arrivals, claims, payouts, merchant transfers, modes and the sandbox API decisions interleave with crypto deposits, transfers and USDTMXN trading, then the ledger is whole at every step, fiat never moves into or out of M through area A, and replay and snapshot agree', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(paymentsStepsArb, fc.nat(), async (steps, snapAt) => {
        const world = await createWorld(seen);
        const { h } = world;
        const startSeq = h.store.lastSeq();
        /** A snapshot taken after one of the steps, to be brought forward by the journal's tail at the end. */
        let midway: string | undefined;
        try {
          checkStep(world, 0);
          for (const [index, ops] of steps.entries()) {
            const commands = ops.map((op) => paymentsCommand(op, world));
            const intoMerchant = commands.map((command) => touchesMerchant(world, command));
            const outcomes = await Promise.allSettled(commands.map((command) => h.submit(command)));
            if (h.fatal !== undefined) throw h.fatal;
            for (const [i, outcome] of outcomes.entries()) {
              const command = commands[i];
              const fiatIntoMerchant = intoMerchant[i] && command.type === 'transfer' && (FIATS as readonly string[]).includes(command.asset);
              if (outcome.status === 'fulfilled') {
                if (fiatIntoMerchant) fail(`step ${index + 1}: an area A transfer moved fiat into or out of a merchant account: ${JSON.stringify(command)}`);
                if (intoMerchant[i]) tally(seen, `crypto transfer ${command.type === 'transfer' && merchantsOf(h).some((m) => m.accountId === command.toAccountId) ? 'into' : 'out of'} M`);
                continue;
              }
              // A refusal is an answer; anything else is a bug in the core.
              if (!(outcome.reason instanceof Refusal)) throw outcome.reason;
              tally(seen, `refused ${command.type} ${outcome.reason.code}`);
              if (fiatIntoMerchant && outcome.reason.code !== -1172) fail(`step ${index + 1}: fiat transfer touching M refused with ${outcome.reason.code}, not -1172`);
              if (intoMerchant[i] && !fiatIntoMerchant && outcome.reason.code !== -1131) fail(`step ${index + 1}: crypto transfer touching M refused with ${outcome.reason.code}`);
            }
            checkStep(world, index + 1);
            if (index === snapAt % steps.length) midway = serializeCore(h.core);
            const pending = [...h.core.payments.state.pendingFunding.values()];
            if (pending.some((r) => r.type === 'WITHDRAW')) tally(seen, 'steps with a pending claim');
            if (pending.some((r) => r.type === 'DEPOSIT')) tally(seen, 'steps with a pending deposit');
          }
          checkFundingRecords(world);
          const report = h.verify();
          if (!report.ok) fail(`verify with replay failed: ${JSON.stringify({ details: report.details.filter((d) => d.mismatch !== undefined), replay: report.replay })}`);
          const hash = stateHash(h.core);
          expect(h.replayHash()).toBe(hash);
          expect(stateHash(restoreCore(serializeCore(h.core)))).toBe(hash);
          // The snapshot holds all that later commands depend on: restored and fed the rest of the journal, it reaches the same state.
          const resumed = restoreCore(midway ?? fail('no snapshot taken'));
          const rows = emptyDerivedRows();
          for (const stamped of h.store.readJournal(resumed.lastSeq)) resumed.apply(stamped, rows, 'none');
          expect(stateHash(resumed)).toBe(hash);
          tallyJournal(world, startSeq);
          tally(seen, 'trades', h.core.spot.nextTradeId - 1);
        } finally {
          await h.sequencer.close();
          h.store.close();
        }
      }),
      // Seeded, as payment-orders.property.test.ts: the coverage below counts what random stories reached.
      { numRuns: 500, seed: 20_261_128 },
    );
    // The streams must reach every part of the lifecycle, or the property says little.
    const times = (what: string): number => seen.get(what) ?? 0;
    const report = [...seen.entries()].sort(([a], [b]) => a.localeCompare(b));
    const atLeast: [string, number][] = [
      ['createMerchant', 600],
      ['merchantKyc:approve', 600],
      ['merchantKyc:reject', 3],
      ['reviewMerchantAccount:approve', 500],
      ['reviewMerchantAccount:reject', 3],
      ['addBeneficiary', 300],
      ['reviewBeneficiary:approve', 2],
      ['reviewBeneficiary:reject', 2],
      ['deleteBeneficiary', 30],
      ['setRefundAccount', 10],
      ['bankArrival', 500],
      ['claimFunds', 80],
      ['settleFunding:complete', 80],
      ['settleFunding:cancel', 20],
      ['transferFunds', 12],
      ['deposit', 100],
      ['crypto transfer into M', 40],
      ['crypto transfer out of M', 5],
      ['refused transfer -1172', 150],
      ['refused claimFunds -5100', 80],
      ['refused transferFunds -5100', 10],
      ['refused bankArrival -1174', 50],
      ['steps with a pending claim', 30],
      ['steps with a pending deposit', 300],
      ['trades', 40],
      ['cancelOrder', 8],
    ];
    const short = atLeast.filter(([what, min]) => times(what) < min).map(([what, min]) => `${what}: ${times(what)} < ${min}`);
    expect(short, JSON.stringify(report)).toEqual([]);
  }, 60_000);
});
