import { ERRORS } from '../core/errors.js';
import { formatAtto, parseDecimal } from '../core/decimal.js';
import { ladderAt, type Ladder, type LadderOrder } from './ladder.js';
import { drawInt } from './prng.js';
import { planOrders, type OpenOrder } from './reconcile.js';
import { initialWalkState, nextWalkState, type WalkState } from './reference-price.js';
import { SpotApiError, SpotHttpClient, type FetchLike } from './spot-http-client.js';
import { compileGrid, minLotsAt, type MarketMakerSymbol, type SymbolGrid } from './symbol-grid.js';

/** The part of a pino logger the market maker writes to. */
export interface MarketMakerLogger {
  debug(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface DemoMarketMakerOptions {
  baseUrl: string;
  apiKey: string;
  secretKey: string;
  symbols: readonly MarketMakerSymbol[];
  seed: number;
  /** Time between the end of one tick and the start of the next; default 2000. */
  intervalMs?: number;
  /** New orders per second at most; default 15, under the default ORDERS limit of 20 per key. */
  ordersPerSecond?: number;
  /**
   * A key of another account (the maker's taker sub-account: self-trade prevention stops an
   * account taking from itself) with which the maker now and then crosses the spread with a small
   * MARKET order, so the demo has trades, klines and tickers. Without it the maker only quotes.
   */
  taker?: { apiKey: string; secretKey: string };
  logger?: MarketMakerLogger;
  fetch?: FetchLike;
}

export interface DemoMarketMaker {
  /** No tick starts after this; resolves when the tick in progress has ended. */
  stop(): Promise<void>;
}

const DEFAULT_INTERVAL_MS = 2000;
const DEFAULT_ORDERS_PER_SECOND = 15;
/** A17's maximum; the maker keeps 2 × LADDER_LEVELS orders per symbol, far fewer. */
const OPEN_ORDERS_LIMIT = '1000';
/** Cancels that find the order already gone: it filled or was canceled since the listing. */
const GONE_CODES = new Set<number>([ERRORS.ORDER_NOT_FOUND.code, ERRORS.ORDER_FILLED.code, ERRORS.ORDER_CANCELED.code]);

const SILENT: MarketMakerLogger = { debug: () => undefined, warn: () => undefined };

/** Ticks on which every symbol takes (a buy, then a sell), so history appears within seconds of a start. */
const FIRST_TAKES = [1, 2] as const;
/** After those, a symbol takes on a tick with chance 1 / TAKE_ODDS (drawn from the seed). */
const TAKE_ODDS = 15;

function units(text: string, unitAtto: bigint): bigint {
  const value = parseDecimal(text);
  if (value === null) throw new TypeError(`not a decimal: ${text}`);
  return value / unitAtto;
}

/** The taker order of a symbol at a tick, or undefined: a deterministic function of seed, tick and ladder. */
export function takeAt(seed: number, grid: SymbolGrid, ladder: Ladder, tick: number): { side: 'BUY' | 'SELL'; quantity: string } | undefined {
  const symbol = grid.rules.symbol;
  let side: 'BUY' | 'SELL';
  if (tick === FIRST_TAKES[0]) side = 'BUY';
  else if (tick === FIRST_TAKES[1]) side = 'SELL';
  else if (tick > FIRST_TAKES[1] && drawInt([seed, 'take', symbol, tick], 0, TAKE_ODDS - 1) === 0) side = drawInt([seed, 'side', symbol, tick], 0, 1) === 0 ? 'BUY' : 'SELL';
  else return undefined;
  // Sized against the level it takes from: at least the filters' minimum there, at most a quarter of it.
  const level = side === 'BUY' ? ladder.asks[0] : ladder.bids[0];
  if (level === undefined) return undefined;
  const minLots = minLotsAt(grid, units(level.price, grid.tickAtto));
  const levelLots = units(level.quantity, grid.stepAtto);
  const extra = levelLots / 4n > minLots ? Number(levelLots / 4n - minLots) : 0;
  const lots = minLots + BigInt(drawInt([seed, 'take-size', symbol, tick], 0, Math.min(extra, 1_000_000)));
  if (lots > levelLots) return undefined;
  return { side, quantity: formatAtto(lots * grid.stepAtto) };
}

/** Errors after which the rest of the tick is pointless: no server, a server fault, or a rate limit. */
function endsTick(error: unknown): boolean {
  return !(error instanceof SpotApiError) || error.status === 429 || error.status === 418 || error.status >= 500;
}

function field(record: Record<string, unknown>, name: string): string {
  const value = record[name];
  if (typeof value !== 'string') throw new TypeError(`open order without a string ${name}`);
  return value;
}

/** A17's reply, checked at the boundary. */
function readOpenOrders(body: unknown): OpenOrder[] {
  if (!Array.isArray(body)) throw new TypeError('openOrders reply is not an array');
  return body.map((item: unknown) => {
    if (typeof item !== 'object' || item === null) throw new TypeError('open order is not an object');
    const record = item as Record<string, unknown>;
    const side = field(record, 'side');
    if (side !== 'BUY' && side !== 'SELL') throw new TypeError(`open order with side ${side}`);
    return {
      orderId: field(record, 'orderId'),
      symbol: field(record, 'symbol'),
      side,
      price: field(record, 'price'),
      origQty: field(record, 'origQty'),
      executedQty: field(record, 'executedQty'),
    };
  });
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

/**
 * Keeps every given symbol's book two-sided through the public API: each tick steps the seeded
 * reference walk, computes the ladder, cancels the open orders outside it and places the missing
 * levels as LIMIT_MAKER; with a `taker` key it also crosses the spread now and then (`takeAt`).
 * It never throws into the server: failures are logged and
 * the next tick tries again.
 */
export function startDemoMarketMaker(options: DemoMarketMakerOptions): DemoMarketMaker {
  const intervalMs = positiveInteger('intervalMs', options.intervalMs ?? DEFAULT_INTERVAL_MS);
  const ordersPerSecond = positiveInteger('ordersPerSecond', options.ordersPerSecond ?? DEFAULT_ORDERS_PER_SECOND);
  if (!Number.isSafeInteger(options.seed)) throw new RangeError(`seed must be a safe integer, got ${options.seed}`);
  if (options.symbols.length === 0) throw new RangeError('the market maker needs at least one symbol');
  // Ticks are at least intervalMs apart, so this many orders per tick keeps within ordersPerSecond.
  const ordersPerTick = Math.min(ordersPerSecond, Math.max(1, Math.floor((ordersPerSecond * intervalMs) / 1000)));
  const seed = options.seed;
  const logger = options.logger ?? SILENT;
  const client = new SpotHttpClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, secretKey: options.secretKey, fetch: options.fetch });
  const takerClient =
    options.taker === undefined
      ? undefined
      : new SpotHttpClient({ baseUrl: options.baseUrl, apiKey: options.taker.apiKey, secretKey: options.taker.secretKey, fetch: options.fetch });
  const walks: { grid: SymbolGrid; state: WalkState }[] = options.symbols.map((rules) => {
    const grid = compileGrid(rules);
    return { grid, state: initialWalkState(grid) };
  });
  let stopped = false;
  let ticks = 0;

  async function cancel(order: OpenOrder): Promise<boolean> {
    try {
      await client.signed('DELETE', '/openapi/v1/order', { orderId: order.orderId });
      return true;
    } catch (error) {
      if (endsTick(error)) throw error;
      const code = (error as SpotApiError).code;
      if (code === undefined || !GONE_CODES.has(code)) logger.warn({ err: error, symbol: order.symbol, orderId: order.orderId }, 'demo market maker: cancel refused');
      return false;
    }
  }

  /** Places one level; 'refused' when the symbol takes no orders for now (halted, short of funds…). */
  async function place(symbol: string, level: LadderOrder): Promise<'placed' | 'skipped' | 'refused'> {
    try {
      await client.signed('POST', '/openapi/v1/order', { symbol, side: level.side, type: 'LIMIT_MAKER', quantity: level.quantity, price: level.price });
      return 'placed';
    } catch (error) {
      if (endsTick(error)) throw error;
      // Someone else's order rests across this level: leave the level to them.
      if ((error as SpotApiError).code === ERRORS.WOULD_TAKE.code) return 'skipped';
      logger.warn({ err: error, symbol, side: level.side, price: level.price }, 'demo market maker: order refused');
      return 'refused';
    }
  }

  /** Crosses the spread with a small MARKET order; a refusal (halted symbol, funds) only skips it. */
  async function take(symbol: string, order: { side: 'BUY' | 'SELL'; quantity: string }): Promise<boolean> {
    if (takerClient === undefined) return false;
    try {
      await takerClient.signed('POST', '/openapi/v1/order', { symbol, side: order.side, type: 'MARKET', quantity: order.quantity });
      return true;
    } catch (error) {
      if (endsTick(error)) throw error;
      logger.debug({ err: error, symbol, side: order.side }, 'demo market maker: take refused');
      return false;
    }
  }

  async function tick(): Promise<void> {
    const tickNumber = ticks++;
    if (tickNumber > 0) for (const walk of walks) walk.state = nextWalkState(seed, walk.grid, walk.state);
    let canceled = 0;
    let placed = 0;
    let taken = 0;
    try {
      const openOrders = readOpenOrders(await client.signed('GET', '/openapi/v1/openOrders', { limit: OPEN_ORDERS_LIMIT }));
      const wanted: { symbol: string; level: LadderOrder }[] = [];
      const takes: { symbol: string; side: 'BUY' | 'SELL'; quantity: string }[] = [];
      for (const walk of walks) {
        const symbol = walk.grid.rules.symbol;
        const ladder = ladderAt(seed, walk.grid, walk.state);
        const taking = takeAt(seed, walk.grid, ladder, tickNumber);
        if (taking !== undefined) takes.push({ symbol, ...taking });
        const plan = planOrders(
          ladder,
          openOrders.filter((o) => o.symbol === symbol),
        );
        for (const order of plan.cancels) {
          if (stopped) return;
          if (await cancel(order)) canceled++;
        }
        for (const level of plan.places) wanted.push({ symbol, level });
      }
      // Best levels of every symbol first, so each book is two-sided before any gets deep.
      wanted.sort((a, b) => a.level.level - b.level.level);
      const refusedSymbols = new Set<string>();
      for (const { symbol, level } of wanted.slice(0, ordersPerTick)) {
        if (stopped) return;
        if (refusedSymbols.has(symbol)) continue;
        const outcome = await place(symbol, level);
        if (outcome === 'placed') placed++;
        if (outcome === 'refused') refusedSymbols.add(symbol);
      }
      // After the quotes, so the order meets the maker's best level; the partly filled level is
      // refreshed next tick.
      for (const order of takes) {
        if (stopped) return;
        if (await take(order.symbol, order)) taken++;
      }
    } catch (error) {
      logger.warn({ err: error, tick: tickNumber }, 'demo market maker: tick failed, retrying next tick');
    } finally {
      logger.debug({ tick: tickNumber, canceled, placed, ...(takerClient === undefined ? {} : { taken }) }, 'demo market maker tick');
    }
  }

  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  const loop = (): void => {
    inFlight = tick().then(() => {
      if (stopped) return;
      timer = setTimeout(loop, intervalMs);
      // The server's sockets keep the process alive; the maker alone should not.
      timer.unref();
    });
  };
  loop();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}
