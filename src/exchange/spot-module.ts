import { BourseError, reject } from '../core/errors.js';
import type { AddSymbolCommand, Command, CommandType, SetSymbolStatusCommand, SymbolStatus } from '../core/types.js';
import type { BookSide } from '../engine/book-side.js';
import { OrderBook } from '../engine/order-book.js';
import { buildSymbolSpec, type SymbolSpec } from '../engine/symbol-spec.js';
import type { PostingContext } from '../ledger/ledger.js';
import { decimalOrReject } from './amounts.js';
import { ClientOrderIds, type ClientOrderIdsImage } from './client-order-ids.js';
import { sortedEntries, type CoreContext, type CoreModule } from './core-module.js';
import type { LiveOrder } from './live-order.js';
import { cancelOrder, cancelOrders, placeOrder } from './order-commands.js';
import { newSymbolState, SpotState } from './spot-state.js';
import { restoreAlgoSettings, restoreRateLimitSettings, setTradingConfig, type AlgoSettings, type CoreLimits, type RateLimitSettings } from './trading-config.js';

export type { SymbolState } from './spot-state.js';

/** A price level of a book side in atto (what a walk through the book reads). */
export interface LevelAtto {
  priceAtto: bigint;
  qtyAtto: bigint;
}

/** What an open order keeps locked, in atoms of one asset. */
export interface OrderLock {
  asset: string;
  atoms: bigint;
}

export interface SpotImage {
  counters: { nextOrderId: number; nextTradeId: number };
  limits: CoreLimits;
  /** Since image version 8; absent from older images, which restore the option off. */
  algo?: AlgoSettings;
  /** Since image version 4; absent from older images, which restore the defaults. */
  rateLimits?: RateLimitSettings;
  symbols: {
    symbol: string;
    baseAsset: string;
    quoteAsset: string;
    status: SymbolStatus;
    values: string[];
    bookVersion: number;
    bids: number[];
    asks: number[];
    /** Since image version 8: the last trade price in ticks (absent: none yet). */
    lastPriceTicks?: number;
    /** Since image version 8: each resting iceberg's visible lots, as [orderId, lots] in book order. */
    icebergsVisible?: [number, number][];
  }[];
  /**
   * Live orders as they are, their atom amounts as decimal text (JSON has no bigint). Orders of
   * images before version 8 lack the stop and iceberg members (none existed): they restore as 0.
   */
  orders: (Omit<LiveOrder, 'quoteAmountAtoms' | 'cumQuoteAtoms' | 'lockedAtoms' | 'stopPriceTicks' | 'icebergLots' | 'untriggered'> &
    Partial<Pick<LiveOrder, 'stopPriceTicks' | 'icebergLots' | 'untriggered'>> & { quoteAmountAtoms: string; cumQuoteAtoms: string; lockedAtoms: string })[];
  clientOrderIds: ClientOrderIdsImage;
}

const SPEC_VALUES = [
  'tickSizeAtto',
  'stepSizeAtto',
  'minPriceAtto',
  'maxPriceAtto',
  'minQtyAtto',
  'maxQtyAtto',
  'minNotionalAtto',
] as const satisfies readonly (keyof SymbolSpec)[];

const SPOT_COMMANDS = ['addSymbol', 'setSymbolStatus', 'placeOrder', 'cancelOrder', 'cancelOrders', 'setTradingConfig'] as const satisfies readonly CommandType[];
type SpotCommand = Extract<Command, { type: (typeof SPOT_COMMANDS)[number] }>;

/** A book's resting orders in priority order, and each iceberg's visible lots, walked once. */
function restingImage(book: OrderBook): Pick<SpotImage['symbols'][number], 'bids' | 'asks' | 'icebergsVisible'> {
  const icebergsVisible: [number, number][] = [];
  const ids = (side: BookSide): number[] =>
    Array.from(side.orders(), (order) => {
      if (order.peakLots > 0) icebergsVisible.push([order.orderId, order.remainingLots]);
      return order.orderId;
    });
  return { bids: ids(book.bids), asks: ids(book.asks), icebergsVisible };
}

/**
 * Spot trading (area A): symbols with their books, live orders, client order ids, order limits.
 * It needs nothing of another module; it offers the payments module the levels of its books (the
 * prices a quote walks) and what an account's open orders lock.
 */
export class SpotModule extends SpotState implements CoreModule<SpotImage> {
  readonly name = 'spot';
  readonly commandTypes = SPOT_COMMANDS;

  constructor(private readonly context: CoreContext) {
    super();
  }

  apply(command: Command, ctx: PostingContext): unknown {
    const cmd = command as SpotCommand;
    const ledger = this.context.ledger;
    switch (cmd.type) {
      case 'placeOrder':
        return placeOrder(this, this.context, cmd, ctx);
      case 'cancelOrder':
        return cancelOrder(this, ledger, cmd, ctx);
      case 'cancelOrders':
        return cancelOrders(this, ledger, cmd, ctx);
      case 'setTradingConfig':
        return setTradingConfig(this, ledger, cmd);
      case 'addSymbol':
        return this.addSymbol(cmd);
      case 'setSymbolStatus':
        return this.setSymbolStatus(cmd);
    }
  }

  /** A12: an order is checked as it would be placed, and nothing changes. */
  check(command: Command, ctx: PostingContext): void {
    if (command.type !== 'placeOrder') throw new Error('only orders can be checked');
    placeOrder(this, this.context, { ...command, test: true }, ctx);
  }

  /**
   * A side of a trading symbol's book best first, as levels in atto, read only as deep as a walk
   * needs (docs/merchant-payments.md "Quotes and orders"); re-iterable. Undefined when the symbol
   * is unknown or not trading.
   */
  bookLevels(symbol: string, side: 'asks' | 'bids'): Iterable<LevelAtto> | undefined {
    const state = this.symbols.get(symbol);
    if (state?.spec.status !== 'TRADING') return undefined;
    const { spec, book } = state;
    return {
      *[Symbol.iterator]() {
        for (const level of book[side].levelsBestFirst()) {
          yield { priceAtto: BigInt(level.priceTicks) * spec.tickSizeAtto, qtyAtto: BigInt(level.totalLots) * spec.stepSizeAtto };
        }
      },
    };
  }

  /** What the account's open orders lock, order by order. */
  *locksOf(accountId: number): Generator<OrderLock> {
    for (const orderId of this.openOrdersByAccount.get(accountId) ?? []) {
      const order = this.liveOrders.get(orderId);
      if (order === undefined) continue;
      const spec = this.symbol(order.symbol).spec;
      yield { asset: order.side === 'BUY' ? spec.quoteAsset : spec.baseAsset, atoms: order.lockedAtoms };
    }
  }

  private addSymbol(cmd: AddSymbolCommand): unknown {
    if (this.symbols.has(cmd.symbol)) reject('INVALID_PARAM_VALUE', ['symbol'], `Symbol ${cmd.symbol} exists.`);
    const ledger = this.context.ledger;
    const base = ledger.assets.get(cmd.baseAsset);
    const quote = ledger.assets.get(cmd.quoteAsset);
    if (base === undefined) throw new BourseError('NOT_FOUND', [`asset ${cmd.baseAsset}`]);
    if (quote === undefined) throw new BourseError('NOT_FOUND', [`asset ${cmd.quoteAsset}`]);
    if (base.asset === quote.asset) reject('INVALID_PARAM_VALUE', ['quoteAsset']);
    const spec = buildSymbolSpec({
      symbol: cmd.symbol,
      baseAsset: base.asset,
      quoteAsset: quote.asset,
      basePrecision: base.precision,
      quotePrecision: quote.precision,
      tickSizeAtto: decimalOrReject(cmd.tickSize, 'tickSize'),
      stepSizeAtto: decimalOrReject(cmd.stepSize, 'stepSize'),
      minPriceAtto: decimalOrReject(cmd.minPrice, 'minPrice'),
      maxPriceAtto: decimalOrReject(cmd.maxPrice, 'maxPrice'),
      minQtyAtto: decimalOrReject(cmd.minQty, 'minQty'),
      maxQtyAtto: decimalOrReject(cmd.maxQty, 'maxQty'),
      minNotionalAtto: decimalOrReject(cmd.minNotional, 'minNotional'),
    });
    if (typeof spec === 'string') reject('INVALID_PARAM_VALUE', ['symbol'], spec);
    this.symbols.set(spec.symbol, newSymbolState(spec));
    return { symbol: spec.symbol, status: spec.status };
  }

  private setSymbolStatus(cmd: SetSymbolStatusCommand): unknown {
    const state = this.symbols.get(cmd.symbol);
    if (state === undefined) throw new BourseError('NOT_FOUND', [`symbol ${cmd.symbol}`]);
    state.spec.status = cmd.status;
    return { symbol: cmd.symbol, status: cmd.status };
  }

  image(): SpotImage {
    return {
      counters: { nextOrderId: this.nextOrderId, nextTradeId: this.nextTradeId },
      limits: { ...this.limits },
      algo: { ...this.algo },
      // Key order is the defaults': the object is only ever made from them and then assigned to.
      rateLimits: { ...this.rateLimits },
      symbols: sortedEntries(this.symbols).map(([, s]) => {
        const { bids, asks, icebergsVisible } = restingImage(s.book);
        return {
          symbol: s.spec.symbol,
          baseAsset: s.spec.baseAsset,
          quoteAsset: s.spec.quoteAsset,
          status: s.spec.status,
          values: SPEC_VALUES.map((key) => s.spec[key].toString()),
          bookVersion: s.book.version,
          bids,
          asks,
          lastPriceTicks: s.lastPriceTicks,
          icebergsVisible,
        };
      }),
      orders: [...this.liveOrders.values()]
        .sort((a, b) => a.orderId - b.orderId)
        .map((o) => ({
          ...o,
          quoteAmountAtoms: o.quoteAmountAtoms.toString(),
          cumQuoteAtoms: o.cumQuoteAtoms.toString(),
          lockedAtoms: o.lockedAtoms.toString(),
        })),
      clientOrderIds: this.clientOrderIds.image(this.nextOrderId),
    };
  }

  restore(image: SpotImage): void {
    const ledger = this.context.ledger;
    this.nextOrderId = image.counters.nextOrderId;
    this.nextTradeId = image.counters.nextTradeId;
    this.limits = { ...image.limits };
    this.algo = restoreAlgoSettings(image.algo);
    this.rateLimits = restoreRateLimitSettings(image.rateLimits);
    for (const o of image.orders) {
      const order: LiveOrder = {
        ...o,
        quoteAmountAtoms: BigInt(o.quoteAmountAtoms),
        cumQuoteAtoms: BigInt(o.cumQuoteAtoms),
        lockedAtoms: BigInt(o.lockedAtoms),
        stopPriceTicks: o.stopPriceTicks ?? 0,
        icebergLots: o.icebergLots ?? 0,
        untriggered: o.untriggered ?? false,
      };
      this.keep(order);
      if (order.untriggered) this.countAlgoOrder(order.accountId, order.symbol, 1);
      else this.countOpenOrder(ledger.account(order.accountId), order.symbol, 1);
    }
    for (const s of image.symbols) {
      const [tick, step, minPrice, maxPrice, minQty, maxQty, minNotional] = s.values.map((v) => BigInt(v));
      const spec = buildSymbolSpec({
        symbol: s.symbol,
        baseAsset: s.baseAsset,
        quoteAsset: s.quoteAsset,
        basePrecision: ledger.asset(s.baseAsset).precision,
        quotePrecision: ledger.asset(s.quoteAsset).precision,
        tickSizeAtto: tick,
        stepSizeAtto: step,
        minPriceAtto: minPrice,
        maxPriceAtto: maxPrice,
        minQtyAtto: minQty,
        maxQtyAtto: maxQty,
        minNotionalAtto: minNotional,
      });
      if (typeof spec === 'string') throw new Error(`snapshot symbol ${s.symbol}: ${spec}`);
      spec.status = s.status;
      const book = new OrderBook();
      const visible = new Map(s.icebergsVisible ?? []);
      for (const orderId of [...s.bids, ...s.asks]) {
        const order = this.liveOrders.get(orderId);
        if (order === undefined) throw new Error(`snapshot book ${s.symbol} names unknown order ${orderId}`);
        const lots = order.origLots - order.executedLots;
        book.add(orderId, order.accountId, order.side === 'BUY', order.priceTicks, lots, order.icebergLots, visible.get(orderId) ?? lots);
      }
      book.version = s.bookVersion;
      const state = newSymbolState(spec, book);
      state.lastPriceTicks = s.lastPriceTicks ?? 0;
      this.symbols.set(s.symbol, state);
    }
    for (const order of this.liveOrders.values()) if (order.untriggered) this.symbol(order.symbol).stops.add(order);
    this.clientOrderIds = ClientOrderIds.fromImage(image.clientOrderIds);
  }
}
