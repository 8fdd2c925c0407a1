import { BourseError } from '../../core/errors.js';
import type { SymbolState } from '../../exchange/spot-module.js';
import { KLINE_INTERVALS, isKlineInterval, nextBarOpenTime } from '../../market/kline-intervals.js';
import { JsonText, type Endpoint, type ParamDoc, type RequestContext } from '../endpoint.js';
import { readInt, readLimit, readString, readTimeRange, type Params } from '../params.js';
import { symbolParam } from './orders.js';
import { bestLevels, bookLevels, orZero, ticker24h } from './market-views.js';
import { arrayOf, boolean, digits, integer, millis, object, decimal } from '../response-schema.js';
import {
  bookTickerExample,
  bookTickerSchema,
  klineSchema,
  levelSchema,
  oneOrList,
  priceTickerExample,
  priceTickerSchema,
  ticker24hExample,
  ticker24hSchema,
} from './schemas.js';
import { attoText } from './views.js';

const MAX_SYMBOLS = 40;
const MAX_DEPTH_LEVELS = 1000;

/** `symbols` as a JSON array (`["BTCUSDT"]`, ccxt coinsph) or a comma list; ≤ 40, each listed. */
function symbolsParam(ctx: RequestContext): SymbolState[] | undefined {
  const text = ctx.params.get('symbols');
  if (text === undefined) return undefined;
  let names: unknown;
  if (text.trim().startsWith('[')) {
    try {
      names = JSON.parse(text);
    } catch {
      throw new BourseError('ILLEGAL_CHARS', ['symbols', 'a JSON array or a comma list of symbols']);
    }
    if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) {
      throw new BourseError('ILLEGAL_CHARS', ['symbols', 'a JSON array or a comma list of symbols']);
    }
  } else {
    names = text.split(',');
  }
  const list = (names as string[]).map((n) => n.trim().replace(/[a-z]+/g, (r) => r.toUpperCase())).filter((n) => n.length > 0);
  if (list.length === 0 || list.length > MAX_SYMBOLS) throw new BourseError('INVALID_PARAM_VALUE', ['symbols']);
  return list.map((name) => ctx.exchange.core.spot.symbols.get(name) ?? invalidSymbol());
}

function invalidSymbol(): never {
  throw new BourseError('INVALID_SYMBOL');
}

/** The symbols a ticker endpoint answers for: one (`symbol`), a list (`symbols`), or all. */
function tickerSymbols(ctx: RequestContext): { single: boolean; states: SymbolState[] } {
  const one = symbolParam(ctx);
  if (one !== undefined) return { single: true, states: [one] };
  const many = symbolsParam(ctx);
  if (many !== undefined) return { single: false, states: many };
  const all = [...ctx.exchange.core.spot.symbols.values()].sort((a, b) => (a.spec.symbol < b.spec.symbol ? -1 : 1));
  return { single: false, states: all };
}

interface DepthView {
  version: number;
  limit: number;
  /** `"bids":[…],"asks":[…]`: the answer's part that changes only with the book. */
  levelsJson: string;
}

/** The last serialised levels per book: a book that has not changed is not formatted again. */
const depthViews = new WeakMap<object, DepthView>();

function depthLevels(state: SymbolState, limit: number): DepthView {
  const cached = depthViews.get(state.book);
  if (cached !== undefined && cached.version === state.book.version && cached.limit === limit) return cached;
  const view: DepthView = {
    version: state.book.version,
    limit,
    levelsJson: JSON.stringify(bookLevels(state, limit)).slice(1, -1),
  };
  depthViews.set(state.book, view);
  return view;
}

/** A5 `limit`: default 100; 0 is BHEX's "a lot of data" (1000); over 1000 is clamped (docs/spot-api.md "Endpoints"). */
function depthLimit(params: Params): number {
  const limit = readInt(params, 'limit');
  if (limit === undefined) return 100;
  return limit === 0 ? MAX_DEPTH_LEVELS : Math.min(limit, MAX_DEPTH_LEVELS);
}

/** A5's weight from the raw `limit`; a malformed one weighs 1 and fails at the parameter step. */
function depthWeight(params: Params): number {
  const text = params.get('limit');
  const limit = text !== undefined && /^[0-9]{1,10}$/.test(text) ? Number(text) : 100;
  if (limit === 0 || limit > 500) return 10;
  return limit > 100 ? 5 : 1;
}

function tickerWeight(params: Params): number {
  if (params.has('symbol')) return 1;
  const symbols = params.get('symbols');
  if (symbols === undefined) return 40;
  return Math.min(MAX_SYMBOLS, Math.max(1, symbols.split(',').length));
}

const SYMBOL_REQUIRED: ParamDoc = { name: 'symbol', type: 'STRING', required: true };
const SYMBOL_OPTIONAL: readonly ParamDoc[] = [
  { name: 'symbol', type: 'STRING' },
  { name: 'symbols', type: 'STRING', description: 'JSON array or comma list, at most 40' },
];

export function marketEndpoints(): Endpoint[] {
  return [
    {
      id: 'A5',
      summary: 'Order book',
      method: 'GET',
      group: 'market',
      path: 'depth',
      security: 'NONE',
      weight: depthWeight,
      params: [SYMBOL_REQUIRED, { name: 'limit', type: 'INT', description: 'default 100, 1-1000 levels per side; 0 = 1000' }],
      response: object({ time: millis, lastUpdateId: integer, bids: arrayOf(levelSchema), asks: arrayOf(levelSchema) }),
      example: {
        time: 1732579260000,
        lastUpdateId: 48213,
        bids: [
          ['64250.5', '0.42'],
          ['64249', '1.07'],
        ],
        asks: [
          ['64251', '0.135'],
          ['64260.25', '0.9'],
        ],
      },
      handler: (ctx) => {
        const state = symbolParam(ctx, 'symbol', true) as SymbolState;
        const { levelsJson } = depthLevels(state, depthLimit(ctx.params));
        return new JsonText(`{"time":${ctx.exchange.clock()},"lastUpdateId":${state.book.version},${levelsJson}}`);
      },
    },
    {
      id: 'A6',
      summary: 'Recent trades list',
      method: 'GET',
      group: 'market',
      path: 'trades',
      security: 'NONE',
      weight: 1,
      params: [SYMBOL_REQUIRED, { name: 'limit', type: 'INT', description: 'default 500, max 1000' }],
      response: arrayOf(object({ id: digits, price: decimal, qty: decimal, time: millis, isBuyerMaker: boolean })),
      example: [
        { id: '5119', price: '64248', qty: '0.003', time: 1732579204100, isBuyerMaker: true },
        { id: '5120', price: '64250.5', qty: '0.01', time: 1732579205000, isBuyerMaker: false },
      ],
      handler: (ctx) => {
        const state = symbolParam(ctx, 'symbol', true) as SymbolState;
        const limit = readLimit(ctx.params, { default: 500, max: 1000 });
        return ctx.exchange.market.recentTrades(state.spec.symbol, limit).map((t) => ({
          id: String(t.tradeId),
          price: attoText(t.priceAtto),
          qty: attoText(t.qtyAtto),
          time: t.time,
          isBuyerMaker: t.isBuyerMaker,
        }));
      },
    },
    {
      id: 'A7',
      summary: 'Kline/candlestick data',
      method: 'GET',
      group: 'market',
      path: 'klines',
      security: 'NONE',
      weight: 1,
      params: [
        SYMBOL_REQUIRED,
        { name: 'interval', type: 'ENUM', required: true, values: KLINE_INTERVALS },
        { name: 'startTime', type: 'LONG' },
        { name: 'endTime', type: 'LONG' },
        { name: 'limit', type: 'INT', description: 'default 500, max 1000' },
      ],
      response: arrayOf(klineSchema),
      example: [
        [1732579140000, '64210', '64262', '64205.5', '64248', '0.412', 1732579199999, '26467.0145', 17, '0.25', '16058.12'],
        [1732579200000, '64248', '64251', '64248', '64250.5', '0.013', 1732579259999, '835.249', 2, '0.01', '642.505'],
      ],
      handler: (ctx) => {
        const state = symbolParam(ctx, 'symbol', true) as SymbolState;
        const interval = readString(ctx.params, 'interval', { pattern: /^.+$/s, required: true });
        if (!isKlineInterval(interval)) throw new BourseError('INVALID_INTERVAL');
        const { startTime, endTime } = readTimeRange(ctx.params);
        const limit = readLimit(ctx.params, { default: 500, max: 1000 });
        const bars = ctx.exchange.market.klines(state.spec.symbol, interval, limit, startTime, endTime ?? ctx.exchange.clock());
        return bars.map((bar) => [
          bar.openTime,
          attoText(bar.openAtto),
          attoText(bar.highAtto),
          attoText(bar.lowAtto),
          attoText(bar.closeAtto),
          attoText(bar.volumeAtto),
          nextBarOpenTime(interval, bar.openTime) - 1,
          attoText(bar.quoteVolumeAtto),
          bar.count,
          attoText(bar.takerBuyVolumeAtto),
          attoText(bar.takerBuyQuoteVolumeAtto),
        ]);
      },
    },
    {
      id: 'A8',
      summary: '24hr ticker price change statistics',
      method: 'GET',
      group: 'market',
      path: 'ticker/24hr',
      security: 'NONE',
      weight: tickerWeight,
      params: SYMBOL_OPTIONAL,
      response: oneOrList(ticker24hSchema),
      example: ticker24hExample,
      handler: (ctx) => {
        const now = ctx.exchange.clock();
        const { single, states } = tickerSymbols(ctx);
        const tickers = states.map((state) => ticker24h(ctx.exchange.market, state, now));
        return single ? tickers[0] : tickers;
      },
    },
    {
      id: 'A9',
      summary: 'Symbol price ticker',
      method: 'GET',
      group: 'market',
      path: 'ticker/price',
      security: 'NONE',
      weight: 1,
      params: SYMBOL_OPTIONAL,
      response: oneOrList(priceTickerSchema),
      example: [priceTickerExample, { symbol: 'ETHUSDT', price: '3412.18' }],
      handler: (ctx) => {
        const { single, states } = tickerSymbols(ctx);
        const prices = states.map((state) => ({ symbol: state.spec.symbol, price: orZero(ctx.exchange.market.lastPrice(state.spec.symbol)) }));
        return single ? prices[0] : prices;
      },
    },
    {
      id: 'A10',
      summary: 'Symbol order book ticker',
      method: 'GET',
      group: 'market',
      path: 'ticker/bookTicker',
      security: 'NONE',
      weight: 1,
      params: SYMBOL_OPTIONAL,
      response: oneOrList(bookTickerSchema),
      example: bookTickerExample,
      handler: (ctx) => {
        const now = ctx.exchange.clock();
        const { single, states } = tickerSymbols(ctx);
        const tickers = states.map((state) => ({ symbol: state.spec.symbol, ...bestLevels(state), time: now }));
        return single ? tickers[0] : tickers;
      },
    },
  ];
}
