/**
 * Random area A commands with stop and iceberg orders (docs/spot-api.md "Stop and iceberg orders") for the differential
 * property test: orders of every kind at prices clustered around each symbol's last trade price, so
 * that the mid moves as the stream trades and stops are placed close enough to fire and cascade;
 * now and then a far order that a sweep turns into a price jump (a crash that fires many stops at
 * once), orders sized at the boundaries (just above minNotional; exactly what the first resting
 * orders hold, for FOK and the MARKET BUY rest); icebergs to be walked and refilled; cancels of
 * open orders (untriggered ones included) or of any id; deposits that keep the accounts trading;
 * the algoOrders option turned off and on. An op is drawn once and turned into a command against
 * the reference model's state when it runs (`algoCommand`), as test/support/spot-ops.ts does
 * against the core's.
 */
import fc from 'fast-check';
import { formatUnits, pow10 } from '../../src/core/decimal.js';
import type { Command, PlaceOrderCommand, Side, StopOrderType, TimeInForce } from '../../src/core/types.js';
import type { ModelOrder, ModelSymbol, SpotReferenceModel } from './spot-reference-model.js';

const ATTO = 10n ** 18n;
/**
 * Where each symbol starts (mid before its first trade, in ticks) and its order unit in lots: a few
 * times minNotional at the mid. ETHUSDT and ETHBTC start at a minNotional boundary (5 lots reach it
 * from 2000, 2 lots from 0.05), where a tiny order's notional is below it a tick lower: a fired
 * MARKET SELL meets a lower best bid there.
 */
const SYMBOLS = [
  { symbol: 'BTCUSDT', midTicks: 3_000_000n, unitLots: 100n },
  { symbol: 'ETHUSDT', midTicks: 200_002n, unitLots: 10n },
  { symbol: 'ETHBTC', midTicks: 5_002n, unitLots: 4n },
] as const;
/** Deposits top an account up by 1 to 4 of these. */
const TOP_UPS = [
  ['BTC', 25_000_000n],
  ['ETH', 250_000_000n],
  ['USDT', 1_000_000_000_000n],
] as const;
/** A whale order is this many times larger: it sweeps books and sometimes outgrows the balance (-1131). */
const WHALE = 400n;
/** A far order rests this many per mille away from the mid. */
const FAR_PER_MILLE = 50n;
/** Accounts of test/support/spot-ops.ts `spotParties`: three users, each with a sub-account. */
const ACCOUNTS = 6;

interface IcebergPick {
  /** About how many parts: icebergQty = quantity / parts, in whole lots (more than 10 parts is refused). */
  parts: number;
  /** icebergQty = quantity: refused -1100. */
  whole: boolean;
  /** IOC instead of GTC: refused -2010. */
  ioc: boolean;
}

/** `units` order units; or a whale order; or a tiny one, just above minNotional at its price. */
interface Size {
  units: number;
  scale: 'normal' | 'whale' | 'tiny';
}

export type AlgoOp =
  | ({
      kind: 'limit';
      account: number;
      symbol: number;
      buy: boolean;
      /** How far from the mid on its own side (below it for a BUY); negative crosses it. */
      passiveTicks: number;
      /** Rest far away instead (FAR_PER_MILLE). */
      far: boolean;
      maker: boolean;
      tif: TimeInForce;
      iceberg: IcebergPick | null;
    } & Size)
  | ({ kind: 'market'; account: number; symbol: number; buy: boolean } & Size)
  | {
      kind: 'sweep';
      account: number;
      symbol: number;
      buy: boolean;
      /** How many of the first resting orders on the other side, visible and hidden parts. */
      orders: number;
      /** Instead, the orders ahead of the account's own first one there (when it is not the first). */
      toOwn: boolean;
      /** Lots more (or fewer) than they hold. */
      deltaLots: number;
      how: 'FOK' | 'IOC' | 'MARKET';
    }
  | ({
      kind: 'stop';
      account: number;
      symbol: number;
      buy: boolean;
      stopType: StopOrderType;
      /** How far from the last price, on the side where it is accepted unless `wrongSide`; 0 is refused. */
      stopTicks: number;
      wrongSide: boolean;
      /** A stop-limit's price beyond its stop price (negative: short of it). */
      limitTicks: number;
      tif: TimeInForce;
      iceberg: IcebergPick | null;
    } & Size)
  | { kind: 'misplaced'; account: number; symbol: number; variant: number }
  | { kind: 'cancel'; account: number; pick: number }
  | { kind: 'cancelAll'; account: number; symbol: number | null }
  | { kind: 'deposit'; account: number; asset: number; times: number }
  | { kind: 'algoOrders'; on: boolean };

function rarely<T>(usual: T, rare: T, oneIn: number): fc.Arbitrary<T> {
  return fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(usual) }, { weight: 1, arbitrary: fc.constant(rare) });
}

const account = fc.nat({ max: ACCOUNTS - 1 });
/** Half the orders on BTCUSDT, so that its book is deep enough for stops to cascade; the rest on the others. */
const symbolIndex = fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.constant(2) });
/** Sizes: of 20, one whale and `tinyOf20` tiny. */
const size = (maxUnits: number, tinyOf20: number): fc.Arbitrary<Size> =>
  fc.record({
    units: fc.integer({ min: 1, max: maxUnits }),
    scale: fc.oneof({ weight: 19 - tinyOf20, arbitrary: fc.constant('normal' as const) }, { weight: 1, arbitrary: fc.constant('whale' as const) }, { weight: tinyOf20, arbitrary: fc.constant('tiny' as const) }),
  });
const tif = fc.constantFrom<TimeInForce>('GTC', 'GTC', 'GTC', 'GTC', 'GTC', 'GTC', 'IOC', 'FOK');
/** One order in three is an iceberg. */
const iceberg = fc.oneof(
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.record({ parts: fc.integer({ min: 2, max: 11 }), whole: rarely(false, true, 16), ioc: rarely(false, true, 16) }) },
);

export const algoOpArb: fc.Arbitrary<AlgoOp> = fc.oneof(
  {
    weight: 36,
    arbitrary: fc
      .tuple(
        fc.record({
          kind: fc.constant('limit' as const),
          account,
          symbol: symbolIndex,
          buy: fc.boolean(),
          passiveTicks: fc.integer({ min: -2, max: 6 }),
          far: rarely(false, true, 25),
          maker: rarely(false, true, 6),
          tif,
          iceberg,
        }),
        size(12, 2),
      )
      .map(([op, s]) => ({ ...op, ...s })),
  },
  { weight: 6, arbitrary: fc.tuple(fc.record({ kind: fc.constant('market' as const), account, symbol: symbolIndex, buy: fc.boolean() }), size(20, 2)).map(([op, s]) => ({ ...op, ...s })) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('sweep' as const),
      account,
      symbol: symbolIndex,
      buy: fc.boolean(),
      orders: fc.integer({ min: 1, max: 4 }),
      toOwn: fc.boolean(),
      deltaLots: fc.integer({ min: -1, max: 1 }),
      how: fc.constantFrom('FOK' as const, 'IOC' as const, 'MARKET' as const),
    }),
  },
  {
    weight: 20,
    arbitrary: fc
      .tuple(
        fc.record({
          kind: fc.constant('stop' as const),
          account,
          symbol: symbolIndex,
          buy: fc.boolean(),
          stopType: fc.constantFrom<StopOrderType>('STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'),
          stopTicks: fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 12, arbitrary: fc.integer({ min: 1, max: 4 }) }),
          wrongSide: rarely(false, true, 13),
          limitTicks: fc.integer({ min: -2, max: 4 }),
          tif,
          iceberg,
        }),
        // Larger than most resting orders, so that a fired one moves the price on to the next stops.
        size(30, 7),
      )
      .map(([op, s]) => ({ ...op, ...s })),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('misplaced' as const), account, symbol: symbolIndex, variant: fc.nat({ max: 3 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('cancel' as const), account, pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), account, symbol: fc.option(symbolIndex, { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deposit' as const), account, asset: fc.nat({ max: TOP_UPS.length - 1 }), times: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('algoOrders' as const), on: rarely(true, false, 5) }) },
);

/** What a command is built against: the model's books and last prices, and the accounts ops name (spotParties' order). */
export interface AlgoWorld {
  model: SpotReferenceModel;
  accounts: readonly number[];
}

/** Prices and quantities of one symbol as decimal text, around its current mid. */
class Pricing {
  readonly symbol: ModelSymbol;
  readonly midTicks: bigint;
  readonly unitLots: bigint;

  constructor(model: SpotReferenceModel, index: number) {
    const { symbol, midTicks, unitLots } = SYMBOLS[index];
    this.symbol = model.symbol(symbol);
    const last = this.symbol.lastPriceAtto;
    this.midTicks = last === null ? midTicks : last / this.symbol.tickAtto;
    this.unitLots = unitLots;
  }

  /** `offsetTicks` from the mid, at least one tick. */
  ticks(offsetTicks: bigint | number): bigint {
    const ticks = this.midTicks + BigInt(offsetTicks);
    return ticks < 1n ? 1n : ticks;
  }

  price(ticks: bigint): string {
    return formatUnits(ticks * this.symbol.tickAtto, 18);
  }

  /** An order's lots at `ticks`: tiny ones are the fewest that reach minNotional there. */
  lots({ units, scale }: Size, ticks: bigint): bigint {
    if (scale === 'whale') return BigInt(units) * this.unitLots * WHALE;
    if (scale === 'normal') return BigInt(units) * this.unitLots;
    const lotAtto = (this.symbol.stepAtto * ticks * this.symbol.tickAtto) / ATTO;
    return (this.symbol.minNotionalAtto + lotAtto - 1n) / lotAtto;
  }

  quantity(lots: bigint): string {
    return formatUnits((lots > 0n ? lots : 1n) * this.symbol.stepAtto, 18);
  }

  /** A quote amount in whole units of tickSize's decimals (docs/spot-api.md "MARKET BUY amount"), rounded up from `atto`. */
  amountOf(atto: bigint): string {
    const unit = pow10(18 - this.symbol.tickDecimals);
    return formatUnits(((atto + unit - 1n) / unit) * unit, 18);
  }

  /** The quote amount that buys about `lots` at `ticks`. */
  amount(lots: bigint, ticks: bigint): string {
    return this.amountOf((lots * this.symbol.stepAtto * ticks * this.symbol.tickAtto) / ATTO);
  }

  /** icebergQty for `lots` (empty when none). */
  iceberg(lots: bigint, pick: IcebergPick | null): Partial<PlaceOrderCommand> {
    if (pick === null) return {};
    const partLots = pick.whole ? lots : lots / BigInt(pick.parts);
    return { icebergQty: this.quantity(partLots), timeInForce: pick.ioc ? 'IOC' : 'GTC' };
  }
}

function order(accountId: number, pricing: Pricing, side: Side, fields: Omit<PlaceOrderCommand, 'type' | 'accountId' | 'symbol' | 'side'>): PlaceOrderCommand {
  return { type: 'placeOrder', accountId, symbol: pricing.symbol.name, side, ...fields };
}

function limitOrder(accountId: number, pricing: Pricing, op: Extract<AlgoOp, { kind: 'limit' }>): PlaceOrderCommand {
  const away = op.far ? (pricing.midTicks * FAR_PER_MILLE) / 1000n : BigInt(op.passiveTicks);
  const ticks = pricing.ticks(op.buy ? -away : away);
  const lots = pricing.lots(op, ticks);
  return order(accountId, pricing, op.buy ? 'BUY' : 'SELL', {
    orderType: op.maker ? 'LIMIT_MAKER' : 'LIMIT',
    timeInForce: op.maker ? 'GTC' : op.tif,
    quantity: pricing.quantity(lots),
    price: pricing.price(ticks),
    ...pricing.iceberg(lots, op.iceberg),
  });
}

/**
 * An order sized to what the first resting orders on the other side hold (hidden iceberg parts
 * included), give or take a lot, or to what rests ahead of the account's own order: FOK at the
 * boundary of what it may count, a MARKET BUY whose rest cannot buy another lot at the next
 * order's price, the account's own (docs/spot-api.md "MARKET BUY amount": FILLED, checked before self-trade prevention).
 */
function sweepOrder(accountId: number, pricing: Pricing, op: Extract<AlgoOp, { kind: 'sweep' }>): PlaceOrderCommand {
  const side: Side = op.buy ? 'BUY' : 'SELL';
  const opposite = op.buy ? pricing.symbol.asks : pricing.symbol.bids;
  const own = opposite.findIndex((o) => o.accountId === accountId);
  const reached: ModelOrder[] = opposite.slice(0, op.toOwn && own > 0 ? own : op.orders);
  const last = reached.at(-1);
  const stepAtto = pricing.symbol.stepAtto;
  const baseAtto = reached.reduce((sum, o) => sum + (o.visibleAtoms + o.hiddenAtoms) * pow10(18 - pricing.symbol.basePrecision), 0n) + BigInt(op.deltaLots) * stepAtto;
  const quantity = pricing.quantity(baseAtto / stepAtto);
  if (op.how === 'MARKET') {
    if (!op.buy) return order(accountId, pricing, side, { orderType: 'MARKET', timeInForce: 'GTC', quantity });
    const quoteAtto = reached.reduce((sum, o) => sum + (o.priceAtto * o.visibleAtoms * pow10(18 - pricing.symbol.basePrecision)) / ATTO, 0n);
    return order(accountId, pricing, side, { orderType: 'MARKET', timeInForce: 'GTC', quantity: pricing.amountOf(quoteAtto > 0n ? quoteAtto : pricing.symbol.minNotionalAtto) });
  }
  const price = last === undefined ? pricing.price(pricing.midTicks) : formatUnits(last.priceAtto, 18);
  return order(accountId, pricing, side, { orderType: 'LIMIT', timeInForce: op.how, quantity, price });
}

/** A stop order: its stop price on the side where the last price has yet to reach it (docs/spot-api.md "Stop and iceberg orders"), unless told otherwise. */
function stopOrder(accountId: number, pricing: Pricing, op: Extract<AlgoOp, { kind: 'stop' }>): PlaceOrderCommand {
  const side: Side = op.buy ? 'BUY' : 'SELL';
  const rising = op.stopType.startsWith('STOP_LOSS') === op.buy;
  const towards = rising !== op.wrongSide ? 1 : -1;
  const stopTicks = pricing.ticks(towards * op.stopTicks);
  const lots = pricing.lots(op, stopTicks);
  const stopPrice = pricing.price(stopTicks);
  if (op.stopType === 'STOP_LOSS' || op.stopType === 'TAKE_PROFIT') {
    // A BUY is sized in quote like the MARKET order it fires (docs/spot-api.md "Stop and iceberg orders").
    const quantity = op.buy ? pricing.amount(lots, stopTicks) : pricing.quantity(lots);
    return order(accountId, pricing, side, { orderType: op.stopType, timeInForce: 'GTC', quantity, stopPrice });
  }
  const priceTicks = pricing.ticks(stopTicks - pricing.midTicks + BigInt(op.buy ? op.limitTicks : -op.limitTicks));
  return order(accountId, pricing, side, {
    orderType: op.stopType,
    timeInForce: op.tif,
    quantity: pricing.quantity(lots),
    price: pricing.price(priceTicks),
    stopPrice,
    ...pricing.iceberg(lots, op.iceberg),
  });
}

/**
 * Orders with a stop or iceberg parameter where it does not belong, or a stop without its stop
 * price. ("0" for unset is the API's reading: it never reaches a command.)
 */
function misplaced(accountId: number, pricing: Pricing, variant: number): PlaceOrderCommand {
  const lots = pricing.lots({ units: 2, scale: 'normal' }, pricing.midTicks);
  const limit = order(accountId, pricing, 'BUY', { orderType: 'LIMIT', timeInForce: 'GTC', quantity: pricing.quantity(lots), price: pricing.price(pricing.ticks(-3)) });
  switch (variant) {
    case 0:
      return { ...limit, stopPrice: pricing.price(pricing.ticks(3)) };
    case 1:
      return order(accountId, pricing, 'SELL', { orderType: 'MARKET', timeInForce: 'GTC', quantity: pricing.quantity(lots), icebergQty: pricing.quantity(1n) });
    case 2:
      return order(accountId, pricing, 'SELL', { orderType: 'STOP_LOSS', timeInForce: 'GTC', quantity: pricing.quantity(lots), stopPrice: pricing.price(pricing.ticks(-3)), icebergQty: pricing.quantity(1n) });
    default:
      return { ...limit, orderType: 'STOP_LOSS_LIMIT' };
  }
}

export function algoCommand(op: AlgoOp, { model, accounts }: AlgoWorld): Command {
  switch (op.kind) {
    case 'limit':
      return limitOrder(accounts[op.account], new Pricing(model, op.symbol), op);
    case 'market': {
      const pricing = new Pricing(model, op.symbol);
      const lots = pricing.lots(op, pricing.midTicks);
      const quantity = op.buy ? pricing.amount(lots, pricing.midTicks) : pricing.quantity(lots);
      return order(accounts[op.account], pricing, op.buy ? 'BUY' : 'SELL', { orderType: 'MARKET', timeInForce: 'GTC', quantity });
    }
    case 'sweep':
      return sweepOrder(accounts[op.account], new Pricing(model, op.symbol), op);
    case 'stop':
      return stopOrder(accounts[op.account], new Pricing(model, op.symbol), op);
    case 'misplaced':
      return misplaced(accounts[op.account], new Pricing(model, op.symbol), op.variant);
    case 'cancel': {
      const open = model.openOrders(accounts[op.account]);
      // One pick in five (and any pick when none is open): any id ever issued, filled, canceled or someone else's.
      const orderId = open.length > 0 && op.pick % 5 !== 0 ? open[op.pick % open.length].orderId : (op.pick % Math.max(1, model.orders.size)) + 1;
      return { type: 'cancelOrder', accountId: accounts[op.account], orderId };
    }
    case 'cancelAll':
      return { type: 'cancelOrders', accountId: accounts[op.account], symbol: op.symbol === null ? undefined : SYMBOLS[op.symbol].symbol };
    case 'deposit': {
      const [asset, atoms] = TOP_UPS[op.asset];
      return { type: 'deposit', accountId: accounts[op.account], asset, amount: formatUnits(BigInt(op.times) * atoms, 8), txId: '' };
    }
    case 'algoOrders':
      return { type: 'setTradingConfig', algoOrders: op.on };
  }
}
