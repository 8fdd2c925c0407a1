import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SpotClient, type HttpAnswer } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { liftRateLimits } from '../support/trading-setup.js';

/**
 * A5–A10 over HTTP (docs/spot-api.md "Market data") with exact values. The server runs in this process, so faking
 * `Date` fixes the time every command is stamped with and every reply reports: trades, bars and
 * the 24 h window land where the story puts them, and the weight minute never ends mid-test.
 */

const WEIGHT = 'x-bh-used-weight-1m';
const ALL_SYMBOLS = ['BTCMXN', 'BTCUSDT', 'ETHBTC', 'ETHUSDT', 'USDTEUR', 'USDTMXN', 'USDTUSD'];

const ms = (iso: string): number => Date.parse(iso);

function at(iso: string): void {
  vi.setSystemTime(ms(iso));
}

/** The demo user and the demo merchant: two accounts, so their orders trade with each other. */
interface Traders {
  user: SpotClient;
  merchant: SpotClient;
}

function traders(t: TestServer): Traders {
  // Timestamps read the faked clock, as the server's recvWindow check does.
  const now = (): number => Date.now();
  return {
    user: new SpotClient(t.url, t.demo.apiKey, t.demo.secretKey, now),
    merchant: new SpotClient(t.url, t.demo.merchantApiKey, t.demo.merchantSecretKey, now),
  };
}

function ok(answer: HttpAnswer): HttpAnswer {
  if (answer.status !== 200) throw new Error(`expected 200, got ${answer.status} ${answer.text}`);
  return answer;
}

/** A LIMIT order that must be accepted; its order id. */
async function place(client: SpotClient, symbol: string, side: 'BUY' | 'SELL', price: string, quantity: string): Promise<string> {
  const answer = ok(await client.signed('POST', '/openapi/v1/order', { symbol, side, type: 'LIMIT', price, quantity }));
  return (answer.body as { orderId: string }).orderId;
}

/** The weight one public request adds to this IP's minute counter (A1 ping weighs 0). */
async function weightOf(client: SpotClient, path: string, params: Record<string, string | number> = {}): Promise<number> {
  const before = await client.get('/openapi/v1/ping');
  const answer = await client.get(path, params);
  return Number(answer.headers.get(WEIGHT)) - Number(before.headers.get(WEIGHT));
}

function errorOf(answer: HttpAnswer): [number, unknown] {
  return [answer.status, (answer.body as { code?: number } | undefined)?.code];
}

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterAll(() => {
  vi.useRealTimers();
});

describe('order book endpoints: A5 depth and A10 bookTicker', () => {
  const NOW = '2024-01-15T09:00:00.000Z';
  let t: TestServer;
  let c: Traders;

  beforeAll(async () => {
    at(NOW);
    t = await startTestServer();
    // ORDERS per second would never reset on a frozen clock.
    await liftRateLimits(t.url, t.adminToken);
    c = traders(t);
    await place(c.user, 'ETHUSDT', 'SELL', '2000', '1');
    await place(c.user, 'ETHUSDT', 'SELL', '2000', '0.5');
    await place(c.user, 'ETHUSDT', 'SELL', '2001.5', '2');
    await place(c.user, 'ETHUSDT', 'SELL', '2003', '0.25');
    await place(c.merchant, 'ETHUSDT', 'BUY', '1999', '1.2');
    await place(c.merchant, 'ETHUSDT', 'BUY', '1999', '0.3');
    await place(c.merchant, 'ETHUSDT', 'BUY', '1998.01', '4');
    await place(c.user, 'USDTMXN', 'SELL', '17.5', '100');
    // 101 ask levels 0.05000 … 0.05100: one more than the default limit.
    for (let i = 0; i <= 100; i++) await place(c.user, 'ETHBTC', 'SELL', `0.0${5000 + i}`, '0.01');
  });
  afterAll(async () => t.stop());

  it('when orders rest at the same price, then depth aggregates them per price, best first, with the book version and time', async () => {
    at(NOW);
    const answer = await c.user.get('/openapi/quote/v1/depth', { symbol: 'ETHUSDT' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      time: ms(NOW),
      lastUpdateId: 7,
      bids: [
        ['1999', '1.5'],
        ['1998.01', '4'],
      ],
      asks: [
        ['2000', '1.5'],
        ['2001.5', '2'],
        ['2003', '0.25'],
      ],
    });
  });

  it('when limit is given, then each side is cut to that many levels', async () => {
    at(NOW);
    expect((await c.user.get('/openapi/quote/v1/depth', { symbol: 'ETHUSDT', limit: 1 })).body).toMatchObject({ bids: [['1999', '1.5']], asks: [['2000', '1.5']] });
    expect((await c.user.get('/openapi/quote/v1/depth', { symbol: 'ETHUSDT', limit: 2 })).body).toMatchObject({
      bids: [
        ['1999', '1.5'],
        ['1998.01', '4'],
      ],
      asks: [
        ['2000', '1.5'],
        ['2001.5', '2'],
      ],
    });
  });

  it('when a side has 101 levels, then the default is 100 and limit=0 means 1000', async () => {
    at(NOW);
    const asks = async (params: Record<string, string | number>): Promise<string[][]> =>
      ((await c.user.get('/openapi/quote/v1/depth', { symbol: 'ETHBTC', ...params })).body as { asks: string[][] }).asks;
    const byDefault = await asks({});
    expect(byDefault).toHaveLength(100);
    expect([byDefault[0], byDefault[99]]).toEqual([
      ['0.05', '0.01'],
      ['0.05099', '0.01'],
    ]);
    expect(await asks({ limit: 0 })).toHaveLength(101);
    expect((await asks({ limit: 0 }))[100]).toEqual(['0.051', '0.01']);
    expect(await asks({ limit: 1000 })).toHaveLength(101);
    expect(await asks({ limit: 101 })).toHaveLength(101);
    expect(await asks({ limit: 100 })).toHaveLength(100);
  });

  it('when limit is over 1000, then it is clamped to 1000 (docs/spot-api.md "Endpoints"), not refused', async () => {
    at(NOW);
    const answer = await c.user.get('/openapi/quote/v1/depth', { symbol: 'ETHBTC', limit: 1001 });
    expect(answer.status).toBe(200);
    expect((answer.body as { asks: unknown[] }).asks).toHaveLength(101);
  });

  it('when depth is asked with a limit, then it weighs 1 up to 100, 5 up to 500, 10 up to 1000 or for 0', async () => {
    at(NOW);
    const weights: [string, number][] = [];
    for (const limit of ['', '1', '100', '101', '500', '501', '1000', '0']) {
      weights.push([limit, await weightOf(c.user, '/openapi/quote/v1/depth', limit === '' ? { symbol: 'ETHUSDT' } : { symbol: 'ETHUSDT', limit })]);
    }
    expect(weights).toEqual([
      ['', 1],
      ['1', 1],
      ['100', 1],
      ['101', 5],
      ['500', 5],
      ['501', 10],
      ['1000', 10],
      ['0', 10],
    ]);
  });

  it('when the book changes, then lastUpdateId grows by one per change: each add, each maker touched by a match, each cancel', async () => {
    at(NOW);
    const depth = async (): Promise<unknown> => (await c.user.get('/openapi/quote/v1/depth', { symbol: 'BTCMXN' })).body;
    expect(await depth()).toEqual({ time: ms(NOW), lastUpdateId: 0, bids: [], asks: [] });
    await place(c.user, 'BTCMXN', 'SELL', '1000000', '0.1');
    await place(c.user, 'BTCMXN', 'SELL', '1000100', '0.2');
    expect(await depth()).toMatchObject({ lastUpdateId: 2, asks: [['1000000', '0.1'], ['1000100', '0.2']] });
    // Fills both makers (+2) and rests its remainder (+1).
    const rest = await place(c.merchant, 'BTCMXN', 'BUY', '1000200', '0.35');
    expect(await depth()).toEqual({ time: ms(NOW), lastUpdateId: 5, bids: [['1000200', '0.05']], asks: [] });
    // Refused (price off tick): the book is unchanged.
    expect(errorOf(await c.user.signed('POST', '/openapi/v1/order', { symbol: 'BTCMXN', side: 'SELL', type: 'LIMIT', price: '1000300.001', quantity: '0.1' }))).toEqual([400, -1134]);
    ok(await c.merchant.signed('DELETE', '/openapi/v1/order', { orderId: rest }));
    expect(await depth()).toEqual({ time: ms(NOW), lastUpdateId: 6, bids: [], asks: [] });
  });

  it('when a symbol or its limit is wrong, then depth answers the parameter code', async () => {
    at(NOW);
    expect(errorOf(await c.user.get('/openapi/quote/v1/depth', { symbol: 'NOPE' }))).toEqual([400, -1121]);
    expect(errorOf(await c.user.get('/openapi/quote/v1/depth'))).toEqual([400, -1102]);
    expect(errorOf(await c.user.get('/openapi/quote/v1/depth', { symbol: 'ETHUSDT', limit: '-1' }))).toEqual([400, -1100]);
  });

  it('when bookTicker is asked for one symbol, then it has the best levels, "0" for an empty side, and the time', async () => {
    at(NOW);
    expect((await c.user.get('/openapi/quote/v1/ticker/bookTicker', { symbol: 'ETHUSDT' })).body).toEqual({
      symbol: 'ETHUSDT',
      bidPrice: '1999',
      bidQty: '1.5',
      askPrice: '2000',
      askQty: '1.5',
      time: ms(NOW),
    });
    expect((await c.user.get('/openapi/quote/v1/ticker/bookTicker', { symbol: 'USDTMXN' })).body).toEqual({
      symbol: 'USDTMXN',
      bidPrice: '0',
      bidQty: '0',
      askPrice: '17.5',
      askQty: '100',
      time: ms(NOW),
    });
  });

  it('when bookTicker is asked without a symbol, or with symbols, then it is an array', async () => {
    at(NOW);
    const all = (await c.user.get('/openapi/quote/v1/ticker/bookTicker')).body as { symbol: string }[];
    expect(all.map((b) => b.symbol)).toEqual(ALL_SYMBOLS);
    expect(all.find((b) => b.symbol === 'USDTEUR')).toEqual({ symbol: 'USDTEUR', bidPrice: '0', bidQty: '0', askPrice: '0', askQty: '0', time: ms(NOW) });
    const some = (await c.user.get('/openapi/quote/v1/ticker/bookTicker', { symbols: '["USDTMXN","ETHUSDT"]' })).body as { symbol: string }[];
    expect([...some].sort((a, b) => a.symbol.localeCompare(b.symbol))).toEqual([
      { symbol: 'ETHUSDT', bidPrice: '1999', bidQty: '1.5', askPrice: '2000', askQty: '1.5', time: ms(NOW) },
      { symbol: 'USDTMXN', bidPrice: '0', bidQty: '0', askPrice: '17.5', askQty: '100', time: ms(NOW) },
    ]);
    const commaList = (await c.user.get('/openapi/quote/v1/ticker/bookTicker', { symbols: 'USDTMXN,ETHUSDT' })).body;
    expect(commaList).toEqual(some);
  });

  it('when the other market-data endpoints are called, then A6, A7, A9, A10 weigh 1 and A8 weighs 1 with symbol, 40 without, n for n symbols', async () => {
    at(NOW);
    const weights = {
      trades: await weightOf(c.user, '/openapi/quote/v1/trades', { symbol: 'ETHUSDT' }),
      klines: await weightOf(c.user, '/openapi/quote/v1/klines', { symbol: 'ETHUSDT', interval: '1m' }),
      price: await weightOf(c.user, '/openapi/quote/v1/ticker/price', { symbol: 'ETHUSDT' }),
      priceAll: await weightOf(c.user, '/openapi/quote/v1/ticker/price'),
      book: await weightOf(c.user, '/openapi/quote/v1/ticker/bookTicker', { symbol: 'ETHUSDT' }),
      bookAll: await weightOf(c.user, '/openapi/quote/v1/ticker/bookTicker'),
      day: await weightOf(c.user, '/openapi/quote/v1/ticker/24hr', { symbol: 'ETHUSDT' }),
      dayAll: await weightOf(c.user, '/openapi/quote/v1/ticker/24hr'),
      dayJsonList: await weightOf(c.user, '/openapi/quote/v1/ticker/24hr', { symbols: '["ETHUSDT","BTCUSDT","ETHBTC"]' }),
      dayCommaList: await weightOf(c.user, '/openapi/quote/v1/ticker/24hr', { symbols: 'ETHUSDT,BTCUSDT' }),
      daySeedPrefix: await weightOf(c.user, '/openapi/v1/ticker/24hr'),
    };
    expect(weights).toEqual({
      trades: 1,
      klines: 1,
      price: 1,
      priceAll: 1,
      book: 1,
      bookAll: 1,
      day: 1,
      dayAll: 40,
      dayJsonList: 3,
      dayCommaList: 2,
      daySeedPrefix: 40,
    });
  });
});

describe('trade endpoints: A6 trades, A7 klines, A8 24hr, A9 price', () => {
  /** Time of every query: the 24 h window starts at 2024-01-14T12:01:00Z. */
  const QUERY = '2024-01-15T12:00:30.000Z';
  const WINDOW_OPEN = '2024-01-14T12:01:00.000Z';
  let t: TestServer;
  let c: Traders;

  /**
   * Trade ids, shared by all symbols: BTCUSDT 1 (before the window), 2 (first ms of it), 7, 8;
   * ETHUSDT 3–6. The merchant buys, the user sells; who rested decides `isBuyerMaker`.
   */
  beforeAll(async () => {
    at('2024-01-14T11:59:00.000Z');
    t = await startTestServer();
    c = traders(t);
    at('2024-01-14T12:00:00.000Z');
    await place(c.user, 'BTCUSDT', 'SELL', '40000', '0.01');
    await place(c.merchant, 'BTCUSDT', 'BUY', '40000', '0.01');
    at(WINDOW_OPEN);
    await place(c.user, 'BTCUSDT', 'SELL', '41000', '0.02');
    await place(c.merchant, 'BTCUSDT', 'BUY', '41000', '0.02');
    at('2024-01-15T10:00:00.000Z');
    await place(c.user, 'ETHUSDT', 'SELL', '2000', '1');
    await place(c.user, 'ETHUSDT', 'SELL', '2000', '0.5');
    await place(c.merchant, 'ETHUSDT', 'BUY', '1999', '1.2');
    await place(c.merchant, 'ETHUSDT', 'BUY', '1999', '0.3');
    at('2024-01-15T10:00:30.000Z');
    await place(c.merchant, 'ETHUSDT', 'BUY', '2000.5', '1.6');
    at('2024-01-15T10:01:10.000Z');
    await place(c.user, 'ETHUSDT', 'SELL', '2000.5', '0.1');
    at('2024-01-15T10:03:00.000Z');
    await place(c.user, 'ETHUSDT', 'SELL', '1999', '0.5');
    at('2024-01-15T11:00:00.000Z');
    await place(c.merchant, 'BTCUSDT', 'BUY', '39000', '0.03');
    await place(c.user, 'BTCUSDT', 'SELL', '39000', '0.01');
    at('2024-01-15T12:00:10.000Z');
    await place(c.user, 'BTCUSDT', 'SELL', '40500', '0.013');
    await place(c.merchant, 'BTCUSDT', 'BUY', '40500', '0.013');
  });
  afterAll(async () => t.stop());

  const get = async (path: string, params: Record<string, string | number> = {}): Promise<unknown> => {
    at(QUERY);
    const answer = await c.user.get(path, params);
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status} ${answer.text}`);
    return answer.body;
  };

  const ETH_TRADES = [
    { id: '3', price: '2000', qty: '1', time: ms('2024-01-15T10:00:30Z'), isBuyerMaker: false },
    { id: '4', price: '2000', qty: '0.5', time: ms('2024-01-15T10:00:30Z'), isBuyerMaker: false },
    { id: '5', price: '2000.5', qty: '0.1', time: ms('2024-01-15T10:01:10Z'), isBuyerMaker: true },
    { id: '6', price: '1999', qty: '0.5', time: ms('2024-01-15T10:03:00Z'), isBuyerMaker: true },
  ];

  it('when trades happened, then A6 lists them oldest first with string ids, numeric times and the literal isBuyerMaker', async () => {
    expect(await get('/openapi/quote/v1/trades', { symbol: 'ETHUSDT' })).toEqual(ETH_TRADES);
    expect(await get('/openapi/quote/v1/trades', { symbol: 'BTCUSDT' })).toEqual([
      { id: '1', price: '40000', qty: '0.01', time: ms('2024-01-14T12:00:00Z'), isBuyerMaker: false },
      { id: '2', price: '41000', qty: '0.02', time: ms(WINDOW_OPEN), isBuyerMaker: false },
      { id: '7', price: '39000', qty: '0.01', time: ms('2024-01-15T11:00:00Z'), isBuyerMaker: true },
      { id: '8', price: '40500', qty: '0.013', time: ms('2024-01-15T12:00:10Z'), isBuyerMaker: false },
    ]);
    expect(await get('/openapi/quote/v1/trades', { symbol: 'ETHBTC' })).toEqual([]);
  });

  it('when A6 has a limit, then it returns the newest `limit` trades, oldest first; 0 is absent', async () => {
    expect(await get('/openapi/quote/v1/trades', { symbol: 'ETHUSDT', limit: 2 })).toEqual(ETH_TRADES.slice(2));
    expect(await get('/openapi/quote/v1/trades', { symbol: 'ETHUSDT', limit: 0 })).toEqual(ETH_TRADES);
    expect(await get('/openapi/quote/v1/trades', { symbol: 'ETHUSDT', limit: 5000 })).toEqual(ETH_TRADES);
  });

  it('when minutes traded, then A7 1m bars have 11 elements: numeric times, close = next open − 1, taker-buy volumes', async () => {
    expect(await get('/openapi/quote/v1/klines', { symbol: 'ETHUSDT', interval: '1m' })).toEqual([
      [ms('2024-01-15T10:00:00Z'), '2000', '2000', '2000', '2000', '1.5', ms('2024-01-15T10:01:00Z') - 1, '3000', 2, '1.5', '3000'],
      [ms('2024-01-15T10:01:00Z'), '2000.5', '2000.5', '2000.5', '2000.5', '0.1', ms('2024-01-15T10:02:00Z') - 1, '200.05', 1, '0', '0'],
      [ms('2024-01-15T10:03:00Z'), '1999', '1999', '1999', '1999', '0.5', ms('2024-01-15T10:04:00Z') - 1, '999.5', 1, '0', '0'],
    ]);
  });

  it('when the interval is longer, then bars merge the trades of their span', async () => {
    expect(await get('/openapi/quote/v1/klines', { symbol: 'ETHUSDT', interval: '3m' })).toEqual([
      [ms('2024-01-15T10:00:00Z'), '2000', '2000.5', '2000', '2000.5', '1.6', ms('2024-01-15T10:03:00Z') - 1, '3200.05', 3, '1.5', '3000'],
      [ms('2024-01-15T10:03:00Z'), '1999', '1999', '1999', '1999', '0.5', ms('2024-01-15T10:06:00Z') - 1, '999.5', 1, '0', '0'],
    ]);
    expect(await get('/openapi/quote/v1/klines', { symbol: 'ETHUSDT', interval: '1h' })).toEqual([
      [ms('2024-01-15T10:00:00Z'), '2000', '2000.5', '1999', '1999', '2.1', ms('2024-01-15T11:00:00Z') - 1, '4199.55', 4, '1.5', '3000'],
    ]);
  });

  it('when bars are daily, weekly, 3-daily or monthly, then they open at UTC midnight, on Monday, every third day from 1970, on the 1st', async () => {
    const sunday = ['40000', '41000', '40000', '41000', '0.03'];
    const sundayRest = ['1220', 2, '0.03', '1220'];
    const monday = ['39000', '40500', '39000', '40500', '0.023'];
    const mondayRest = ['916.5', 2, '0.013', '526.5'];
    expect(await get('/openapi/quote/v1/klines', { symbol: 'BTCUSDT', interval: '1d' })).toEqual([
      [ms('2024-01-14T00:00:00Z'), ...sunday, ms('2024-01-15T00:00:00Z') - 1, ...sundayRest],
      [ms('2024-01-15T00:00:00Z'), ...monday, ms('2024-01-16T00:00:00Z') - 1, ...mondayRest],
    ]);
    expect(await get('/openapi/quote/v1/klines', { symbol: 'BTCUSDT', interval: '1w' })).toEqual([
      [ms('2024-01-08T00:00:00Z'), ...sunday, ms('2024-01-15T00:00:00Z') - 1, ...sundayRest],
      [ms('2024-01-15T00:00:00Z'), ...monday, ms('2024-01-22T00:00:00Z') - 1, ...mondayRest],
    ]);
    // 2024-01-12 is day 19734 since 1970-01-01, a multiple of 3.
    expect(await get('/openapi/quote/v1/klines', { symbol: 'BTCUSDT', interval: '3d' })).toEqual([
      [ms('2024-01-12T00:00:00Z'), ...sunday, ms('2024-01-15T00:00:00Z') - 1, ...sundayRest],
      [ms('2024-01-15T00:00:00Z'), ...monday, ms('2024-01-18T00:00:00Z') - 1, ...mondayRest],
    ]);
    expect(await get('/openapi/quote/v1/klines', { symbol: 'BTCUSDT', interval: '1M' })).toEqual([
      [ms('2024-01-01T00:00:00Z'), '40000', '41000', '39000', '40500', '0.053', ms('2024-02-01T00:00:00Z') - 1, '2136.5', 4, '0.043', '1746.5'],
    ]);
  });

  it('when A7 has limit, startTime or endTime, then it selects the first bars from startTime or the last ones up to endTime', async () => {
    const open = (body: unknown): string[] => (body as number[][]).map((bar) => new Date(bar[0]).toISOString().slice(11, 16));
    const klines = async (params: Record<string, string | number>): Promise<string[]> =>
      open(await get('/openapi/quote/v1/klines', { symbol: 'ETHUSDT', interval: '1m', ...params }));
    expect(await klines({ limit: 2 })).toEqual(['10:01', '10:03']);
    expect(await klines({ startTime: ms('2024-01-15T10:00:00Z'), limit: 1 })).toEqual(['10:00']);
    expect(await klines({ startTime: ms('2024-01-15T10:00:30Z') })).toEqual(['10:01', '10:03']);
    expect(await klines({ endTime: ms('2024-01-15T10:03:00Z') - 1 })).toEqual(['10:00', '10:01']);
    expect(await klines({ endTime: ms('2024-01-15T10:03:00Z') - 1, limit: 1 })).toEqual(['10:01']);
    expect(await klines({ startTime: ms('2024-01-15T10:01:00Z'), endTime: ms('2024-01-15T10:01:00Z') })).toEqual(['10:01']);
    expect(await klines({ endTime: ms('2024-01-15T09:59:59Z') })).toEqual([]);
    // The Java SDK's zeros are absent.
    expect(await klines({ startTime: 0, endTime: 0, limit: 0 })).toEqual(['10:00', '10:01', '10:03']);
  });

  it('when A7 gets a bad interval, reversed times or no interval, then it answers -1120, -1128, -1102', async () => {
    at(QUERY);
    const klines = async (params: Record<string, string | number>): Promise<[number, unknown]> =>
      errorOf(await c.user.get('/openapi/quote/v1/klines', { symbol: 'ETHUSDT', ...params }));
    expect(await klines({ interval: '1X' })).toEqual([400, -1120]);
    expect(await klines({ interval: '1H' })).toEqual([400, -1120]);
    expect(await klines({ interval: '1m', startTime: ms('2024-01-15T10:01:00Z'), endTime: ms('2024-01-15T10:00:00Z') })).toEqual([400, -1128]);
    expect(await klines({})).toEqual([400, -1102]);
    expect(errorOf(await c.user.get('/openapi/quote/v1/klines', { symbol: 'NOPE', interval: '1m' }))).toEqual([400, -1121]);
  });

  const BTC_TICKER = {
    time: ms(QUERY),
    openTime: ms(WINDOW_OPEN),
    closeTime: ms(QUERY),
    symbol: 'BTCUSDT',
    bestBidPrice: '39000',
    bestAskPrice: '0',
    bidPrice: '39000',
    bidQty: '0.02',
    askPrice: '0',
    askQty: '0',
    lastPrice: '40500',
    openPrice: '41000',
    highPrice: '41000',
    lowPrice: '39000',
    prevClosePrice: '40000',
    priceChange: '-500',
    // -500 / 41000 = -0.012195…
    priceChangePercent: '-0.0122',
    // 1736.5 / 0.043 = 40383.7209…
    weightedAvgPrice: '40383.72',
    volume: '0.043',
    quoteVolume: '1736.5',
    count: 3,
  };
  const ETH_TICKER = {
    time: ms(QUERY),
    openTime: ms(WINDOW_OPEN),
    closeTime: ms(QUERY),
    symbol: 'ETHUSDT',
    bestBidPrice: '1999',
    bestAskPrice: '0',
    bidPrice: '1999',
    bidQty: '1',
    askPrice: '0',
    askQty: '0',
    lastPrice: '1999',
    openPrice: '2000',
    highPrice: '2000.5',
    lowPrice: '1999',
    prevClosePrice: '0',
    priceChange: '-1',
    priceChangePercent: '-0.0005',
    // 4199.55 / 2.1 = 1999.7857…
    weightedAvgPrice: '1999.79',
    volume: '2.1',
    quoteVolume: '4199.55',
    count: 4,
  };
  const untradedTicker = (symbol: string): Record<string, unknown> => ({
    time: ms(QUERY),
    openTime: ms(WINDOW_OPEN),
    closeTime: ms(QUERY),
    symbol,
    bestBidPrice: '0',
    bestAskPrice: '0',
    bidPrice: '0',
    bidQty: '0',
    askPrice: '0',
    askQty: '0',
    lastPrice: '0',
    openPrice: '0',
    highPrice: '0',
    lowPrice: '0',
    prevClosePrice: '0',
    priceChange: '0',
    priceChangePercent: '0',
    weightedAvgPrice: '0',
    volume: '0',
    quoteVolume: '0',
    count: 0,
  });

  it('when A8 has a symbol, then it is one object: window open/high/low, prevClose before the window, signed change, fractional percent', async () => {
    expect(await get('/openapi/quote/v1/ticker/24hr', { symbol: 'BTCUSDT' })).toEqual(BTC_TICKER);
    expect(await get('/openapi/quote/v1/ticker/24hr', { symbol: 'ETHUSDT' })).toEqual(ETH_TICKER);
    expect(await get('/openapi/quote/v1/ticker/24hr', { symbol: 'ETHBTC' })).toEqual(untradedTicker('ETHBTC'));
  });

  it('when A8 has no symbol, then it is an array of every symbol by name', async () => {
    const all = (await get('/openapi/quote/v1/ticker/24hr')) as { symbol: string }[];
    expect(all.map((x) => x.symbol)).toEqual(ALL_SYMBOLS);
    expect(all).toEqual(ALL_SYMBOLS.map((s) => (s === 'BTCUSDT' ? BTC_TICKER : s === 'ETHUSDT' ? ETH_TICKER : untradedTicker(s))));
  });

  it('when A8 has symbols as a JSON array or a comma list, then it answers those symbols', async () => {
    const bySymbol = (body: unknown): unknown[] => [...(body as { symbol: string }[])].sort((a, b) => a.symbol.localeCompare(b.symbol));
    expect(bySymbol(await get('/openapi/quote/v1/ticker/24hr', { symbols: '["ETHUSDT","BTCUSDT"]' }))).toEqual([BTC_TICKER, ETH_TICKER]);
    expect(bySymbol(await get('/openapi/quote/v1/ticker/24hr', { symbols: 'ETHUSDT,BTCUSDT' }))).toEqual([BTC_TICKER, ETH_TICKER]);
    expect(await get('/openapi/quote/v1/ticker/24hr', { symbols: '["ETHUSDT"]' })).toEqual([ETH_TICKER]);
  });

  it('when A8 symbols has more than 40 names or an unknown one, then it answers -1130 or -1121', async () => {
    at(QUERY);
    const tooMany = Array.from({ length: 41 }, () => 'ETHUSDT');
    expect(errorOf(await c.user.get('/openapi/quote/v1/ticker/24hr', { symbols: tooMany.join(',') }))).toEqual([400, -1130]);
    expect(errorOf(await c.user.get('/openapi/quote/v1/ticker/24hr', { symbols: JSON.stringify(tooMany) }))).toEqual([400, -1130]);
    expect(errorOf(await c.user.get('/openapi/quote/v1/ticker/24hr', { symbols: 'ETHUSDT,NOPE' }))).toEqual([400, -1121]);
    expect(errorOf(await c.user.get('/openapi/quote/v1/ticker/24hr', { symbol: 'NOPE' }))).toEqual([400, -1121]);
  });

  it('when the 24 h window holds no trade, then open, high, low and prevClose are the last price and the rest is "0"', async () => {
    const later = '2024-01-17T00:00:00.000Z';
    at(later);
    const answer = await c.user.get('/openapi/quote/v1/ticker/24hr', { symbol: 'ETHUSDT' });
    expect(answer.body).toEqual({
      ...ETH_TICKER,
      time: ms(later),
      openTime: ms('2024-01-16T00:01:00Z'),
      closeTime: ms(later),
      openPrice: '1999',
      highPrice: '1999',
      lowPrice: '1999',
      prevClosePrice: '1999',
      priceChange: '0',
      priceChangePercent: '0',
      weightedAvgPrice: '0',
      volume: '0',
      quoteVolume: '0',
      count: 0,
    });
  });

  it('when A9 is asked, then price is the last trade price ("0" if none), as one object or an array', async () => {
    expect(await get('/openapi/quote/v1/ticker/price', { symbol: 'ETHUSDT' })).toEqual({ symbol: 'ETHUSDT', price: '1999' });
    expect(await get('/openapi/quote/v1/ticker/price', { symbol: 'ethusdt' })).toEqual({ symbol: 'ETHUSDT', price: '1999' });
    const prices = { BTCUSDT: '40500', ETHUSDT: '1999' } as Record<string, string>;
    expect(await get('/openapi/quote/v1/ticker/price')).toEqual(ALL_SYMBOLS.map((symbol) => ({ symbol, price: prices[symbol] ?? '0' })));
    const listed = (await get('/openapi/quote/v1/ticker/price', { symbols: '["BTCUSDT","ETHBTC"]' })) as { symbol: string }[];
    expect([...listed].sort((a, b) => a.symbol.localeCompare(b.symbol))).toEqual([
      { symbol: 'BTCUSDT', price: '40500' },
      { symbol: 'ETHBTC', price: '0' },
    ]);
    expect(await get('/openapi/quote/v1/ticker/price', { symbols: 'BTCUSDT,ETHBTC' })).toEqual(listed);
  });

  it('when trades consumed the book, then depth and bookTicker show what rests and the version counts every change', async () => {
    // ETHUSDT: 4 adds, 2 makers filled + 1 rest, 1 maker filled, 1 maker reduced.
    expect(await get('/openapi/quote/v1/depth', { symbol: 'ETHUSDT' })).toEqual({ time: ms(QUERY), lastUpdateId: 9, bids: [['1999', '1']], asks: [] });
    expect(await get('/openapi/quote/v1/ticker/bookTicker', { symbol: 'BTCUSDT' })).toEqual({
      symbol: 'BTCUSDT',
      bidPrice: '39000',
      bidQty: '0.02',
      askPrice: '0',
      askQty: '0',
      time: ms(QUERY),
    });
  });

  it('when any A5–A10 path is called under /openapi/quote/v1, /openapi/v1 or with a trailing slash, then the answers are the same', async () => {
    const calls: [string, Record<string, string>][] = [
      ['depth', { symbol: 'ETHUSDT' }],
      ['trades', { symbol: 'ETHUSDT' }],
      ['klines', { symbol: 'ETHUSDT', interval: '1m' }],
      ['ticker/24hr', { symbol: 'BTCUSDT' }],
      ['ticker/price', { symbol: 'BTCUSDT' }],
      ['ticker/bookTicker', { symbol: 'BTCUSDT' }],
    ];
    for (const [path, params] of calls) {
      const canonical = await get(`/openapi/quote/v1/${path}`, params);
      const answers = [
        await get(`/openapi/v1/${path}`, params),
        await get(`/openapi/quote/v1/${path}/`, params),
        await get(`/openapi/v1/${path}/`, params),
      ];
      expect({ path, answers }).toEqual({ path, answers: [canonical, canonical, canonical] });
    }
    expect((await c.user.get('/openapi/quote/v1/Depth', { symbol: 'ETHUSDT' })).status).toBe(404);
  });
});
