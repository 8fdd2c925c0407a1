/**
 * Real-client conformance (docs/spot-api.md "Compatibility"): the npm `ccxt` package's `coinsph` class, pinned at 4.5.84,
 * pointed at Bourse. Every value ccxt reports is checked against what Bourse itself answers.
 *
 * Story on BTCUSDT (fees 0.001): the demo merchant rests asks 0.01 @ 30000.5 and 0.05 @ 30010, bids
 * 0.01 @ 29990 and 0.05 @ 29980; the demo user then buys 0.004 @ 30000.5 and sells 0.002 @ 29990,
 * so the market has two trades before ccxt connects. The tests run in order on that one book; near
 * the end the operator turns the algoOrders option on and coinsph places and cancels stop-limit orders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidOrder, type Str } from 'ccxt';
import { BourseCoinsph } from '../support/ccxt.js';
import { AdminClient, SpotClient, type HttpAnswer } from '../support/clients.js';
import { CORE_THREADS, startTestServer, type TestServer } from '../support/server.js';

interface OrderRecord {
  orderId: string;
  clientOrderId: string;
  symbol: string;
  price: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  status: string;
  timeInForce: string;
  type: string;
  side: string;
  stopPrice: string;
  isWorking: boolean;
  time: string;
}

interface Balance {
  asset: string;
  free: string;
  locked: string;
  total: string;
}

interface MyTrade {
  id: string;
  orderId: string;
  price: string;
  qty: string;
  quoteQty: string;
  commission: string;
  commissionAsset: string;
  time: string;
  isBuyer: boolean;
}

interface PublicTrade {
  id: string;
  price: string;
  qty: string;
  time: number;
  isBuyerMaker: boolean;
}

type Kline = [number, string, string, string, string, string, number, string, number, string, string];

interface Ticker24h {
  closeTime: number;
  bidPrice: string;
  bidQty: string;
  askPrice: string;
  askQty: string;
  lastPrice: string;
  openPrice: string;
  highPrice: string;
  lowPrice: string;
  prevClosePrice: string;
  priceChange: string;
  priceChangePercent: string;
  weightedAvgPrice: string;
  volume: string;
  quoteVolume: string;
}

interface ExchangeInfo {
  symbols: { symbol: string }[];
}

const SYMBOL = 'BTC/USDT';

function ok<T>(answer: HttpAnswer): T {
  expect(answer.status, answer.text).toBe(200);
  return answer.body as T;
}

/** ccxt types every id as possibly undefined; an order Bourse accepted always has one. */
function idOf(order: { id: Str }): string {
  if (order.id === undefined) throw new Error('ccxt returned an order without an id');
  return order.id;
}

/** ccxt reports amounts as JS numbers; Bourse's decimal strings are compared through the same conversion. */
function num(decimal: string): number {
  return Number(decimal);
}

describe.each(CORE_THREADS)('ccxt coinsph with its key header renamed to X-BH-APIKEY (core thread %s)', (coreThread) => {
  let t: TestServer;
  let ex: BourseCoinsph;
  let user: SpotClient;
  let merchant: SpotClient;

  const place = async (client: SpotClient, side: 'BUY' | 'SELL', quantity: string, price: string): Promise<OrderRecord> =>
    ok<OrderRecord>(await client.signed('POST', '/openapi/v1/order', { symbol: 'BTCUSDT', side, type: 'LIMIT', quantity, price }));
  const bourseOrder = async (orderId: string): Promise<OrderRecord> => ok<OrderRecord>(await user.signed('GET', '/openapi/v1/order', { orderId }));
  const bourseBalances = async (client: SpotClient): Promise<Balance[]> =>
    ok<{ balances: Balance[] }>(await client.signed('GET', '/openapi/v1/account')).balances;

  beforeAll(async () => {
    t = await startTestServer({ BOURSE_CORE_THREAD: coreThread });
    user = new SpotClient(t.url, t.demo.apiKey, t.demo.secretKey);
    merchant = new SpotClient(t.url, t.demo.merchantApiKey, t.demo.merchantSecretKey);
    ex = new BourseCoinsph(t.url, t.demo.apiKey, t.demo.secretKey, 'X-BH-APIKEY');
    await place(merchant, 'SELL', '0.01', '30000.5');
    await place(merchant, 'SELL', '0.05', '30010');
    await place(merchant, 'BUY', '0.01', '29990');
    await place(merchant, 'BUY', '0.05', '29980');
    await place(user, 'BUY', '0.004', '30000.5');
    await place(user, 'SELL', '0.002', '29990');
  });
  afterAll(async () => t.stop());

  it('when coinsph loads markets with its credentials set, then every Bourse symbol is a market and BTC/USDT has the docs/operating.md "Demo data" precision and limits', async () => {
    const markets = await ex.loadMarkets();
    const info = ok<ExchangeInfo>(await user.get('/openapi/v1/exchangeInfo'));
    expect(Object.keys(markets).map((symbol) => markets[symbol]?.id).sort()).toEqual(info.symbols.map((s) => s.symbol).sort());
    const btc = markets[SYMBOL];
    if (btc === undefined) throw new Error(`${SYMBOL} is not among the markets`);
    expect({ id: btc.id, base: btc.base, quote: btc.quote, active: btc.active, spot: btc.spot }).toEqual({
      id: 'BTCUSDT',
      base: 'BTC',
      quote: 'USDT',
      active: true,
      spot: true,
    });
    expect(btc.precision).toEqual({ amount: 0.000001, price: 0.01 });
    expect(btc.limits.amount).toEqual({ min: 0.000001, max: 1000 });
    expect(btc.limits.price).toEqual({ min: 0.01, max: 10000000 });
    expect(btc.limits.cost?.min).toBe(1);
  });

  it('when coinsph asks for the server time and status, then it gets Bourse clock and "ok"', async () => {
    const before = Date.now();
    const serverTime = await ex.fetchTime();
    expect(serverTime).toBeGreaterThanOrEqual(before);
    expect(serverTime).toBeLessThanOrEqual(Date.now());
    expect((await ex.fetchStatus()).status).toBe('ok');
  });

  it('when coinsph fetches the BTC/USDT ticker, then it reads Bourse 24 h figures and best levels', async () => {
    const ticker = await ex.fetchTicker(SYMBOL);
    const direct = ok<Ticker24h>(await user.get('/openapi/quote/v1/ticker/24hr', { symbol: 'BTCUSDT' }));
    expect(ticker).toMatchObject({
      symbol: SYMBOL,
      last: 29990,
      open: 30000.5,
      high: 30000.5,
      low: 29990,
      bid: 29990,
      bidVolume: 0.008,
      ask: 30000.5,
      askVolume: 0.006,
      vwap: 29997,
      change: -10.5,
      percentage: -0.03,
      baseVolume: 0.006,
      quoteVolume: 179.982,
    });
    expect(ticker).toMatchObject({
      last: num(direct.lastPrice),
      open: num(direct.openPrice),
      bid: num(direct.bidPrice),
      ask: num(direct.askPrice),
      vwap: num(direct.weightedAvgPrice),
      baseVolume: num(direct.volume),
      quoteVolume: num(direct.quoteVolume),
    });
    expect(direct.priceChangePercent).toBe('-0.0003');
    expect(ticker.timestamp).toBeGreaterThan(0);
  });

  it('when coinsph fetches tickers for a list of symbols, then Bourse answers exactly those, sent as a JSON array', async () => {
    const tickers = await ex.fetchTickers([SYMBOL, 'ETH/USDT']);
    expect(ex.lastSent()?.url).toContain('symbols=%5B"BTCUSDT","ETHUSDT"%5D');
    expect(Object.keys(tickers).sort()).toEqual(['BTC/USDT', 'ETH/USDT']);
    expect(tickers[SYMBOL]).toMatchObject({ last: 29990, bid: 29990, ask: 30000.5, baseVolume: 0.006 });
    // ETH/USDT never traded: Bourse writes "0" for every undefined figure (A8).
    expect(tickers['ETH/USDT']).toMatchObject({ baseVolume: 0, quoteVolume: 0 });
    expect(tickers['ETH/USDT'].info).toMatchObject({ lastPrice: '0', bidPrice: '0', askPrice: '0' });
  });

  it('when coinsph fetches the order book, then it holds Bourse levels and lastUpdateId as nonce', async () => {
    const book = await ex.fetchOrderBook(SYMBOL, 10);
    const direct = ok<{ lastUpdateId: number; bids: [string, string][]; asks: [string, string][] }>(
      await user.get('/openapi/quote/v1/depth', { symbol: 'BTCUSDT', limit: 10 }),
    );
    expect(book.bids).toEqual([
      [29990, 0.008],
      [29980, 0.05],
    ]);
    expect(book.asks).toEqual([
      [30000.5, 0.006],
      [30010, 0.05],
    ]);
    expect(book.bids).toEqual(direct.bids.map(([p, q]) => [num(p), num(q)]));
    expect(book.asks).toEqual(direct.asks.map(([p, q]) => [num(p), num(q)]));
    expect(book.nonce).toBe(direct.lastUpdateId);
  });

  it('when coinsph fetches public trades, then it lists Bourse trades, with sides inverted as docs/spot-api.md "Compatibility" item 11 accepts', async () => {
    const trades = await ex.fetchTrades(SYMBOL);
    const direct = ok<PublicTrade[]>(await user.get('/openapi/quote/v1/trades', { symbol: 'BTCUSDT' }));
    expect(trades.map((tr) => ({ id: tr.id, price: tr.price, amount: tr.amount, timestamp: tr.timestamp }))).toEqual(
      direct.map((d) => ({ id: d.id, price: num(d.price), amount: num(d.qty), timestamp: d.time })),
    );
    expect(trades.map((tr) => [tr.price, tr.amount])).toEqual([
      [30000.5, 0.004],
      [29990, 0.002],
    ]);
    // The first trade's taker bought (isBuyerMaker false); coinsph reads the flag as "is buyer".
    expect(direct.map((d) => d.isBuyerMaker)).toEqual([false, true]);
    expect(trades.map((tr) => tr.side)).toEqual(['sell', 'buy']);
  });

  it('when coinsph fetches 1m candles, then they are Bourse klines and hold both trades', async () => {
    const candles = await ex.fetchOHLCV(SYMBOL, '1m');
    const direct = ok<Kline[]>(await user.get('/openapi/quote/v1/klines', { symbol: 'BTCUSDT', interval: '1m', limit: 1000 }));
    expect(candles).toEqual(direct.map((k) => [k[0], num(k[1]), num(k[2]), num(k[3]), num(k[4]), num(k[5])]));
    // The two trades may straddle a minute boundary: check the span, not the bar count.
    expect(candles[0][1]).toBe(30000.5);
    expect(candles.at(-1)?.[4]).toBe(29990);
    expect(direct.reduce((sum, k) => sum + k[8], 0)).toBe(2);
  });

  it('when coinsph fetches the balance, then free, used and total equal A19 for every asset', async () => {
    const balance = await ex.fetchBalance();
    expect(balance.BTC).toEqual({ free: 10.001996, used: 0, total: 10.001996 });
    expect(balance.USDT).toEqual({ free: 999939.91802, used: 0, total: 999939.91802 });
    const direct = await bourseBalances(user);
    for (const b of direct) expect(balance[b.asset], b.asset).toEqual({ free: num(b.free), used: num(b.locked), total: num(b.total) });
  });

  let restingId = '';

  it('when coinsph places a limit buy below the ask, then it rests open as Bourse records it', async () => {
    const order = await ex.createOrder(SYMBOL, 'limit', 'buy', 0.01, 29000);
    expect(ex.lastSent()?.url).toContain('price=29000&quantity=0.01&timeInForce=GTC&newOrderRespType=FULL');
    restingId = idOf(order);
    const direct = await bourseOrder(idOf(order));
    expect(direct).toMatchObject({ status: 'NEW', price: '29000', origQty: '0.01', executedQty: '0', type: 'LIMIT', side: 'BUY', timeInForce: 'GTC' });
    expect(order).toMatchObject({
      id: direct.orderId,
      clientOrderId: direct.clientOrderId,
      timestamp: num(direct.time),
      status: 'open',
      symbol: SYMBOL,
      type: 'limit',
      side: 'buy',
      timeInForce: 'GTC',
      price: 29000,
      amount: 0.01,
      filled: 0,
      remaining: 0.01,
      cost: 0,
      trades: [],
    });
    expect(await ex.fetchOrder(idOf(order))).toMatchObject({ id: order.id, status: 'open', price: 29000, amount: 0.01, filled: 0 });
    expect((await ex.fetchOpenOrders(SYMBOL)).map((o) => o.id)).toEqual([order.id]);
    expect((await ex.fetchBalance()).USDT).toEqual({ free: 999649.91802, used: 290, total: 999939.91802 });
  });

  it('when coinsph cancels the resting order, then Bourse cancels it and unlocks its funds', async () => {
    const canceled = await ex.cancelOrder(restingId, SYMBOL);
    expect(canceled).toMatchObject({ id: restingId, status: 'canceled', filled: 0, amount: 0.01 });
    expect((await bourseOrder(restingId)).status).toBe('CANCELED');
    expect(await ex.fetchOpenOrders(SYMBOL)).toEqual([]);
    expect((await ex.fetchBalance()).USDT).toEqual({ free: 999939.91802, used: 0, total: 999939.91802 });
  });

  let crossingId = '';

  it('when coinsph places a limit buy through the ask, then it fills at the resting prices with Bourse fills', async () => {
    const order = await ex.createOrder(SYMBOL, 'limit', 'buy', 0.008, 30010);
    crossingId = idOf(order);
    expect(order).toMatchObject({ status: 'closed', amount: 0.008, filled: 0.008, remaining: 0, cost: 240.023, average: 30002.875 });
    expect(order.trades.map((tr) => [tr.price, tr.amount, tr.fee?.cost, tr.fee?.currency])).toEqual([
      [30000.5, 0.006, 0.000006, 'BTC'],
      [30010, 0.002, 0.000002, 'BTC'],
    ]);
    expect(await bourseOrder(idOf(order))).toMatchObject({ status: 'FILLED', executedQty: '0.008', cummulativeQuoteQty: '240.023' });
    expect(await ex.fetchOrder(idOf(order))).toMatchObject({ id: order.id, status: 'closed', filled: 0.008, cost: 240.023 });
  });

  it('when coinsph fetches its trades, then they are Bourse myTrades with fees and sides', async () => {
    const trades = await ex.fetchMyTrades(SYMBOL);
    const direct = ok<MyTrade[]>(await user.signed('GET', '/openapi/v1/myTrades', { symbol: 'BTCUSDT' }));
    const expected = [...direct]
      .sort((a, b) => num(a.id) - num(b.id))
      .map((d) => ({
        id: d.id,
        order: d.orderId,
        timestamp: num(d.time),
        side: d.isBuyer ? 'buy' : 'sell',
        price: num(d.price),
        amount: num(d.qty),
        cost: num(d.quoteQty),
        fee: { cost: num(d.commission), currency: d.commissionAsset },
      }));
    expect(trades.map((tr) => ({ id: tr.id, order: tr.order, timestamp: tr.timestamp, side: tr.side, price: tr.price, amount: tr.amount, cost: tr.cost, fee: tr.fee }))).toEqual(expected);
    expect(trades.map((tr) => [tr.side, tr.price, tr.amount, tr.cost, tr.fee?.cost, tr.fee?.currency])).toEqual([
      ['buy', 30000.5, 0.004, 120.002, 0.000004, 'BTC'],
      ['sell', 29990, 0.002, 59.98, 0.05998, 'USDT'],
      ['buy', 30000.5, 0.006, 180.003, 0.000006, 'BTC'],
      ['buy', 30010, 0.002, 60.02, 0.000002, 'BTC'],
    ]);
    const ofOrder = await ex.fetchOrderTrades(crossingId, SYMBOL);
    expect(ofOrder.map((tr) => tr.id)).toEqual(trades.slice(2).map((tr) => tr.id));
  });

  // Each spends 30.01 USDT at the 30010 ask: exactly 0.001 BTC, nothing left that could buy a step.
  const marketBuys: [string, (client: BourseCoinsph) => ReturnType<BourseCoinsph['createOrder']>][] = [
    ['createMarketBuyOrderWithCost', (c) => c.createMarketBuyOrderWithCost(SYMBOL, 30.01)],
    ['the cost parameter', (c) => c.createOrder(SYMBOL, 'market', 'buy', 0, undefined, { cost: 30.01 })],
    ['amount times price (createMarketBuyOrderRequiresPrice)', (c) => c.createOrder(SYMBOL, 'market', 'buy', 0.001, 30010)],
    ['the quoteOrderQty parameter', (c) => c.createOrder(SYMBOL, 'market', 'buy', 0, undefined, { quoteOrderQty: 30.01 })],
    [
      'the amount as cost (createMarketBuyOrderRequiresPrice false)',
      (c) => c.createOrder(SYMBOL, 'market', 'buy', 30.01, undefined, { createMarketBuyOrderRequiresPrice: false }),
    ],
  ];

  it.each(marketBuys)('when coinsph buys at market by cost through %s, then Bourse spends exactly 30.01 USDT', async (_how, buy) => {
    const order = await buy(ex);
    expect(ex.lastSent()?.url).toContain('type=MARKET&side=BUY&quoteOrderQty=30.01&');
    expect(order).toMatchObject({ status: 'closed', type: 'market', side: 'buy', filled: 0.001, cost: 30.01, average: 30010 });
    expect(await bourseOrder(idOf(order))).toMatchObject({ status: 'FILLED', type: 'MARKET', origQty: '30.01', executedQty: '0.001', cummulativeQuoteQty: '30.01' });
  });

  it('when coinsph sells at market by amount, then it fills at the best bid', async () => {
    const order = await ex.createOrder(SYMBOL, 'market', 'sell', 0.002);
    expect(ex.lastSent()?.url).toContain('type=MARKET&side=SELL&quantity=0.002&');
    expect(order).toMatchObject({ status: 'closed', amount: 0.002, filled: 0.002, cost: 59.98, average: 29990 });
    expect(order.trades.map((tr) => [tr.price, tr.amount, tr.fee?.cost, tr.fee?.currency])).toEqual([[29990, 0.002, 0.05998, 'USDT']]);
    expect(await bourseOrder(idOf(order))).toMatchObject({ status: 'FILLED', executedQty: '0.002', cummulativeQuoteQty: '59.98' });
  });

  it('when coinsph names an order by its client order id, then Bourse finds and cancels it without a symbol', async () => {
    const order = await ex.createOrder(SYMBOL, 'limit', 'sell', 0.001, 35000, { newClientOrderId: 'ccxt-rest-1' });
    expect(order).toMatchObject({ clientOrderId: 'ccxt-rest-1', status: 'open' });
    expect(await ex.fetchOrder('', undefined, { clientOrderId: 'ccxt-rest-1' })).toMatchObject({ id: order.id, status: 'open' });
    expect(ex.lastSent()?.url).toContain('origClientOrderId=ccxt-rest-1&');
    expect(await ex.cancelOrder('', undefined, { clientOrderId: 'ccxt-rest-1' })).toMatchObject({ id: order.id, status: 'canceled' });
    expect((await bourseOrder(idOf(order))).status).toBe('CANCELED');
  });

  it('when coinsph cancels all orders of BTC/USDT, then Bourse cancels every open one and returns them', async () => {
    const first = await ex.createOrder(SYMBOL, 'limit', 'buy', 0.001, 28000);
    const second = await ex.createOrder(SYMBOL, 'limit', 'buy', 0.002, 28001);
    const canceled = await ex.cancelAllOrders(SYMBOL);
    expect(ex.lastSent()?.method).toBe('DELETE');
    expect(ex.lastSent()?.url).toContain('/openapi/v1/openOrders?symbol=BTCUSDT&');
    expect(canceled.map((o) => [o.id, o.status, o.price, o.amount])).toEqual([
      [first.id, 'canceled', 28000, 0.001],
      [second.id, 'canceled', 28001, 0.002],
    ]);
    expect(await ex.fetchOpenOrders(SYMBOL)).toEqual([]);
    expect((await bourseOrder(idOf(second))).status).toBe('CANCELED');
  });

  it('when coinsph fetches closed orders, then they are Bourse history orders', async () => {
    const closed = await ex.fetchClosedOrders(SYMBOL);
    const direct = ok<OrderRecord[]>(await user.signed('GET', '/openapi/v1/historyOrders', { symbol: 'BTCUSDT' }));
    expect(closed.map((o) => [o.id, o.status, o.filled, o.cost])).toEqual(
      direct.map((d) => [d.orderId, d.status === 'FILLED' ? 'closed' : 'canceled', num(d.executedQty), num(d.cummulativeQuoteQty)]),
    );
    expect(closed.map((o) => o.status)).toEqual([
      'closed', // 0.004 @ 30000.5 (set-up)
      'closed', // 0.002 @ 29990 (set-up)
      'canceled',
      'closed',
      ...marketBuys.map(() => 'closed'),
      'closed',
      'canceled',
      'canceled',
      'canceled',
    ]);
  });

  // coinsph sends a stop type and its stopPrice as they are named, and maps its lower-case type names and a triggerPrice param to them.
  // (ccxt's unified createStopLimitOrder is no way in: it calls createOrder with type 'limit', for which coinsph drops the stopPrice.)
  const stopLimitSells: [string, (client: BourseCoinsph) => ReturnType<BourseCoinsph['createOrder']>][] = [
    ["'STOP_LOSS_LIMIT' with the stopPrice param", (c) => c.createOrder(SYMBOL, 'STOP_LOSS_LIMIT', 'sell', 0.001, 28900, { stopPrice: 29000 })],
    ["'stop_loss_limit' with the triggerPrice param", (c) => c.createOrder(SYMBOL, 'stop_loss_limit', 'sell', 0.001, 28900, { triggerPrice: 29000 })],
  ];

  it('when the operator turns the algoOrders option on, then coinsph reloads BTC/USDT as before from an exchangeInfo that lists the algo filters', async () => {
    const config = ok<{ algoOrders: boolean }>(await new AdminClient(t.url, t.adminToken).send('PATCH', '/trading/config', { algoOrders: true }));
    expect(config.algoOrders).toBe(true);
    const btc = (await ex.loadMarkets(true))[SYMBOL];
    expect([btc?.precision, btc?.limits.amount, btc?.limits.price, btc?.limits.cost?.min]).toEqual([{ amount: 0.000001, price: 0.01 }, { min: 0.000001, max: 1000 }, { min: 0.01, max: 10000000 }, 1]);
  });

  it.each(stopLimitSells)(
    'when coinsph places a stop-limit sell below the last price as %s, then it waits open with its trigger price and its lock until coinsph cancels it',
    async (_how, create) => {
      const btc = async (): Promise<Balance | undefined> => (await bourseBalances(user)).find((b) => b.asset === 'BTC');
      const before = await btc();
      expect(before?.locked).toBe('0');
      const order = await create(ex);
      // The last price is 29990 (the market sell above): a SELL stop-loss at 29000 waits.
      expect(ex.lastSent()?.url).toContain('type=STOP_LOSS_LIMIT&side=SELL&price=28900&quantity=0.001&timeInForce=GTC&stopPrice=29000&newOrderRespType=FULL&');
      const direct = await bourseOrder(idOf(order));
      expect(direct).toMatchObject({ status: 'NEW', type: 'STOP_LOSS_LIMIT', side: 'SELL', price: '28900', origQty: '0.001', stopPrice: '29000', isWorking: false });
      // coinsph reads a stop-limit type as 'limit' and stopPrice as triggerPrice (and its deprecated stopPrice).
      expect(order).toMatchObject({ id: direct.orderId, status: 'open', type: 'limit', side: 'sell', timeInForce: 'GTC', price: 28900, triggerPrice: 29000, stopPrice: 29000, amount: 0.001, filled: 0, remaining: 0.001 });
      expect(order.info).toMatchObject({ type: 'STOP_LOSS_LIMIT', stopPrice: '29000', isWorking: false });
      expect(await ex.fetchOrder(idOf(order))).toMatchObject({ id: order.id, status: 'open', triggerPrice: 29000 });
      expect((await ex.fetchOpenOrders(SYMBOL)).map((o) => [o.id, o.status, o.triggerPrice])).toEqual([[order.id, 'open', 29000]]);
      const locking = await btc();
      expect(locking).toMatchObject({ locked: '0.001', total: before?.total });
      expect((await ex.fetchBalance()).BTC).toEqual({ free: num(locking?.free ?? ''), used: 0.001, total: num(before?.total ?? '') });

      expect(await ex.cancelOrder(idOf(order), SYMBOL)).toMatchObject({ id: order.id, status: 'canceled', filled: 0, triggerPrice: 29000 });
      expect(await bourseOrder(idOf(order))).toMatchObject({ status: 'CANCELED', stopPrice: '29000' });
      expect(await ex.fetchOpenOrders(SYMBOL)).toEqual([]);
      // A stop on the side that would trigger at once is -2010, which coinsph raises as InvalidOrder; it locks nothing.
      const refused: unknown = await ex.createOrder(SYMBOL, 'STOP_LOSS_LIMIT', 'sell', 0.001, 30500, { stopPrice: 30000 }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(InvalidOrder);
      expect(String(refused)).toContain('Order would trigger immediately.');
      expect(await btc()).toEqual(before);
      expect((await ex.fetchBalance()).BTC).toMatchObject({ used: 0 });
    },
  );

  it('when the story is over, then coinsph balance still equals A19 and every private call carried X-BH-APIKEY', async () => {
    const balance = await ex.fetchBalance();
    for (const b of await bourseBalances(user)) expect(balance[b.asset], b.asset).toEqual({ free: num(b.free), used: num(b.locked), total: num(b.total) });
    const signed = ex.sent.filter((r) => r.url.includes('signature='));
    expect(signed.length).toBeGreaterThan(0);
    expect(signed.every((r) => Object.keys(r.headers).join() === 'X-BH-APIKEY' && r.headers['X-BH-APIKEY'] === t.demo.apiKey)).toBe(true);
  });
});

describe('ccxt coinsph unmodified, with its own X-COINS-APIKEY header', () => {
  let t: TestServer;
  let ex: BourseCoinsph;
  let merchant: SpotClient;

  beforeAll(async () => {
    t = await startTestServer();
    merchant = new SpotClient(t.url, t.demo.merchantApiKey, t.demo.merchantSecretKey);
    ex = new BourseCoinsph(t.url, t.demo.merchantApiKey, t.demo.merchantSecretKey, 'X-COINS-APIKEY');
  });
  afterAll(async () => t.stop());

  it('when coinsph loads markets and fetches the balance, then it reads the merchant account', async () => {
    await ex.loadMarkets();
    const balance = await ex.fetchBalance();
    expect(ex.lastSent()?.headers).toEqual({ 'X-COINS-APIKEY': t.demo.merchantApiKey });
    expect(balance.BTC).toEqual({ free: 10, used: 0, total: 10 });
    const direct = ok<{ balances: Balance[] }>(await merchant.signed('GET', '/openapi/v1/account')).balances;
    for (const b of direct) expect(balance[b.asset], b.asset).toEqual({ free: num(b.free), used: num(b.locked), total: num(b.total) });
  });

  it('when coinsph places, fetches and cancels an order, then Bourse does each', async () => {
    const order = await ex.createOrder(SYMBOL, 'limit', 'sell', 0.001, 40000);
    expect(order).toMatchObject({ status: 'open', price: 40000, amount: 0.001 });
    expect(await ex.fetchOrder(idOf(order))).toMatchObject({ id: order.id, status: 'open' });
    expect((await ex.fetchOpenOrders(SYMBOL)).map((o) => o.id)).toEqual([order.id]);
    expect(await ex.cancelOrder(idOf(order))).toMatchObject({ id: order.id, status: 'canceled' });
    const direct = ok<OrderRecord>(await merchant.signed('GET', '/openapi/v1/order', { orderId: idOf(order) }));
    expect(direct.status).toBe('CANCELED');
  });
});
