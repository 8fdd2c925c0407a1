import { BourseError } from '../../core/errors.js';
import { insideRecvWindow } from '../../core/recv-window.js';
import { STOP_ORDER_TYPES, type OrderRow, type OrderType, type PlaceOrderCommand, type Side, type TimeInForce } from '../../core/types.js';
import { isStopType, workingType } from '../../exchange/live-order.js';
import type { SymbolState } from '../../exchange/spot-module.js';
import type { CancelOrderResult, PlaceOrderResult } from '../../exchange/order-commands.js';
import { requireKey, type Endpoint, type ParamDoc, type RequestContext } from '../endpoint.js';
import {
  readClientOrderId,
  readDecimal,
  readEnum,
  readLimit,
  readLong,
  readString,
  readSymbol,
  readTimeRange,
  type DecimalParam,
} from '../params.js';
import { arrayOf, constant, object } from '../response-schema.js';
import {
  canceledOrderExample,
  canceledOrderSchema,
  emptyObject,
  newOrderExample,
  newOrderSchema,
  orderExample,
  orderSchema,
} from './schemas.js';
import { newOrderReply, orderRecord } from './views.js';

const SIDES: readonly Side[] = ['BUY', 'SELL'];
const ORDER_TYPES: readonly OrderType[] = ['LIMIT', 'MARKET', 'LIMIT_MAKER', ...STOP_ORDER_TYPES];
const TIME_IN_FORCE: readonly TimeInForce[] = ['GTC', 'IOC', 'FOK'];

/** A listed symbol, or -1121 (seed: an unknown symbol, well-formed or not). */
export function symbolParam(ctx: RequestContext, name = 'symbol', required = false): SymbolState | undefined {
  const text = readSymbol(ctx.params, name, { required });
  if (text === undefined) return undefined;
  const state = ctx.exchange.core.spot.symbols.get(text);
  if (state === undefined) throw new BourseError('INVALID_SYMBOL');
  return state;
}

/**
 * A11/A12 parameters in the order of docs/spot-api.md "Order validation" steps 1–4, with the stop
 * and iceberg parameters of "Stop and iceberg orders" at steps 3–4; the core does steps 5–12. The
 * request must be inside its recvWindow now (docs/spot-api.md "Order of checks"), and is checked
 * again when the core takes it.
 */
function orderCommand(ctx: RequestContext, test: boolean): PlaceOrderCommand {
  const { recvWindow } = ctx;
  const timestamp = readLong(ctx.params, 'timestamp', { required: true });
  if (!insideRecvWindow(timestamp, recvWindow, ctx.exchange.clock())) throw new BourseError('TIMESTAMP_OUTSIDE_RECV_WINDOW');
  const params = ctx.params;
  const algoOrders = ctx.exchange.core.spot.algo.algoOrders;
  const state = symbolParam(ctx, 'symbol', true) as SymbolState;
  const side = readEnum(params, 'side', SIDES, { required: true, errorName: 'INVALID_SIDE' });
  const typeText = readString(params, 'type', { pattern: /^.*$/s, required: true }).toUpperCase();
  const type = ORDER_TYPES.find((t) => t === typeText);
  if (typeText === 'MARKET_OF_PAYOUT' || (type !== undefined && isStopType(type) && !algoOrders)) throw new BourseError('ORDER_TYPE_UNAVAILABLE');
  if (type === undefined) throw new BourseError('INVALID_ORDER_TYPE');
  const working = workingType(type);
  const timeInForce = readEnum(params, 'timeInForce', TIME_IN_FORCE, { errorName: 'INVALID_TIF' }) ?? 'GTC';
  readEnum(params, 'assetType', ['CASH']);
  const clientOrderId = readClientOrderId(params, 'newClientOrderId');
  // "0" is what a record shows for an unset stop price or iceberg quantity: sent, it means unset.
  const stopPrice = positive(readDecimal(params, 'stopPrice'));
  const icebergQty = positive(readDecimal(params, 'icebergQty'));
  if (stopPrice !== undefined && !isStopType(type)) throw new BourseError('PARAM_NOT_REQUIRED', ['stopPrice']);
  if (icebergQty !== undefined && (!algoOrders || working === 'MARKET')) throw new BourseError('PARAM_NOT_REQUIRED', ['icebergQty']);
  const isMarketBuy = working === 'MARKET' && side === 'BUY';
  const quoteOrderQty = readDecimal(params, 'quoteOrderQty');
  if (quoteOrderQty !== undefined && !isMarketBuy) throw new BourseError('PARAM_NOT_REQUIRED', ['quoteOrderQty']);
  const quantity = readDecimal(params, 'quantity');
  const price = working === 'MARKET' ? undefined : readDecimal(params, 'price', { required: true });
  let amount: string;
  if (isMarketBuy) {
    if (quantity !== undefined && quoteOrderQty !== undefined) throw new BourseError('INVALID_COMBINATION');
    const given = quantity ?? quoteOrderQty;
    if (given === undefined) throw new BourseError('MANDATORY_PARAM', ['quantity']);
    amount = given.text;
  } else {
    if (quantity === undefined) throw new BourseError('MANDATORY_PARAM', ['quantity']);
    if (icebergQty !== undefined && icebergQty.atto >= quantity.atto) throw new BourseError('ILLEGAL_CHARS', ['icebergQty', '0 < icebergQty < quantity']);
    amount = quantity.text;
  }
  if (isStopType(type) && stopPrice === undefined) throw new BourseError('MANDATORY_PARAM', ['stopPrice']);
  const command: PlaceOrderCommand = {
    type: 'placeOrder',
    accountId: requireKey(ctx).accountId,
    symbol: state.spec.symbol,
    side,
    orderType: type,
    timeInForce,
    quantity: amount,
    timestamp,
  };
  if (price !== undefined) command.price = price.text;
  if (stopPrice !== undefined) command.stopPrice = stopPrice.text;
  if (icebergQty !== undefined) command.icebergQty = icebergQty.text;
  if (clientOrderId !== undefined) command.clientOrderId = clientOrderId;
  if (recvWindow !== undefined) command.recvWindow = recvWindow;
  if (test) command.test = true;
  return command;
}

function positive(value: DecimalParam | undefined): DecimalParam | undefined {
  return value !== undefined && value.atto > 0n ? value : undefined;
}

/** The order named by id and/or client id (A13, A14): -1102 when neither, -2013 when none or two. */
async function findOrder(ctx: RequestContext, idNames: readonly string[]): Promise<OrderRow> {
  const params = ctx.params;
  const orderId = readLong(params, 'orderId', { zeroIsAbsent: true });
  let clientOrderId: string | undefined;
  for (const name of idNames) clientOrderId ??= readClientOrderId(params, name);
  if (orderId === undefined && clientOrderId === undefined) throw new BourseError('ONE_OF_PARAMS', ['orderId', idNames[0]]);
  const history = ctx.exchange.history;
  const accountId = requireKey(ctx).accountId;
  // The client id is resolved in memory before the store is awaited, as of the request's arrival.
  const orderIdOfClientId = clientOrderId === undefined ? undefined : ctx.exchange.core.spot.clientOrderIds.orderIdOf(accountId, clientOrderId);
  const byId = orderId === undefined ? undefined : await history.getOrder(accountId, orderId);
  const byClient = orderIdOfClientId === undefined ? undefined : await history.getOrder(accountId, orderIdOfClientId);
  const found = orderId !== undefined ? byId : byClient;
  if (found === undefined || (orderId !== undefined && clientOrderId !== undefined && byClient?.orderId !== found.orderId)) {
    throw new BourseError('ORDER_NOT_FOUND');
  }
  return found;
}

function record(ctx: RequestContext, row: OrderRow): Record<string, unknown> {
  return orderRecord(row, ctx.exchange.core.spot.symbols.get(row.symbol)?.spec);
}

const ORDER_PARAMS: readonly ParamDoc[] = [
  { name: 'symbol', type: 'STRING', required: true },
  { name: 'side', type: 'ENUM', required: true, values: SIDES },
  { name: 'type', type: 'ENUM', required: true, values: ORDER_TYPES },
  { name: 'timeInForce', type: 'ENUM', values: TIME_IN_FORCE, description: 'default GTC' },
  { name: 'quantity', type: 'DECIMAL', description: 'base quantity; for MARKET BUY the quote amount' },
  { name: 'quoteOrderQty', type: 'DECIMAL', description: 'MARKET BUY quote amount (instead of quantity)' },
  { name: 'price', type: 'DECIMAL' },
  { name: 'stopPrice', type: 'DECIMAL', description: 'stop orders only (the algoOrders option; else > 0 is -1106)' },
  { name: 'icebergQty', type: 'DECIMAL', description: 'iceberg part of a GTC limit order (the algoOrders option; else > 0 is -1106)' },
  { name: 'newClientOrderId', type: 'STRING' },
  { name: 'assetType', type: 'STRING', description: 'CASH only' },
];
const ORDER_ID_PARAMS: readonly ParamDoc[] = [
  { name: 'orderId', type: 'LONG' },
  { name: 'origClientOrderId', type: 'STRING', description: 'alias clientOrderId' },
];
const LIST_PARAMS: readonly ParamDoc[] = [
  { name: 'symbol', type: 'STRING' },
  { name: 'side', type: 'ENUM', values: SIDES },
  { name: 'orderId', type: 'LONG', description: 'only orders with smaller ids' },
  { name: 'limit', type: 'INT', description: 'default 500, max 1000' },
];

async function listOrders(ctx: RequestContext, final: boolean): Promise<Record<string, unknown>[]> {
  const params = ctx.params;
  const state = symbolParam(ctx);
  const side = readEnum(params, 'side', SIDES, { errorName: 'INVALID_SIDE' });
  const beforeOrderId = readLong(params, 'orderId', { zeroIsAbsent: true });
  const range = final ? readTimeRange(params) : {};
  const limit = readLimit(params, { default: 500, max: 1000 });
  const rows = await ctx.exchange.history.listOrders({
    accountId: requireKey(ctx).accountId,
    symbol: state?.spec.symbol,
    side,
    final,
    beforeOrderId,
    ...range,
    limit,
  });
  return rows.map((row) => record(ctx, row));
}

export function orderEndpoints(): Endpoint[] {
  return [
    {
      id: 'A11',
      summary: 'New order',
      method: 'POST',
      group: 'private',
      path: 'order',
      security: 'TRADE',
      weight: 1,
      countsOrder: true,
      params: ORDER_PARAMS,
      response: newOrderSchema,
      example: newOrderExample,
      handler: async (ctx) => {
        const command = orderCommand(ctx, false);
        const result = await ctx.exchange.submit<PlaceOrderResult>(command);
        const spec = ctx.exchange.core.spot.symbol(command.symbol).spec;
        return newOrderReply(result.order, spec, result.fills);
      },
    },
    {
      id: 'A12',
      summary: 'Test new order',
      method: 'POST',
      group: 'private',
      path: 'order/test',
      security: 'TRADE',
      weight: 1,
      params: ORDER_PARAMS,
      response: emptyObject,
      example: {},
      handler: (ctx) => {
        ctx.exchange.core.check(orderCommand(ctx, true), ctx.exchange.clock());
        return {};
      },
    },
    {
      id: 'A13',
      summary: 'Query order',
      method: 'GET',
      group: 'private',
      path: 'order',
      security: 'USER_DATA',
      weight: 1,
      params: ORDER_ID_PARAMS,
      response: orderSchema,
      example: orderExample,
      handler: async (ctx) => record(ctx, await findOrder(ctx, ['origClientOrderId', 'clientOrderId'])),
    },
    {
      id: 'A14',
      summary: 'Cancel order',
      method: 'DELETE',
      group: 'private',
      path: 'order',
      security: 'TRADE',
      weight: 1,
      params: [ORDER_ID_PARAMS[0], { name: 'clientOrderId', type: 'STRING', description: 'alias origClientOrderId' }],
      response: canceledOrderSchema,
      example: canceledOrderExample,
      handler: async (ctx) => {
        const row = await findOrder(ctx, ['clientOrderId', 'origClientOrderId']);
        const accountId = requireKey(ctx).accountId;
        try {
          const result = await ctx.exchange.submit<CancelOrderResult>({ type: 'cancelOrder', accountId, orderId: row.orderId });
          return { ...record(ctx, result.order), transactTime: String(result.transactTime) };
        } catch (error) {
          // Not open any more (perhaps filled while this request queued): say why, from its record.
          const status = (await ctx.exchange.history.getOrder(accountId, row.orderId))?.status;
          if (status === 'FILLED') throw new BourseError('ORDER_FILLED');
          if (status === 'CANCELED') throw new BourseError('ORDER_CANCELED');
          throw error;
        }
      },
    },
    {
      id: 'A15',
      summary: 'Batch cancel open orders',
      method: 'DELETE',
      group: 'private',
      path: 'order/batchCancel',
      security: 'TRADE',
      weight: 5,
      params: [LIST_PARAMS[0], LIST_PARAMS[1]],
      response: object({ success: constant(true) }),
      example: { success: true },
      handler: async (ctx) => {
        const state = symbolParam(ctx);
        const side = readEnum(ctx.params, 'side', SIDES, { errorName: 'INVALID_SIDE' });
        await ctx.exchange.submit({ type: 'cancelOrders', accountId: requireKey(ctx).accountId, symbol: state?.spec.symbol, side });
        return { success: true };
      },
    },
    {
      id: 'A16',
      summary: 'Cancel all open orders of a symbol',
      method: 'DELETE',
      group: 'private',
      path: 'openOrders',
      security: 'TRADE',
      weight: 5,
      params: [{ name: 'symbol', type: 'STRING', required: true }],
      response: arrayOf(orderSchema),
      example: [{ ...orderExample, status: 'CANCELED', isWorking: false, updateTime: '1732579300000' }],
      handler: async (ctx) => {
        const state = symbolParam(ctx, 'symbol', true) as SymbolState;
        const rows = await ctx.exchange.submit<OrderRow[]>({ type: 'cancelOrders', accountId: requireKey(ctx).accountId, symbol: state.spec.symbol });
        return rows.map((row) => record(ctx, row));
      },
    },
    {
      id: 'A17',
      summary: 'Current open orders',
      method: 'GET',
      group: 'private',
      path: 'openOrders',
      security: 'USER_DATA',
      weight: 1,
      params: LIST_PARAMS,
      response: arrayOf(orderSchema),
      example: [orderExample],
      handler: (ctx) => listOrders(ctx, false),
    },
    {
      id: 'A18',
      extraMethods: ['POST'],
      summary: 'History orders (canceled, filled or rejected)',
      method: 'GET',
      group: 'private',
      path: 'historyOrders',
      security: 'USER_DATA',
      weight: 5,
      params: [...LIST_PARAMS, { name: 'startTime', type: 'LONG' }, { name: 'endTime', type: 'LONG' }],
      response: arrayOf(orderSchema),
      example: [{ ...orderExample, executedQty: '0.02', cummulativeQuoteQty: '1285.01', status: 'FILLED', isWorking: false }],
      handler: (ctx) => listOrders(ctx, true),
    },
  ];
}
