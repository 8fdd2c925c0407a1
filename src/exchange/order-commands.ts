import { attoToUnits, formatUnits, fractionDigits, parseDecimal } from '../core/decimal.js';
import { BourseError, reject } from '../core/errors.js';
import { insideRecvWindow } from '../core/recv-window.js';
import {
  FLOW_TYPES,
  type CancelOrderCommand,
  type CancelOrdersCommand,
  type FillFacts,
  type OrderRow,
  type PlaceOrderCommand,
  type Side,
  type StopOrderType,
  type TimeInForce,
  type TradeRow,
} from '../core/types.js';
import type { Fill, StopReason, Taker } from '../engine/order-book.js';
import type { SymbolSpec } from '../engine/symbol-spec.js';
import type { Account } from '../ledger/account.js';
import { recordsEventsOf, type Ledger, type PostingContext } from '../ledger/ledger.js';
import type { CoreContext } from './core-module.js';
import type { SpotState, SymbolState } from './spot-state.js';
import { amountTexts, isStopType, toOrderRow, triggersRising, workingType, type LiveOrder } from './live-order.js';
import { orderFilters } from './order-filters.js';

/** A trade made while the new order was taking (A11 `fills`). */
export interface FillView {
  price: string;
  qty: string;
  commission: string;
  commissionAsset: string;
  tradeId: number;
}

export interface PlaceOrderResult {
  order: OrderRow;
  fills: FillView[];
}

export interface CancelOrderResult {
  order: OrderRow;
  transactTime: number;
}

/** The order's amounts bound to the symbol: what it locks and how the book sees it. */
interface SizedOrder {
  priceTicks: number;
  lots: number;
  quoteAmountAtoms: bigint;
  lockAsset: string;
  lockAtoms: bigint;
  stopPriceTicks: number;
  icebergLots: number;
}

/** A11/A12: checks of docs/spot-api.md "Order validation" steps 5–12 in order, then matching (docs/spot-api.md "Matching and self-trade prevention") and settlement (docs/spot-api.md "Locks, fees and rounding"). */
export function placeOrder(spot: SpotState, context: CoreContext, cmd: PlaceOrderCommand, ctx: PostingContext): PlaceOrderResult | undefined {
  if (cmd.timestamp !== undefined && !insideRecvWindow(cmd.timestamp, cmd.recvWindow, ctx.ts)) reject('TIMESTAMP_OUTSIDE_RECV_WINDOW');
  const state = spot.symbol(cmd.symbol);
  const spec = state.spec;
  const account = context.account(cmd.accountId);
  // Area B owns what a merchant's ledger account holds: its crypto is reserved by c2f orders and its fiat is the pending fund.
  if (account.merchantLedger === true) reject('NO_PERMISSION');
  checkAlgoParams(spot, cmd);
  if (spec.status !== 'TRADING') reject('SYMBOL_NOT_TRADING');
  const sized = sizeOrder(state, cmd);
  if (cmd.clientOrderId !== undefined && spot.clientOrderIds.orderIdOf(account.accountId, cmd.clientOrderId) !== undefined) {
    reject('DUPLICATE_CLIENT_ORDER_ID');
  }
  if (isStopType(cmd.orderType)) {
    checkStopPlacement(spot, state, account.accountId, cmd.orderType, cmd.side, sized.stopPriceTicks);
  } else {
    if ((account.openOrdersBySymbol.get(spec.symbol) ?? 0) >= spot.limits.maxOpenOrdersPerSymbol) reject('MAX_NUM_ORDERS');
    if (account.openOrderCount >= spot.limits.maxOpenOrdersPerAccount) reject('BROKER_MAX_NUM_ORDERS');
  }
  if (sized.icebergLots > 0) {
    if (cmd.orderType !== 'LIMIT_MAKER' && cmd.timeInForce !== 'GTC') reject('ICEBERG_NOT_GTC');
    if (Math.ceil(sized.lots / sized.icebergLots) > spot.algo.maxIcebergParts) reject('ICEBERG_PARTS');
  }
  if (context.ledger.free(account, sized.lockAsset) < sized.lockAtoms) reject('INSUFFICIENT_BALANCE');
  if (cmd.orderType === 'LIMIT_MAKER' && state.book.wouldCross(cmd.side === 'BUY', sized.priceTicks)) reject('WOULD_TAKE');
  if (cmd.test === true) return undefined;
  return execute(spot, context.ledger, state, account, cmd, sized, ctx);
}

/**
 * Steps 1 and 3 of docs/spot-api.md "Order validation" as far as they depend on the `algoOrders`
 * option, which may have been turned off since the request was read; and the stop price a stop
 * order cannot work without.
 */
function checkAlgoParams(spot: SpotState, cmd: PlaceOrderCommand): void {
  const isStop = isStopType(cmd.orderType);
  if (isStop && !spot.algo.algoOrders) reject('ORDER_TYPE_UNAVAILABLE');
  if (cmd.stopPrice !== undefined && !isStop) reject('PARAM_NOT_REQUIRED', ['stopPrice']);
  if (cmd.icebergQty !== undefined && (!spot.algo.algoOrders || workingType(cmd.orderType) === 'MARKET')) reject('PARAM_NOT_REQUIRED', ['icebergQty']);
  if (isStop && cmd.stopPrice === undefined) reject('MANDATORY_PARAM', ['stopPrice']);
}

/** Step 10 for a stop order: its trigger side against the last price, then MAX_NUM_ALGO_ORDERS and BROKER_MAX_NUM_ALGO_ORDERS. */
function checkStopPlacement(spot: SpotState, state: SymbolState, accountId: number, type: StopOrderType, side: Side, stopPriceTicks: number): void {
  const last = state.lastPriceTicks;
  if (last > 0 && (triggersRising(type, side) ? stopPriceTicks <= last : stopPriceTicks >= last)) reject('WOULD_TRIGGER_IMMEDIATELY');
  const counts = spot.algoCounts.get(accountId);
  if ((counts?.bySymbol.get(state.spec.symbol) ?? 0) >= spot.algo.maxAlgoOrdersPerSymbol) reject('MAX_NUM_ALGO_ORDERS');
  if ((counts?.total ?? 0) >= spot.algo.maxAlgoOrdersPerAccount) reject('BROKER_MAX_NUM_ALGO_ORDERS');
}

/**
 * Filters of docs/spot-api.md "Symbol filters" in the order of docs/spot-api.md "Order validation"
 * steps 6–8: price, quantity, stop price, iceberg quantity, then the amount rules. A stop order is
 * sized as the order it fires; a stop-market one meets the book's rules (steps 7–8) only when it
 * fires, and its notional is taken at its stop price.
 */
function sizeOrder(state: SymbolState, cmd: PlaceOrderCommand): SizedOrder {
  const spec = state.spec;
  const filters = orderFilters(spec);
  const isBuy = cmd.side === 'BUY';
  const isMarket = workingType(cmd.orderType) === 'MARKET';
  const waits = isStopType(cmd.orderType);
  const priceTicks = isMarket ? 0 : filters.priceTicks(cmd.price ?? '');
  const lots = isMarket && isBuy ? 0 : filters.lots(cmd.quantity);
  const stopPriceTicks = cmd.stopPrice === undefined ? 0 : filters.priceTicks(cmd.stopPrice, 'stopPrice');
  const icebergLots = cmd.icebergQty === undefined ? 0 : filters.lots(cmd.icebergQty, 'icebergQty');
  if (icebergLots >= lots && icebergLots > 0) reject('ILLEGAL_CHARS', ['icebergQty', '0 < icebergQty < quantity']);
  if (isMarket && isBuy) {
    const amountAtto = parseDecimal(cmd.quantity) ?? reject('MANDATORY_PARAM', ['quantity']);
    if (fractionDigits(amountAtto) > spec.tickDecimals) reject('MARKET_AMOUNT_DECIMALS');
    if (amountAtto < spec.minNotionalAtto) reject('NOTIONAL_TOO_SMALL');
    if (!waits && state.book.asks.best() === undefined) reject('NO_ORDERS_ON_BOOK');
    const quoteAmountAtoms = attoToUnits(amountAtto, spec.quotePrecision) ?? reject('MARKET_AMOUNT_DECIMALS');
    return { priceTicks: 0, lots: 0, quoteAmountAtoms, lockAsset: spec.quoteAsset, lockAtoms: quoteAmountAtoms, stopPriceTicks, icebergLots };
  }
  const baseLock = BigInt(lots) * spec.baseAtomsPerLot;
  if (!isMarket) {
    if (filters.belowMinNotional(priceTicks, lots)) reject('NOTIONAL_TOO_SMALL');
    if (isBuy) {
      const lockAtoms = BigInt(priceTicks) * BigInt(lots) * spec.quoteAtomsPerTickLot;
      return { priceTicks, lots, quoteAmountAtoms: 0n, lockAsset: spec.quoteAsset, lockAtoms, stopPriceTicks, icebergLots };
    }
    return { priceTicks, lots, quoteAmountAtoms: 0n, lockAsset: spec.baseAsset, lockAtoms: baseLock, stopPriceTicks, icebergLots };
  }
  const notionalTicks = waits ? stopPriceTicks : (state.book.bids.best() ?? reject('NO_ORDERS_ON_BOOK')).priceTicks;
  if (filters.belowMinNotional(notionalTicks, lots)) reject('NOTIONAL_TOO_SMALL');
  return { priceTicks: 0, lots, quoteAmountAtoms: 0n, lockAsset: spec.baseAsset, lockAtoms: baseLock, stopPriceTicks, icebergLots };
}

/** Records and locks an accepted order, then works it, or sets it waiting for its trigger. */
function execute(
  spot: SpotState,
  ledger: Ledger,
  state: SymbolState,
  account: Account,
  cmd: PlaceOrderCommand,
  sized: SizedOrder,
  ctx: PostingContext,
): PlaceOrderResult {
  const spec = state.spec;
  const working = workingType(cmd.orderType);
  const timeInForce: TimeInForce = working === 'MARKET' ? 'IOC' : working === 'LIMIT_MAKER' ? 'GTC' : cmd.timeInForce;
  const orderId = spot.nextOrderId++;
  const clientOrderId = spot.clientOrderIds.assign(account.accountId, orderId, cmd.clientOrderId);
  const order: LiveOrder = {
    orderId,
    accountId: account.accountId,
    symbol: spec.symbol,
    clientOrderId,
    side: cmd.side,
    type: cmd.orderType,
    timeInForce,
    priceTicks: sized.priceTicks,
    origLots: sized.lots,
    quoteAmountAtoms: sized.quoteAmountAtoms,
    executedLots: 0,
    cumQuoteAtoms: 0n,
    lockedAtoms: sized.lockAtoms,
    status: 'NEW',
    time: ctx.ts,
    updateTime: ctx.ts,
    stopPriceTicks: sized.stopPriceTicks,
    icebergLots: sized.icebergLots,
    untriggered: working !== cmd.orderType,
  };
  ledger.lock(ctx, account, sized.lockAsset, sized.lockAtoms);
  // W1: acceptance is always reported first, as NEW, even when the order then fills.
  if (recordsEventsOf(ctx, order.accountId)) pushOrderEvent(ctx, order, toOrderRow(order, spec));
  if (order.untriggered) {
    spot.keep(order);
    spot.countAlgoOrder(account.accountId, spec.symbol, 1);
    state.stops.add(order);
    const row = toOrderRow(order, spec);
    ctx.rows.orders.push(row);
    return { order: row, fills: [] };
  }
  const views: FillView[] = [];
  const tradesBefore = spot.nextTradeId;
  const row = work(spot, ledger, state, account, order, ctx, views, false);
  if (state.stops.size === 0 || spot.nextTradeId === tradesBefore) return { order: row, fills: views };
  fireStops(spot, ledger, state, ctx);
  // The fired orders may have traded with this one: the reply is the record after the whole step.
  return { order: toOrderRow(order, spec), fills: views };
}

/**
 * Fires the stop orders the last price triggers, in firing order; their trades may move the last
 * price and trigger more in the same step. A fired order has left the waiting list, so each fires
 * at most once.
 */
function fireStops(spot: SpotState, ledger: Ledger, state: SymbolState, ctx: PostingContext): void {
  for (let fired = state.stops.takeTriggered(state.lastPriceTicks); fired.length > 0; fired = state.stops.takeTriggered(state.lastPriceTicks)) {
    for (const order of fired) {
      order.untriggered = false;
      order.updateTime = ctx.ts;
      spot.countAlgoOrder(order.accountId, order.symbol, -1);
      // W1: the trigger reports X NEW with w true; fills follow as for any order.
      if (recordsEventsOf(ctx, order.accountId)) pushOrderEvent(ctx, order, toOrderRow(order, state.spec));
      work(spot, ledger, state, ledger.account(order.accountId), order, ctx, undefined, true);
    }
  }
}

/**
 * Matches a working order as the taker, settles its fills, then rests it (GTC) or ends it and
 * frees what it still locks. A fired order is already live; a fired MARKET order that finds no
 * bid, or a bid below MIN_NOTIONAL for its quantity, ends CANCELED without matching.
 */
function work(
  spot: SpotState,
  ledger: Ledger,
  state: SymbolState,
  account: Account,
  order: LiveOrder,
  ctx: PostingContext,
  views: FillView[] | undefined,
  fired: boolean,
): OrderRow {
  const spec = state.spec;
  const isBuy = order.side === 'BUY';
  const isMarket = workingType(order.type) === 'MARKET';
  const fills: Fill[] = [];
  let stop: StopReason = 'empty';
  const skips =
    (order.timeInForce === 'FOK' && state.book.fillableLots(isBuy, order.priceTicks, account.accountId, order.origLots) < order.origLots) ||
    (fired && isMarket && !isBuy && marketSellFallsShort(state, order.origLots));
  if (!skips) {
    const taker: Taker = {
      accountId: account.accountId,
      isBuy,
      limitTicks: isMarket ? null : order.priceTicks,
      remainingLots: order.origLots,
      quoteBudget: isMarket && isBuy ? order.quoteAmountAtoms : null,
      quoteAtomsPerTickLot: spec.quoteAtomsPerTickLot,
    };
    stop = state.book.match(taker, fills);
  }
  for (const fill of fills) {
    const view = settleFill(spot, ledger, spec, order, fill, ctx);
    if (view !== undefined && views !== undefined) views.push(view);
  }
  if (fills.length > 0) state.lastPriceTicks = fills[fills.length - 1].priceTicks;

  const reportedStatus = order.status;
  const rests = order.timeInForce === 'GTC' && !isMarket && stop !== 'self' && order.executedLots < order.origLots;
  if (rests) {
    order.status = order.executedLots > 0 ? 'PARTIALLY_FILLED' : 'NEW';
    state.book.add(order.orderId, account.accountId, isBuy, order.priceTicks, order.origLots - order.executedLots, order.icebergLots);
    spot.keep(order);
    spot.countOpenOrder(account, spec.symbol, 1);
  } else {
    const filled = isMarket && isBuy ? stop === 'complete' && order.executedLots > 0 : order.executedLots === order.origLots;
    order.status = filled ? 'FILLED' : 'CANCELED';
    ledger.unlock(ctx, account, isBuy ? spec.quoteAsset : spec.baseAsset, order.lockedAtoms);
    order.lockedAtoms = 0n;
    if (fired) spot.forget(order);
  }
  const row = toOrderRow(order, spec);
  ctx.rows.orders.push(row);
  if (order.status !== reportedStatus && recordsEventsOf(ctx, order.accountId)) pushOrderEvent(ctx, order, row);
  return row;
}

/** Steps 7–8 for a fired MARKET SELL: no bid, or its quantity at the best bid below MIN_NOTIONAL. */
function marketSellFallsShort(state: SymbolState, lots: number): boolean {
  const bestBid = state.book.bids.best();
  return bestBid === undefined || orderFilters(state.spec).belowMinNotional(bestBid.priceTicks, lots);
}

function pushOrderEvent(ctx: PostingContext, order: LiveOrder, row: OrderRow, fill?: FillFacts): void {
  ctx.rows.events.push({ kind: 'order', seq: ctx.seq, time: ctx.ts, accountId: order.accountId, order: row, fill });
}

/** Settles one fill: trade rows, balance postings with fees, and the maker's new state. */
function settleFill(spot: SpotState, ledger: Ledger, spec: SymbolSpec, taker: LiveOrder, fill: Fill, ctx: PostingContext): FillView | undefined {
  const maker = spot.liveOrders.get(fill.maker.orderId);
  if (maker === undefined) throw new Error(`resting order ${fill.maker.orderId} has no live record`);
  const quoteAtoms = BigInt(fill.lots) * BigInt(fill.priceTicks) * spec.quoteAtomsPerTickLot;
  const baseAtoms = BigInt(fill.lots) * spec.baseAtomsPerLot;
  const takerIsBuyer = taker.side === 'BUY';
  const buyerOrder = takerIsBuyer ? taker : maker;
  const sellerOrder = takerIsBuyer ? maker : taker;
  const buyer = ledger.account(buyerOrder.accountId);
  const seller = ledger.account(sellerOrder.accountId);
  const feeAccount = ledger.account(ledger.feeAccountId);
  const buyerFee = ledger.fee(baseAtoms, takerIsBuyer ? buyer.takerFeeRate : buyer.makerFeeRate);
  const sellerFee = ledger.fee(quoteAtoms, takerIsBuyer ? seller.makerFeeRate : seller.takerFeeRate);
  const base = ledger.asset(spec.baseAsset);
  const quote = ledger.asset(spec.quoteAsset);
  const buyerBase = ledger.balance(buyer, base.asset);
  const buyerQuote = ledger.balance(buyer, quote.asset);
  const sellerBase = ledger.balance(seller, base.asset);
  const sellerQuote = ledger.balance(seller, quote.asset);

  ledger.postTo(ctx, buyer, base, buyerBase, baseAtoms, FLOW_TYPES.TRADE);
  ledger.postTo(ctx, buyer, quote, buyerQuote, -quoteAtoms, FLOW_TYPES.TRADE, true);
  buyerOrder.lockedAtoms -= quoteAtoms;
  if (takerIsBuyer && workingType(taker.type) !== 'MARKET' && fill.priceTicks < taker.priceTicks) {
    // A buy filled below its limit frees the difference at once (docs/spot-api.md "Locks, fees and rounding").
    const improvement = BigInt(fill.lots) * BigInt(taker.priceTicks - fill.priceTicks) * spec.quoteAtomsPerTickLot;
    ledger.unlock(ctx, buyer, spec.quoteAsset, improvement);
    buyerOrder.lockedAtoms -= improvement;
  }
  ledger.postTo(ctx, buyer, base, buyerBase, -buyerFee, FLOW_TYPES.FEE);
  ledger.post(ctx, feeAccount, spec.baseAsset, buyerFee, 'FEE');

  ledger.postTo(ctx, seller, base, sellerBase, -baseAtoms, FLOW_TYPES.TRADE, true);
  sellerOrder.lockedAtoms -= baseAtoms;
  ledger.postTo(ctx, seller, quote, sellerQuote, quoteAtoms, FLOW_TYPES.TRADE);
  ledger.postTo(ctx, seller, quote, sellerQuote, -sellerFee, FLOW_TYPES.FEE);
  ledger.post(ctx, feeAccount, spec.quoteAsset, sellerFee, 'FEE');

  taker.executedLots += fill.lots;
  taker.cumQuoteAtoms += quoteAtoms;
  taker.updateTime = ctx.ts;
  maker.executedLots += fill.lots;
  maker.cumQuoteAtoms += quoteAtoms;
  maker.updateTime = ctx.ts;
  maker.status = fill.makerDone ? 'FILLED' : 'PARTIALLY_FILLED';
  if (fill.makerDone) {
    if (maker.lockedAtoms !== 0n) throw new Error(`filled order ${maker.orderId} still locks ${maker.lockedAtoms}`);
    retire(spot, ledger, maker);
  }
  const tradeId = spot.nextTradeId++;
  // The taker's status as this fill leaves it; a MARKET BUY learns whether it is FILLED only at the end.
  const takerComplete = taker.side === 'SELL' || workingType(taker.type) !== 'MARKET' ? taker.executedLots === taker.origLots : false;
  taker.status = takerComplete ? 'FILLED' : 'PARTIALLY_FILLED';
  // A replay rebuilds state only: its rows are in the store already.
  if (!ctx.recordRows) return undefined;
  const makerRow = toOrderRow(maker, spec);
  ctx.rows.orders.push(makerRow);
  const texts = amountTexts(spec);
  const price = texts.price(fill.priceTicks);
  const qty = texts.quantity(fill.lots);
  const quoteQty = formatUnits(quoteAtoms, spec.quotePrecision);
  const buyerFeeText = formatUnits(buyerFee, spec.basePrecision);
  const sellerFeeText = formatUnits(sellerFee, spec.quotePrecision);
  const trade = { tradeId, symbol: spec.symbol, price, qty, quoteQty, time: ctx.ts };
  ctx.rows.trades.push(
    tradeRow(trade, buyerOrder, sellerOrder, buyerFeeText, spec.baseAsset, true, !takerIsBuyer),
    tradeRow(trade, sellerOrder, buyerOrder, sellerFeeText, spec.quoteAsset, false, takerIsBuyer),
  );
  const makerFee = takerIsBuyer ? sellerFeeText : buyerFeeText;
  const takerFee = takerIsBuyer ? buyerFeeText : sellerFeeText;
  const makerAsset = takerIsBuyer ? spec.quoteAsset : spec.baseAsset;
  const takerAsset = takerIsBuyer ? spec.baseAsset : spec.quoteAsset;
  if (recordsEventsOf(ctx, maker.accountId)) {
    pushOrderEvent(ctx, maker, makerRow, { tradeId, price, qty, commission: makerFee, commissionAsset: makerAsset, isMaker: true, matchOrderId: taker.orderId });
  }
  if (recordsEventsOf(ctx, taker.accountId)) {
    pushOrderEvent(ctx, taker, toOrderRow(taker, spec), { tradeId, price, qty, commission: takerFee, commissionAsset: takerAsset, isMaker: false, matchOrderId: maker.orderId });
  }
  return {
    price,
    qty,
    commission: takerIsBuyer ? buyerFeeText : sellerFeeText,
    commissionAsset: takerIsBuyer ? spec.baseAsset : spec.quoteAsset,
    tradeId,
  };
}

interface TradeFacts {
  tradeId: number;
  symbol: string;
  price: string;
  qty: string;
  quoteQty: string;
  time: number;
}

/** One side's trade row, written out field by field: object spread is a slow path in V8 here. */
function tradeRow(
  trade: TradeFacts,
  own: LiveOrder,
  other: LiveOrder,
  commission: string,
  commissionAsset: string,
  isBuyer: boolean,
  isMaker: boolean,
): TradeRow {
  return {
    tradeId: trade.tradeId,
    accountId: own.accountId,
    symbol: trade.symbol,
    orderId: own.orderId,
    matchOrderId: other.orderId,
    price: trade.price,
    qty: trade.qty,
    quoteQty: trade.quoteQty,
    commission,
    commissionAsset,
    isBuyer,
    isMaker,
    time: trade.time,
  };
}

/** A working order leaves the open set (filled or canceled) and the open-order counts. */
function retire(spot: SpotState, ledger: Ledger, order: LiveOrder): void {
  spot.forget(order);
  spot.countOpenOrder(ledger.account(order.accountId), order.symbol, -1);
}

/** Cancels one open order of the account, resting or waiting for its trigger; releases what it locked. */
function cancelLive(spot: SpotState, ledger: Ledger, order: LiveOrder, ctx: PostingContext): OrderRow {
  const state = spot.symbol(order.symbol);
  if (order.untriggered) {
    state.stops.remove(order);
    spot.countAlgoOrder(order.accountId, order.symbol, -1);
    spot.forget(order);
  } else {
    if (state.book.cancel(order.orderId) === undefined) throw new Error(`open order ${order.orderId} is not in its book`);
    retire(spot, ledger, order);
  }
  const account = ledger.account(order.accountId);
  const lockAsset = order.side === 'BUY' ? state.spec.quoteAsset : state.spec.baseAsset;
  ledger.unlock(ctx, account, lockAsset, order.lockedAtoms);
  order.lockedAtoms = 0n;
  order.status = 'CANCELED';
  order.updateTime = ctx.ts;
  const row = toOrderRow(order, state.spec);
  ctx.rows.orders.push(row);
  if (recordsEventsOf(ctx, order.accountId)) pushOrderEvent(ctx, order, row);
  return row;
}

/** A14: the open order named by id or client id in the account; -2013 when it is not open. */
export function cancelOrder(spot: SpotState, ledger: Ledger, cmd: CancelOrderCommand, ctx: PostingContext): CancelOrderResult {
  const orderId = resolveOrderId(spot, cmd.accountId, cmd.orderId, cmd.clientOrderId);
  const order = orderId === undefined ? undefined : spot.liveOrders.get(orderId);
  if (order === undefined || order.accountId !== cmd.accountId) throw new BourseError('ORDER_NOT_FOUND');
  return { order: cancelLive(spot, ledger, order, ctx), transactTime: ctx.ts };
}

/** A15/A16: cancels the account's open orders, optionally of one symbol and side, oldest first. */
export function cancelOrders(spot: SpotState, ledger: Ledger, cmd: CancelOrdersCommand, ctx: PostingContext): OrderRow[] {
  const canceled: OrderRow[] = [];
  for (const orderId of [...spot.openOrderIdsOf(cmd.accountId)]) {
    const order = spot.liveOrders.get(orderId);
    if (order === undefined) continue;
    if (cmd.symbol !== undefined && order.symbol !== cmd.symbol) continue;
    if (cmd.side !== undefined && order.side !== cmd.side) continue;
    canceled.push(cancelLive(spot, ledger, order, ctx));
  }
  return canceled;
}

/**
 * The order id named by id and/or client id within an account; undefined when they name no order
 * or two different ones (A13/A14: both sent must name the same order).
 */
function resolveOrderId(
  spot: SpotState,
  accountId: number,
  orderId: number | undefined,
  clientOrderId: string | undefined,
): number | undefined {
  if (clientOrderId === undefined) return orderId;
  const byClient = spot.clientOrderIds.orderIdOf(accountId, clientOrderId);
  if (orderId !== undefined && byClient !== orderId) return undefined;
  return byClient;
}
