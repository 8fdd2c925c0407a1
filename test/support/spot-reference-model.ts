/**
 * A reference model of area A spot trading with stop and iceberg orders, written from the spec's
 * text (docs/spot-api.md "Orders" and its sections) and not from the core's code, for differential
 * property tests. Deliberately simple: books are arrays kept sorted by price then arrival, every
 * lookup is a scan. Exact: amounts are bigint atoms of their asset, prices atto (10^-18) of the
 * quote asset per base unit. Each command it covers is answered with accepted or the refusal code.
 */
import { attoToUnits, fractionDigits, parseDecimal, pow10 } from '../../src/core/decimal.js';
import type { Command, OrderStatus, OrderType, PlaceOrderCommand, Side, TimeInForce } from '../../src/core/types.js';

const ATTO = 10n ** 18n;
/** More iterations than any walk of a test book can need: a runaway loop is a model bug. */
const WALK_LIMIT = 1_000_000;

export type ModelAnswer = { accepted: true; orderId?: number; fills: ModelFill[] } | { accepted: false; code: number };

/** A trade as the taker's reply lists it (A11 `fills`). */
export interface ModelFill {
  priceAtto: bigint;
  qtyAtoms: bigint;
  commissionAtoms: bigint;
  commissionAsset: string;
}

export interface ModelTrade {
  symbol: string;
  priceAtto: bigint;
  qtyAtoms: bigint;
  buyerOrderId: number;
  sellerOrderId: number;
  buyerFeeAtoms: bigint;
  sellerFeeAtoms: bigint;
  buyerIsMaker: boolean;
}

export interface ModelOrder {
  readonly orderId: number;
  readonly accountId: number;
  readonly symbol: string;
  readonly side: Side;
  readonly type: OrderType;
  /** What it behaves as: MARKET kinds IOC, LIMIT_MAKER GTC (docs/spot-api.md "Orders"). */
  readonly timeInForce: TimeInForce;
  /** Limit price; 0 for MARKET kinds. */
  readonly priceAtto: bigint;
  /** Base quantity; 0 for a MARKET BUY kind, which is sized by `amountAtoms` (docs/spot-api.md "MARKET BUY amount"). */
  readonly qtyAtoms: bigint;
  /** The quote amount of a MARKET BUY kind; else 0. */
  readonly amountAtoms: bigint;
  /** 0 when not a stop order. */
  readonly stopAtto: bigint;
  /** 0 when not an iceberg. */
  readonly icebergAtoms: bigint;
  executedAtoms: bigint;
  cumQuoteAtoms: bigint;
  lockedAtoms: bigint;
  status: OrderStatus;
  untriggered: boolean;
  /** In the book: the visible part and what waits behind it. */
  visibleAtoms: bigint;
  hiddenAtoms: bigint;
}

export interface ModelBalance {
  free: bigint;
  locked: bigint;
}

/** A listed symbol's filters (docs/spot-api.md "Symbol filters") in atto or atoms, its books and its untriggered stops. */
export interface ModelSymbol {
  name: string;
  base: string;
  quote: string;
  basePrecision: number;
  quotePrecision: number;
  tickAtto: bigint;
  tickDecimals: number;
  stepAtto: bigint;
  minPriceAtto: bigint;
  maxPriceAtto: bigint;
  minQtyAtto: bigint;
  maxQtyAtto: bigint;
  minNotionalAtto: bigint;
  lastPriceAtto: bigint | null;
  /** Best first: bids by price descending, asks ascending; then by arrival at the level (of the current part, for an iceberg). */
  bids: ModelOrder[];
  asks: ModelOrder[];
  stops: ModelOrder[];
}

/** What a stream made happen, so that a test can show it exercised stops and icebergs. */
export interface ModelStats {
  fired: number;
  /** Orders fired by the trades of other fired orders (a later round of the same step). */
  cascaded: number;
  refills: number;
}

interface FeeRates {
  makerAtto: bigint;
  takerAtto: bigint;
}

type WalkEnd = 'filled' | 'noCross' | 'selfTrade' | 'unaffordable' | 'bookEnd';

class Refusal extends Error {
  constructor(readonly code: number) {
    super(`refused ${code}`);
  }
}

function refuse(code: number): never {
  throw new Refusal(code);
}

function isStop(type: OrderType): boolean {
  return type === 'STOP_LOSS' || type === 'STOP_LOSS_LIMIT' || type === 'TAKE_PROFIT' || type === 'TAKE_PROFIT_LIMIT';
}

/** The order a type works as (docs/spot-api.md "Stop and iceberg orders"): a stop-market fires a MARKET order, a stop-limit a LIMIT one. */
function workingType(type: OrderType): 'LIMIT' | 'MARKET' | 'LIMIT_MAKER' {
  if (type === 'STOP_LOSS' || type === 'TAKE_PROFIT') return 'MARKET';
  if (type === 'STOP_LOSS_LIMIT' || type === 'TAKE_PROFIT_LIMIT') return 'LIMIT';
  return type;
}

/** True for a stop that fires when the last price rises to it (BUY stop-loss, SELL take-profit). */
function firesRising(type: OrderType, side: Side): boolean {
  const stopLoss = type === 'STOP_LOSS' || type === 'STOP_LOSS_LIMIT';
  return stopLoss === (side === 'BUY');
}

function minOf(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function isOpen(order: ModelOrder): boolean {
  return order.status === 'NEW' || order.status === 'PARTIALLY_FILLED';
}

function decimalAtto(text: string): bigint {
  const value = parseDecimal(text);
  if (value === null) throw new Error(`the model takes well-formed decimals, not ${text}`);
  return value;
}

/** A stop or iceberg parameter: absent or "0" is unset (0). */
function optionalAtto(text: string | undefined): bigint {
  return text === undefined ? 0n : decimalAtto(text);
}

function atoms(atto: bigint, precision: number): bigint {
  const value = attoToUnits(atto, precision);
  if (value === null) throw new Error(`${atto} atto has more decimals than ${precision}`);
  return value;
}

export class SpotReferenceModel {
  readonly symbols = new Map<string, ModelSymbol>();
  readonly orders = new Map<number, ModelOrder>();
  readonly stats: ModelStats = { fired: 0, cascaded: 0, refills: 0 };
  /** Trades of the last command, in engine order. */
  lastTrades: ModelTrade[] = [];
  private readonly precisions = new Map<string, number>();
  private readonly balances = new Map<number, Map<string, ModelBalance>>();
  private readonly feeRates = new Map<number, FeeRates>();
  private readonly config = {
    algoOrders: false,
    maxAlgoOrdersPerSymbol: 5,
    maxAlgoOrdersPerAccount: 100,
    maxIcebergParts: 10,
    maxOpenOrdersPerSymbol: 200,
    maxOpenOrdersPerAccount: 1000,
    defaultFeeRates: { makerAtto: ATTO / 1000n, takerAtto: ATTO / 1000n },
  };
  private nextOrderId = 1;

  /** `feeAccountId` receives every trading fee (docs/spot-api.md "Locks, fees and rounding"). */
  constructor(readonly feeAccountId: number) {
    this.balances.set(feeAccountId, new Map());
  }

  /** An account the core created; a sub-account takes its main account's fee rates (docs/spot-api.md "Locks, fees and rounding"). */
  addAccount(accountId: number, mainAccountId?: number): void {
    this.balances.set(accountId, new Map());
    const rates = mainAccountId === undefined ? this.config.defaultFeeRates : this.ratesOf(mainAccountId);
    this.feeRates.set(accountId, { ...rates });
  }

  accountIds(): number[] {
    return [...this.balances.keys()];
  }

  balance(accountId: number, asset: string): ModelBalance {
    const byAsset = this.balances.get(accountId);
    if (byAsset === undefined) throw new Error(`the model has no account ${accountId}`);
    let balance = byAsset.get(asset);
    if (balance === undefined) {
      balance = { free: 0n, locked: 0n };
      byAsset.set(asset, balance);
    }
    return balance;
  }

  symbol(name: string): ModelSymbol {
    const symbol = this.symbols.get(name);
    if (symbol === undefined) throw new Error(`the model has no symbol ${name}`);
    return symbol;
  }

  /** Open orders (NEW, PARTIALLY_FILLED), untriggered stops included, by id. */
  openOrders(accountId?: number): ModelOrder[] {
    return [...this.orders.values()].filter((o) => isOpen(o) && (accountId === undefined || o.accountId === accountId));
  }

  apply(command: Command): ModelAnswer {
    this.lastTrades = [];
    try {
      switch (command.type) {
        case 'addAsset':
          this.precisions.set(command.asset, command.precision);
          return { accepted: true, fills: [] };
        case 'addSymbol':
          this.addSymbol(command);
          return { accepted: true, fills: [] };
        case 'setFeeRates': {
          // An absent rate stays as it was.
          const rates = this.ratesOf(command.accountId);
          if (command.makerFeeRate !== undefined) rates.makerAtto = decimalAtto(command.makerFeeRate);
          if (command.takerFeeRate !== undefined) rates.takerAtto = decimalAtto(command.takerFeeRate);
          return { accepted: true, fills: [] };
        }
        case 'deposit': {
          const precision = this.precisionOf(command.asset);
          this.balance(command.accountId, command.asset).free += atoms(decimalAtto(command.amount), precision);
          return { accepted: true, fills: [] };
        }
        case 'setTradingConfig':
          this.setConfig(command);
          return { accepted: true, fills: [] };
        case 'placeOrder':
          return this.place(command);
        case 'cancelOrder':
          return this.cancel(command.accountId, command.orderId);
        case 'cancelOrders':
          for (const order of this.openOrders(command.accountId)) {
            if ((command.symbol === undefined || order.symbol === command.symbol) && (command.side === undefined || order.side === command.side)) this.finish(order, 'CANCELED');
          }
          return { accepted: true, fills: [] };
        default:
          throw new Error(`the model does not cover ${command.type}`);
      }
    } catch (error) {
      if (error instanceof Refusal) return { accepted: false, code: error.code };
      throw error;
    }
  }

  private addSymbol(command: Extract<Command, { type: 'addSymbol' }>): void {
    const tickAtto = decimalAtto(command.tickSize);
    this.symbols.set(command.symbol, {
      name: command.symbol,
      base: command.baseAsset,
      quote: command.quoteAsset,
      basePrecision: this.precisionOf(command.baseAsset),
      quotePrecision: this.precisionOf(command.quoteAsset),
      tickAtto,
      tickDecimals: fractionDigits(tickAtto),
      stepAtto: decimalAtto(command.stepSize),
      minPriceAtto: decimalAtto(command.minPrice),
      maxPriceAtto: decimalAtto(command.maxPrice),
      minQtyAtto: decimalAtto(command.minQty),
      maxQtyAtto: decimalAtto(command.maxQty),
      minNotionalAtto: decimalAtto(command.minNotional),
      lastPriceAtto: null,
      bids: [],
      asks: [],
      stops: [],
    });
  }

  private setConfig(command: Extract<Command, { type: 'setTradingConfig' }>): void {
    const c = this.config;
    c.algoOrders = command.algoOrders ?? c.algoOrders;
    c.maxAlgoOrdersPerSymbol = command.maxAlgoOrdersPerSymbol ?? c.maxAlgoOrdersPerSymbol;
    c.maxAlgoOrdersPerAccount = command.maxAlgoOrdersPerAccount ?? c.maxAlgoOrdersPerAccount;
    c.maxIcebergParts = command.maxIcebergParts ?? c.maxIcebergParts;
    c.maxOpenOrdersPerSymbol = command.maxOpenOrdersPerSymbol ?? c.maxOpenOrdersPerSymbol;
    c.maxOpenOrdersPerAccount = command.maxOpenOrdersPerAccount ?? c.maxOpenOrdersPerAccount;
    if (command.defaultMakerFeeRate !== undefined) c.defaultFeeRates.makerAtto = decimalAtto(command.defaultMakerFeeRate);
    if (command.defaultTakerFeeRate !== undefined) c.defaultFeeRates.takerAtto = decimalAtto(command.defaultTakerFeeRate);
  }

  private precisionOf(asset: string): number {
    const precision = this.precisions.get(asset);
    if (precision === undefined) throw new Error(`the model has no asset ${asset}`);
    return precision;
  }

  private ratesOf(accountId: number): FeeRates {
    const rates = this.feeRates.get(accountId);
    if (rates === undefined) throw new Error(`the model has no fee rates for account ${accountId}`);
    return rates;
  }

  /** Quote atoms of `baseAtoms` at `priceAtto`: exact by the listing rule (docs/spot-api.md "Locks, fees and rounding"). */
  private notional(symbol: ModelSymbol, priceAtto: bigint, baseAtoms: bigint): bigint {
    const numerator = priceAtto * baseAtoms * pow10(symbol.quotePrecision);
    const denominator = ATTO * pow10(symbol.basePrecision);
    if (numerator % denominator !== 0n) throw new Error(`${priceAtto} × ${baseAtoms} is not whole in ${symbol.quote} atoms`);
    return numerator / denominator;
  }

  // ------------------------------------------------------------------ placement (docs/spot-api.md "Order validation")

  private place(cmd: PlaceOrderCommand): ModelAnswer {
    if (cmd.clientOrderId !== undefined || cmd.test === true || cmd.timestamp !== undefined) throw new Error('the model covers orders without client ids, tests or timestamps');
    const symbol = this.symbol(cmd.symbol);
    const stop = isStop(cmd.orderType);
    const kind = workingType(cmd.orderType);
    const marketBuy = kind === 'MARKET' && cmd.side === 'BUY';
    // 1. A stop type is unavailable with the option off.
    if (stop && !this.config.algoOrders) refuse(-1116);
    // 3. Parameters sent when not required.
    const stopAtto = optionalAtto(cmd.stopPrice);
    const icebergAtto = optionalAtto(cmd.icebergQty);
    if (stopAtto > 0n && !stop) refuse(-1106);
    if (icebergAtto > 0n && (!this.config.algoOrders || kind === 'MARKET')) refuse(-1106);
    // 4. Required amounts.
    if ((kind !== 'MARKET' && cmd.price === undefined) || (stop && stopAtto === 0n)) refuse(-1102);
    const qtyAtto = decimalAtto(cmd.quantity);
    const priceAtto = kind === 'MARKET' ? 0n : decimalAtto(cmd.price ?? '');
    // 6. Filters: price, quantity, then the stop price and the iceberg part, the MARKET BUY amount, the notional.
    if (kind !== 'MARKET') this.priceFilter(symbol, priceAtto);
    if (!marketBuy) this.lotFilter(symbol, qtyAtto);
    if (stop) this.priceFilter(symbol, stopAtto);
    if (icebergAtto > 0n) {
      this.lotFilter(symbol, icebergAtto);
      if (icebergAtto >= qtyAtto) refuse(-1100);
    }
    if (marketBuy && qtyAtto % pow10(18 - symbol.tickDecimals) !== 0n) refuse(-1148);
    const qtyAtoms = marketBuy ? 0n : atoms(qtyAtto, symbol.basePrecision);
    const amountAtoms = marketBuy ? atoms(qtyAtto, symbol.quotePrecision) : 0n;
    const minNotional = atoms(symbol.minNotionalAtto, symbol.quotePrecision);
    let notional: bigint | null = null;
    if (marketBuy) notional = amountAtoms;
    else if (kind !== 'MARKET') notional = this.notional(symbol, priceAtto, qtyAtoms);
    else if (stop) notional = this.notional(symbol, stopAtto, qtyAtoms);
    if (notional !== null && notional < minNotional) refuse(-1140);
    // 7–8. A MARKET order (not an untriggered stop) needs the other side, and a SELL its notional at the best bid.
    if (kind === 'MARKET' && !stop) {
      const opposite = cmd.side === 'BUY' ? symbol.asks : symbol.bids;
      if (opposite.length === 0) refuse(-1112);
      if (cmd.side === 'SELL' && this.notional(symbol, opposite[0].priceAtto, qtyAtoms) < minNotional) refuse(-1140);
    }
    // 10. Open-order limits (untriggered stops are not counted), the trigger side, algo counts, iceberg parts.
    const working = this.openOrders(cmd.accountId).filter((o) => !o.untriggered);
    if (working.filter((o) => o.symbol === symbol.name).length >= this.config.maxOpenOrdersPerSymbol) refuse(-2010);
    if (working.length >= this.config.maxOpenOrdersPerAccount) refuse(-2010);
    if (stop) {
      const last = symbol.lastPriceAtto;
      if (last !== null && (firesRising(cmd.orderType, cmd.side) ? stopAtto <= last : stopAtto >= last)) refuse(-2010);
      const untriggered = this.openOrders(cmd.accountId).filter((o) => o.untriggered);
      if (untriggered.filter((o) => o.symbol === symbol.name).length >= this.config.maxAlgoOrdersPerSymbol) refuse(-2010);
      if (untriggered.length >= this.config.maxAlgoOrdersPerAccount) refuse(-2010);
    }
    // A LIMIT_MAKER is a GTC order whatever it was sent with (docs/spot-api.md "Order types and time in force"), so it may always be an iceberg.
    let timeInForce = cmd.timeInForce;
    if (kind === 'MARKET') timeInForce = 'IOC';
    else if (kind === 'LIMIT_MAKER') timeInForce = 'GTC';
    if (icebergAtto > 0n) {
      if (timeInForce !== 'GTC') refuse(-2010);
      if ((qtyAtto + icebergAtto - 1n) / icebergAtto > BigInt(this.config.maxIcebergParts)) refuse(-2010);
    }
    // 11. Free balance covers the lock (docs/spot-api.md "Locks, fees and rounding").
    let lockAtoms = qtyAtoms;
    if (marketBuy) lockAtoms = amountAtoms;
    else if (cmd.side === 'BUY') lockAtoms = this.notional(symbol, priceAtto, qtyAtoms);
    const lockAsset = cmd.side === 'BUY' ? symbol.quote : symbol.base;
    const balance = this.balance(cmd.accountId, lockAsset);
    if (balance.free < lockAtoms) refuse(-1131);
    // 12. A LIMIT_MAKER must not reach the best opposite price, whosever order rests there.
    if (kind === 'LIMIT_MAKER') {
      const best = (cmd.side === 'BUY' ? symbol.asks : symbol.bids)[0];
      if (best !== undefined && this.crosses(cmd.side, priceAtto, best.priceAtto)) refuse(-1158);
    }

    const order: ModelOrder = {
      orderId: this.nextOrderId++,
      accountId: cmd.accountId,
      symbol: symbol.name,
      side: cmd.side,
      type: cmd.orderType,
      timeInForce,
      priceAtto,
      qtyAtoms,
      amountAtoms,
      stopAtto,
      icebergAtoms: atoms(icebergAtto, symbol.basePrecision),
      executedAtoms: 0n,
      cumQuoteAtoms: 0n,
      lockedAtoms: lockAtoms,
      status: 'NEW',
      untriggered: stop,
      visibleAtoms: 0n,
      hiddenAtoms: 0n,
    };
    this.orders.set(order.orderId, order);
    balance.free -= lockAtoms;
    balance.locked += lockAtoms;
    const fills: ModelFill[] = [];
    if (stop) symbol.stops.push(order);
    else this.work(order, symbol, fills);
    this.fireTriggered(symbol);
    return { accepted: true, orderId: order.orderId, fills };
  }

  private priceFilter(symbol: ModelSymbol, priceAtto: bigint): void {
    if (priceAtto < symbol.minPriceAtto) refuse(-1133);
    if (priceAtto > symbol.maxPriceAtto) refuse(-1132);
    if (priceAtto % symbol.tickAtto !== 0n) refuse(-1134);
  }

  private lotFilter(symbol: ModelSymbol, qtyAtto: bigint): void {
    if (qtyAtto < symbol.minQtyAtto) refuse(-1136);
    if (qtyAtto > symbol.maxQtyAtto) refuse(-1135);
    if (qtyAtto % symbol.stepAtto !== 0n) refuse(-1137);
  }

  private crosses(side: Side, limitAtto: bigint, restingAtto: bigint): boolean {
    return side === 'BUY' ? restingAtto <= limitAtto : restingAtto >= limitAtto;
  }

  // ------------------------------------------------------------------ matching (docs/spot-api.md "Orders")

  /** Matches an order that has just become active (placed or fired) as the taker, then rests, fills or cancels it. */
  private work(order: ModelOrder, symbol: ModelSymbol, fills: ModelFill[] | null): void {
    const kind = workingType(order.type);
    if (kind === 'LIMIT' && order.timeInForce === 'FOK' && this.fokLiquidity(order, symbol) < order.qtyAtoms) {
      this.finish(order, 'CANCELED');
      return;
    }
    const end = this.walk(order, symbol, fills);
    if (kind === 'MARKET' && order.side === 'BUY') {
      // docs/spot-api.md "MARKET BUY amount": FILLED when the rest is spent or cannot buy a lot at the next order's price (checked before STP).
      const filled = order.lockedAtoms === 0n || (end === 'unaffordable' && order.executedAtoms > 0n);
      this.finish(order, filled ? 'FILLED' : 'CANCELED');
    } else if (order.executedAtoms === order.qtyAtoms) {
      this.finish(order, 'FILLED');
    } else if (kind === 'MARKET' || end === 'selfTrade' || order.timeInForce !== 'GTC') {
      this.finish(order, 'CANCELED');
    } else {
      this.rest(order, symbol);
    }
  }

  /**
   * What a FOK order can fill on arrival (docs/spot-api.md "Order types and time in force"): whole levels it reaches, hidden iceberg parts
   * included (their refills keep joining the level); at a level where the account's own order rests,
   * only the visible parts ahead of it, and no further.
   */
  private fokLiquidity(order: ModelOrder, symbol: ModelSymbol): bigint {
    const opposite = order.side === 'BUY' ? symbol.asks : symbol.bids;
    let available = 0n;
    for (let i = 0; i < opposite.length && this.crosses(order.side, order.priceAtto, opposite[i].priceAtto); ) {
      const level = opposite.filter((o) => o.priceAtto === opposite[i].priceAtto);
      const own = level.findIndex((o) => o.accountId === order.accountId);
      if (own >= 0) return level.slice(0, own).reduce((sum, o) => sum + o.visibleAtoms, available);
      available = level.reduce((sum, o) => sum + o.visibleAtoms + o.hiddenAtoms, available);
      i += level.length;
    }
    return available;
  }

  private walk(taker: ModelOrder, symbol: ModelSymbol, fills: ModelFill[] | null): WalkEnd {
    const opposite = taker.side === 'BUY' ? symbol.asks : symbol.bids;
    const kind = workingType(taker.type);
    const marketBuy = kind === 'MARKET' && taker.side === 'BUY';
    for (let i = 0; i < WALK_LIMIT; i++) {
      if (marketBuy ? taker.lockedAtoms === 0n : taker.executedAtoms === taker.qtyAtoms) return 'filled';
      const maker = opposite[0];
      if (maker === undefined) return 'bookEnd';
      if (kind !== 'MARKET' && !this.crosses(taker.side, taker.priceAtto, maker.priceAtto)) return 'noCross';
      let qtyAtoms = minOf(maker.visibleAtoms, taker.qtyAtoms - taker.executedAtoms);
      if (marketBuy) {
        const stepAtoms = atoms(symbol.stepAtto, symbol.basePrecision);
        const lots = taker.lockedAtoms / this.notional(symbol, maker.priceAtto, stepAtoms);
        if (lots === 0n) return 'unaffordable';
        qtyAtoms = minOf(maker.visibleAtoms, lots * stepAtoms);
      }
      // docs/spot-api.md "Matching and self-trade prevention" expire taker: the incoming order's rest is canceled, the resting order untouched.
      if (maker.accountId === taker.accountId) return 'selfTrade';
      this.trade(taker, maker, qtyAtoms, symbol, fills);
    }
    throw new Error('the walk did not end');
  }

  private trade(taker: ModelOrder, maker: ModelOrder, qtyAtoms: bigint, symbol: ModelSymbol, fills: ModelFill[] | null): void {
    const priceAtto = maker.priceAtto;
    const quoteAtoms = this.notional(symbol, priceAtto, qtyAtoms);
    const buyer = taker.side === 'BUY' ? taker : maker;
    const seller = taker.side === 'BUY' ? maker : taker;
    const buyerFee = this.fee(qtyAtoms, buyer, buyer === maker);
    const sellerFee = this.fee(quoteAtoms, seller, seller === maker);
    // docs/spot-api.md "Locks, fees and rounding": a BUY filled below its limit frees the difference at once; a MARKET BUY spends what it locked.
    const buyerLockSpent = workingType(buyer.type) === 'MARKET' ? quoteAtoms : this.notional(symbol, buyer.priceAtto, qtyAtoms);
    const buyerQuote = this.balance(buyer.accountId, symbol.quote);
    buyer.lockedAtoms -= buyerLockSpent;
    buyerQuote.locked -= buyerLockSpent;
    buyerQuote.free += buyerLockSpent - quoteAtoms;
    this.balance(buyer.accountId, symbol.base).free += qtyAtoms - buyerFee;
    seller.lockedAtoms -= qtyAtoms;
    this.balance(seller.accountId, symbol.base).locked -= qtyAtoms;
    this.balance(seller.accountId, symbol.quote).free += quoteAtoms - sellerFee;
    this.balance(this.feeAccountId, symbol.base).free += buyerFee;
    this.balance(this.feeAccountId, symbol.quote).free += sellerFee;
    for (const order of [buyer, seller]) {
      order.executedAtoms += qtyAtoms;
      order.cumQuoteAtoms += quoteAtoms;
      order.status = 'PARTIALLY_FILLED';
    }
    symbol.lastPriceAtto = priceAtto;
    this.lastTrades.push({
      symbol: symbol.name,
      priceAtto,
      qtyAtoms,
      buyerOrderId: buyer.orderId,
      sellerOrderId: seller.orderId,
      buyerFeeAtoms: buyerFee,
      sellerFeeAtoms: sellerFee,
      buyerIsMaker: buyer === maker,
    });
    fills?.push({
      priceAtto,
      qtyAtoms,
      commissionAtoms: taker === buyer ? buyerFee : sellerFee,
      commissionAsset: taker === buyer ? symbol.base : symbol.quote,
    });
    maker.visibleAtoms -= qtyAtoms;
    if (maker.visibleAtoms > 0n) return;
    const side = maker.side === 'BUY' ? symbol.bids : symbol.asks;
    side.splice(side.indexOf(maker), 1);
    if (maker.hiddenAtoms === 0n) {
      if (maker.lockedAtoms !== 0n) throw new Error(`order ${maker.orderId} filled with ${maker.lockedAtoms} atoms still locked`);
      maker.status = 'FILLED';
      return;
    }
    // docs/spot-api.md "Stop and iceberg orders": the next part joins the back of its price level.
    this.stats.refills++;
    maker.visibleAtoms = minOf(maker.icebergAtoms, maker.hiddenAtoms);
    maker.hiddenAtoms -= maker.visibleAtoms;
    this.insert(maker, symbol);
  }

  /** The fee on what an order receives (docs/spot-api.md "Locks, fees and rounding"): at its maker or taker rate, rounded up to the atom, at most what it receives. */
  private fee(receivedAtoms: bigint, order: ModelOrder, isMaker: boolean): bigint {
    const rates = this.ratesOf(order.accountId);
    const rate = isMaker ? rates.makerAtto : rates.takerAtto;
    const fee = (receivedAtoms * rate + ATTO - 1n) / ATTO;
    return minOf(fee, receivedAtoms);
  }

  private rest(order: ModelOrder, symbol: ModelSymbol): void {
    const remaining = order.qtyAtoms - order.executedAtoms;
    order.visibleAtoms = order.icebergAtoms > 0n ? minOf(order.icebergAtoms, remaining) : remaining;
    order.hiddenAtoms = remaining - order.visibleAtoms;
    order.status = order.executedAtoms > 0n ? 'PARTIALLY_FILLED' : 'NEW';
    this.insert(order, symbol);
  }

  /** Puts an order (or its next iceberg part) at the back of its price level. */
  private insert(order: ModelOrder, symbol: ModelSymbol): void {
    const side = order.side === 'BUY' ? symbol.bids : symbol.asks;
    const behind = side.findIndex((o) => (order.side === 'BUY' ? o.priceAtto < order.priceAtto : o.priceAtto > order.priceAtto));
    side.splice(behind < 0 ? side.length : behind, 0, order);
  }

  /** Ends an order: out of the book or the stops, its remaining lock back to free. */
  private finish(order: ModelOrder, status: 'FILLED' | 'CANCELED'): void {
    const symbol = this.symbol(order.symbol);
    for (const list of [symbol.bids, symbol.asks, symbol.stops]) {
      const index = list.indexOf(order);
      if (index >= 0) list.splice(index, 1);
    }
    const balance = this.balance(order.accountId, order.side === 'BUY' ? symbol.quote : symbol.base);
    balance.locked -= order.lockedAtoms;
    balance.free += order.lockedAtoms;
    order.lockedAtoms = 0n;
    order.visibleAtoms = 0n;
    order.hiddenAtoms = 0n;
    order.status = status;
  }

  // ------------------------------------------------------------------ triggers (docs/spot-api.md "Stop and iceberg orders")

  /**
   * After a step's matching: every untriggered order whose condition holds on the new last price
   * fires, farthest crossed first, then in placement order. That set is fixed when the round starts
   * (each fires even if the trades of those before it took the price back past its stop); the orders
   * their trades trigger fire in the next round of the same step.
   */
  private fireTriggered(symbol: ModelSymbol): void {
    for (let round = 0; round < WALK_LIMIT; round++) {
      const last = symbol.lastPriceAtto;
      if (last === null) return;
      const crossed = (o: ModelOrder): bigint => (firesRising(o.type, o.side) ? last - o.stopAtto : o.stopAtto - last);
      const due = symbol.stops.filter((o) => crossed(o) >= 0n).sort((a, b) => (crossed(a) === crossed(b) ? a.orderId - b.orderId : crossed(a) > crossed(b) ? -1 : 1));
      if (due.length === 0) return;
      for (const order of due) {
        this.stats.fired++;
        if (round > 0) this.stats.cascaded++;
        this.fire(order, symbol);
      }
    }
    throw new Error('triggers did not settle');
  }

  private fire(order: ModelOrder, symbol: ModelSymbol): void {
    symbol.stops.splice(symbol.stops.indexOf(order), 1);
    order.untriggered = false;
    if (workingType(order.type) === 'MARKET') {
      // A fired MARKET order meets steps 7–8 now: no opposite side, or a SELL below minNotional at the best bid, cancels it.
      const opposite = order.side === 'BUY' ? symbol.asks : symbol.bids;
      const minNotional = atoms(symbol.minNotionalAtto, symbol.quotePrecision);
      if (opposite.length === 0 || (order.side === 'SELL' && this.notional(symbol, opposite[0].priceAtto, order.qtyAtoms) < minNotional)) {
        this.finish(order, 'CANCELED');
        return;
      }
    }
    this.work(order, symbol, null);
  }

  // ------------------------------------------------------------------ cancels (A14)

  private cancel(accountId: number, orderId: number | undefined): ModelAnswer {
    if (orderId === undefined) throw new Error('the model cancels by orderId');
    const order = this.orders.get(orderId);
    if (order === undefined || order.accountId !== accountId) refuse(-2013);
    if (order.status === 'FILLED') refuse(-1139);
    if (order.status === 'CANCELED') refuse(-1142);
    this.finish(order, 'CANCELED');
    return { accepted: true, orderId, fills: [] };
  }
}
