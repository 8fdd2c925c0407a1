/**
 * Set-up and reads shared by the HTTP tests of stop and iceberg orders (docs/spot-api.md "Stop and
 * iceberg orders"): the `algoOrders` option, a market of a file's own, a trade that sets its last
 * price, a user stream per member, and the executionReport an order record implies.
 */
import { expect } from 'vitest';
import { ok } from './answers.js';
import type { HttpAnswer, SpotClient } from './clients.js';
import type { Member, Operator } from './fixtures.js';
import type { TestServer } from './server.js';
import { WsProbe } from './ws-client.js';

export const ORDER = '/openapi/v1/order';

export type Params = Record<string, string | number>;

/** An order record of A11, A13, A14, A17 and A18 (docs/spot-api.md "Orders"). */
export interface OrderRecord {
  accountId: string;
  symbol: string;
  orderId: string;
  clientOrderId: string;
  price: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  avgPrice: string;
  status: string;
  timeInForce: string;
  type: string;
  side: string;
  stopPrice: string;
  icebergQty: string;
  time: string;
  updateTime: string;
  isWorking: boolean;
}

export interface Fill {
  price: string;
  qty: string;
  commission: string;
  commissionAsset: string;
  tradeId: string;
}

/** The A11 reply: the record after the engine step, its transactTime and its fills. */
export interface NewOrderReply extends OrderRecord {
  transactTime: string;
  fills: Fill[];
}

/** Turns the option on or off through the operator API (journaled, effective from the next command). */
export async function setAlgoOrders(op: Operator, on: boolean): Promise<void> {
  const config = await op.ok<{ algoOrders: boolean }>('PATCH', '/trading/config', { algoOrders: on });
  expect(config.algoOrders).toBe(on);
}

/** Filter values of a market listed for one file; the defaults are those of `Operator.listUsdtMarket`. */
export interface MarketFilters {
  minPrice?: string;
  maxPrice?: string;
  minQty?: string;
  maxQty?: string;
  minNotional?: string;
}

/** Lists `asset` (8 decimals) and `<asset>USDT` with tick and step 0.01, so that no other file trades on its book; answers the symbol. */
export async function listAlgoMarket(op: Operator, asset: string, filters: MarketFilters = {}): Promise<string> {
  await op.ok('POST', '/assets', { asset, precision: 8, chains: [asset] });
  const symbol = `${asset}USDT`;
  await op.ok('POST', '/symbols', { symbol, baseAsset: asset, quoteAsset: 'USDT', tickSize: '0.01', stepSize: '0.01', minNotional: '1', ...filters });
  return symbol;
}

/** A11 as sent, whatever the answer. */
export function place(member: Member, params: Params): Promise<HttpAnswer> {
  return member.client.signed('POST', ORDER, params);
}

/** A11 that must be accepted: its reply. */
export async function placed(member: Member, params: Params): Promise<NewOrderReply> {
  return ok<NewOrderReply>(await place(member, params));
}

/** A13 by order id. */
export async function queried(member: Member, orderId: string): Promise<OrderRecord> {
  return ok<OrderRecord>(await member.client.signed('GET', ORDER, { orderId }));
}

/** Two new members trade `quantity` at `price` on `symbol`, so that it is the symbol's last price; the book is as before. */
export async function tradeAt(op: Operator, symbol: string, base: string, price: string, quantity: string): Promise<void> {
  const seller = await op.member({ [base]: quantity });
  const buyer = await op.member({ USDT: '1000000' });
  await placed(seller, { symbol, side: 'SELL', type: 'LIMIT', price, quantity });
  const taking = await placed(buyer, { symbol, side: 'BUY', type: 'LIMIT', price, quantity, timeInForce: 'IOC' });
  expect(taking.fills.map((f) => [f.price, f.qty])).toEqual([[price, quantity]]);
}

/** A5 levels of both sides, best first, as [price, quantity]. */
export async function depthOf(client: SpotClient, symbol: string): Promise<{ bids: string[][]; asks: string[][] }> {
  const { bids, asks } = ok<{ bids: string[][]; asks: string[][] }>(await client.get('/openapi/quote/v1/depth', { symbol }));
  return { bids, asks };
}

/** A W1 socket on a new listenKey of the client's key. */
export async function userStream(t: TestServer, client: SpotClient): Promise<WsProbe> {
  const { listenKey } = ok<{ listenKey: string }>(await client.signed('POST', '/openapi/v1/userDataStream'));
  return WsProbe.open(`${t.url.replace(/^http/, 'ws')}/openapi/ws/${listenKey}`);
}

/** One W1 push: the frames of one engine step. */
export type Push = Record<string, unknown>[];

export async function nextPush(stream: WsProbe): Promise<Push> {
  return (await stream.next()) as Push;
}

/**
 * The executionReport (docs/websocket.md "User data stream") of an order in the state `record`
 * shows, at event time `E`, when the event is not a fill; a fill spreads its own fields over it.
 */
export function reportOf(record: OrderRecord, E: string): Record<string, unknown> {
  return {
    e: 'executionReport',
    E,
    s: record.symbol,
    c: record.clientOrderId,
    S: record.side,
    o: record.type,
    f: record.timeInForce,
    q: record.origQty,
    p: record.price,
    X: record.status,
    i: record.orderId,
    M: '0',
    l: '0',
    z: record.executedQty,
    L: '0',
    n: '0',
    N: '',
    u: true,
    w: record.isWorking,
    m: false,
    O: record.time,
    Z: record.cummulativeQuoteQty,
    P: record.stopPrice,
    F: record.icebergQty,
  };
}

/**
 * Shows that a stream heard nothing so far: the operator credits 1 BTC to the member, and the next
 * push must be that deposit's balance alone (a push in between would come first).
 */
export async function expectSilentSoFar(op: Operator, member: Member, stream: WsProbe): Promise<void> {
  await op.deposit(member.accountId, 'BTC', '1');
  const push = await nextPush(stream);
  expect(push).toHaveLength(1);
  expect(push[0]).toMatchObject({ e: 'outboundAccountInfo', B: [{ a: 'BTC' }] });
}
