/**
 * Property: the SQLite and the PostgreSQL store are interchangeable under the writer
 * (docs/deployment.md: "The same journal gives the same answers on both stores"). A random stream
 * mixing area A (test/support/spot-ops.ts: orders of every type and time in force, cancels,
 * deposits, withdrawals and their settlement, transfers between mains and sub-accounts) and area B
 * part 1 (test/support/payments-ops.ts: merchants, accounts, beneficiaries, arrivals, claims,
 * payouts, merchant transfers, sandbox modes, USDTMXN trading; merchant users have a
 * FUNDING_WEBHOOK, whose outbox events a delivery round reports on at the end) runs through a real
 * Sequencer over each store, with the same commands and the same clock
 * (test/support/store-twins.ts), 1–5 commands a turn as a sequencer batches what one event-loop
 * turn brings. Then:
 *
 * - every command ends alike on both (its result, or its refusal's code), and the live states agree
 *   (also when a snapshot is taken midway);
 * - every question of a fixed History battery (test/support/history-battery.ts: each list query
 *   per account and user, alone and with each filter, paged to its end; each lookup) answers alike,
 *   rows, order and field order, flow sums and the journal's stamped commands included;
 * - the operator's ledger check holds on both, with the same report;
 * - recovering from the PostgreSQL store (reopened, as a restarting node: the snapshot and the
 *   journal after it, and the whole journal) and from the SQLite store reaches the live state.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Command } from '../../src/core/types.js';
import { recover, recoverAsync } from '../../src/exchange/recovery.js';
import { stateHash } from '../../src/exchange/snapshot.js';
import { checkLedger, verifyLedger } from '../../src/exchange/verify.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { historyBattery } from '../support/history-battery.js';
import { setUpPayments } from '../support/payments-core.js';
import { createPaymentsParties, paymentsCommand, paymentsStepsArb, type PaymentsOp, type PaymentsWorld } from '../support/payments-ops.js';
import { postgresDatabases } from '../support/postgres.js';
import { spotCommand, spotOpArb, spotParties, type SpotOp, type SpotWorld } from '../support/spot-ops.js';
import { jsonOf, StoreTwins } from '../support/store-twins.js';

const databases = postgresDatabases();

type Op = { area: 'A'; op: SpotOp } | { area: 'B'; op: PaymentsOp };

/**
 * The area B steps (their opening first among them) and area A steps of 1–3 commands, merged by
 * `merge`: 0 takes the next B step, 1 the next A step, 2 both in one turn; what is left follows.
 */
const stepsArb: fc.Arbitrary<Op[][]> = fc
  .tuple(
    paymentsStepsArb,
    fc.array(fc.array(spotOpArb, { minLength: 1, maxLength: 3 }), { minLength: 10, maxLength: 60, size: 'max' }),
    fc.array(fc.nat({ max: 2 }), { maxLength: 100, size: 'max' }),
  )
  .map(([paymentSteps, spotSteps, merge]) => {
    const b = paymentSteps.map((ops) => ops.map((op): Op => ({ area: 'B', op })));
    const a = spotSteps.map((ops) => ops.map((op): Op => ({ area: 'A', op })));
    const steps: Op[][] = [];
    for (const choice of merge) {
      if (choice === 0 && b.length > 0) steps.push(b.shift() ?? []);
      if (choice === 1 && a.length > 0) steps.push(a.shift() ?? []);
      if (choice === 2 && a.length + b.length > 0) steps.push([...(b.shift() ?? []), ...(a.shift() ?? [])]);
    }
    return [...steps, ...b, ...a];
  });

interface World {
  spot: SpotWorld;
  payments: PaymentsWorld;
}

/**
 * The demo catalogue, the payments set-up with its merchant users (each with a FUNDING_WEBHOOK, so
 * that funding records write outbox events) and traders, the spot users: one command a turn.
 */
async function createWorld(twins: StoreTwins): Promise<World> {
  const payments = { h: twins, ...(await createPaymentsParties(twins.submit, await setUpPayments(twins.submit))) };
  for (const { userId } of payments.merchantUsers) {
    await twins.submit({ type: 'registerWebhook', userId, webhookId: String(userId).padStart(32, '0'), eventType: 'FUNDING_WEBHOOK', url: `https://merchant${userId}.example/hook` });
  }
  const setUp = spotParties();
  let step = setUp.next();
  while (step.done !== true) step = setUp.next(await twins.submit(step.value));
  return { spot: { core: twins.core, accounts: step.value }, payments };
}

function tally(seen: Map<string, number>, what: string, times = 1): void {
  seen.set(what, (seen.get(what) ?? 0) + times);
}

/** Every question asked of both stores; each answer that differs, with the exact query and both answers. */
async function compareHistory(twins: StoreTwins, seen: Map<string, number>): Promise<void> {
  const journal = [...twins.sqliteStore.readJournal(0)];
  const battery = historyBattery({
    rows: twins.rows,
    accountIds: twins.core.ledger.accounts.keys(),
    userIds: twins.core.ledger.users.keys(),
    firstTs: journal[0].ts,
    lastTs: journal[journal.length - 1].ts,
  });
  const questions = [...battery];
  // PostgreSQL's reader pool answers several at once; SQLite answers at once anyway.
  const answers = await Promise.all(questions.map(async ([, ask]) => [jsonOf(await ask(twins.sqliteStore)), jsonOf(await ask(twins.postgresStore))]));
  const differ = questions.flatMap(([label], i) => (answers[i][0] === answers[i][1] ? [] : [`${label}\n  SQLite      ${answers[i][0]}\n  PostgreSQL  ${answers[i][1]}`]));
  expect(differ.slice(0, 5).join('\n')).toBe('');
  tally(seen, 'questions', questions.length);
  tally(seen, 'questions with rows', answers.filter(([answer]) => /"(orderId|tradeId|flowId|depositId|withdrawalId|txId)":/.test(answer)).length);
}

describe('stores agree: the same stream on SQLite and on PostgreSQL', () => {
  it('when one random stream of area A and area B commands runs through the sequencer over SQLite and over PostgreSQL, then every command ends alike, every history query answers alike, the ledger check and recovery from either store reach the live state', async () => {
    const seen = new Map<string, number>();
    const started = performance.now();
    // One database for every run, emptied at the start of each.
    const url = await databases.url();
    await fc.assert(
      fc.asyncProperty(stepsArb, fc.nat(), async (steps, snapAt) => {
        const twins = await StoreTwins.open(url);
        try {
          const world = await createWorld(twins);
          for (const [index, ops] of steps.entries()) {
            const commands = ops.map((o): Command => (o.area === 'A' ? spotCommand(o.op, world.spot) : paymentsCommand(o.op, world.payments)));
            const endings = await twins.turn(commands);
            for (const [i, ending] of endings.entries()) tally(seen, `${commands[i].type} ${ending.text.startsWith('ok') ? 'ok' : ending.text}`);
            if (index === snapAt % steps.length) await twins.snapshot();
          }
          // A delivery worker's reports on the events it may send, in one turn: every other one failed, so that both outcomes are stored.
          const sendable = [...twins.core.webhooks.sendable()].map(({ event }) => event);
          const reports = await twins.turn(sendable.map((event, i): Command => ({ type: 'webhookAttempt', eventId: event.eventId, attempt: event.attempts + 1, url: 'https://merchant.example/hook', time: twins.now, httpStatus: i % 2 === 0 ? 200 : 503, durationMs: 5, error: i % 2 === 0 ? '' : 'HTTP 503' })));
          for (const report of reports) tally(seen, `webhookAttempt ${report.text.startsWith('ok') ? 'ok' : report.text}`);
          tally(seen, 'webhook events', twins.rows.moduleRows.filter((m) => m.kind === 'webhookEvent').length);
          const hash = twins.stateHash();
          await compareHistory(twins, seen);

          const now = twins.now;
          const fromSqlite = verifyLedger(twins.sqlite.core, twins.sqliteStore, now, { replay: true });
          const replayed = await recoverAsync(twins.postgresStore, { ignoreSnapshots: true, deriveRows: false });
          const fromPostgres = checkLedger(twins.postgres.core, await twins.postgresStore.flowSums(), now, replayed.core);
          expect(fromSqlite.ok).toBe(true);
          expect(fromPostgres).toEqual(fromSqlite);

          expect(stateHash(recover(twins.sqliteStore, { deriveRows: false }).core)).toBe(hash);
          // As a node restarting on the database: the latest snapshot and the journal after it, then the whole journal.
          const reopened = await openPostgresStore({ url });
          try {
            const restarted = await recoverAsync(reopened);
            expect([restarted.snapshotSeq > 0, stateHash(restarted.core)]).toEqual([true, hash]);
            expect(stateHash((await recoverAsync(reopened, { ignoreSnapshots: true })).core)).toBe(hash);
          } finally {
            await reopened.close();
          }
          tally(seen, 'trades', twins.rows.trades.length / 2);
          tally(seen, 'funding records', twins.rows.moduleRows.filter((m) => m.kind === 'fundingRecord').length);
          tally(seen, 'withdrawals', twins.rows.withdrawals.length);
          tally(seen, 'batches of several commands', steps.filter((ops) => ops.length > 1).length);
        } finally {
          await twins.close();
        }
      }),
      // No shrinking: a run costs most of a second, and the first failing stream already names the command or the query and both answers.
      { seed: 20_260_301, numRuns: 20, endOnFailure: true },
    );
    const times = (what: string): number => seen.get(what) ?? 0;
    const report = [...seen.entries()].sort(([a], [b]) => a.localeCompare(b));
    console.log(`stores agree: ${((performance.now() - started) / 1000).toFixed(1)} s, ${times('questions')} questions, ${times('trades')} trades`);
    // The streams must write every kind of row and the battery must read them, or the property says little.
    const atLeast: [string, number][] = [
      ['batches of several commands', 250],
      ['placeOrder ok', 250],
      ['trades', 60],
      ['cancelOrder ok', 15],
      ['cancelOrders ok', 20],
      ['transfer ok', 25],
      ['withdrawals', 12],
      ['settleWithdrawal ok', 5],
      ['funding records', 35],
      ['claimFunds ok', 5],
      ['webhook events', 70],
      ['webhookAttempt ok', 25],
      ['questions with rows', 5000],
    ];
    const short = atLeast.filter(([what, min]) => times(what) < min).map(([what, min]) => `${what}: ${times(what)} < ${min}`);
    expect(short, JSON.stringify(report)).toEqual([]);
  }, 60_000);
});

