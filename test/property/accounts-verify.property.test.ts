/**
 * Property: whatever interleaving of deposits, orders (and so fills), cancels, internal transfers
 * main↔sub both ways, user transfers and withdrawals (approved and rejected) runs across users and
 * sub-accounts, the operator's `verify` holds after every step (per asset, balances sum to deposits
 * minus withdrawals; per account, balances equal their flow rows in the store) and no balance is
 * negative; at the end, a replay of the journal reaches the same state.
 *
 * The whole write path runs in-process: commands go through the real Sequencer into the real
 * ExchangeCore and a store, and `Exchange.verify` reads the flows back from that store (and, with
 * replay, its journal). The same seeded streams run on each store: an in-memory SQLite store, and
 * a PostgreSQL store emptied for each run (the first 40 streams). Each step submits 1–3 commands in
 * the same event-loop turn, so they share one batch.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatUnits } from '../../src/core/decimal.js';
import { BourseError } from '../../src/core/errors.js';
import type { Command, FlowTypeName } from '../../src/core/types.js';
import type { CoreHost } from '../../src/exchange/core-host.js';
import { ExchangeCore } from '../../src/exchange/exchange-core.js';
import { Exchange } from '../../src/exchange/exchange.js';
import { WITHDRAWAL_AUDITING } from '../../src/exchange/funds-commands.js';
import { recoverAsync } from '../../src/exchange/recovery.js';
import { Sequencer } from '../../src/exchange/sequencer.js';
import { checkLedger } from '../../src/exchange/verify.js';
import { MarketData } from '../../src/market/market-data.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { demoCatalogue, T0 } from '../support/core-harness.js';
import { openEmptyPostgresStore } from '../support/empty-postgres-store.js';
import { postgresDatabases } from '../support/postgres.js';
import { cancelPick, limitNearMid, marketNearMid } from '../support/spot-ops.js';

const databases = postgresDatabases();
let database: Promise<string> | undefined;
/**
 * The stores the property runs on, each opened empty for every run (PostgreSQL: one database for
 * the file, emptied each time), and how many runs: PostgreSQL takes the first of the same streams,
 * as a commit and a verify there cost a round trip each.
 */
const STORES: [string, () => Promise<Store>, number][] = [
  ['SQLite', async () => openSqliteStore({ path: ':memory:', synchronous: 'NORMAL' }), 100],
  ['PostgreSQL', async () => openEmptyPostgresStore(await (database ??= databases.url())), 40],
];

const USERS = 3;
const ASSETS = ['BTC', 'ETH', 'USDT', 'MXN'] as const;
/** Withdrawable assets (crypto), as indexes into ASSETS. */
const CRYPTO = [0, 1, 2] as const;
const SYMBOLS = [
  { symbol: 'BTCUSDT', midTicks: 3_000_000, maxLots: 200_000 },
  { symbol: 'ETHUSDT', midTicks: 200_000, maxLots: 20_000 },
  { symbol: 'ETHBTC', midTicks: 6_000, maxLots: 3_000 },
] as const;
const USER_TRANSFER_TYPES: readonly FlowTypeName[] = ['TRANSFER', 'AIRDROP', 'MINE_REWARD'];

type Op =
  | { kind: 'deposit'; account: number; asset: number; atoms: bigint }
  | { kind: 'limit'; account: number; symbol: number; buy: boolean; offsetTicks: number; lots: number; ioc: boolean }
  | { kind: 'market'; account: number; symbol: number; buy: boolean; lots: number }
  | { kind: 'cancel'; account: number; pick: number }
  | { kind: 'subTransfer'; user: number; toSub: boolean; asset: number; atoms: bigint }
  | { kind: 'userTransfer'; from: number; to: number; asset: number; atoms: bigint; client: number; businessType: number }
  | { kind: 'withdraw'; account: number; asset: number; atoms: bigint; client: number }
  | { kind: 'settle'; pick: number; approve: boolean };

/** Accounts are numbered user × 2 (main) and user × 2 + 1 (its sub-account). */
const account = fc.nat({ max: USERS * 2 - 1 });
const user = fc.nat({ max: USERS - 1 });
const assetIndex = fc.nat({ max: ASSETS.length - 1 });
const symbolIndex = fc.nat({ max: SYMBOLS.length - 1 });
const atoms = fc.oneof(fc.bigInt({ min: 1n, max: 10_000n }), fc.bigInt({ min: 1n, max: 4_000_000_000n }), fc.bigInt({ min: 1n, max: 400_000_000_000n }));

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deposit' as const), account, asset: assetIndex, atoms }) },
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('limit' as const),
      account,
      symbol: symbolIndex,
      buy: fc.boolean(),
      offsetTicks: fc.integer({ min: -3, max: 3 }),
      lots: fc.nat(),
      ioc: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('market' as const), account, symbol: symbolIndex, buy: fc.boolean(), lots: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), account, pick: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('subTransfer' as const), user, toSub: fc.boolean(), asset: assetIndex, atoms }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('userTransfer' as const),
      from: user,
      to: user,
      asset: assetIndex,
      atoms,
      client: fc.nat({ max: 3 }),
      businessType: fc.nat({ max: USER_TRANSFER_TYPES.length - 1 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('withdraw' as const), account, asset: fc.constantFrom(...CRYPTO), atoms, client: fc.nat({ max: 5 }) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('settle' as const), pick: fc.nat(), approve: fc.boolean() }) },
);

/** 1–3 commands submitted in the same turn. */
const stepsArb = fc.array(fc.array(opArb, { minLength: 1, maxLength: 3, size: 'max' }), { minLength: 1, maxLength: 40, size: 'max' });

interface World {
  store: Store;
  core: ExchangeCore;
  sequencer: Sequencer;
  exchange: Exchange;
  /** Account ids by the numbering above. */
  accounts: number[];
  /** What the accepted commands did, over all runs, so the property is seen to say something. */
  seen: Map<string, number>;
}

function tally(seen: Map<string, number>, what: string, times = 1): void {
  seen.set(what, (seen.get(what) ?? 0) + times);
}

async function createWorld(seen: Map<string, number>, store: Store): Promise<World> {
  const core = new ExchangeCore();
  let now = T0;
  const clock = (): number => now++;
  const sequencer = new Sequencer({
    store,
    applier: core,
    clock,
    onCommit: (info) => {
      tally(seen, 'trades', info.rows.trades.length / 2);
      for (const { command } of info.commands) {
        tally(seen, command.type);
        if (command.type === 'transfer') tally(seen, `${command.flowType} from ${core.ledger.account(command.fromAccountId).accountIndex === 0 ? 'main' : 'sub'}`);
      }
      for (const row of info.rows.withdrawals) tally(seen, `withdrawal status ${row.status}`);
    },
  });
  const host: CoreHost = {
    core,
    history: store,
    snapshotSeq: 0,
    replayed: 0,
    submit: (command) => sequencer.submit(command),
    // Between two steps nothing is in flight: the flow sums and the journal are those of `core`.
    verify: async (options) => {
      const replayed = options.replay === true ? (await recoverAsync(store, { ignoreSnapshots: true, deriveRows: false })).core : undefined;
      return checkLedger(core, await store.flowSums(), clock(), replayed);
    },
    close: () => sequencer.close(),
  };
  const exchange = new Exchange(host, clock, new MarketData());
  for (const command of demoCatalogue()) await exchange.submit(command);
  const accounts: number[] = [];
  for (let u = 0; u < USERS; u++) {
    const created = await exchange.submit<{ userId: number; accountId: number }>({ type: 'createUser', email: `u${u}@example.com`, userType: 'user' });
    const sub = await exchange.submit<{ accountId: number }>({ type: 'createSubAccount', userId: created.userId, name: '' });
    accounts.push(created.accountId, sub.accountId);
  }
  for (const accountId of accounts) {
    for (const [asset, amount] of [
      ['BTC', '2'],
      ['ETH', '30'],
      ['USDT', '60000'],
    ]) {
      await exchange.submit({ type: 'deposit', accountId, asset, amount, txId: 'seed' });
    }
  }
  return { store, core, sequencer, exchange, accounts, seen };
}

function toCommand(op: Op, { core, accounts }: World): Command {
  const amount = (a: bigint): string => formatUnits(a, 8);
  switch (op.kind) {
    case 'deposit':
      return { type: 'deposit', accountId: accounts[op.account], asset: ASSETS[op.asset], amount: amount(op.atoms), txId: 'tx' };
    case 'limit':
      return limitNearMid(core, accounts[op.account], SYMBOLS[op.symbol], op);
    case 'market':
      return marketNearMid(core, accounts[op.account], SYMBOLS[op.symbol], op);
    case 'cancel':
      return cancelPick(core, accounts[op.account], op.pick, 3);
    case 'subTransfer': {
      const [main, sub] = [accounts[op.user * 2], accounts[op.user * 2 + 1]];
      return {
        type: 'transfer',
        fromAccountId: op.toSub ? main : sub,
        toAccountId: op.toSub ? sub : main,
        asset: ASSETS[op.asset],
        amount: amount(op.atoms),
        flowType: 'USER_ACCOUNT_TRANSFER',
      };
    }
    case 'userTransfer':
      // A32 moves main to main; the same client id with other values is refused (-1174), a self-transfer too.
      return {
        type: 'transfer',
        fromAccountId: accounts[op.from * 2],
        toAccountId: accounts[op.to * 2],
        asset: ASSETS[op.asset],
        amount: amount(op.atoms),
        flowType: USER_TRANSFER_TYPES[op.businessType],
        clientOrderId: `u${op.client}`,
      };
    case 'withdraw':
      return {
        type: 'withdraw',
        accountId: accounts[op.account],
        asset: ASSETS[op.asset],
        amount: amount(op.atoms),
        address: 'addr',
        addressExt: '',
        chainType: ASSETS[op.asset] === 'USDT' ? 'TRC20' : ASSETS[op.asset],
        clientOrderId: `w${op.client}`,
      };
    case 'settle': {
      const waiting = [...core.funds.withdrawals.values()].filter((w) => w.row.status === WITHDRAWAL_AUDITING).map((w) => w.row.withdrawalId);
      // Mostly a waiting withdrawal; sometimes any id, settled already or unknown (refused).
      const withdrawalId = waiting.length > 0 && op.pick % 4 !== 0 ? waiting[op.pick % waiting.length] : (op.pick % (core.funds.nextWithdrawalId + 1)) + 1;
      return { type: 'settleWithdrawal', withdrawalId, approve: op.approve, txId: 'tx', reason: '' };
    }
  }
}

/** Verify must hold and no balance may be negative; the message says what broke. */
async function checkStep(world: World, step: number): Promise<void> {
  const report = await world.exchange.verify();
  if (!report.ok) throw new Error(`after step ${step}, verify failed: ${JSON.stringify(report.details.filter((d) => d.mismatch !== undefined))}`);
  for (const acc of world.core.ledger.accounts.values()) {
    for (const [asset, balance] of acc.balances) {
      if (balance.free < 0n || balance.locked < 0n) {
        throw new Error(`after step ${step}, account ${acc.accountId} holds ${balance.free}/${balance.locked} atoms of ${asset}`);
      }
    }
  }
}

describe.each(STORES)('accounts: verify holds under any interleaving, on %s', (_name, openStore, numRuns) => {
  it('when orders, cancels, deposits, transfers and withdrawals interleave across accounts, then verify holds at every step and on replay', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(stepsArb, async (steps) => {
        const world = await createWorld(seen, await openStore());
        try {
          await checkStep(world, 0);
          for (const [index, ops] of steps.entries()) {
            const outcomes = await Promise.allSettled(ops.map((op) => world.exchange.submit(toCommand(op, world))));
            for (const outcome of outcomes) {
              if (outcome.status === 'fulfilled') continue;
              // A refusal is a registry error; anything else is a bug in the core.
              if (!(outcome.reason instanceof BourseError)) throw outcome.reason;
              tally(seen, `refused ${outcome.reason.code}`);
            }
            await checkStep(world, index + 1);
          }
          const final = await world.exchange.verify({ replay: true });
          expect(final.replay?.ok).toBe(true);
          expect(final.ok).toBe(true);
        } finally {
          await world.sequencer.close();
          await world.store.close();
        }
      }),
      { seed: 20_251_124, numRuns },
    );
    // The streams must really trade, transfer and settle both ways, or the property says little (counts per 100 runs).
    const times = (what: string): number => (seen.get(what) ?? 0) * (100 / numRuns);
    expect(times('trades')).toBeGreaterThan(200);
    expect(times('USER_ACCOUNT_TRANSFER from main')).toBeGreaterThan(50);
    expect(times('USER_ACCOUNT_TRANSFER from sub')).toBeGreaterThan(50);
    expect(times('TRANSFER from main') + times('AIRDROP from main') + times('MINE_REWARD from main')).toBeGreaterThan(50);
    expect(times('withdrawal status 6')).toBeGreaterThan(20);
    expect(times('withdrawal status 2')).toBeGreaterThan(20);
    expect(times('cancelOrder')).toBeGreaterThan(20);
    for (const code of [-1131, -1174]) expect(times(`refused ${code}`)).toBeGreaterThan(20);
  });
});
