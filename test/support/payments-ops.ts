/**
 * Random area B part 1 commands (docs/merchant-payments.md) for property tests: merchants and their
 * KYC, merchant accounts in MXN/USD/EUR and their reviews, beneficiaries, refund accounts, bank
 * arrivals, claims and their payouts, transfers between merchants of one user, sandbox modes and
 * the sandbox API's decisions, beside crypto deposits into merchant accounts, area A transfers into
 * and out of them and area A trading on USDTMXN. An op is drawn once and turned into a command
 * against the state when its step starts (`paymentsCommand`): most aim at an object they can act
 * on (see `aim`), the rest at any, so that both the accepted paths and the refusals run.
 */
import fc from 'fast-check';
import { formatUnits } from '../../src/core/decimal.js';
import type { Command, FlowTypeName } from '../../src/core/types.js';
import type { ExchangeCore } from '../../src/exchange/exchange-core.js';
import { PENDING_FUND_RAIL } from '../../src/payments/config.js';
import { ownAccountKey } from '../../src/payments/instructions.js';
import { unitsOf } from '../../src/payments/money.js';
import { AUTHENTICATING, BENEFICIARY_REVIEWING, BENEFICIARY_VALID, INCOMPLETE, NORMAL, type Merchant } from '../../src/payments/model.js';
import type { Submit } from './payments-core.js';
import { cancelPick, limitNearMid, marketNearMid, type BookRange } from './spot-ops.js';

export const FIATS = ['MXN', 'USD', 'EUR'] as const;
/** The payout rails of the default configuration, one per fiat. */
const RAILS = [
  { paymentId: 58, fiat: 'MXN', country: 'Mexico' },
  { paymentId: 83, fiat: 'USD', country: 'United States' },
  { paymentId: 85, fiat: 'EUR', country: 'United States' },
] as const;
/** Assets of area A transfers touching an M: the fiats first, then crypto. */
const TRANSFER_ASSETS = ['MXN', 'USD', 'EUR', 'USDT', 'BTC'] as const;
const CRYPTOS = ['USDT', 'BTC'] as const;
const MERCHANT_USERS = 2;
/** Plain area A users; the merchant users' main accounts trade too. */
const PLAIN_TRADERS = 2;
const TRADERS = PLAIN_TRADERS + MERCHANT_USERS;
/** Merchant names (and e-mails) a user picks from: a second use of one is -5069. */
const NAMES = 4;
/** Mid 17.5 MXN in ticks of 0.0001; at most 1000 USDT in lots of 0.01. */
const USDTMXN_BOOK: BookRange = { symbol: 'USDTMXN', midTicks: 175_000, maxLots: 100_000 };
/** Ledger precision of every demo asset; area B fiats have accuracy 2. */
export const PRECISION = 8;
export const ATOMS_PER_CENT = 10n ** 6n;

type ModeName = 'kyc' | 'accountReview' | 'beneficiaryReview' | 'payout' | 'deposit';
type Modes = Partial<Record<ModeName, string>>;

/** How an amount is chosen: a share of what is there (‰, over 1000 = too much), right at the edge, or any. */
type Amount = { how: 'share'; perMille: number } | { how: 'edge'; delta: number } | { how: 'any'; cents: bigint };

export type PaymentsOp =
  | { kind: 'createMerchant'; user: number; name: number }
  | { kind: 'modes'; user: number; modes: Modes }
  | { kind: 'kyc'; aim: boolean; merchant: number; action: 'submit' | 'approve' | 'reject'; asOwner: boolean }
  | { kind: 'reviewAccount'; aim: boolean; merchant: number; fiat: number; action: 'verify' | 'approve' | 'reject'; asOwner: boolean }
  | { kind: 'activate'; aim: boolean; merchant: number; stranger: boolean; fiat: number }
  | { kind: 'addBeneficiary'; aim: boolean; merchant: number; stranger: boolean; rail: number; key: number; variant: 'ok' | 'ownAccount' | 'wrongFiat' }
  | { kind: 'reviewBeneficiary'; pick: number; approve: boolean; asOwner: boolean }
  | { kind: 'deleteBeneficiary'; pick: number; stranger: boolean }
  | { kind: 'refundAccount'; merchant: number; pick: number }
  | { kind: 'arrival'; aim: boolean; merchant: number; stranger: boolean; fiat: number; cents: bigint; trimmed: boolean; trace: number }
  | { kind: 'claim'; aim: boolean; merchant: number; stranger: boolean; pick: number; amount: Amount; client: number }
  | { kind: 'settle'; pick: number; complete: boolean; asOwner: boolean }
  | { kind: 'transferFunds'; aim: boolean; user: number; from: number; to: number; fiat: number; rail: number; amount: Amount; client: number }
  | { kind: 'cryptoDeposit'; merchant: number; asset: number; atoms: bigint }
  | { kind: 'transfer'; aim: boolean; merchant: number; into: boolean; asset: number; viaTrader: boolean; amount: Amount }
  | { kind: 'limit'; trader: number; buy: boolean; offsetTicks: number; lots: number; ioc: boolean }
  | { kind: 'market'; trader: number; buy: boolean; lots: number }
  | { kind: 'cancel'; trader: number; pick: number };

const merchant = fc.nat();
const user = fc.nat({ max: MERCHANT_USERS - 1 });
const fiat = fc.nat({ max: FIATS.length - 1 });
/** Mostly an object the command can act on (a merchant in the right status, an active account…); else any. */
const aim = fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
/** Mostly the owner; now and then another user, to whom the merchant does not exist (-5006). */
const stranger = fc.oneof({ weight: 12, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) });
const client = fc.nat({ max: 5 });
const amount: fc.Arbitrary<Amount> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ how: fc.constant('share' as const), perMille: fc.integer({ min: 1, max: 1200 }) }) },
  { weight: 2, arbitrary: fc.record({ how: fc.constant('edge' as const), delta: fc.integer({ min: -1, max: 1 }) }) },
  { weight: 2, arbitrary: fc.record({ how: fc.constant('any' as const), cents: fc.oneof(fc.bigInt({ min: 0n, max: 1_000n }), fc.bigInt({ min: 1n, max: 50_000_000n })) }) },
);
const decision = <T extends string>(...values: T[]): fc.Arbitrary<T> => fc.constantFrom(...values);
/** A mode: mostly the automatic default, so that lifecycles get somewhere; else any of its values. */
const mode = (automatic: string, ...others: string[]): fc.Arbitrary<string> =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(automatic) }, ...others.map((value) => ({ weight: 2, arbitrary: fc.constant(value) })));
const modes: fc.Arbitrary<Modes> = fc.record(
  {
    kyc: mode('approve', 'reject', 'manual'),
    accountReview: mode('approve', 'reject', 'manual'),
    beneficiaryReview: mode('approve', 'reject', 'manual'),
    payout: mode('success', 'fail', 'manual'),
    deposit: mode('complete', 'manual'),
  },
  { requiredKeys: [] },
);
const trader = fc.nat({ max: TRADERS - 1 });

const createMerchantArb = fc.record({ kind: fc.constant('createMerchant' as const), user, name: fc.nat({ max: NAMES - 1 }) });
const activateArb = fc.record({ kind: fc.constant('activate' as const), aim, merchant, stranger, fiat });
const modesArb = fc.record({ kind: fc.constant('modes' as const), user, modes });
const arrivalArb = fc.record({
  kind: fc.constant('arrival' as const),
  aim,
  merchant,
  stranger,
  fiat,
  cents: fc.oneof(fc.bigInt({ min: 0n, max: 10_000n }), fc.bigInt({ min: 1n, max: 100_000_000n })),
  trimmed: fc.boolean(),
  trace: fc.nat({ max: 6 }),
});
/** Modes a run may open with: those that do not hold lifecycles up, so that manual payouts (pending claims) and deposits are common. */
const openingModesArb = fc.record({
  kind: fc.constant('modes' as const),
  user,
  modes: fc.record({ beneficiaryReview: decision('approve', 'reject', 'manual'), payout: decision('success', 'fail', 'manual', 'manual'), deposit: decision('complete', 'manual') }, { requiredKeys: ['payout'] }),
});
const addBeneficiaryArb = fc.record({
  kind: fc.constant('addBeneficiary' as const),
  aim,
  merchant,
  stranger,
  rail: fc.nat({ max: RAILS.length - 1 }),
  key: fc.nat({ max: 3 }),
  variant: fc.oneof({ weight: 10, arbitrary: fc.constant('ok' as const) }, { weight: 1, arbitrary: decision('ownAccount', 'wrongFiat') }),
});

const paymentsOpArb: fc.Arbitrary<PaymentsOp> = fc.oneof(
  { weight: 3, arbitrary: createMerchantArb },
  { weight: 2, arbitrary: modesArb },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('kyc' as const), aim, merchant, action: decision('submit', 'approve', 'reject'), asOwner: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('reviewAccount' as const), aim, merchant, fiat, action: decision('verify', 'approve', 'reject'), asOwner: fc.boolean() }),
  },
  { weight: 5, arbitrary: activateArb },
  { weight: 4, arbitrary: addBeneficiaryArb },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reviewBeneficiary' as const), pick: fc.nat(), approve: fc.boolean(), asOwner: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deleteBeneficiary' as const), pick: fc.nat(), stranger }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refundAccount' as const), merchant, pick: fc.nat() }) },
  { weight: 7, arbitrary: arrivalArb },
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('claim' as const), aim, merchant, stranger, pick: fc.nat(), amount, client }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('settle' as const), pick: fc.nat(), complete: fc.boolean(), asOwner: fc.boolean() }) },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('transferFunds' as const), aim, user, from: fc.nat(), to: fc.nat(), fiat, rail: fc.nat({ max: 4 }), amount, client }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cryptoDeposit' as const), merchant, asset: fc.nat({ max: CRYPTOS.length - 1 }), atoms: fc.bigInt({ min: 1n, max: 200_000_000_000n }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('transfer' as const),
      aim,
      merchant,
      into: fc.boolean(),
      asset: fc.nat({ max: TRANSFER_ASSETS.length - 1 }),
      viaTrader: fc.boolean(),
      amount,
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('limit' as const),
      trader,
      buy: fc.boolean(),
      offsetTicks: fc.integer({ min: -3, max: 3 }),
      lots: fc.nat(),
      ioc: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('market' as const), trader, buy: fc.boolean(), lots: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), trader, pick: fc.nat() }) },
);

/**
 * Steps of 1–2 commands submitted in the same turn, up to 60 commands a run. A run opens with up to
 * two mode changes, a few createMerchant steps, activations of merchant accounts, beneficiaries and
 * bank arrivals (all of which also come at random later), so that most of the run has objects to
 * act on.
 */
export const paymentsStepsArb: fc.Arbitrary<PaymentsOp[][]> = fc
  .tuple(
    fc.array(openingModesArb, { maxLength: 2 }),
    fc.array(createMerchantArb, { minLength: 2, maxLength: 3 }),
    fc.array(activateArb.map((op) => ({ ...op, aim: true, stranger: false })), { minLength: 1, maxLength: 3 }),
    fc.array(addBeneficiaryArb.map((op) => ({ ...op, aim: true, stranger: false })), { maxLength: 2 }),
    fc.array(arrivalArb.map((op) => ({ ...op, aim: true, stranger: false })), { maxLength: 2 }),
    fc.array(fc.array(paymentsOpArb, { minLength: 1, maxLength: 2, size: 'max' }), { minLength: 5, maxLength: 24, size: 'max' }),
  )
  .map(([modeSteps, merchants, accounts, beneficiaries, arrivals, rest]): PaymentsOp[][] => [...[...modeSteps, ...merchants, ...accounts, ...beneficiaries, ...arrivals].map((op) => [op]), ...rest]);

/** The state commands are built against: a PaymentsCore, or any driver with a core and a clock. */
export interface PaymentsView {
  readonly core: ExchangeCore;
  /** The clock's time now (ms). */
  readonly now: number;
  free(accountId: number, asset: string): bigint;
}

/** Who a stream acts for, as `createPaymentsParties` made them. */
export interface PaymentsWorld {
  h: PaymentsView;
  /** userId and main accountId of each merchant user. */
  merchantUsers: { userId: number; accountId: number }[];
  /** Main accounts trading on USDTMXN: plain users, then the merchant users. */
  traders: number[];
}

/**
 * After the payments set-up (`first` is its merchant user): the other merchant users and the plain
 * traders, each trader funded in crypto and every fiat, one command per batch.
 */
export async function createPaymentsParties(submit: Submit, first: { userId: number; accountId: number }): Promise<Omit<PaymentsWorld, 'h'>> {
  const merchantUsers = [first];
  for (let u = 1; u < MERCHANT_USERS; u++) {
    merchantUsers.push(await submit<{ userId: number; accountId: number }>({ type: 'createUser', email: `merchant${u}@example.mx`, userType: 'merchant' }));
  }
  const traders: number[] = [];
  for (let t = 0; t < PLAIN_TRADERS; t++) {
    traders.push((await submit<{ accountId: number }>({ type: 'createUser', email: `trader${t}@example.com`, userType: 'user' })).accountId);
  }
  traders.push(...merchantUsers.map((u) => u.accountId));
  for (const accountId of traders) {
    for (const [asset, amount] of [
      ['USDT', '30000'],
      ['BTC', '2'],
      ['MXN', '500000'],
      ['USD', '20000'],
      ['EUR', '20000'],
    ]) {
      await submit({ type: 'deposit', accountId, asset, amount, txId: 'seed' });
    }
  }
  return { merchantUsers, traders };
}

function fail(message: string): never {
  throw new Error(message);
}

interface MerchantRef {
  merchantId: number;
  userId: number;
  /** Its M; 0 for a merchant that does not exist. */
  accountId: number;
}

export const merchantsOf = (h: PaymentsView): Merchant[] => [...h.core.payments.state.merchants.values()];

/** Mostly (with `aim`) one of `preferred`; otherwise, or with none, `fallback()`. */
function choose<T>(aimed: boolean, preferred: readonly T[], pick: number, fallback: () => T): T {
  return aimed && preferred.length > 0 ? preferred[pick % preferred.length] : fallback();
}

/** Any merchant (any user's); with none yet, an id that does not exist. */
function anyMerchant(world: PaymentsWorld, pick: number): MerchantRef {
  const all = merchantsOf(world.h);
  if (all.length === 0) return { merchantId: 1 + (pick % 3), userId: world.merchantUsers[pick % MERCHANT_USERS].userId, accountId: 0 };
  return all[pick % all.length];
}

function merchantById(world: PaymentsWorld, merchantId: number): MerchantRef {
  return world.h.core.payments.state.merchants.get(merchantId) ?? fail(`no merchant ${merchantId}`);
}

/** Merchant accounts in a status, with their merchant. */
function accountsIn(world: PaymentsWorld, status: number): { m: MerchantRef; fiat: string }[] {
  return [...world.h.core.payments.state.merchantAccounts.values()].filter((a) => a.status === status).map((a) => ({ m: merchantById(world, a.merchantId), fiat: a.fiat }));
}

function isActive(world: PaymentsWorld, merchantId: number, fiatName: string): boolean {
  return world.h.core.payments.state.merchantAccounts.get(`${merchantId}:${fiatName}`)?.status === NORMAL;
}

/** The other merchant user: to it, the merchant does not exist. */
function strangerOf(world: PaymentsWorld, userId: number): number {
  return world.merchantUsers.find((u) => u.userId !== userId)?.userId ?? userId + 1;
}

function money(cents: bigint, trimmed = false): string {
  const negative = cents < 0n;
  const abs = negative ? -cents : cents;
  const text = `${negative ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
  return trimmed ? text.replace(/\.?0+$/, '') : text;
}

/** Free fiat of an account in cents (area B units). */
function freeCents(world: PaymentsWorld, accountId: number, asset: string): bigint {
  return accountId === 0 ? 0n : world.h.free(accountId, asset) / ATOMS_PER_CENT;
}

/** An amount (in cents, or atoms) from what is available and the fee an amount costs. */
function amountOf(choice: Amount, available: bigint, fee: (cents: bigint) => bigint): bigint {
  switch (choice.how) {
    case 'share':
      // With nothing there, a small amount all the same (refused for want of funds, not as zero).
      return available > 0n ? (available * BigInt(choice.perMille)) / 1000n : BigInt(choice.perMille);
    case 'edge': {
      // The largest amount whose total fits, then one unit either side.
      let cents = available - fee(available);
      while (cents > 0n && cents + fee(cents) > available) cents--;
      while (cents + 1n + fee(cents + 1n) <= available) cents++;
      return cents + BigInt(choice.delta);
    }
    case 'any':
      return choice.cents;
  }
}

/** The B20 fee of moving `cents`, from the configuration (fixed, or a fraction rounded up). */
function transferFee(world: PaymentsWorld, fiatName: string, cents: bigint): bigint {
  const spec = world.h.core.payments.config.transferFees.find((f) => f.fiat === fiatName);
  if (spec === undefined) return 0n;
  if (spec.feeType === 0) return unitsOf(spec.fee, 2) ?? 0n;
  const rate = unitsOf(spec.fee, 18) ?? 0n;
  return (cents * rate + 10n ** 18n - 1n) / 10n ** 18n;
}

function payoutFee(world: PaymentsWorld, paymentId: number): bigint {
  return unitsOf(world.h.core.payments.config.rails.find((r) => r.paymentId === paymentId)?.payoutFee ?? '0', 2) ?? 0n;
}

/** An id no merchant account has: a command naming it is refused. */
const NO_ACCOUNT = 999_999;

export function paymentsCommand(op: PaymentsOp, world: PaymentsWorld): Command {
  const { h } = world;
  const state = h.core.payments.state;
  switch (op.kind) {
    case 'createMerchant': {
      const userId = world.merchantUsers[op.user].userId;
      return {
        type: 'createMerchant',
        userId,
        merchantName: `Shop ${op.name}`,
        email: `shop${op.name}@u${userId}.example.mx`,
        merchantType: op.name % 2 === 0 ? 'BUSINESS' : 'INDIVIDUAL',
        callbackUrl: 'https://shop.example/kyc-done',
        languageCode: 'en',
        remark: '',
        kycToken: `kyc-${userId}-${op.name}-${h.now}`,
      };
    }
    case 'modes':
      return { type: 'setSandboxModes', userId: world.merchantUsers[op.user].userId, modes: op.modes };
    case 'kyc': {
      const from = op.action === 'submit' ? INCOMPLETE : AUTHENTICATING;
      const m = choose(op.aim, merchantsOf(h).filter((x) => x.status === from), op.merchant, () => anyMerchant(world, op.merchant));
      return { type: 'merchantKyc', userId: op.asOwner ? m.userId : 0, merchantId: m.merchantId, action: op.action };
    }
    case 'reviewAccount': {
      const from = op.action === 'verify' ? INCOMPLETE : AUTHENTICATING;
      const { m, fiat: fiatName } = choose(op.aim, accountsIn(world, from), op.merchant, () => ({ m: anyMerchant(world, op.merchant), fiat: FIATS[op.fiat] }));
      return { type: 'reviewMerchantAccount', userId: op.asOwner ? m.userId : 0, merchantId: m.merchantId, fiat: fiatName, action: op.action };
    }
    case 'activate': {
      const m = choose(op.aim, merchantsOf(h).filter((x) => x.status === NORMAL), op.merchant, () => anyMerchant(world, op.merchant));
      const fiatName = FIATS[op.fiat];
      return {
        type: 'activateMerchantAccount',
        userId: op.stranger ? strangerOf(world, m.userId) : m.userId,
        merchantId: m.merchantId,
        fiat: fiatName,
        fieldList: {},
        verifyToken: `verify-${m.merchantId}-${fiatName}-${h.now}`,
      };
    }
    case 'addBeneficiary': {
      // Aimed: a verified merchant and the rail of a fiat it has an active account in, so that claims can pay to it.
      const active = accountsIn(world, NORMAL).filter(({ m: x }) => x.merchantId > 0);
      const verified = merchantsOf(h).filter((x) => x.status === NORMAL);
      const target = choose(op.aim, active, op.merchant, () => ({ m: choose(op.aim, verified, op.merchant, () => anyMerchant(world, op.merchant)), fiat: RAILS[op.rail].fiat as string }));
      const m = target.m;
      const rail = RAILS.find((r) => r.fiat === target.fiat) ?? RAILS[op.rail];
      return {
        type: 'addBeneficiary',
        userId: op.stranger ? strangerOf(world, m.userId) : m.userId,
        merchantId: m.merchantId,
        paymentId: rail.paymentId,
        country: rail.country,
        fiat: op.variant === 'wrongFiat' ? RAILS[(RAILS.indexOf(rail) + 1) % RAILS.length].fiat : rail.fiat,
        realName: 'Juan Perez',
        fieldList: {},
        // Distinct per rail and key: a second use for the same merchant is -5053.
        accountKey: op.variant === 'ownAccount' ? ownAccountKey(m.merchantId, rail.paymentId) : `${rail.paymentId}-key-${op.key}`,
        remark: '',
      };
    }
    case 'reviewBeneficiary': {
      const all = [...state.beneficiaries.values()];
      const reviewing = all.filter((b) => b.status === BENEFICIARY_REVIEWING);
      // Mostly one under review; sometimes any (refused unless under review) or an unknown id.
      const b = reviewing.length > 0 && op.pick % 4 !== 0 ? reviewing[op.pick % reviewing.length] : all.length > 0 && op.pick % 8 !== 0 ? all[op.pick % all.length] : undefined;
      return {
        type: 'reviewBeneficiary',
        userId: op.asOwner && b !== undefined ? b.userId : 0,
        userPaymentId: b?.userPaymentId ?? 1001 + (op.pick % 50),
        action: op.approve ? 'approve' : 'reject',
      };
    }
    case 'deleteBeneficiary': {
      const all = [...state.beneficiaries.values()];
      const b = all.length > 0 ? all[op.pick % all.length] : undefined;
      const owner = b?.userId ?? world.merchantUsers[0].userId;
      return { type: 'deleteBeneficiary', userId: op.stranger ? strangerOf(world, owner) : owner, userPaymentId: b?.userPaymentId ?? 1001 + (op.pick % 50) };
    }
    case 'refundAccount': {
      const m = anyMerchant(world, op.merchant);
      const own = [...state.beneficiaries.values()].filter((b) => b.merchantId === m.merchantId);
      const userPaymentId = own.length > 0 && op.pick % 5 !== 0 ? own[op.pick % own.length].userPaymentId : 1001 + (op.pick % 50);
      return { type: 'setRefundAccount', userId: m.userId, merchantId: m.merchantId, userPaymentId };
    }
    case 'arrival': {
      const { m, fiat: fiatName } = choose(op.aim, accountsIn(world, NORMAL), op.merchant, () => ({ m: anyMerchant(world, op.merchant), fiat: FIATS[op.fiat] }));
      return {
        type: 'bankArrival',
        userId: op.stranger ? strangerOf(world, m.userId) : m.userId,
        merchantId: m.merchantId,
        fiat: fiatName,
        amount: money(op.cents, op.trimmed),
        reference: '',
        traceNumber: op.trace === 0 ? '' : `T-${op.trace}`,
        payerName: 'CENTAURE SA DE CV',
        payerAccount: '684180168000000000',
        cardNo: '',
        taxId: 'CCN2203099WA',
        description: 'Payment',
      };
    }
    case 'claim': {
      // Aimed: a valid beneficiary whose merchant has an active account in its fiat. Otherwise any
      // merchant, with one of its beneficiaries (any status, any fiat), an unknown id or the pending fund (70).
      const payable = [...state.beneficiaries.values()].filter((b) => b.status === BENEFICIARY_VALID && isActive(world, b.merchantId, b.fiat));
      const funded = payable.filter((b) => freeCents(world, merchantById(world, b.merchantId).accountId, b.fiat) > 0n);
      const preferred = funded.length > 0 ? funded : payable;
      const aimed = op.aim && preferred.length > 0 ? preferred[op.pick % preferred.length] : undefined;
      const m = aimed !== undefined ? merchantById(world, aimed.merchantId) : anyMerchant(world, op.merchant);
      const own = [...state.beneficiaries.values()].filter((b) => b.merchantId === m.merchantId);
      const b = aimed ?? (own.length > 0 && op.pick % 4 !== 0 ? own[op.pick % own.length] : undefined);
      const fiatName = aimed !== undefined || (b !== undefined && op.pick % 3 !== 0) ? (b?.fiat ?? 'MXN') : FIATS[op.pick % FIATS.length];
      const userPaymentId = b?.userPaymentId ?? (op.pick % 2 === 0 ? PENDING_FUND_RAIL : 1001 + (op.pick % 50));
      const fee = b === undefined ? 0n : payoutFee(world, b.paymentId);
      const cents = amountOf(op.amount, freeCents(world, m.accountId, fiatName), () => fee);
      return {
        type: 'claimFunds',
        userId: op.stranger ? strangerOf(world, m.userId) : m.userId,
        merchantId: m.merchantId,
        clientId: op.client === 0 ? '' : `claim-${op.client}`,
        fiat: fiatName,
        amount: money(cents),
        userPaymentId,
      };
    }
    case 'settle': {
      const pending = [...state.pendingFunding.values()];
      // Mostly a pending record; sometimes any id, settled already or unknown (-5104).
      const record = pending.length > 0 && op.pick % 4 !== 0 ? pending[op.pick % pending.length] : undefined;
      const txId = record?.txId ?? 3_000_001 + (op.pick % Math.max(1, state.nextTxId - 3_000_000 + 2));
      return { type: 'settleFunding', userId: op.asOwner && record !== undefined ? record.userId : 0, txId, action: op.complete ? 'complete' : 'cancel' };
    }
    case 'transferFunds': {
      const all = merchantsOf(h);
      // Aimed: two merchants of one user with active accounts in one fiat, the source holding some of it.
      const routes = all.flatMap((from) =>
        FIATS.filter((f) => isActive(world, from.merchantId, f)).flatMap((f) =>
          all.filter((to) => to.userId === from.userId && to.merchantId !== from.merchantId && isActive(world, to.merchantId, f)).map((to) => ({ from: from as MerchantRef, to: to as MerchantRef, fiat: f as string })),
        ),
      );
      const funded = routes.filter((r) => freeCents(world, r.from.accountId, r.fiat) > 0n);
      const route = choose(op.aim, funded.length > 0 ? funded : routes, op.from, () => {
        // Any two merchants of a user (the same one, inactive accounts, none at all: refused).
        const userId = world.merchantUsers[op.user].userId;
        const own = all.filter((m) => m.userId === userId);
        const pick = (n: number): MerchantRef => (own.length > 0 ? own[n % own.length] : { merchantId: 1 + (n % 3), userId, accountId: 0 });
        return { from: pick(op.from), to: pick(op.to), fiat: FIATS[op.fiat] as string };
      });
      const railFiat = FIATS.indexOf(route.fiat as (typeof FIATS)[number]);
      // 70 or the fiat's own rail (accepted), another fiat's rail (-5018).
      const paymentId = op.rail <= 1 ? PENDING_FUND_RAIL : op.rail <= 3 ? RAILS[railFiat].paymentId : RAILS[(railFiat + 1) % RAILS.length].paymentId;
      const cents = amountOf(op.amount, freeCents(world, route.from.accountId, route.fiat), (c) => transferFee(world, route.fiat, c));
      return {
        type: 'transferFunds',
        userId: route.from.userId,
        clientId: op.client === 0 ? '' : `move-${op.client}`,
        fromMerchantId: route.from.merchantId,
        toMerchantId: route.to.merchantId,
        fiat: route.fiat,
        paymentId,
        fiatAmount: money(cents),
      };
    }
    case 'cryptoDeposit': {
      const m = anyMerchant(world, op.merchant);
      // Into M; with no merchant yet, into an account that does not exist (refused).
      return { type: 'deposit', accountId: m.accountId === 0 ? NO_ACCOUNT : m.accountId, asset: CRYPTOS[op.asset], amount: formatUnits(op.atoms, PRECISION), txId: 'chain' };
    }
    case 'transfer': {
      const asset = TRANSFER_ASSETS[op.asset];
      // Aimed, out of M: a merchant whose M holds the asset.
      const holders = op.into ? [] : merchantsOf(h).filter((x) => h.free(x.accountId, asset) > 0n);
      const m = choose(op.aim, holders, op.merchant, () => anyMerchant(world, op.merchant));
      const owner = world.merchantUsers.find((u) => u.userId === m.userId);
      const other = op.viaTrader || owner === undefined ? world.traders[op.merchant % PLAIN_TRADERS] : owner.accountId;
      const merchantAccount = m.accountId === 0 ? NO_ACCOUNT : m.accountId;
      const [fromAccountId, toAccountId] = op.into ? [other, merchantAccount] : [merchantAccount, other];
      const source = fromAccountId === NO_ACCOUNT ? 0n : h.free(fromAccountId, asset);
      let atoms = amountOf(op.amount, source, () => 0n);
      if (atoms <= 0n) atoms = 1n + (op.amount.how === 'any' ? op.amount.cents : 0n);
      const flowType: FlowTypeName = op.viaTrader ? 'TRANSFER' : 'USER_ACCOUNT_TRANSFER';
      return { type: 'transfer', fromAccountId, toAccountId, asset, amount: formatUnits(atoms, PRECISION), flowType };
    }
    case 'limit':
      return limitNearMid(h.core, world.traders[op.trader], USDTMXN_BOOK, op);
    case 'market':
      return marketNearMid(h.core, world.traders[op.trader], USDTMXN_BOOK, op);
    case 'cancel':
      return cancelPick(h.core, world.traders[op.trader], op.pick, 3);
  }
}
