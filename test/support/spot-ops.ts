/**
 * Random area A commands for property tests: orders of every type and time in force (some with
 * dust, refused), cancels one by one and all at once, deposits, transfers of both flow types
 * between any two accounts (mains and sub-accounts), withdrawals and their settlement. An op is
 * drawn once and turned into a command against the state at the time it runs (`spotCommand`), so
 * most cancels and settlements name an object that exists.
 */
import fc from 'fast-check';
import { formatUnits } from '../../src/core/decimal.js';
import type { Command, OrderType, TimeInForce } from '../../src/core/types.js';
import type { ExchangeCore } from '../../src/exchange/exchange-core.js';

/** Users a stream acts for; each has its main account and one sub-account (see `SpotWorld.accounts`). */
const SPOT_USERS = 3;
const SPOT_ASSETS = ['BTC', 'ETH', 'USDT'] as const;
/** Each user's maker and taker fee rates, with 8 decimals, so that most fills round their fee. */
const FEE_RATES = [
  ['0.001', '0.001'],
  ['0.00012345', '0.00098765'],
  ['0', '0.1'],
] as const;
/** What every account starts with. */
const FUNDS = [
  ['BTC', '1'],
  ['ETH', '10'],
  ['USDT', '50000'],
] as const;
/** Generation ranges per symbol: mid price in ticks, largest order in lots, MARKET BUY amount in units of tickSize's decimals. */
const SYMBOLS = [
  { symbol: 'BTCUSDT', midTicks: 3_000_000, maxLots: 300_000, maxAmountUnits: 2_000_000 },
  { symbol: 'ETHUSDT', midTicks: 200_000, maxLots: 50_000, maxAmountUnits: 2_000_000 },
  { symbol: 'ETHBTC', midTicks: 6_000, maxLots: 5_000, maxAmountUnits: 30_000 },
] as const;

export type SpotOp =
  | { kind: 'deposit'; account: number; asset: number; atoms: bigint }
  | { kind: 'limit'; account: number; symbol: number; buy: boolean; offsetTicks: number; lots: number; dustAtoms: number; orderType: OrderType; tif: TimeInForce }
  | { kind: 'marketBuy'; account: number; symbol: number; units: number; dust: boolean }
  | { kind: 'marketSell'; account: number; symbol: number; lots: number }
  | { kind: 'cancel'; account: number; pick: number }
  | { kind: 'cancelAll'; account: number; symbol: number | null }
  | { kind: 'transfer'; from: number; to: number; asset: number; atoms: bigint; userTransfer: boolean }
  | { kind: 'withdraw'; account: number; asset: number; atoms: bigint; client: number }
  | { kind: 'settle'; pick: number; approve: boolean };

const account = fc.nat({ max: SPOT_USERS * 2 - 1 });
const symbolIndex = fc.nat({ max: SYMBOLS.length - 1 });
const assetIndex = fc.nat({ max: SPOT_ASSETS.length - 1 });
const atoms = fc.oneof(fc.bigInt({ min: 1n, max: 1_000n }), fc.bigInt({ min: 1n, max: 3_000_000_000n }));

export const spotOpArb: fc.Arbitrary<SpotOp> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deposit' as const), account, asset: assetIndex, atoms: fc.bigInt({ min: 0n, max: 5_000_000_000n }) }) },
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('limit' as const),
      account,
      symbol: symbolIndex,
      buy: fc.boolean(),
      offsetTicks: fc.integer({ min: -6, max: 6 }),
      lots: fc.nat({ max: 300_000 }),
      dustAtoms: fc.oneof({ weight: 9, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 99 }) }),
      orderType: fc.constantFrom<OrderType>('LIMIT', 'LIMIT', 'LIMIT', 'LIMIT_MAKER'),
      tif: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'IOC', 'FOK'),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('marketBuy' as const),
      account,
      symbol: symbolIndex,
      units: fc.nat({ max: 2_000_000 }),
      dust: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('marketSell' as const), account, symbol: symbolIndex, lots: fc.nat({ max: 300_000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), account, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), account, symbol: fc.option(symbolIndex, { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('transfer' as const), from: account, to: account, asset: assetIndex, atoms, userTransfer: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), account, asset: assetIndex, atoms, client: fc.nat({ max: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('settle' as const), pick: fc.nat(), approve: fc.boolean() }) },
);

/** The state a command is built against, and the accounts ops name: user u's main account at 2u, its sub-account at 2u + 1. */
export interface SpotWorld {
  core: ExchangeCore;
  accounts: readonly number[];
}

/**
 * The parties of a spot stream, set up once the demo catalogue is listed: the users with their fee
 * rates and sub-accounts, every account funded. Yields each command and takes back its result, so
 * that a harness and a sequencer can both run it; returns the accounts in `SpotWorld.accounts` order.
 */
export function* spotParties(): Generator<Command, number[], unknown> {
  const accounts: number[] = [];
  for (let u = 0; u < SPOT_USERS; u++) {
    const { userId, accountId } = (yield { type: 'createUser', email: `u${u}@example.com`, userType: 'user' }) as { userId: number; accountId: number };
    const [makerFeeRate, takerFeeRate] = FEE_RATES[u];
    yield { type: 'setFeeRates', accountId, makerFeeRate, takerFeeRate };
    const { accountId: sub } = (yield { type: 'createSubAccount', userId, name: '' }) as { accountId: number };
    accounts.push(accountId, sub);
  }
  for (const accountId of accounts) {
    for (const [asset, amount] of FUNDS) yield { type: 'deposit', accountId, asset, amount, txId: `seed-${asset}` };
  }
  return accounts;
}

/** Where a stream trades a symbol: its mid price in ticks and its largest order in lots. */
export interface BookRange {
  symbol: string;
  midTicks: number;
  maxLots: number;
}

/** A LIMIT order `offsetTicks` from the mid, of 1 to `maxLots` lots, GTC or IOC. */
export function limitNearMid(core: ExchangeCore, accountId: number, { symbol, midTicks, maxLots }: BookRange, op: { buy: boolean; ioc: boolean; offsetTicks: number; lots: number }): Command {
  const spec = core.spot.symbol(symbol).spec;
  return {
    type: 'placeOrder',
    accountId,
    symbol,
    side: op.buy ? 'BUY' : 'SELL',
    orderType: 'LIMIT',
    timeInForce: op.ioc ? 'IOC' : 'GTC',
    price: formatUnits(BigInt(midTicks + op.offsetTicks) * spec.tickSizeAtto, 18),
    quantity: formatUnits(BigInt((op.lots % maxLots) + 1) * spec.baseAtomsPerLot, spec.basePrecision),
  };
}

/** A MARKET order of 1 to `maxLots` lots; a BUY is sized in quote (docs/spot-api.md "MARKET BUY amount"): about that many lots at the mid price, in whole ticks. */
export function marketNearMid(core: ExchangeCore, accountId: number, { symbol, midTicks, maxLots }: BookRange, op: { buy: boolean; lots: number }): Command {
  const spec = core.spot.symbol(symbol).spec;
  const lots = BigInt((op.lots % maxLots) + 1);
  const quantity = op.buy ? formatUnits(lots * BigInt(midTicks) * spec.quoteAtomsPerTickLot, spec.quotePrecision) : formatUnits(lots * spec.baseAtomsPerLot, spec.basePrecision);
  return { type: 'placeOrder', accountId, symbol, side: op.buy ? 'BUY' : 'SELL', orderType: 'MARKET', timeInForce: 'GTC', quantity };
}

/**
 * A cancel of one of the account's open orders, or, one pick in `anyIdEvery` (and when it has none
 * open), of any id ever issued (filled, canceled, someone else's).
 */
export function cancelPick(core: ExchangeCore, accountId: number, pick: number, anyIdEvery: number): Command {
  const open = [...core.spot.openOrderIdsOf(accountId)];
  const orderId = open.length > 0 && pick % anyIdEvery !== 0 ? open[pick % open.length] : (pick % core.spot.nextOrderId) + 1;
  return { type: 'cancelOrder', accountId, orderId };
}

export function spotCommand(op: SpotOp, { core, accounts }: SpotWorld): Command {
  switch (op.kind) {
    case 'deposit':
      return { type: 'deposit', accountId: accounts[op.account], asset: SPOT_ASSETS[op.asset], amount: formatUnits(op.atoms, 8), txId: '' };
    case 'limit': {
      const { symbol, midTicks, maxLots } = SYMBOLS[op.symbol];
      const spec = core.spot.symbol(symbol).spec;
      const priceTicks = midTicks + op.offsetTicks;
      const baseAtoms = BigInt((op.lots % maxLots) + 1) * spec.baseAtomsPerLot + BigInt(op.dustAtoms);
      return {
        type: 'placeOrder',
        accountId: accounts[op.account],
        symbol,
        side: op.buy ? 'BUY' : 'SELL',
        orderType: op.orderType,
        timeInForce: op.tif,
        price: formatUnits(BigInt(priceTicks) * spec.tickSizeAtto, 18),
        quantity: formatUnits(baseAtoms, spec.basePrecision),
      };
    }
    case 'marketBuy': {
      const { symbol, maxAmountUnits } = SYMBOLS[op.symbol];
      const spec = core.spot.symbol(symbol).spec;
      const units = BigInt((op.units % maxAmountUnits) + 1);
      // Dust: one more decimal than tickSize allows, refused with -1148.
      const quantity = op.dust ? formatUnits(units * 10n + 1n, spec.tickDecimals + 1) : formatUnits(units, spec.tickDecimals);
      return { type: 'placeOrder', accountId: accounts[op.account], symbol, side: 'BUY', orderType: 'MARKET', timeInForce: 'GTC', quantity };
    }
    case 'marketSell': {
      const { symbol, maxLots } = SYMBOLS[op.symbol];
      const spec = core.spot.symbol(symbol).spec;
      const quantity = formatUnits(BigInt((op.lots % maxLots) + 1) * spec.baseAtomsPerLot, spec.basePrecision);
      return { type: 'placeOrder', accountId: accounts[op.account], symbol, side: 'SELL', orderType: 'MARKET', timeInForce: 'GTC', quantity };
    }
    case 'cancel':
      return cancelPick(core, accounts[op.account], op.pick, 4);
    case 'cancelAll':
      return { type: 'cancelOrders', accountId: accounts[op.account], symbol: op.symbol === null ? undefined : SYMBOLS[op.symbol].symbol };
    case 'transfer':
      return {
        type: 'transfer',
        fromAccountId: accounts[op.from],
        toAccountId: accounts[op.to],
        asset: SPOT_ASSETS[op.asset],
        amount: formatUnits(op.atoms, 8),
        flowType: op.userTransfer ? 'TRANSFER' : 'USER_ACCOUNT_TRANSFER',
      };
    case 'withdraw':
      return {
        type: 'withdraw',
        accountId: accounts[op.account],
        asset: SPOT_ASSETS[op.asset],
        amount: formatUnits(op.atoms, 8),
        address: 'addr',
        addressExt: '',
        chainType: 'TRC20',
        clientOrderId: `w${op.client}`,
      };
    case 'settle':
      return { type: 'settleWithdrawal', withdrawalId: (op.pick % Math.max(1, core.funds.nextWithdrawalId - 1)) + 1, approve: op.approve, txId: 'tx', reason: '' };
  }
}
