/**
 * The page's data: the market (symbols, tickers, the selected symbol's book, trades and bars, all from
 * one market-stream socket) and, once signed in, the account (balances, orders, trades, kept current by
 * the user data stream). Stream frames are buffered and applied once per animation frame.
 */
// Types only: erased from the bundle, so no server code comes with them.
import type { ExecutionReport, OutboundAccountInfo, TicketInfo } from '../../src/api/ws/user-frame-types.js';
import { ApiError, getPublic, keyed, signed, socketUrl, syncClock, type Credentials } from '../shared/api.js';
import { frameBatcher, LiveSocket } from '../shared/socket.js';
import { Store } from '../shared/store.js';
import type { OrderType } from './order-types.js';

export const INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M'] as const;
export type Interval = (typeof INTERVALS)[number];

export interface Filter {
  filterType: string;
  minPrice?: string;
  maxPrice?: string;
  tickSize?: string;
  minQty?: string;
  maxQty?: string;
  stepSize?: string;
  minNotional?: string;
  limit?: number;
}
export interface SymbolInfo {
  symbol: string;
  status: string;
  baseAsset: string;
  quoteAsset: string;
  baseAssetPrecision: string;
  quotePrecision: string;
  /** True while the operator offers stop and iceberg orders (the algoOrders option). */
  icebergAllowed: boolean;
  filters: Filter[];
}
export interface Ticker {
  last: string;
  change: string;
}
/** [price, quantity] */
export type Level = [string, string];
export interface Book {
  symbol: string;
  bids: Level[];
  asks: Level[];
}
export interface PublicTrade {
  id: string;
  time: number;
  price: string;
  qty: string;
  takerBuy: boolean;
}
export interface Order {
  orderId: string;
  symbol: string;
  side: string;
  type: string;
  timeInForce: string;
  price: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  status: string;
  /** `"0"` unless a stop order. */
  stopPrice: string;
  /** False while a stop order waits for its trigger (and once an order is closed). */
  isWorking: boolean;
  time: string;
  updateTime: string;
}
export interface MyTrade {
  id: string;
  symbol: string;
  orderId: string;
  side: string;
  price: string;
  qty: string;
  commission: string;
  commissionAsset: string;
  isMaker: boolean;
  time: string;
}
export interface Balance {
  asset: string;
  free: string;
  locked: string;
}
export interface Bar {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
}

const BOOK_LEVELS = 16;
const TRADES_KEPT = 40;

// ---------------------------------------------------------------- market

export const symbols = new Store<SymbolInfo[]>([]);
export const tickers = new Store<ReadonlyMap<string, Ticker>>(new Map());
export const selected = new Store<string>('');
export const book = new Store<Book>({ symbol: '', bids: [], asks: [] });
export const trades = new Store<PublicTrade[]>([]);
export const interval = new Store<Interval>('1m');
export const marketConnected = new Store<boolean>(false);
export const loadError = new Store<string>('');

/** Bars as they arrive from the stream, for the chart (which draws outside Preact). */
export const barListeners = new Set<(symbol: string, interval: string, bars: Bar[]) => void>();

export function symbolInfo(symbol: string): SymbolInfo | undefined {
  return symbols.get().find((s) => s.symbol === symbol);
}

export function filterOf(info: SymbolInfo, type: string): Filter | undefined {
  return info.filters.find((f) => f.filterType === type);
}

interface Frame {
  symbol?: string;
  topic?: string;
  f?: boolean;
  params?: { klineType?: string };
  data?: unknown[];
  code?: string;
  desc?: string;
}

let pendingBook: Book | undefined;
let pendingTrades: { reset: boolean; items: PublicTrade[] } = { reset: false, items: [] };
const pendingTickers = new Map<string, Ticker>();

const flushMarket = frameBatcher(() => {
  if (pendingBook !== undefined) {
    book.set(pendingBook);
    pendingBook = undefined;
  }
  if (pendingTrades.reset || pendingTrades.items.length > 0) {
    const fresh = pendingTrades.items.slice().reverse();
    trades.set((pendingTrades.reset ? fresh : [...fresh, ...trades.get()]).slice(0, TRADES_KEPT));
    pendingTrades = { reset: false, items: [] };
  }
  if (pendingTickers.size > 0) {
    const next = new Map(tickers.get());
    for (const [symbol, ticker] of pendingTickers) next.set(symbol, ticker);
    pendingTickers.clear();
    tickers.set(next);
  }
});

function onMarketFrame(raw: unknown): void {
  const frame = raw as Frame;
  if (frame.topic === undefined || frame.data === undefined) {
    if (frame.code !== undefined) loadError.set(`Market stream: ${frame.desc ?? frame.code}`);
    return;
  }
  const symbol = frame.symbol ?? '';
  if (frame.topic === 'realtimes') {
    for (const item of frame.data as { s: string; c: string; m: string }[]) pendingTickers.set(item.s, { last: item.c, change: item.m });
    flushMarket();
    return;
  }
  if (symbol !== selected.get()) return;
  switch (frame.topic) {
    case 'depth': {
      const item = frame.data[0] as { b: Level[]; a: Level[] } | undefined;
      pendingBook = { symbol, bids: (item?.b ?? []).slice(0, BOOK_LEVELS), asks: (item?.a ?? []).slice(0, BOOK_LEVELS) };
      break;
    }
    case 'trade': {
      const items = (frame.data as { v: string; t: number; p: string; q: string; m: boolean }[]).map((t) => ({ id: t.v, time: t.t, price: t.p, qty: t.q, takerBuy: t.m }));
      if (frame.f === true) pendingTrades = { reset: true, items };
      else pendingTrades.items.push(...items);
      break;
    }
    case 'kline': {
      const bars = (frame.data as { t: number; o: string; h: string; l: string; c: string }[]).map((k) => ({ time: k.t, open: k.o, high: k.h, low: k.l, close: k.c }));
      for (const listener of barListeners) listener(symbol, frame.params?.klineType ?? '', bars);
      return;
    }
    default:
      return;
  }
  flushMarket();
}

let feed: LiveSocket | undefined;
let subscribed: { symbol: string; interval: string } | undefined;

function subscribeSelected(send: (message: unknown) => void): void {
  const symbol = selected.get();
  if (symbol === '') return;
  if (subscribed !== undefined) {
    send({ event: 'cancel', topic: 'depth', symbol: subscribed.symbol });
    send({ event: 'cancel', topic: 'trade', symbol: subscribed.symbol });
    send({ event: 'cancel', topic: `kline_${subscribed.interval}`, symbol: subscribed.symbol });
  }
  subscribed = { symbol, interval: interval.get() };
  send({ id: 'depth', event: 'sub', topic: 'depth', symbol, params: { limit: BOOK_LEVELS } });
  send({ id: 'trade', event: 'sub', topic: 'trade', symbol });
  send({ id: 'kline', event: 'sub', topic: `kline_${interval.get()}`, symbol });
}

/** Loads the symbols and opens the market stream. */
export async function startMarket(): Promise<void> {
  const info = await getPublic<{ symbols: SymbolInfo[] }>('/openapi/v1/exchangeInfo');
  const list = info.symbols.slice().sort((a, b) => a.symbol.localeCompare(b.symbol));
  symbols.set(list);
  const wanted = decodeURIComponent(location.hash.slice(1)).toUpperCase();
  selected.set(list.some((s) => s.symbol === wanted) ? wanted : (list.find((s) => s.symbol === 'BTCUSDT') ?? list[0])?.symbol ?? '');
  feed = new LiveSocket(() => socketUrl('/openapi/quote/ws/v1'), {
    onOpen: (send) => {
      subscribed = undefined;
      if (list.length > 0) send({ id: 'realtimes', event: 'sub', topic: 'realtimes', symbol: list.map((s) => s.symbol).join(',') });
      subscribeSelected(send);
    },
    onMessage: onMarketFrame,
    onStatus: (up) => marketConnected.set(up),
  });
}

export function selectSymbol(symbol: string): void {
  if (symbol === selected.get()) return;
  selected.set(symbol);
  history.replaceState(null, '', `#${symbol}`);
  book.set({ symbol, bids: [], asks: [] });
  trades.set([]);
  if (feed?.open === true) subscribeSelected((message) => feed?.send(message));
  void refreshSymbolAccount();
}

export function selectInterval(value: Interval): void {
  if (value === interval.get()) return;
  interval.set(value);
  if (feed?.open === true) subscribeSelected((message) => feed?.send(message));
}

/** Bar history for the chart (REST klines: [openTime, o, h, l, c, …]). */
export async function loadBars(symbol: string, value: Interval): Promise<Bar[]> {
  const rows = await getPublic<[number, string, string, string, string][]>('/openapi/quote/v1/klines', { symbol, interval: value, limit: 500 });
  return rows.map(([time, open, high, low, close]) => ({ time, open, high, low, close }));
}

// ---------------------------------------------------------------- account

const SESSION_KEY = 'bourse-session';
export const credentials = new Store<Credentials | undefined>(undefined);
export const balances = new Store<ReadonlyMap<string, Balance>>(new Map());
export const openOrders = new Store<Order[]>([]);
export const orderHistory = new Store<Order[]>([]);
export const myTrades = new Store<MyTrade[]>([]);
export const userConnected = new Store<boolean>(false);
export const accountError = new Store<string>('');

let userFeed: LiveSocket | undefined;
let keepAlive: ReturnType<typeof setInterval> | undefined;
let listenKey = '';

export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.code !== 0 ? `${error.message} (${error.code})` : error.message;
  return error instanceof Error ? error.message : String(error);
}

async function refreshAccount(creds: Credentials): Promise<void> {
  const [account, open] = await Promise.all([
    signed<{ balances: Balance[] }>(creds, 'GET', '/openapi/v1/account'),
    signed<Order[]>(creds, 'GET', '/openapi/v1/openOrders', { limit: 1000 }),
  ]);
  balances.set(new Map(account.balances.map((b) => [b.asset, { asset: b.asset, free: b.free, locked: b.locked }])));
  openOrders.set(open.slice().sort((a, b) => Number(b.time) - Number(a.time)));
}

/** The selected symbol's order history and trades (on sign-in and on a symbol change, never on a timer). */
export async function refreshSymbolAccount(): Promise<void> {
  const creds = credentials.get();
  const symbol = selected.get();
  if (creds === undefined || symbol === '') return;
  try {
    const [orders, fills] = await Promise.all([
      signed<Order[]>(creds, 'GET', '/openapi/v1/historyOrders', { symbol, limit: 50 }),
      signed<(Omit<MyTrade, 'side'> & { isBuyer: boolean })[]>(creds, 'GET', '/openapi/v1/myTrades', { symbol, limit: 50 }),
    ]);
    if (symbol !== selected.get()) return;
    orderHistory.set(orders.slice().sort((a, b) => Number(b.updateTime) - Number(a.updateTime)));
    const rows = fills.map((t): MyTrade => ({ ...t, side: t.isBuyer ? 'BUY' : 'SELL' }));
    myTrades.set(rows.sort((a, b) => Number(b.id) - Number(a.id)));
  } catch (error) {
    accountError.set(messageOf(error));
  }
}

type UserEvent = ExecutionReport | TicketInfo | OutboundAccountInfo;

export function isOpen(order: Order): boolean {
  return order.status === 'NEW' || order.status === 'PARTIALLY_FILLED';
}

function orderOf(report: ExecutionReport): Order {
  return {
    orderId: report.i,
    symbol: report.s,
    side: report.S,
    type: report.o,
    timeInForce: report.f,
    price: report.p,
    origQty: report.q,
    executedQty: report.z,
    cummulativeQuoteQty: report.Z,
    status: report.X,
    stopPrice: report.P,
    isWorking: report.w,
    time: report.O,
    updateTime: report.E,
  };
}

function onUserPush(raw: unknown): void {
  if (!Array.isArray(raw)) return;
  const events = raw as UserEvent[];
  let open = openOrders.get();
  let done = orderHistory.get();
  let fills = myTrades.get();
  let funds = balances.get();
  const symbol = selected.get();
  for (const event of events) {
    if (event.e === 'executionReport') {
      const order = orderOf(event);
      open = open.filter((o) => o.orderId !== order.orderId);
      // A stop order waiting for its trigger is open although not working (`w` false).
      if (isOpen(order)) open = [order, ...open];
      else if (order.symbol === symbol) done = [order, ...done.filter((o) => o.orderId !== order.orderId)];
    } else if (event.e === 'ticketInfo') {
      if (event.s !== symbol) continue;
      const report = events.find((e): e is ExecutionReport => e.e === 'executionReport' && e.i === event.o && e.l === event.q && e.L === event.p);
      fills = [
        { id: event.T, symbol: event.s, orderId: event.o, side: event.S, price: event.p, qty: event.q, commission: report?.n ?? '', commissionAsset: report?.N ?? '', isMaker: event.m, time: event.t },
        ...fills.filter((t) => t.id !== event.T),
      ];
    } else if (event.e === 'outboundAccountInfo') {
      const next = new Map(funds);
      for (const b of event.B) next.set(b.a, { asset: b.a, free: b.f, locked: b.l });
      funds = next;
    }
  }
  openOrders.set(open);
  orderHistory.set(done.slice(0, 100));
  myTrades.set(fills.slice(0, 100));
  balances.set(funds);
}

function startUserFeed(creds: Credentials): void {
  let first = true;
  userFeed = new LiveSocket(
    async () => {
      listenKey = (await keyed<{ listenKey: string }>(creds, 'POST', '/openapi/v1/userDataStream')).listenKey;
      return socketUrl(`/openapi/ws/${listenKey}`);
    },
    {
      onOpen: () => {
        // Nothing is replayed after a reconnect: catch up over REST (the first connect already has).
        if (!first) void refreshAccount(creds).catch((error: unknown) => accountError.set(messageOf(error)));
        first = false;
      },
      onMessage: onUserPush,
      onStatus: (up) => userConnected.set(up),
    },
  );
  // The listenKey lives 60 minutes: renew it every 30.
  keepAlive = setInterval(() => {
    if (listenKey !== '') void keyed(creds, 'PUT', '/openapi/v1/userDataStream', { listenKey }).catch(() => undefined);
  }, 30 * 60_000);
}

/** Checks the key with a signed account read, then keeps it for this tab only (sessionStorage). */
export async function signIn(creds: Credentials): Promise<void> {
  await syncClock().catch(() => undefined);
  await refreshAccount(creds);
  credentials.set(creds);
  accountError.set('');
  try {
    sessionStorage.setItem(SESSION_KEY, JSON.stringify(creds));
  } catch {
    // Storage refused: the key lasts until this page is left.
  }
  startUserFeed(creds);
  await refreshSymbolAccount();
}

export function signOut(): void {
  const creds = credentials.get();
  if (creds !== undefined && listenKey !== '') void keyed(creds, 'DELETE', '/openapi/v1/userDataStream', { listenKey }).catch(() => undefined);
  userFeed?.close();
  userFeed = undefined;
  clearInterval(keepAlive);
  listenKey = '';
  try {
    sessionStorage.removeItem(SESSION_KEY);
  } catch {
    // Nothing stored.
  }
  credentials.set(undefined);
  balances.set(new Map());
  openOrders.set([]);
  orderHistory.set([]);
  myTrades.set([]);
  userConnected.set(false);
  accountError.set('');
}

/** Signs in again with the key kept by this tab, if any. */
export async function resumeSession(): Promise<void> {
  let stored: Credentials | undefined;
  try {
    const text = sessionStorage.getItem(SESSION_KEY);
    stored = text === null ? undefined : (JSON.parse(text) as Credentials);
  } catch {
    stored = undefined;
  }
  if (stored === undefined) return;
  try {
    await signIn(stored);
  } catch (error) {
    signOut();
    accountError.set(`Signed out: ${messageOf(error)}`);
  }
}

export interface OrderRequest {
  symbol: string;
  side: 'BUY' | 'SELL';
  type: OrderType;
  timeInForce?: string;
  quantity: string;
  price?: string;
  stopPrice?: string;
  icebergQty?: string;
}

export async function placeOrder(request: OrderRequest): Promise<Order> {
  const creds = credentials.get();
  if (creds === undefined) throw new Error('Sign in first.');
  return signed<Order>(creds, 'POST', '/openapi/v1/order', { ...request });
}

export async function cancelOrder(orderId: string): Promise<void> {
  const creds = credentials.get();
  if (creds === undefined) throw new Error('Sign in first.');
  await signed(creds, 'DELETE', '/openapi/v1/order', { orderId });
}
