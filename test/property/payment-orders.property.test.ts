/**
 * Property: whatever story of area B payment orders runs (orders of the three kinds created with
 * random amounts, rails, beneficiaries, quotes and merchants, some placed on behalf; review and
 * payout modes switched at random; docs/merchant-payments.md "The simulator and the sandbox API" decisions, payouts, expiries, releases, confirms and uploads
 * on random orders; bank arrivals paying an order exactly, wrongly, in another fiat or to another
 * merchant; quotes made, used and expired; price overrides set and removed; refund accounts; limits;
 * deadlines fired as the clock moves on) while a market maker and traders place and cancel LIMIT and
 * MARKET orders on USDTMXN and USDTUSD, so that the books move between a quote and an order, and the
 * operator rebalances the desk through area A on the same books (docs/merchant-payments.md), then:
 *
 * - every command is applied or refused; any other error is a bug and fails the property; a due
 *   deadline is never refused (a late one is dropped, docs/merchant-payments.md "Exactly-once settlement");
 * - after every step: the module's checks hold (the locked balances of every M, of D and of FEE
 *   equal what open orders, the desk's own area A orders and pending claims reserve), per asset
 *   balances sum to deposits minus withdrawals, no balance is negative, `verify` holds, every order
 *   only moved along the graph of docs/merchant-payments.md "Order statuses" (test/support/order-statuses.ts), the limits' usage is what
 *   open and released orders committed, and the desk and FEE hold exactly their funding (plus the
 *   desk's own trades) and what the orders' statuses say moved: no order settled twice, or settled
 *   without reaching its status;
 * - after every run: every order that reached 60 left the desk no poorer at the order price (f2c
 *   (A−F) ≥ Q × price; c2f G = N + F ≤ Q × price; f2f Y = Z + Ff ≤ (X−Fo) × rate), every amount is
 *   rounded once by less than one unit in the platform's favour, failure codes match the terminal
 *   status, the store's rows (B33 objects, funding records) agree with the core, `verify` with
 *   replay holds, a replay of the journal and a snapshot round trip reach the same state hash, and
 *   so does a snapshot taken midway once the rest of the journal is applied to it.
 *
 * Commands go through the real Sequencer into the real ExchangeCore and an in-memory store
 * (test/support/payments-core.ts); automatic decisions are journaled follow-ups. Each step submits
 * 1–2 commands in one event-loop turn (one batch), then the deadlines due at `h.now`, after moving
 * the clock on now and then by seconds, half an hour or a day. Commands are built from the state at
 * the start of the step; most aim at an order they can act on, the rest at any, so that both the
 * accepted paths and the refusals run.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatUnits } from '../../src/core/decimal.js';
import type { OrderRequest } from '../../src/core/payment-commands.js';
import { Refusal } from '../../src/core/refusal.js';
import { emptyDerivedRows, FLOW_TYPES, type Command } from '../../src/core/types.js';
import { restoreCore, serializeCore, stateHash } from '../../src/exchange/snapshot.js';
import { verifyLedger } from '../../src/exchange/verify.js';
import { PENDING_FUND_RAIL } from '../../src/payments/config.js';
import { formatFixed, unitsOf } from '../../src/payments/money.js';
import type { Money, OrderKind, PaymentOrder, Quote } from '../../src/payments/orders.js';
import { mayMove } from '../support/order-statuses.js';
import { demoCatalogue } from '../support/core-harness.js';
import { checkLedgerWhole, PaymentsCore } from '../support/payments-core.js';
import { cancelPick } from '../support/spot-ops.js';

/** Ledger precision of every asset here (the demo catalogue's). */
const PRECISION = 8;
const MERCHANTS = 2;
/** Area A accounts trading on the books: the market maker first, then two traders. */
const TRADERS = 3;
const BOOKS = [
  { symbol: 'USDTMXN', fiat: 'MXN', askTicks: 191_680, bidTicks: 191_500, levelTicks: 10, offsetTicks: 5 },
  { symbol: 'USDTUSD', fiat: 'USD', askTicks: 10_010, bidTicks: 9_990, levelTicks: 5, offsetTicks: 1 },
] as const;
/** What a trader may lose in one order, in lots of 0.01 USDT. */
const MAX_LOTS = 300_000;
const COUNTRY: Readonly<Record<string, string>> = { MXN: 'Mexico', USD: 'United States', EUR: 'United States' };
/** docs/merchant-payments.md "Failure codes": the failure codes each terminal status may carry, by kind. */
const FAIL_CODES: Readonly<Record<string, readonly number[]>> = {
  'fiat_to_crypto:70': [-7002, -7003, -7004],
  'crypto_to_fiat:70': [-7000, -7001, -7002, -7003],
  'fiat_to_fiat:71': [-7002, -7003, -7004],
  'fiat_to_fiat:72': [-7000, -7001],
};

type Caller = 'owner' | 'admin' | 'stranger';
/** How an amount is chosen: a usual one, a tiny one, a huge one, or at the edge of what is there. */
type AmountPick = { how: 'usual' | 'tiny' | 'huge' | 'edge'; n: bigint; delta: number };
type CreateKind = 'f2c' | 'c2f' | 'f2f';

type Op =
  | { kind: 'modes'; orderReview?: string; payout?: string; payoutFailCode?: number }
  | { kind: 'create'; order: CreateKind; variant: number; merchant: number; offMerchant: number; amount: AmountPick; onBehalf: boolean; quote: 'none' | 'own' | 'any'; share: number; client: number; caller: Caller }
  | { kind: 'review'; aim: boolean; pick: number; decision: 'approve' | 'rfi' | 'documents' | 'reject'; caller: Caller }
  | { kind: 'payout'; aim: boolean; pick: number; success: boolean; failCode: number; caller: Caller }
  | { kind: 'expire'; aim: boolean; pick: number; caller: Caller }
  | { kind: 'release'; aim: boolean; pick: number; caller: Caller }
  | { kind: 'confirm'; aim: boolean; pick: number; direction: 'on_ramp' | 'off_ramp' | 'none'; wrongKind: boolean; caller: Caller }
  | { kind: 'attach'; aim: boolean; pick: number; files: number; caller: Caller }
  | { kind: 'pay'; aim: boolean; pick: number; how: 'exact' | 'more' | 'less' | 'otherFiat' | 'otherMerchant'; cents: bigint; trace: number; admin: boolean }
  | { kind: 'quote'; order: CreateKind; usd: boolean; amount: AmountPick; caller: Caller }
  | { kind: 'expireQuote'; pick: number; caller: Caller }
  | { kind: 'override'; pair: number; at: number; extreme: 'no' | 'low' | 'high' | 'bad'; remove: boolean }
  | { kind: 'refundAccount'; merchant: number; usd: boolean; foreign: boolean }
  | { kind: 'settle'; pick: number; complete: boolean }
  | { kind: 'fund'; merchant: number; asset: 'MXN' | 'USD' | 'USDT' | 'BTC'; n: bigint }
  | { kind: 'limits'; merchant: number; tight: boolean; user: boolean }
  | { kind: 'limit'; trader: number; book: number; buy: boolean; offset: number; lots: number; ioc: boolean }
  | { kind: 'market'; trader: number; book: number; buy: boolean; lots: number }
  | { kind: 'cancel'; trader: number; pick: number }
  | { kind: 'deskTrade'; book: number; buy: boolean; perMille: number; rest: boolean; offset: number };

interface Step {
  ops: Op[];
  /** Milliseconds the clock moves on after the commands (0: only the 1 ms per command). */
  advance: number;
}

/** What a run starts with: the desk's inventory, the books' depth, the open-orders cap, the user's modes. */
interface RunSetup {
  /** Per asset, the desk's inventory: short (0), modest (1) or rich (2). */
  desk: { USDT: number; MXN: number; USD: number };
  /** Books deep enough for orders up to the maximum (else large orders find the depth short, -5027). */
  deepBooks: boolean;
  openCap: number;
  orderReview: string;
  payout: string;
  payoutFailCode: number;
}

const caller: fc.Arbitrary<Caller> = fc.oneof({ weight: 6, arbitrary: fc.constant('owner' as const) }, { weight: 4, arbitrary: fc.constant('admin' as const) }, { weight: 1, arbitrary: fc.constant('stranger' as const) });
const ownerOrStranger: fc.Arbitrary<Caller> = fc.oneof({ weight: 10, arbitrary: fc.constant('owner' as const) }, { weight: 1, arbitrary: fc.constant('stranger' as const) });
const aim = fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
const pick = fc.nat();
const amountPick: fc.Arbitrary<AmountPick> = fc.record({
  how: fc.oneof({ weight: 8, arbitrary: fc.constant('usual' as const) }, { weight: 2, arbitrary: fc.constant('tiny' as const) }, { weight: 2, arbitrary: fc.constant('huge' as const) }, { weight: 2, arbitrary: fc.constant('edge' as const) }),
  n: fc.bigInt({ min: 0n, max: 1n << 40n }),
  delta: fc.integer({ min: -1, max: 1 }),
});
const weighted = <T>(...entries: [number, T][]): fc.Arbitrary<T> => fc.oneof(...entries.map(([weight, value]) => ({ weight, arbitrary: fc.constant(value) })));

const modesArb = fc.record(
  {
    kind: fc.constant('modes' as const),
    orderReview: weighted<string>([6, 'approve'], [2, 'rfi'], [2, 'documents'], [1, 'reject'], [3, 'manual']),
    payout: weighted<string>([5, 'success'], [2, 'fail'], [3, 'manual']),
    payoutFailCode: fc.constantFrom(-7001, -7000),
  },
  { requiredKeys: ['kind'] },
);
const createArb = fc.record({
  kind: fc.constant('create' as const),
  order: weighted<CreateKind>([3, 'f2c'], [3, 'c2f'], [4, 'f2f']),
  variant: fc.nat({ max: 99 }),
  merchant: fc.nat({ max: 5 }),
  offMerchant: fc.nat({ max: 2 }),
  amount: amountPick,
  onBehalf: weighted([5, false], [1, true]),
  quote: weighted<'none' | 'own' | 'any'>([6, 'none'], [3, 'own'], [1, 'any']),
  share: fc.integer({ min: 1, max: 1100 }),
  client: fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat({ max: 12 }) }),
  caller: ownerOrStranger,
});

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: modesArb },
  { weight: 16, arbitrary: createArb },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('review' as const), aim, pick, decision: weighted<'approve' | 'rfi' | 'documents' | 'reject'>([4, 'approve'], [2, 'rfi'], [2, 'documents'], [1, 'reject']), caller }) },
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('payout' as const), aim, pick, success: weighted([2, true], [3, false]), failCode: weighted([4, 0], [2, -7001], [2, -7000], [1, -7002]), caller }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('expire' as const), aim, pick, caller }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('release' as const), aim, pick, caller }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('confirm' as const), aim, pick, direction: weighted<'on_ramp' | 'off_ramp' | 'none'>([4, 'on_ramp'], [1, 'off_ramp'], [1, 'none']), wrongKind: weighted([8, false], [1, true]), caller: ownerOrStranger }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('attach' as const), aim, pick, files: fc.integer({ min: 1, max: 3 }), caller }) },
  {
    weight: 14,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      aim,
      pick,
      how: weighted<'exact' | 'more' | 'less' | 'otherFiat' | 'otherMerchant'>([8, 'exact'], [2, 'more'], [2, 'less'], [1, 'otherFiat'], [1, 'otherMerchant']),
      cents: fc.bigInt({ min: 1n, max: 50_000n }),
      trace: fc.nat({ max: 30 }),
      admin: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('quote' as const), order: weighted<CreateKind>([2, 'f2c'], [1, 'c2f'], [1, 'f2f']), usd: weighted([4, false], [1, true]), amount: amountPick, caller: ownerOrStranger }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('expireQuote' as const), pick, caller }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('override' as const),
      pair: fc.nat(),
      at: fc.nat({ max: 1000 }),
      extreme: weighted<'no' | 'low' | 'high' | 'bad'>([12, 'no'], [1, 'low'], [1, 'high'], [1, 'bad']),
      remove: weighted([3, false], [2, true]),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refundAccount' as const), merchant: fc.nat({ max: MERCHANTS - 1 }), usd: fc.boolean(), foreign: weighted([6, false], [1, true]) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('settle' as const), pick, complete: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('fund' as const), merchant: fc.nat({ max: MERCHANTS - 1 }), asset: weighted<'MXN' | 'USD' | 'USDT' | 'BTC'>([3, 'MXN'], [1, 'USD'], [2, 'USDT'], [1, 'BTC']), n: fc.bigInt({ min: 1n, max: 10_000_000_000n }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('limits' as const), merchant: fc.nat({ max: MERCHANTS - 1 }), tight: fc.boolean(), user: fc.boolean() }) },
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('limit' as const), trader: fc.nat({ max: TRADERS - 1 }), book: fc.nat({ max: BOOKS.length - 1 }), buy: fc.boolean(), offset: fc.integer({ min: -12, max: 12 }), lots: fc.nat(), ioc: weighted([3, false], [1, true]) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('market' as const), trader: fc.nat({ max: TRADERS - 1 }), book: fc.nat({ max: BOOKS.length - 1 }), buy: fc.boolean(), lots: fc.nat() }) },
  // Index TRADERS: the desk cancels one of its resting orders.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cancel' as const), trader: fc.nat({ max: TRADERS }), pick }) },
  // The operator rebalances the desk through area A (docs/merchant-payments.md): MARKET orders, and LIMIT orders that may rest (cancelled by `cancel`).
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('deskTrade' as const),
      book: fc.nat({ max: BOOKS.length - 1 }),
      buy: fc.boolean(),
      perMille: fc.integer({ min: 1, max: 1000 }),
      rest: weighted([2, false], [1, true]),
      offset: fc.integer({ min: -12, max: 12 }),
    }),
  },
);

/** Clock moves: none mostly; seconds (quotes expire); about half an hour (accept, payment, release windows); a day (documents, day limits). */
const advanceArb = fc.oneof(
  { weight: 14, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 20_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 600_000, max: 2_400_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 86_000_000, max: 90_000_000 }) },
);
const stepArb: fc.Arbitrary<Step> = fc.record({ ops: fc.array(opArb, { minLength: 1, maxLength: 2 }), advance: advanceArb });
const setupArb: fc.Arbitrary<RunSetup> = fc.record({
  // Per asset, a desk short of it (-5031; what pay-ins bring then backs later orders and rebalancing), modest or rich.
  desk: fc.record({ USDT: fc.nat({ max: 2 }), MXN: fc.nat({ max: 2 }), USD: fc.nat({ max: 2 }) }),
  deepBooks: fc.boolean(),
  openCap: weighted([3, 50], [1, 2]),
  // The modes a run opens with: manual decisions and payouts are common, so that orders wait in every status.
  orderReview: weighted<string>([5, 'approve'], [1, 'rfi'], [1, 'documents'], [1, 'reject'], [3, 'manual']),
  payout: weighted<string>([2, 'success'], [1, 'fail'], [4, 'manual']),
  payoutFailCode: fc.constantFrom(-7001, -7000),
});
const stepsArb = fc.array(stepArb, { minLength: 1, maxLength: 80, size: 'max' });

interface MerchantRef {
  merchantId: number;
  accountId: number;
  /** Its valid beneficiaries: SPEI (MXN) and WIRE (USD). */
  mxn: number;
  usd: number;
}

interface World {
  h: PaymentsCore;
  userId: number;
  /** Another merchant-type user: to it, the first one's objects do not exist. */
  strangerId: number;
  merchants: MerchantRef[];
  /** Area A accounts on the books: market maker, then traders (the desk trades too, see `deskTrade`). */
  traders: number[];
  /** What the desk was funded with, in atoms per asset. */
  deskFunding: Map<string, bigint>;
  quoteIds: string[];
  /** Each order's status after the previous step. */
  lastStatus: Map<number, number>;
  seen: Map<string, number>;
}

function tally(seen: Map<string, number>, what: string, times = 1): void {
  seen.set(what, (seen.get(what) ?? 0) + times);
}

function fail(message: string): never {
  throw new Error(message);
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);
const atomsOf = (m: Money): bigint => m.units * pow10(PRECISION - m.accuracy);
const textAtoms = (text: string): bigint => unitsOf(text, PRECISION) ?? fail(`not a decimal: ${text}`);
const signedAtoms = (text: string): bigint => (text.startsWith('-') ? -textAtoms(text.slice(1)) : textAtoms(text));
const ownerOf = (world: World, who: Caller): number => (who === 'owner' ? world.userId : who === 'admin' ? 0 : world.strangerId);
const money = (units: bigint, accuracy: number): string => formatFixed(units, accuracy);

/** Submits commands in one event-loop turn, so that they form one batch (a run sets up in four); their results in order. */
function batch<T = unknown>(h: PaymentsCore, commands: readonly Command[]): Promise<T[]> {
  return Promise.all(commands.map((command) => h.submit<T>(command)));
}

async function createWorld(seen: Map<string, number>, setup: RunSetup): Promise<World> {
  const h = new PaymentsCore();
  // Demo assets and symbols, the desk; the merchant user, another merchant user, the market maker and two traders.
  const users = ['ops@acme.mx', 'other@acme.mx', 'trader0@example.com', 'trader1@example.com', 'trader2@example.com'];
  const created = await batch<{ userId: number; accountId: number }>(h, [
    ...demoCatalogue(),
    { type: 'paymentsSetUp', sandbox: true },
    ...users.map((email, i): Command => ({ type: 'createUser', email, userType: i < 2 ? 'merchant' : 'user' })),
  ]);
  const [merchantUser, stranger, ...traderUsers] = created.slice(-users.length);
  const userId = merchantUser.userId;
  const traders = traderUsers.map((u) => u.accountId);
  const desk = h.core.payments.state.deskAccountId;
  const deskFunds: [string, string][] = [
    ['USDT', ['300', '5000', '200000'][setup.desk.USDT]],
    ['BTC', ['0.01', '0.5', '5'][setup.desk.USDT]],
    ['MXN', ['500', '50000', '4000000'][setup.desk.MXN]],
    ['USD', ['300', '5000', '200000'][setup.desk.USD]],
  ];
  const deskFunding = new Map(deskFunds.map(([asset, amount]) => [asset, textAtoms(amount)]));
  // Modes, the desk's inventory, traders without fees (so that FEE holds area B fees only) and their funds, two merchants.
  const names = ['Shop A', 'Shop B'];
  const second = await batch<{ merchantId?: number }>(h, [
    ...(setup.openCap === 50 ? [] : [{ type: 'setPaymentsConfig', patch: { maxOpenOrdersPerMerchant: setup.openCap } } as Command]),
    { type: 'setSandboxModes', userId, modes: { orderReview: setup.orderReview, payout: setup.payout, payoutFailCode: setup.payoutFailCode } },
    ...deskFunds.map(([asset, amount]): Command => ({ type: 'deposit', accountId: desk, asset, amount, txId: `desk-${asset}` })),
    { type: 'setFeeRates', accountId: desk, makerFeeRate: '0', takerFeeRate: '0' },
    ...traders.flatMap((accountId, t): Command[] => [
      { type: 'setFeeRates', accountId, makerFeeRate: '0', takerFeeRate: '0' },
      ...(
        [
          ['USDT', t === 0 ? '2000000' : '300000'],
          ['MXN', t === 0 ? '60000000' : '6000000'],
          ['USD', t === 0 ? '3000000' : '300000'],
        ] as const
      ).map(([asset, amount]): Command => ({ type: 'deposit', accountId, asset, amount, txId: 'seed' })),
    ]),
    ...names.map(
      (name): Command => ({
        type: 'createMerchant',
        userId,
        merchantName: name,
        email: `${name.toLowerCase().replace(' ', '.')}@example.mx`,
        merchantType: 'BUSINESS',
        callbackUrl: 'https://acme.example/kyc-done',
        languageCode: 'en',
        remark: '',
        kycToken: `kyc-${name}`,
      }),
    ),
  ]);
  const merchantIds = second.slice(-names.length).map((r) => r.merchantId ?? fail('no merchantId'));
  // Accounts in MXN and USD (approved automatically), and the book of docs/merchant-payments.md "Quotes and orders" a few levels deep: prices for quotes and orders, which trading then moves.
  await batch(h, [
    ...merchantIds.flatMap((merchantId) => ['MXN', 'USD'].map((fiat): Command => ({ type: 'activateMerchantAccount', userId, merchantId, fiat, fieldList: {}, verifyToken: `verify-${merchantId}-${fiat}` }))),
    ...BOOKS.flatMap((book) => {
      const spec = h.core.spot.symbol(book.symbol).spec;
      const price = (ticks: number): string => formatUnits(BigInt(ticks) * spec.tickSizeAtto, 18);
      return [0, 1, 2, 3].flatMap((level): Command[] => {
        const quantity = String(setup.deepBooks ? 5000 + level * 20_000 : 1000 + level * 1500);
        return [
          { type: 'placeOrder', accountId: traders[0], symbol: book.symbol, side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: price(book.askTicks + level * book.levelTicks), quantity },
          { type: 'placeOrder', accountId: traders[0], symbol: book.symbol, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: price(book.bidTicks - level * book.levelTicks), quantity },
        ];
      });
    }),
  ]);
  // Valid beneficiaries in MXN (SPEI) and USD (wire), the pending funds (bank deposits) and crypto in each M.
  const accountIdOf = (merchantId: number): number => h.core.payments.state.merchants.get(merchantId)?.accountId ?? fail(`no merchant ${merchantId}`);
  const fourth = await batch<{ userPaymentId?: number }>(h, [
    ...merchantIds.flatMap((merchantId): Command[] => [
      { type: 'addBeneficiary', userId, merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldList: {}, accountKey: `012180000000000${merchantId}`, remark: '' },
      { type: 'addBeneficiary', userId, merchantId, paymentId: 83, country: 'United States', fiat: 'USD', realName: 'Juan Perez', fieldList: {}, accountKey: `026009593:00012345${merchantId}`, remark: '' },
    ]),
    ...merchantIds.flatMap((merchantId): Command[] => [
      ...(
        [
          ['MXN', '200000.00'],
          ['USD', '20000.00'],
        ] as const
      ).map(([fiat, amount]): Command => ({ type: 'bankArrival', userId, merchantId, fiat, amount, reference: '', traceNumber: `seed-${fiat}`, payerName: '', payerAccount: '', cardNo: '', taxId: '', description: '' })),
      { type: 'deposit', accountId: accountIdOf(merchantId), asset: 'USDT', amount: '5000', txId: 'seed-usdt' },
    ]),
  ]);
  const merchants = merchantIds.map((merchantId, i) => ({
    merchantId,
    accountId: accountIdOf(merchantId),
    mxn: fourth[2 * i].userPaymentId ?? fail('no beneficiary'),
    usd: fourth[2 * i + 1].userPaymentId ?? fail('no beneficiary'),
  }));
  for (const m of merchants) {
    if (!['MXN', 'USD'].every((fiat) => h.core.payments.state.merchantAccounts.get(`${m.merchantId}:${fiat}`)?.status === 2)) fail(`merchant ${m.merchantId} has no active accounts`);
  }
  return { h, userId, strangerId: stranger.userId, merchants, traders, deskFunding, quoteIds: [], lastStatus: new Map(), seen };
}

const orders = (world: World): PaymentOrder[] => [...world.h.core.payments.state.orders.values()];

/** Mostly (with `aim`) an order `wanted` accepts; otherwise any order, now and then an id that does not exist (-5101). */
function pickOrder(world: World, aimed: boolean, n: number, wanted: (o: PaymentOrder) => boolean): PaymentOrder | undefined {
  const all = orders(world);
  const good = all.filter(wanted);
  if (aimed && good.length > 0) return good[n % good.length];
  if (all.length > 0 && n % 6 !== 0) return all[n % all.length];
  return undefined;
}

const NO_ORDER = 9_999_999;
const awaitingPayIn = (o: PaymentOrder): boolean => (o.kind === 'fiat_to_crypto' && o.status === 40 && o.paymentId !== PENDING_FUND_RAIL) || (o.kind === 'fiat_to_fiat' && o.status === 41);
const payoutInFlight = (o: PaymentOrder): boolean => (o.kind === 'crypto_to_fiat' && o.status === 40) || (o.kind === 'fiat_to_fiat' && o.status === 51);

function freeUnits(world: World, accountId: number, asset: string, accuracy: number): bigint {
  return world.h.free(accountId, asset) / pow10(PRECISION - accuracy);
}

/** Units of an amount: usual (in `usual` range), tiny (under minimums), huge (over limits and balances), or at the edge of `available` ± 1. */
function unitsFor(choice: AmountPick, usual: [bigint, bigint], tinyMax: bigint, hugeMax: bigint, available: bigint): bigint {
  const span = (lo: bigint, hi: bigint): bigint => lo + (choice.n % (hi - lo + 1n));
  switch (choice.how) {
    case 'usual':
      return span(usual[0], usual[1]);
    case 'tiny':
      return span(1n, tinyMax);
    case 'huge':
      return span(usual[1], hugeMax);
    case 'edge': {
      const edge = available + BigInt(choice.delta);
      return edge > 0n ? edge : span(usual[0], usual[1]);
    }
  }
}

/** Fiat units (accuracy 2) of an order in `fiat`: usual 100–20000 MXN or 10–1500 USD. */
function fiatUnits(choice: AmountPick, fiat: string, available: bigint): bigint {
  return fiat === 'USD' ? unitsFor(choice, [1_000n, 150_000n], 1_500n, 20_000_000n, available) : unitsFor(choice, [10_000n, 2_000_000n], 12_000n, 200_000_000n, available);
}

/** Price overrides a run may set: pair, accuracy and a plausible range of units. */
const OVERRIDES = [
  { from: 'USDT', to: 'MXN', accuracy: 4, lo: 170_000n, hi: 210_000n },
  { from: 'MXN', to: 'USDT', accuracy: 4, lo: 185_000n, hi: 195_000n },
  { from: 'USDT', to: 'USD', accuracy: 4, lo: 9_500n, hi: 10_500n },
  { from: 'MXN', to: 'USD', accuracy: 6, lo: 45_000n, hi: 60_000n },
  { from: 'USD', to: 'MXN', accuracy: 6, lo: 16_000_000n, hi: 21_000_000n },
  { from: 'BTC', to: 'MXN', accuracy: 2, lo: 90_000_000n, hi: 120_000_000n },
  { from: 'MXN', to: 'MXN', accuracy: 2, lo: 100n, hi: 200n },
] as const;

/** A command built for a step, and what its answer must be when it runs alone in its step. */
interface Built {
  command: Command;
  /** A label tallied when it is accepted. */
  label: string;
  /** Checked on the result when the command was alone in its step (a second command could have moved the order). */
  expect?: (result: unknown, world: World) => void;
}

let quoteCounter = 0;

function buildCreate(op: Extract<Op, { kind: 'create' }>, world: World): Built {
  const { h } = world;
  const m = world.merchants[op.merchant % MERCHANTS];
  const other = world.merchants[(op.merchant + 1) % MERCHANTS];
  // Sometimes no merchant id: the user's lowest verified merchant (docs/merchant-payments.md "Endpoints served").
  const merchantId = op.merchant >= 4 ? undefined : m.merchantId;
  const self = h.core.payments.state.merchants.get(merchantId ?? world.merchants[0].merchantId) as { accountId: number };
  // `own`: the order takes the quote's currencies and at most (mostly) its amount; `any`: only its id.
  const quote = op.quote === 'own' ? ownQuote(world, op) : undefined;
  const quoteId = op.quote === 'none' ? '' : op.quote === 'any' ? anyQuoteId(world, op.variant) : (quote?.quoteId ?? '');
  let order: OrderRequest;
  let label: string;
  const v = op.variant;
  if ((quote?.kind ?? toKind(op.order)) === 'fiat_to_crypto') {
    // Mostly MXN by SPEI or from the pending fund; USD by wire or fund; BTC; a rail of another fiat (-5051); EUR without an account (-5070).
    const variants = [
      ['MXN', 'USDT', 58, 30],
      ['MXN', 'USDT', 70, 25],
      ['USD', 'USDT', 83, 15],
      ['USD', 'USDT', 70, 10],
      ['MXN', 'BTC', 58, 8],
      ['MXN', 'USDT', 83, 6],
      ['EUR', 'USDT', 85, 6],
    ] as const;
    const [variantFiat, variantCrypto, paymentId] = choose(variants, v);
    const [fiat, crypto]: string[] = quote !== undefined ? [quote.from, quote.to] : [variantFiat, variantCrypto];
    const available = paymentId === PENDING_FUND_RAIL ? freeUnits(world, self.accountId, fiat, 2) : 0n;
    const units = quote !== undefined ? (quote.amount.units * BigInt(op.share)) / 1000n || 1n : fiatUnits(op.amount, fiat, available);
    order = { kind: 'fiat_to_crypto', merchantId, country: COUNTRY[fiat], crypto, fiat, fiatAmount: money(units, 2), paymentId };
    label = `create f2c ${fiat}/${crypto} ${paymentId === PENDING_FUND_RAIL ? 'fund' : 'bank'}`;
  } else if ((quote?.kind ?? toKind(op.order)) === 'crypto_to_fiat') {
    // To a beneficiary or the pending fund, MXN or USD; another merchant's beneficiary (-4027); one of another fiat (-5051); BTC that M has little of.
    const variants = [
      ['MXN', 'USDT', 'mxn', 30],
      ['MXN', 'USDT', 'fund', 25],
      ['USD', 'USDT', 'usd', 15],
      ['USD', 'USDT', 'fund', 10],
      ['MXN', 'USDT', 'foreign', 5],
      ['MXN', 'USDT', 'usd', 5],
      ['MXN', 'BTC', 'fund', 10],
    ] as const;
    const [variantFiat, variantCrypto, to] = choose(variants, v);
    const [fiat, crypto]: string[] = quote !== undefined ? [quote.to, quote.from] : [variantFiat, variantCrypto];
    const accuracy = crypto === 'BTC' ? 8 : 4;
    const available = freeUnits(world, self.accountId, crypto, accuracy);
    const units =
      quote !== undefined
        ? (quote.amount.units * BigInt(op.share)) / 1000n || 1n
        : crypto === 'BTC'
          ? unitsFor(op.amount, [100_000n, 2_000_000n], 1_000n, 1_000_000_000n, available)
          : unitsFor(op.amount, [60_000n, 5_000_000n], 50_000n, 2_000_000_000n, available);
    const userPaymentId = to === 'fund' ? PENDING_FUND_RAIL : to === 'mxn' ? m.mxn : to === 'usd' ? m.usd : other.mxn;
    order = { kind: 'crypto_to_fiat', merchantId, country: COUNTRY[fiat], crypto, fiat, cryptoAmount: money(units, accuracy), userPaymentId };
    label = `create c2f ${crypto}/${fiat} ${to}`;
  } else {
    // MXN → USD mostly, USD → MXN; 70 on the on-ramp (-5047); the same fiat twice (-5019); another merchant's beneficiary (-4027).
    const variants = [
      ['MXN', 'USD', 58, 'usd', 50],
      ['USD', 'MXN', 83, 'mxn', 20],
      ['MXN', 'USD', 70, 'usd', 5],
      ['MXN', 'MXN', 58, 'mxn', 5],
      ['MXN', 'USD', 58, 'foreign', 5],
    ] as const;
    const [variantOn, variantOff, onRampPaymentId, to] = choose(variants, v);
    const [onFiat, offFiat]: string[] = quote !== undefined ? [quote.from, quote.to] : [variantOn, variantOff];
    const offRamp = op.offMerchant === 2 ? other : m;
    const offRampPaymentId = to === 'usd' ? offRamp.usd : to === 'mxn' ? offRamp.mxn : (op.offMerchant === 2 ? m : other).usd;
    const units = quote !== undefined ? (quote.amount.units * BigInt(op.share)) / 1000n || 1n : fiatUnits(op.amount, onFiat, 0n);
    order = {
      kind: 'fiat_to_fiat',
      onRampMerchantId: merchantId,
      offRampMerchantId: op.offMerchant === 0 ? undefined : offRamp.merchantId,
      onRampCountry: COUNTRY[onFiat],
      onRampFiat: onFiat,
      onRampFiatAmount: money(units, 2),
      onRampPaymentId: quote !== undefined ? (onFiat === 'USD' ? 83 : 58) : onRampPaymentId,
      offRampCountry: COUNTRY[offFiat],
      offRampFiat: offFiat,
      offRampPaymentId: quote !== undefined ? (offFiat === 'USD' ? offRamp.usd : offRamp.mxn) : offRampPaymentId,
    };
    label = `create f2f ${onFiat}>${offFiat}`;
  }
  const clientId = op.client === 0 ? '' : `c-${op.client}`;
  // docs/merchant-payments.md "Quotes and orders", docs/merchant-payments.md "The simulator and the sandbox API": a quote's price is the order price exactly; without one, a price override replaces the books.
  const key = order.kind === 'fiat_to_fiat' ? `${order.onRampFiat}>${order.offRampFiat}` : `${order.crypto}/${order.fiat}`;
  const override = h.core.payments.state.priceOverrides.get(world.userId)?.get(key);
  const fixedPrice = quote !== undefined ? quote.price.units : quoteId === '' ? override : undefined;
  return {
    command: { type: 'createPaymentOrder', userId: ownerOf(world, op.caller), onBehalf: op.onBehalf, clientId, remark: '', quoteId, order },
    label: `${label}${quoteId === '' ? (override === undefined ? '' : ' at an override') : ' quoted'}`,
    expect: (result, w) => {
      const created = w.h.core.payments.state.orders.get((result as { orderId: number }).orderId) ?? fail(`created order ${JSON.stringify(result)} is missing`);
      if (fixedPrice !== undefined) expect([created.orderId, created.orderPrice.units]).toEqual([created.orderId, fixedPrice]);
      if (quote !== undefined) expect(w.h.core.payments.state.quotes.has(quote.quoteId)).toBe(false);
    },
  };
}

function toKind(order: CreateKind): OrderKind {
  return order === 'f2c' ? 'fiat_to_crypto' : order === 'c2f' ? 'crypto_to_fiat' : 'fiat_to_fiat';
}

/** One of weighted variants (the last member of each is its weight out of 100). */
function choose<T extends readonly unknown[]>(variants: readonly T[], n: number): T {
  let left = n % variants.reduce((sum, v) => sum + (v[v.length - 1] as number), 0);
  for (const variant of variants) {
    left -= variant[variant.length - 1] as number;
    if (left < 0) return variant;
  }
  return variants[0];
}

/** An active quote of the user, of the kind asked for if there is one. */
function ownQuote(world: World, op: Extract<Op, { kind: 'create' }>): Quote | undefined {
  const own = [...world.h.core.payments.state.quotes.values()].filter((q) => q.userId === world.userId && q.expireTime > world.h.now);
  return own.find((q) => q.kind === toKind(op.order)) ?? own[0];
}

/** Any quote id made in the run (active, expired, used, another user's), or one never made: mostly -5200. */
function anyQuoteId(world: World, n: number): string {
  return world.quoteIds.length === 0 || n % 5 === 0 ? `quote-never-${n}` : world.quoteIds[n % world.quoteIds.length];
}

function buildQuote(op: Extract<Op, { kind: 'quote' }>, world: World): Built {
  const fiat = op.usd ? 'USD' : 'MXN';
  const kind = toKind(op.order);
  const [from, to] = kind === 'fiat_to_crypto' ? [fiat, 'USDT'] : kind === 'crypto_to_fiat' ? ['USDT', fiat] : [fiat, op.usd ? 'MXN' : 'USD'];
  const amount = kind === 'crypto_to_fiat' ? money(unitsFor(op.amount, [60_000n, 5_000_000n], 50_000n, 2_000_000_000n, 0n), 4) : money(fiatUnits(op.amount, from, 0n), 2);
  const quoteId = `quote-${++quoteCounter}`;
  world.quoteIds.push(quoteId);
  return { command: { type: 'createQuote', userId: ownerOf(world, op.caller), quoteId, kind, from, to, amount }, label: `quote ${op.order}` };
}

function buildPay(op: Extract<Op, { kind: 'pay' }>, world: World): Built {
  // Half the time a global payment awaiting its pay-in if there is one (f2c orders are more numerous), else any awaiting one.
  const f2f = op.pick % 2 === 0 && orders(world).some((x) => x.kind === 'fiat_to_fiat' && x.status === 41);
  const o = pickOrder(world, op.aim, op.pick >> 1, f2f ? (x) => x.kind === 'fiat_to_fiat' && x.status === 41 : awaitingPayIn);
  const m = world.merchants[op.pick % MERCHANTS];
  const payee = o === undefined ? m.merchantId : (o.onRamp?.merchantId ?? o.merchantId);
  const due = o === undefined ? { units: 10_000n, accuracy: 2 } : (o.onRamp?.amount ?? (o.kind === 'crypto_to_fiat' ? o.gross : o.fiatAmount));
  const dueFiat = o === undefined ? 'MXN' : (o.onRamp?.fiat ?? o.fiat);
  let units = due.units;
  let fiat = dueFiat;
  let merchantId = payee;
  if (op.how === 'more') units += op.cents;
  if (op.how === 'less') units = units > op.cents ? units - op.cents : units > 1n ? units - 1n : units + 1n;
  if (op.how === 'otherFiat') fiat = dueFiat === 'MXN' ? 'USD' : 'MXN';
  if (op.how === 'otherMerchant') merchantId = world.merchants.find((x) => x.merchantId !== payee)?.merchantId ?? payee;
  const traceNumber = op.trace === 0 ? '' : `T-${op.trace}`;
  const seenBefore = traceNumber !== '' && world.h.core.payments.state.traceNumbers.get(merchantId)?.has(traceNumber) === true;
  const command: Command = {
    type: 'bankArrival',
    userId: op.admin ? 0 : world.userId,
    merchantId,
    fiat,
    amount: money(units, 2),
    reference: o === undefined ? String(NO_ORDER) : String(o.orderId),
    traceNumber,
    payerName: 'CENTAURE SA DE CV',
    payerAccount: '684180168000000000',
    cardNo: '',
    taxId: 'CCN2203099WA',
    description: 'Payment',
  };
  const exact = o !== undefined && op.how === 'exact' && awaitingPayIn(o) && !seenBefore;
  const refund = o !== undefined && o.kind !== 'crypto_to_fiat' && merchantId === payee && !exact && !seenBefore;
  // An arrival naming the merchant's own off-ramp order: rule 3 reads "an orderId of this merchant", the core applies rule 4 (a DEPOSIT); not asserted either way.
  const ownOffRamp = o !== undefined && o.kind === 'crypto_to_fiat' && merchantId === payee;
  const label = exact ? 'pay exact' : refund ? 'pay refunded' : ownOffRamp ? 'pay naming an off-ramp' : 'pay other';
  return {
    command,
    label,
    expect: (result, w) => {
      if (o === undefined || seenBefore || ownOffRamp) return;
      const answer = result as { result: string; orderId: string };
      const after = w.h.core.payments.state.orders.get(o.orderId) ?? fail(`order ${o.orderId} vanished`);
      // docs/merchant-payments.md "Bank arrivals and refunds" rules 2–4.
      if (exact) {
        expect(answer).toMatchObject({ result: 'ORDER_PAID', orderId: String(o.orderId) });
        expect(after.kind === 'fiat_to_fiat' ? [51, 60, 72] : [60]).toContain(after.status);
        if (after.kind === 'fiat_to_crypto' && traceNumber !== '') expect(after.traceNumber).toBe(traceNumber);
      } else if (refund) {
        expect(answer).toMatchObject({ result: 'REFUND', orderId: String(o.orderId) });
        expect(after.hasRefund).toBe(true);
      } else {
        expect(answer.result).toBe('DEPOSIT');
      }
    },
  };
}

function buildOverride(op: Extract<Op, { kind: 'override' }>, world: World): Built {
  const spec = OVERRIDES[op.pair % OVERRIDES.length];
  if (op.remove) return { command: { type: 'setPriceOverride', userId: world.userId, from: spec.from, to: spec.to }, label: 'override removed' };
  const units = op.extreme === 'low' ? 1n : op.extreme === 'high' ? spec.hi * 1000n : spec.lo + ((spec.hi - spec.lo) * BigInt(op.at)) / 1000n;
  const price = op.extreme === 'bad' ? `${money(units, spec.accuracy)}7` : money(units, spec.accuracy);
  return { command: { type: 'setPriceOverride', userId: world.userId, from: spec.from, to: spec.to, price }, label: 'override set' };
}

function toBuilt(op: Op, world: World): Built {
  const { h } = world;
  const state = h.core.payments.state;
  const orderId = (o: PaymentOrder | undefined): number => o?.orderId ?? NO_ORDER;
  switch (op.kind) {
    case 'modes': {
      const modes: Record<string, unknown> = {};
      if (op.orderReview !== undefined) modes.orderReview = op.orderReview;
      if (op.payout !== undefined) modes.payout = op.payout;
      if (op.payoutFailCode !== undefined) modes.payoutFailCode = op.payoutFailCode;
      return { command: { type: 'setSandboxModes', userId: world.userId, modes }, label: 'modes' };
    }
    case 'create':
      return buildCreate(op, world);
    case 'review': {
      const o = pickOrder(world, op.aim, op.pick, (x) => x.status === 10 || x.status === 12);
      return { command: { type: 'reviewOrder', userId: ownerOf(world, op.caller), orderId: orderId(o), decision: op.decision }, label: `review ${op.decision}` };
    }
    case 'payout': {
      // Mostly a global payment in 51 if there is one (its outcome moves the most money), else any payout in flight.
      const f2f = op.pick % 4 !== 0 && orders(world).some((x) => x.kind === 'fiat_to_fiat' && x.status === 51);
      const o = pickOrder(world, op.aim, op.pick >> 2, f2f ? (x) => x.kind === 'fiat_to_fiat' && x.status === 51 : payoutInFlight);
      const failCode = op.success || op.failCode === 0 ? {} : { failCode: op.failCode };
      // A 72 whose refund is more than the desk holds free in that fiat (it used the pay-in since): the refund must come from what the pay-in left locked.
      const short = o !== undefined && !op.success && o.kind === 'fiat_to_fiat' && o.status === 51 && refundExceedsFree(world, o);
      return {
        command: { type: 'orderPayout', userId: ownerOf(world, op.caller), orderId: orderId(o), result: op.success ? 'success' : 'fail', ...failCode },
        label: `payout ${op.success ? 'success' : 'fail'}${short ? ' beyond the desk free funds' : ''}`,
      };
    }
    case 'expire': {
      const o = pickOrder(world, op.aim, op.pick, (x) => [30, 11, 31].includes(x.status) || awaitingPayIn(x));
      // The order object is the core's own: its status now, before the command moves it.
      const before = o?.status;
      return {
        command: { type: 'expireOrder', userId: ownerOf(world, op.caller), orderId: orderId(o) },
        label: 'expire',
        expect: () => {
          if (o !== undefined && before !== undefined && [60, 70, 71, 72].includes(before)) fail(`expire of order ${o.orderId} in ${before} was accepted`);
          if (o !== undefined && before !== undefined) expect([o.orderId, o.failCode]).toEqual([o.orderId, before === 40 || before === 41 ? -7004 : -7002]);
        },
      };
    }
    case 'release': {
      const o = pickOrder(world, op.aim, op.pick, (x) => x.kind === 'crypto_to_fiat' && x.status === 50);
      return { command: { type: 'releaseOrder', userId: ownerOf(world, op.caller), orderId: orderId(o) }, label: 'release' };
    }
    case 'confirm': {
      // Mostly one that confirm moves (30, c2f 50); now and then one with a payout in flight (-5009).
      const o = pickOrder(world, op.aim, op.pick, (x) => x.status === 30 || (x.kind === 'crypto_to_fiat' && x.status === 50) || (op.pick % 4 === 0 && payoutInFlight(x)));
      const kind = o === undefined ? 'fiat_to_crypto' : op.wrongKind ? (o.kind === 'fiat_to_fiat' ? 'fiat_to_crypto' : 'fiat_to_fiat') : o.kind;
      const direction = op.direction === 'none' ? {} : { direction: op.direction };
      return { command: { type: 'confirmOrder', userId: ownerOf(world, op.caller), orderId: orderId(o), kind, ...direction }, label: `confirm ${o?.status ?? 'none'}` };
    }
    case 'attach': {
      const o = pickOrder(world, op.aim, op.pick, (x) => [11, 31, 40, 41].includes(x.status));
      const files = Array.from({ length: op.files }, (_, i) => ({ name: `invoice-${i}.pdf`, size: 1024 + i, sha256: `${String(i).repeat(64)}`.slice(0, 64), contentType: 'application/pdf' }));
      return { command: { type: 'attachDocuments', userId: ownerOf(world, op.caller), orderId: orderId(o), files }, label: `attach from ${o?.status ?? 'none'}` };
    }
    case 'pay':
      return buildPay(op, world);
    case 'quote':
      return buildQuote(op, world);
    case 'expireQuote': {
      const id = world.quoteIds.length === 0 ? 'none' : world.quoteIds[op.pick % world.quoteIds.length];
      return { command: { type: 'expireQuote', userId: ownerOf(world, op.caller), quoteId: id }, label: 'quote expired by docs/merchant-payments.md "The simulator and the sandbox API"' };
    }
    case 'override':
      return buildOverride(op, world);
    case 'refundAccount': {
      const m = world.merchants[op.merchant];
      const b = op.foreign ? world.merchants[(op.merchant + 1) % MERCHANTS] : m;
      return { command: { type: 'setRefundAccount', userId: world.userId, merchantId: m.merchantId, userPaymentId: op.usd ? b.usd : b.mxn }, label: 'refund account' };
    }
    case 'settle': {
      const pending = [...state.pendingFunding.values()];
      const txId = pending.length === 0 ? 3_000_001 : pending[op.pick % pending.length].txId;
      return { command: { type: 'settleFunding', userId: 0, txId, action: op.complete ? 'complete' : 'cancel' }, label: `settle ${op.complete ? 'complete' : 'cancel'}` };
    }
    case 'fund': {
      const m = world.merchants[op.merchant];
      if (op.asset === 'MXN' || op.asset === 'USD') {
        return {
          command: { type: 'bankArrival', userId: world.userId, merchantId: m.merchantId, fiat: op.asset, amount: money((op.n % 5_000_000n) + 1n, 2), reference: '', traceNumber: '', payerName: '', payerAccount: '', cardNo: '', taxId: '', description: '' },
          label: 'fund fiat',
        };
      }
      return { command: { type: 'deposit', accountId: m.accountId, asset: op.asset, amount: formatUnits(op.asset === 'BTC' ? op.n % 100_000_000n : op.n, PRECISION), txId: 'chain' }, label: 'fund crypto' };
    }
    case 'limits': {
      const m = world.merchants[op.merchant];
      if (op.user) return { command: { type: 'setUserLimit', userId: world.userId, monthLimit: op.tight ? '300.00' : '0' }, label: 'user limit' };
      const cap = op.tight ? '200.00' : '0';
      return {
        command: { type: 'setMerchantLimits', userId: world.userId, merchantId: m.merchantId, dayFiatLimit: cap, monthFiatLimit: op.tight ? '100000.00' : '0', monthCryptoLimit: cap, accounts: { MXN: { buyAmountLimit: op.tight ? '3000.00' : '0' } } },
        label: 'merchant limits',
      };
    }
    case 'limit': {
      const book = BOOKS[op.book];
      const spec = h.core.spot.symbol(book.symbol).spec;
      const mid = (book.askTicks + book.bidTicks) / 2;
      return {
        command: {
          type: 'placeOrder',
          accountId: world.traders[op.trader],
          symbol: book.symbol,
          side: op.buy ? 'BUY' : 'SELL',
          orderType: 'LIMIT',
          timeInForce: op.ioc ? 'IOC' : 'GTC',
          price: formatUnits(BigInt(Math.round(mid) + op.offset * book.offsetTicks * 2) * spec.tickSizeAtto, 18),
          quantity: formatUnits(BigInt((op.lots % MAX_LOTS) + 1) * spec.baseAtomsPerLot, spec.basePrecision),
        },
        label: 'area A limit',
      };
    }
    case 'market': {
      const book = BOOKS[op.book];
      const spec = h.core.spot.symbol(book.symbol).spec;
      const lots = BigInt((op.lots % MAX_LOTS) + 1);
      // MARKET BUY is sized in quote (docs/spot-api.md "MARKET BUY amount"): about `lots` at the ask.
      const quantity = op.buy ? formatUnits(lots * BigInt(book.askTicks) * spec.quoteAtomsPerTickLot, spec.quotePrecision) : formatUnits(lots * spec.baseAtomsPerLot, spec.basePrecision);
      return { command: { type: 'placeOrder', accountId: world.traders[op.trader], symbol: book.symbol, side: op.buy ? 'BUY' : 'SELL', orderType: 'MARKET', timeInForce: 'GTC', quantity }, label: 'area A market' };
    }
    case 'deskTrade': {
      const book = BOOKS[op.book];
      const spec = h.core.spot.symbol(book.symbol).spec;
      const desk = state.deskAccountId;
      const side = op.buy ? 'BUY' : 'SELL';
      if (op.rest) {
        // A LIMIT order near the middle: it trades or rests, its lock then counted among the desk's (verify, docs/merchant-payments.md "Exactly-once settlement").
        const mid = Math.round((book.askTicks + book.bidTicks) / 2);
        const price = formatUnits(BigInt(mid + op.offset * book.offsetTicks * 2) * spec.tickSizeAtto, 18);
        const quantity = formatUnits(BigInt(op.perMille * 100) * spec.baseAtomsPerLot, spec.basePrecision);
        return { command: { type: 'placeOrder', accountId: desk, symbol: book.symbol, side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity }, label: 'desk rebalanced' };
      }
      // A MARKET order for a share of the desk's free quote fiat (BUY, sized in quote; at most 30000 MXN or 1500 USD, so the book survives it) or of its free USDT (SELL).
      const cents = h.free(desk, book.fiat) / pow10(PRECISION - 2);
      const cap = book.fiat === 'MXN' ? 3_000_000n : 150_000n;
      const lots = (h.free(desk, 'USDT') * BigInt(op.perMille)) / 1000n / (spec.baseAtomsPerLot * pow10(PRECISION - spec.basePrecision));
      const quantity = op.buy ? formatUnits(((cents < cap ? cents : cap) * BigInt(op.perMille)) / 1000n, 2) : formatUnits(lots * spec.baseAtomsPerLot, spec.basePrecision);
      return { command: { type: 'placeOrder', accountId: desk, symbol: book.symbol, side, orderType: 'MARKET', timeInForce: 'GTC', quantity }, label: 'desk rebalanced' };
    }
    case 'cancel': {
      const accountId = op.trader < TRADERS ? world.traders[op.trader] : state.deskAccountId;
      return { command: cancelPick(h.core, accountId, op.pick, 4), label: 'area A cancel' };
    }
  }
}

/** Whether a 72 now would refund more of the on-ramp fiat than the desk holds free. */
function refundExceedsFree(world: World, o: PaymentOrder): boolean {
  const on = o.onRamp;
  return on !== undefined && world.h.free(world.h.core.payments.state.deskAccountId, on.fiat) < atomsOf(on.amount) - atomsOf(on.fee);
}

/** What the desk and FEE hold beyond their funding, from each order's amounts and status (docs/merchant-payments.md "Order statuses"). */
function expectedHoldings(world: World): { desk: Map<string, bigint>; fee: Map<string, bigint> } {
  const desk = new Map(world.deskFunding);
  // What the desk's own area A trades moved (no fees: its rates are 0).
  for (const flow of world.h.store.listFlows({ accountId: world.h.core.payments.state.deskAccountId, flowType: FLOW_TYPES.TRADE, limit: 10_000 })) {
    desk.set(flow.asset, (desk.get(flow.asset) ?? 0n) + (signedAtoms(flow.change)));
  }
  const fee = new Map<string, bigint>();
  const add = (to: Map<string, bigint>, asset: string, amount: bigint): void => {
    to.set(asset, (to.get(asset) ?? 0n) + amount);
  };
  for (const o of orders(world)) {
    const s = o.status;
    if (o.kind === 'fiat_to_crypto') {
      if (s === 50 || s === 60) {
        add(desk, o.fiat, atomsOf(o.fiatAmount) - atomsOf(o.fiatFee));
        add(fee, o.fiat, atomsOf(o.fiatFee));
      }
      if (s === 60) add(desk, o.crypto, -atomsOf(o.cryptoAmount));
    } else if (o.kind === 'crypto_to_fiat') {
      if (s === 50 || s === 60) {
        add(desk, o.fiat, -atomsOf(o.gross));
        add(fee, o.fiat, atomsOf(o.fiatFee));
      }
      if (s === 60) add(desk, o.crypto, atomsOf(o.cryptoAmount));
    } else {
      const on = o.onRamp ?? fail(`order ${o.orderId} has no on-ramp`);
      const off = o.offRamp ?? fail(`order ${o.orderId} has no off-ramp`);
      if (s === 51 || s === 60) {
        add(desk, on.fiat, atomsOf(on.amount) - atomsOf(on.fee));
        add(fee, on.fiat, atomsOf(on.fee));
      }
      if (s === 60) {
        add(desk, off.fiat, -atomsOf(off.amount));
        add(fee, off.fiat, atomsOf(off.fee));
      }
    }
  }
  return { desk, fee };
}

/** What every step must leave. */
function checkStep(world: World, step: number): void {
  const { h } = world;
  const core = h.core;
  checkLedgerWhole(h, step);
  const report = verifyLedger(core, h.store, h.now);
  if (!report.ok) fail(`after step ${step}, verify failed: ${JSON.stringify(report.details.filter((d) => d.mismatch !== undefined))}`);
  // Orders move only along docs/merchant-payments.md "Order statuses".
  for (const o of orders(world)) {
    const before = world.lastStatus.get(o.orderId);
    if (!mayMove(o.kind, before, o.status)) fail(`after step ${step}, ${o.kind} order ${o.orderId} went from ${before ?? 'creation'} to ${o.status}`);
    if (before !== o.status) tally(world.seen, `${o.kind} ${before ?? 'new'}→${o.status}`);
    world.lastStatus.set(o.orderId, o.status);
  }
  // docs/merchant-payments.md "Amount limits": the limits count what open and released orders committed; an order ending in 70, 71 or 72 gave its usage back.
  const committed = new Map<string, bigint>();
  for (const o of orders(world)) {
    if (o.status >= 70) {
      if (o.usage.length > 0) fail(`after step ${step}, order ${o.orderId} ended in ${o.status} still counting ${JSON.stringify(o.usage, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
      continue;
    }
    for (const u of o.usage) committed.set(u.key, (committed.get(u.key) ?? 0n) + u.amount);
  }
  for (const key of new Set([...committed.keys(), ...core.payments.state.usage.keys()])) {
    if ((committed.get(key) ?? 0n) !== (core.payments.state.usage.get(key) ?? 0n)) fail(`after step ${step}, usage ${key} is ${core.payments.state.usage.get(key) ?? 0n}, its orders commit ${committed.get(key) ?? 0n}`);
  }
  // The 72 refund (docs/merchant-payments.md "Order statuses") after the desk used what the pay-in brought (later orders, a rebalance): it must still be paid, from what stays locked.
  if (orders(world).some((o) => o.kind === 'fiat_to_fiat' && o.status === 51 && refundExceedsFree(world, o))) tally(world.seen, 'steps with an f2f in 51 refunding more than the desk holds free');
  // The desk and FEE hold their funding plus exactly what the orders' statuses moved.
  const { desk, fee } = expectedHoldings(world);
  const holding = (accountId: number, asset: string): bigint => h.free(accountId, asset) + h.locked(accountId, asset);
  for (const [name, accountId, expected] of [
    ['desk', core.payments.state.deskAccountId, desk],
    ['FEE', core.ledger.feeAccountId, fee],
  ] as const) {
    for (const asset of new Set([...expected.keys(), ...core.ledger.account(accountId).balances.keys()])) {
      const has = holding(accountId, asset);
      if (has !== (expected.get(asset) ?? 0n)) fail(`after step ${step}, ${name} holds ${has} atoms of ${asset}, its funding and the orders say ${expected.get(asset) ?? 0n}`);
    }
  }
}

/** a × b compared with c × d, all ≥ 0: sign of a·b − c·d. */
const cmp = (ab: bigint, cd: bigint): number => (ab === cd ? 0 : ab > cd ? 1 : -1);

/**
 * "The desk never pays more than it receives" (docs/merchant-payments.md "Values and rounding"), order by order at its price, and each amount
 * rounded once by less than one unit: f2c (A−F) ≥ Q × P > (A−F) − P·unit; c2f Q × P ≥ G > Q × P − unit;
 * f2f (X−Fo) × R ≥ Y > (X−Fo) × R − unit.
 */
function checkOrderAmounts(o: PaymentOrder): void {
  const what = `${o.kind} order ${o.orderId} (status ${o.status})`;
  const p = o.orderPrice;
  if (o.kind === 'fiat_to_crypto') {
    const received = o.fiatAmount.units - o.fiatFee.units; // at fiat accuracy
    const q = o.cryptoAmount;
    // received / 10^fa vs q / 10^qa × p / 10^pa  ⇔  received · 10^(qa+pa) vs q · p · 10^fa
    const lhs = received * pow10(q.accuracy + p.accuracy);
    const rhs = q.units * p.units * pow10(o.fiatAmount.accuracy);
    if (cmp(lhs, rhs) < 0) fail(`${what}: the desk receives ${money(received, 2)} ${o.fiat} for ${money(q.units, q.accuracy)} ${o.crypto} worth more at ${money(p.units, p.accuracy)}`);
    if (cmp(lhs, (q.units + 1n) * p.units * pow10(o.fiatAmount.accuracy)) >= 0) fail(`${what}: cryptoAmount ${money(q.units, q.accuracy)} is rounded down by a unit or more`);
  } else if (o.kind === 'crypto_to_fiat') {
    const q = o.cryptoAmount;
    if (o.fiatAmount.units + o.fiatFee.units !== o.gross.units) fail(`${what}: N + F = ${o.fiatAmount.units + o.fiatFee.units} != G ${o.gross.units}`);
    const given = o.gross.units * pow10(q.accuracy + p.accuracy);
    const worth = q.units * p.units * pow10(o.gross.accuracy);
    if (cmp(given, worth) > 0) fail(`${what}: the desk gives G ${money(o.gross.units, 2)} ${o.fiat} for ${money(q.units, q.accuracy)} ${o.crypto} worth less at ${money(p.units, p.accuracy)}`);
    if (cmp((o.gross.units + 1n) * pow10(q.accuracy + p.accuracy), worth) <= 0) fail(`${what}: G ${money(o.gross.units, 2)} is rounded down by a unit or more`);
  } else {
    const on = o.onRamp ?? fail(`${what}: no on-ramp`);
    const off = o.offRamp ?? fail(`${what}: no off-ramp`);
    if (off.arrive.units + off.fee.units !== off.amount.units) fail(`${what}: Z + Ff != Y`);
    const received = on.amount.units - on.fee.units;
    const given = off.amount.units * pow10(on.amount.accuracy + p.accuracy);
    const worth = received * p.units * pow10(off.amount.accuracy);
    if (cmp(given, worth) > 0) fail(`${what}: the desk pays Y ${money(off.amount.units, 2)} ${off.fiat} for X−Fo ${money(received, 2)} ${on.fiat} worth less at ${money(p.units, p.accuracy)}`);
    if (cmp((off.amount.units + 1n) * pow10(on.amount.accuracy + p.accuracy), worth) <= 0) fail(`${what}: Y is rounded down by a unit or more`);
  }
}

/** At the end of a run: amounts, failure codes, and the store's rows against the core. */
function checkOrders(world: World): void {
  const { h } = world;
  const records = h.store.listFundingRecords({ userId: world.userId, offset: 0, limit: 1_000_000 }).rows;
  const byOrder = new Map<string, typeof records>();
  for (const r of records) if (r.orderId !== '') byOrder.set(r.orderId, [...(byOrder.get(r.orderId) ?? []), r]);
  for (const o of orders(world)) {
    const what = `${o.kind} order ${o.orderId}`;
    checkOrderAmounts(o);
    const s = o.status;
    if (s === 70 || s === 71 || s === 72) {
      const allowed = FAIL_CODES[`${o.kind}:${s}`] ?? fail(`${what} ended in ${s}, not a status of its kind`);
      if (!allowed.includes(o.failCode)) fail(`${what} ended in ${s} with failCode ${o.failCode}`);
    } else if (o.failCode !== 0 || o.failReason !== '') {
      fail(`${what} in ${s} has failCode ${o.failCode} ${o.failReason}`);
    }
    if ((s >= 60) !== (o.completedTime > 0)) fail(`${what} in ${s} has completedTime ${o.completedTime}`);
    if (s === 60) tally(world.seen, `60 ${routeOf(o)}`);
    else if (s >= 70) tally(world.seen, `${s} ${o.failCode}`);
    else tally(world.seen, `open at the end in ${s}`);
    // The store's B33 object is the core's order.
    const row = h.store.getPaymentOrder(world.userId, o.orderId) ?? fail(`${what} has no row`);
    expect({ order: o.orderId, status: row.orderStatus, hasRefund: row.hasRefund }).toEqual({ order: o.orderId, status: s, hasRefund: o.hasRefund ? 1 : 0 });
    // hasRefund once a REFUND record exists for it (docs/merchant-payments.md "Quotes and orders"); the pending-fund legs have their records (docs/merchant-payments.md "Lifecycles").
    const own = byOrder.get(String(o.orderId)) ?? [];
    const refunds = own.filter((r) => r.type === 'REFUND');
    if (o.hasRefund !== refunds.length > 0) fail(`${what}: hasRefund ${o.hasRefund} with ${refunds.length} REFUND records`);
    if (o.hasRefund) tally(world.seen, `refunded ${o.kind}`);
    if (s === 72) {
      const full = refunds.filter((r) => r.amount === money(o.onRamp?.amount.units ?? -1n, 2));
      if (full.length < 1) fail(`${what} in 72 has no REFUND of its on-ramp amount`);
    }
    const buy = own.filter((r) => r.type === 'BUY_CRYPTO');
    const sell = own.filter((r) => r.type === 'SELL_CRYPTO');
    if (o.kind === 'fiat_to_crypto' && o.paymentId === PENDING_FUND_RAIL) {
      expect({ order: o.orderId, records: buy.map((r) => r.status) }).toEqual({ order: o.orderId, records: [s === 60 ? 2 : s === 70 ? 3 : 1] });
    } else if (buy.length > 0) {
      fail(`${what} has BUY_CRYPTO records`);
    }
    const toFund = o.kind === 'crypto_to_fiat' && o.userPaymentId === PENDING_FUND_RAIL && s === 60;
    expect({ order: o.orderId, records: sell.map((r) => [r.status, r.amount]) }).toEqual({ order: o.orderId, records: toFund ? [[2, money(o.fiatAmount.units, 2)]] : [] });
  }
  for (const r of records) if (r.type === 'WITHDRAW' && r.orderId !== '') tally(world.seen, 'refund paid out to the refund account');
}

function routeOf(o: PaymentOrder): string {
  if (o.kind === 'fiat_to_crypto') return `f2c ${o.paymentId === PENDING_FUND_RAIL ? 'fund' : 'bank'}`;
  if (o.kind === 'crypto_to_fiat') return `c2f ${o.userPaymentId === PENDING_FUND_RAIL ? 'fund' : 'bank'}`;
  return 'f2f';
}

/** Submits what is due at `h.now` as the deadline scheduler would: none may be refused (docs/merchant-payments.md "Exactly-once settlement": a late one is dropped). */
async function fireDeadlines(world: World): Promise<void> {
  const { h } = world;
  const due = h.core.deadlines().filter((d) => d.at <= h.now);
  if (due.length === 0) return;
  const outcomes = await Promise.allSettled(due.map((d) => h.submit(d.command)));
  if (h.fatal !== undefined) throw h.fatal;
  for (const [i, outcome] of outcomes.entries()) {
    const command = due[i].command;
    if (outcome.status === 'rejected') fail(`deadline ${JSON.stringify(command)} was refused: ${String(outcome.reason)}`);
    const dropped = typeof outcome.value === 'object' && outcome.value !== null && 'dropped' in outcome.value;
    tally(world.seen, `deadline ${command.type}${dropped ? ' dropped' : ''}`);
  }
}

function tallyJournal(world: World, fromSeq: number): void {
  for (const { command } of world.h.store.readJournal(fromSeq)) {
    const detail = command.type === 'reviewOrder' ? `:${command.decision}` : command.type === 'orderPayout' ? `:${command.result}` : '';
    const due = 'due' in command && command.due !== undefined ? ' (automatic)' : '';
    tally(world.seen, `journal ${command.type}${detail}${due}`);
  }
}

describe('payment orders: stories of all three kinds beside area A trading on the same books', () => {
  it('when orders are created, reviewed, paid, paid out, expired, released, confirmed, refunded and quoted at random while the books move and the clock jumps, then the ledger is whole at every step, orders only move forward, the desk never pays more than it receives, and replay and snapshots agree', async () => {
    const seen = new Map<string, number>();
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(setupArb, stepsArb, fc.nat(), async (setup, steps, snapAt) => {
        const world = await createWorld(seen, setup);
        const { h } = world;
        const startSeq = h.store.lastSeq();
        let midway: string | undefined;
        try {
          checkStep(world, 0);
          for (const [index, step] of steps.entries()) {
            const built = step.ops.map((op) => toBuilt(op, world));
            const outcomes = await Promise.allSettled(built.map((b) => h.submit(b.command)));
            if (h.fatal !== undefined) throw h.fatal;
            for (const [i, outcome] of outcomes.entries()) {
              const b = built[i];
              if (outcome.status === 'fulfilled') {
                tally(seen, `ok ${b.label}`);
                if (b.label.endsWith(' quoted')) tally(seen, 'created with a quote');
                if (b.label.endsWith(' at an override')) tally(seen, 'created at an override price');
                if (built.length === 1) b.expect?.(outcome.value, world);
                continue;
              }
              // A refusal is an answer; anything else is a bug in the core.
              if (!(outcome.reason instanceof Refusal)) throw outcome.reason;
              tally(seen, `refused ${b.command.type} ${outcome.reason.code}`);
            }
            if (step.advance > 0) h.now += step.advance;
            await fireDeadlines(world);
            checkStep(world, index + 1);
            if (index === snapAt % steps.length) midway = serializeCore(h.core);
          }
          checkOrders(world);
          const report = h.verify();
          if (!report.ok) fail(`verify with replay failed: ${JSON.stringify({ details: report.details.filter((d) => d.mismatch !== undefined), replay: report.replay })}`);
          const hash = stateHash(h.core);
          expect(h.replayHash()).toBe(hash);
          expect(stateHash(restoreCore(serializeCore(h.core)))).toBe(hash);
          const resumed = restoreCore(midway ?? fail('no snapshot taken'));
          const rows = emptyDerivedRows();
          for (const stamped of h.store.readJournal(resumed.lastSeq)) resumed.apply(stamped, rows, 'none');
          expect(stateHash(resumed)).toBe(hash);
          tallyJournal(world, startSeq);
          tally(seen, 'orders', h.core.payments.state.orders.size);
          tally(seen, 'trades', h.core.spot.nextTradeId - 1);
        } finally {
          // After a fatal error the sequencer refuses to close cleanly; the fatal error is the one to report.
          await h.sequencer.close().catch((error: unknown) => {
            if (h.fatal === undefined) throw error;
          });
          h.store.close();
        }
      }),
      // Seeded: the lifecycle coverage below counts what random stories reached, which a random seed left short now and then (6 < 7 once in CI).
      { numRuns: 600, seed: 20_261_128 },
    );
    const times = (what: string): number => seen.get(what) ?? 0;
    const report = [...seen.entries()].sort(([a], [b]) => a.localeCompare(b));
    console.log(`payment orders property: ${((performance.now() - started) / 1000).toFixed(1)} s, ${times('orders')} orders, ${times('trades')} trades`);
    // The stories must reach every part of the lifecycle, or the property says little.
    const atLeast: [string, number][] = [
      // Orders of each kind and route reach 60, and every failure code ends some.
      ['60 f2c bank', 20],
      ['60 f2c fund', 40],
      ['60 c2f bank', 15],
      ['60 c2f fund', 40],
      ['60 f2f', 30],
      ['70 -7000', 4],
      ['70 -7001', 8],
      ['70 -7002', 80],
      ['70 -7003', 25],
      ['70 -7004', 25],
      ['71 -7002', 60],
      ['71 -7003', 15],
      ['71 -7004', 60],
      ['72 -7000', 3],
      ['72 -7001', 8],
      ['fiat_to_fiat 41→51', 15],
      ['fiat_to_fiat 51→60', 5],
      ['crypto_to_fiat 40→50', 7],
      ['crypto_to_fiat 50→60', 15],
      // Pay-ins, refunds, and refunds paid out to a refund account.
      ['ok pay exact', 70],
      ['ok pay refunded', 500],
      ['refunded fiat_to_crypto', 100],
      ['refunded fiat_to_fiat', 150],
      ['refund paid out to the refund account', 50],
      // Quotes, overrides, deadlines, docs/merchant-payments.md "The simulator and the sandbox API" actions.
      ['created with a quote', 25],
      ['created at an override price', 40],
      ['refused createPaymentOrder -5200', 100],
      ['journal expireQuote', 10],
      ['deadline expireQuote', 200],
      ['deadline expireOrder', 150],
      ['deadline releaseOrder', 5],
      ['journal confirmOrder', 20],
      ['journal releaseOrder', 6],
      ['journal attachDocuments', 50],
      ['journal reviewOrder:rfi', 12],
      ['journal reviewOrder:documents', 10],
      ['journal reviewOrder:reject', 5],
      ['journal orderPayout:fail', 9],
      ['journal orderPayout:success', 15],
      // Refusals of docs/merchant-payments.md "Order creation checks" in their variety, and of actions in the wrong status.
      ['refused createPaymentOrder -5050', 200],
      ['refused createPaymentOrder -5060', 40],
      ['refused createPaymentOrder -5100', 25],
      ['refused createPaymentOrder -5031', 150],
      ['refused createPaymentOrder -5027', 150],
      ['refused createPaymentOrder -5030', 50],
      ['refused createPaymentOrder -5029', 60],
      ['refused createPaymentOrder -5026', 10],
      ['refused createPaymentOrder -1174', 30],
      ['refused createPaymentOrder -4027', 120],
      ['refused confirmOrder -5009', 4],
      ['refused confirmOrder -5034', 100],
      ['refused confirmOrder -5035', 25],
      ['refused reviewOrder -5104', 250],
      ['refused expireOrder -5104', 120],
      ['refused orderPayout -5104', 400],
      ['refused releaseOrder -5104', 250],
      ['refused attachDocuments -5041', 120],
      ['refused bankArrival -1174', 150],
      // Area A on the same books.
      ['trades', 700],
      ['journal cancelOrder', 120],
      ['ok desk rebalanced', 300],
      // The 72 refund after the desk used the pay-in (which once drew on free funds and could fail).
      ['steps with an f2f in 51 refunding more than the desk holds free', 20],
      ['ok payout fail beyond the desk free funds', 2],
    ];
    const short = atLeast.filter(([what, min]) => times(what) < min).map(([what, min]) => `${what}: ${times(what)} < ${min}`);
    expect(short, JSON.stringify(report)).toEqual([]);
  }, 60_000);
});
