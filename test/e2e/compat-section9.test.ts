/**
 * docs/spot-api.md "Compatibility", one test per numbered compatibility requirement that concerns REST and is served today.
 * Requests are written byte for byte here (the clients' quirks are the point); where ccxt's reading
 * of an answer matters, the real `coinsph` class reads it.
 *
 * Book on BTCUSDT set up by the demo merchant: asks 0.05 @ 30010 and 0.05 @ 30020, bids 0.05 @ 29990
 * and 0.05 @ 29980; the demo user then buys 0.001 @ 30010 (one trade, the taker bought).
 * Tests 1–17 leave that book as they found it; 18, 19 and 21 change server settings and restore them.
 */
import { coinsph } from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/core/errors.js';
import { BourseCoinsph } from '../support/ccxt.js';
import { AdminClient, hmacHex, request, type HttpAnswer } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface Credentials {
  apiKey: string;
  secret: string;
}

type KeyHeaderName = 'X-BH-APIKEY' | 'X-COINS-APIKEY';

interface RawCall {
  /** The raw query, exactly as sent (no leading `?`). */
  query?: string;
  body?: string;
  headers?: Record<string, string>;
}

interface OrderRecord {
  orderId: string;
  clientOrderId: string;
  status: string;
  timeInForce: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  avgPrice: string;
  stopPrice: string;
  time: string;
  transactTime?: string;
  fills?: { price: string; qty: string; commission: string; commissionAsset: string; tradeId: string }[];
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

function ts(): string {
  return `timestamp=${Date.now()}`;
}

function keyHeader(who: Credentials, name: KeyHeaderName = 'X-BH-APIKEY'): Record<string, string> {
  return { [name]: who.apiKey };
}

/** `query` plus its signature over the raw bytes, as every SDK signs a query-only request. */
function signedQuery(who: Credentials, query: string): string {
  return `${query}&signature=${hmacHex(who.secret, query)}`;
}

function codeOf(answer: HttpAnswer): number | undefined {
  const body = answer.body as { code?: number } | undefined;
  return body?.code;
}

/** The ccxt error class coinsph raises for this answer, read by coinsph's own handleErrors. */
function ccxtReading(answer: HttpAnswer): string {
  try {
    new coinsph().handleErrors(answer.status, '', '', 'GET', {}, answer.text, answer.body, {}, undefined);
  } catch (error) {
    return error instanceof Error ? error.name : 'not an Error';
  }
  return 'no error';
}

async function ccxtFailure(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : 'not an Error';
  }
  return 'no error';
}

describe('compatibility requirements (docs/spot-api.md "Compatibility")', () => {
  let t: TestServer;
  let admin: AdminClient;
  let user: Credentials;
  let merchant: Credentials;
  /** A second key of the demo user for the order-heavy tests, so no key nears 20 orders a second. */
  let trader: Credentials;
  /** The demo user's set-up buy, whose one trade item 16 reads (the trader key shares its account). */
  let setupBuy: OrderRecord;

  const call = (method: string, path: string, raw: RawCall = {}): Promise<HttpAnswer> =>
    request(`${t.url}${path}${raw.query === undefined ? '' : `?${raw.query}`}`, { method, headers: raw.headers, body: raw.body, redirect: 'manual' });
  const signed = (who: Credentials, method: string, path: string, params: string, header: KeyHeaderName = 'X-BH-APIKEY'): Promise<HttpAnswer> =>
    call(method, path, { query: signedQuery(who, params ? `${params}&${ts()}` : ts()), headers: keyHeader(who, header) });
  const ok = <T>(answer: HttpAnswer): T => {
    expect(answer.status, answer.text).toBe(200);
    return answer.body as T;
  };
  const newKey = async (userId: string): Promise<Credentials> => {
    const created = ok<{ apiKey: string; secretKey: string }>(await admin.send('POST', `/users/${userId}/api-keys`, {}));
    return { apiKey: created.apiKey, secret: created.secretKey };
  };
  const limitOrder = (who: Credentials, side: string, quantity: string, price: string, extra = ''): Promise<HttpAnswer> =>
    signed(who, 'POST', '/openapi/v1/order', `symbol=BTCUSDT&side=${side}&type=LIMIT&quantity=${quantity}&price=${price}${extra}`);
  const patchConfig = async (values: Record<string, number>): Promise<void> => {
    ok(await admin.send('PATCH', '/trading/config', values));
  };

  beforeAll(async () => {
    t = await startTestServer();
    admin = new AdminClient(t.url, t.adminToken);
    user = { apiKey: t.demo.apiKey, secret: t.demo.secretKey };
    merchant = { apiKey: t.demo.merchantApiKey, secret: t.demo.merchantSecretKey };
    trader = await newKey(t.demo.userId);
    for (const [side, price] of [
      ['SELL', '30010'],
      ['SELL', '30020'],
      ['BUY', '29990'],
      ['BUY', '29980'],
    ]) {
      ok(await limitOrder(merchant, side, '0.05', price));
    }
    setupBuy = ok<OrderRecord>(await limitOrder(user, 'BUY', '0.001', '30010'));
  });
  afterAll(async () => t.stop());

  it('item 1: when a request succeeds, then its body has no top-level code; when it fails, then it has one and a 400 status, not 401/403', async () => {
    const account = ok<Record<string, unknown>>(await signed(user, 'GET', '/openapi/v1/account', ''));
    expect('code' in account).toBe(false);
    const ping = ok<Record<string, unknown>>(await call('GET', '/openapi/v1/ping'));
    expect(ping).toEqual({});

    const noKey = await call('GET', '/openapi/v1/account', { query: signedQuery(user, ts()) });
    expect([noKey.status, codeOf(noKey)]).toEqual([400, -1002]);
    const unknownKey = await signed({ apiKey: 'A'.repeat(64), secret: user.secret }, 'GET', '/openapi/v1/account', '');
    expect([unknownKey.status, codeOf(unknownKey)]).toEqual([400, -2015]);
    const badSignature = await signed({ apiKey: user.apiKey, secret: 'B'.repeat(64) }, 'GET', '/openapi/v1/account', '');
    expect([badSignature.status, codeOf(badSignature)]).toEqual([400, -1022]);
    const unknownPath = await call('GET', '/openapi/v1/nothing-here');
    expect([unknownPath.status, codeOf(unknownPath)]).toEqual([404, -1000]);
  });

  it('item 2: when a signature covers the raw query with coinsph trailing "&", or is upper-case hex, then it verifies; a re-encoded query does not', async () => {
    const headers = keyHeader(user);
    const coinsphQuery = `${ts()}&`;
    const trailing = await call('GET', '/openapi/v1/account', { query: `${coinsphQuery}&signature=${hmacHex(user.secret, coinsphQuery)}`, headers });
    expect(trailing.status, trailing.text).toBe(200);
    const plain = `${ts()}`;
    const withoutAmp = await call('GET', '/openapi/v1/account', { query: `${plain}&&signature=${hmacHex(user.secret, plain)}`, headers });
    expect(withoutAmp.status, withoutAmp.text).toBe(200);
    const upper = await call('GET', '/openapi/v1/account', { query: `${plain}&signature=${hmacHex(user.secret, plain).toUpperCase()}`, headers });
    expect(upper.status, upper.text).toBe(200);

    // %2D is "-": the signature is over the bytes sent, so it passes and the lookup itself fails.
    const raw = `origClientOrderId=no%2Dsuch&${ts()}`;
    const overRaw = await call('GET', '/openapi/v1/order', { query: `${raw}&signature=${hmacHex(user.secret, raw)}`, headers });
    expect(codeOf(overRaw)).toBe(-2013);
    const overDecoded = await call('GET', '/openapi/v1/order', { query: `${raw}&signature=${hmacHex(user.secret, raw.replace('%2D', '-'))}`, headers });
    expect(codeOf(overDecoded)).toBe(-1022);
  });

  it('item 3: when an order comes all in the query with no body, in a form body holding the signature, or split, then each is placed and a query-only DELETE cancels it', async () => {
    const params = 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.001&price=20000';
    const inQuery = await call('POST', '/openapi/v1/order', { query: signedQuery(trader, `${params}&${ts()}`), headers: keyHeader(trader) });
    const formBody = `${params}&${ts()}`;
    const inBody = await call('POST', '/openapi/v1/order', {
      body: `${formBody}&signature=${hmacHex(trader.secret, formBody)}`,
      headers: { ...keyHeader(trader), ...FORM },
    });
    const splitQuery = 'symbol=BTCUSDT&side=BUY&type=LIMIT';
    const splitBody = `quantity=0.001&price=20000&${ts()}`;
    const split = await call('POST', '/openapi/v1/order', {
      query: splitQuery,
      body: `${splitBody}&signature=${hmacHex(trader.secret, splitQuery + splitBody)}`,
      headers: { ...keyHeader(trader), ...FORM },
    });
    for (const placed of [inQuery, inBody, split]) {
      const order = ok<OrderRecord>(placed);
      expect(order).toMatchObject({ status: 'NEW', origQty: '0.001' });
      const canceled = await signed(trader, 'DELETE', '/openapi/v1/order', `orderId=${order.orderId}`);
      expect(ok<OrderRecord>(canceled).status).toBe('CANCELED');
    }
  });

  it('item 4: when a signed request names its key in X-COINS-APIKEY, then it acts for that key', async () => {
    const viaCoins = ok<{ accountId: string }>(await signed(user, 'GET', '/openapi/v1/account', '', 'X-COINS-APIKEY'));
    const viaBh = ok<{ accountId: string }>(await signed(user, 'GET', '/openapi/v1/account', ''));
    expect(viaCoins.accountId).toBe(t.demo.accountId);
    expect(viaBh.accountId).toBe(t.demo.accountId);
  });

  it('item 5: when a public request carries keys, timestamps and signatures, empty or not, then they are ignored', async () => {
    const bare = ok<{ bids: unknown }>(await call('GET', '/openapi/quote/v1/depth', { query: 'symbol=BTCUSDT' }));
    const empty = await call('GET', '/openapi/quote/v1/depth', { query: 'symbol=BTCUSDT&timestamp=&recvWindow=&signature=', headers: { 'X-BH-APIKEY': '' } });
    const junk = await call('GET', '/openapi/quote/v1/depth', {
      query: 'symbol=BTCUSDT&timestamp=1&recvWindow=999999&signature=zz',
      headers: { 'X-BH-APIKEY': 'not-a-key', 'X-COINS-APIKEY': 'x' },
    });
    expect(ok<{ bids: unknown }>(empty).bids).toEqual(bare.bids);
    expect(ok<{ bids: unknown }>(junk).bids).toEqual(bare.bids);
    const info = await call('GET', '/openapi/v1/exchangeInfo', { query: `${ts()}&signature=00`, headers: keyHeader(user) });
    expect(info.status, info.text).toBe(200);
  });

  it('item 6: when optional parameters are empty, or 0 for ids, times and limits, then they are absent', async () => {
    const trades = ok<{ id: string }[]>(
      await signed(user, 'GET', '/openapi/v1/myTrades', 'symbol=BTCUSDT&orderId=&startTime=0&endTime=0&fromId=0&toId=0&limit=0'),
    );
    expect(trades.map((tr) => tr.id)).toEqual(['1']);
    const open = ok<OrderRecord[]>(await signed(user, 'GET', '/openapi/v1/openOrders', 'symbol=&orderId=0&limit=0&&side='));
    expect(open).toEqual([]);
    const flows = ok<unknown[]>(await signed(user, 'GET', '/openapi/v1/balance_flow', 'tokenId=&fromFlowId=&endFlowId=0&startTime=0&endTime=0&limit=0'));
    expect(flows.length).toBeGreaterThan(0);
    const placed = ok<OrderRecord>(await limitOrder(user, 'BUY', '0.001', '20000', '&newClientOrderId=absent-6'));
    const found = ok<OrderRecord>(await signed(user, 'GET', '/openapi/v1/order', 'orderId=&origClientOrderId=absent-6'));
    expect(found.orderId).toBe(placed.orderId);
    ok(await signed(user, 'DELETE', '/openapi/v1/order', `orderId=${placed.orderId}&clientOrderId=`));
  });

  it('item 7: when exchange information is read at /exchange, /brokerInfo or /exchangeInfo, then symbols are TRADING with tick-string precisions, REQUEST_WEIGHT, and the filters of each path', async () => {
    const basic = ['PRICE_FILTER', 'LOT_SIZE', 'MIN_NOTIONAL'];
    for (const [path, filterTypes] of [
      ['/openapi/v1/exchange', basic],
      ['/openapi/v1/brokerInfo', basic],
      ['/openapi/brokerInfo', basic],
      ['/openapi/v1/exchangeInfo', [...basic, 'NOTIONAL', 'MAX_NUM_ORDERS']],
    ] as const) {
      const info = ok<{
        rateLimits: { rateLimitType: string; limit: number }[];
        symbols: { symbol: string; status: string; baseAssetPrecision: string; quotePrecision: string; filters: Record<string, unknown>[] }[];
      }>(await call('GET', path));
      expect(info.rateLimits.find((r) => r.rateLimitType === 'REQUEST_WEIGHT')?.limit, path).toBe(3000);
      const btc = info.symbols.find((s) => s.symbol === 'BTCUSDT');
      expect(btc, path).toMatchObject({ status: 'TRADING', baseAssetPrecision: '0.000001', quotePrecision: '0.01', quoteAssetPrecision: '0.01' });
      expect(btc?.filters.map((f) => f.filterType).sort(), path).toEqual([...filterTypes].sort());
      expect(btc?.filters.find((f) => f.filterType === 'PRICE_FILTER'), path).toEqual({
        filterType: 'PRICE_FILTER',
        minPrice: '0.01',
        maxPrice: '10000000',
        tickSize: '0.01',
      });
      if (path === '/openapi/v1/exchangeInfo') expect(btc?.filters).toContainEqual({ filterType: 'NOTIONAL', minNotional: '1' });
    }
  });

  it('item 8: when market data is read under /openapi/v1 and private data under /openapi/account/v1, then they answer as the canonical paths', async () => {
    for (const [path, query] of [
      ['depth', 'symbol=BTCUSDT'],
      ['trades', 'symbol=BTCUSDT'],
      ['klines', 'symbol=BTCUSDT&interval=1m'],
      ['ticker/price', 'symbol=BTCUSDT'],
      ['ticker/bookTicker', 'symbol=BTCUSDT'],
    ]) {
      const canonical = ok<unknown>(await call('GET', `/openapi/quote/v1/${path}`, { query }));
      const seed = ok<unknown>(await call('GET', `/openapi/v1/${path}`, { query }));
      expect(withoutTime(seed), path).toEqual(withoutTime(canonical));
    }
    const canonical = ok<{ accountId: string; balances: unknown }>(await signed(user, 'GET', '/openapi/v1/account', ''));
    for (const path of ['/openapi/account/v1/account', '/openapi/account']) {
      const alias = ok<{ accountId: string; balances: unknown }>(await signed(user, 'GET', path, ''));
      expect([alias.accountId, alias.balances], path).toEqual([canonical.accountId, canonical.balances]);
    }
  });

  it('item 9: when 24 h tickers are read, then they carry both hbtc and coinsph fields, and symbols may be a JSON array or a comma list', async () => {
    const ticker = ok<Record<string, unknown>>(await call('GET', '/openapi/quote/v1/ticker/24hr', { query: 'symbol=BTCUSDT' }));
    expect(ticker).toMatchObject({
      symbol: 'BTCUSDT',
      bestBidPrice: '29990',
      bestAskPrice: '30010',
      bidPrice: '29990',
      bidQty: '0.05',
      askPrice: '30010',
      askQty: '0.049',
      lastPrice: '30010',
      priceChangePercent: '0',
      volume: '0.001',
      quoteVolume: '30.01',
    });
    expect(typeof ticker.time).toBe('number');
    expect(ticker.closeTime).toBe(ticker.time);
    for (const query of ['symbols=%5B%22BTCUSDT%22,%22ETHUSDT%22%5D', 'symbols=%5B"BTCUSDT","ETHUSDT"%5D', 'symbols=BTCUSDT,ETHUSDT']) {
      const list = ok<{ symbol: string }[]>(await call('GET', '/openapi/quote/v1/ticker/24hr', { query }));
      expect(list.map((x) => x.symbol).sort(), query).toEqual(['BTCUSDT', 'ETHUSDT']);
    }
  });

  it('item 10: when depth and klines are read, then depth has time, lastUpdateId and string levels; klines have 11 elements, numeric times and take limit 1000', async () => {
    const depth = ok<Record<string, unknown>>(await call('GET', '/openapi/quote/v1/depth', { query: 'symbol=BTCUSDT' }));
    expect(typeof depth.time).toBe('number');
    expect(typeof depth.lastUpdateId).toBe('number');
    expect(depth.bids).toEqual([
      ['29990', '0.05'],
      ['29980', '0.05'],
    ]);
    expect(depth.asks).toEqual([
      ['30010', '0.049'],
      ['30020', '0.05'],
    ]);
    const klines = ok<unknown[][]>(await call('GET', '/openapi/quote/v1/klines', { query: 'symbol=BTCUSDT&interval=1m&limit=1000' }));
    expect(klines).toHaveLength(1);
    const bar = klines[0];
    expect(bar).toHaveLength(11);
    expect(bar.map((x) => typeof x)).toEqual(['number', 'string', 'string', 'string', 'string', 'string', 'number', 'string', 'number', 'string', 'string']);
    expect(bar.slice(1, 6)).toEqual(['30010', '30010', '30010', '30010', '0.001']);
    expect(bar[6]).toBe((bar[0] as number) + 59_999);
  });

  it('item 11: when public trades are read, then they carry id, price, qty, time and the literal isBuyerMaker, and coinsph reads them without failing', async () => {
    const trades = ok<Record<string, unknown>[]>(await call('GET', '/openapi/quote/v1/trades', { query: 'symbol=BTCUSDT' }));
    expect(trades).toHaveLength(1);
    expect(Object.keys(trades[0]).sort()).toEqual(['id', 'isBuyerMaker', 'price', 'qty', 'time']);
    expect(trades[0]).toMatchObject({ id: '1', price: '30010', qty: '0.001', isBuyerMaker: false });
    expect(typeof trades[0].time).toBe('number');
    const ex = new BourseCoinsph(t.url, user.apiKey, user.secret, 'X-BH-APIKEY');
    const parsed = ex.parseTrades(await ex.publicGetOpenapiQuoteV1Trades({ symbol: 'BTCUSDT' }));
    expect(parsed.map((tr) => [tr.id, tr.price, tr.amount])).toEqual([['1', 30010, 0.001]]);
  });

  it('item 12: when a LIMIT omits timeInForce, then it is GTC; when a MARKET BUY sends quantity or quoteOrderQty, then that is the quote to spend; newOrderRespType is tolerated', async () => {
    const limit = ok<OrderRecord>(await signed(trader, 'POST', '/openapi/v1/order', 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.001&price=20000&newOrderRespType=ACK'));
    expect(limit).toMatchObject({ status: 'NEW', timeInForce: 'GTC' });
    ok(await signed(trader, 'DELETE', '/openapi/v1/order', `orderId=${limit.orderId}`));
    for (const amount of ['quantity=30.01', 'quoteOrderQty=30.01']) {
      const market = ok<OrderRecord>(await signed(trader, 'POST', '/openapi/v1/order', `symbol=BTCUSDT&side=BUY&type=MARKET&${amount}&newOrderRespType=RESULT`));
      expect(market, amount).toMatchObject({ status: 'FILLED', origQty: '30.01', executedQty: '0.001', cummulativeQuoteQty: '30.01' });
      // Put the bought 0.001 back, so later tests see the set-up book.
      ok(await limitOrder(merchant, 'SELL', '0.001', '30010'));
    }
  });

  it('item 13: when an order is queried or canceled by orderId, origClientOrderId or clientOrderId, then no symbol is needed', async () => {
    const first = ok<OrderRecord>(await limitOrder(trader, 'BUY', '0.001', '20000', '&newClientOrderId=c13-a'));
    for (const id of [`orderId=${first.orderId}`, 'origClientOrderId=c13-a', 'clientOrderId=c13-a']) {
      expect(ok<OrderRecord>(await signed(trader, 'GET', '/openapi/v1/order', id)).orderId, id).toBe(first.orderId);
    }
    expect(ok<OrderRecord>(await signed(trader, 'DELETE', '/openapi/v1/order', 'origClientOrderId=c13-a')).status).toBe('CANCELED');
    const second = ok<OrderRecord>(await limitOrder(trader, 'BUY', '0.001', '20000', '&newClientOrderId=c13-b'));
    const canceled = ok<OrderRecord>(await signed(trader, 'DELETE', '/openapi/v1/order', 'clientOrderId=c13-b'));
    expect([canceled.orderId, canceled.status]).toEqual([second.orderId, 'CANCELED']);
  });

  it('item 14: when an order is created or canceled, then the reply has string ids, time, transactTime, stopPrice "0", avgPrice, cummulativeQuoteQty, and fills on creation', async () => {
    const filled = ok<OrderRecord>(await limitOrder(trader, 'BUY', '0.002', '30010'));
    expect(filled).toMatchObject({ status: 'FILLED', stopPrice: '0', avgPrice: '30010', cummulativeQuoteQty: '60.02', transactTime: filled.time });
    expect([typeof filled.orderId, typeof filled.time]).toEqual(['string', 'string']);
    expect(filled.fills).toEqual([{ price: '30010', qty: '0.002', commission: '0.000002', commissionAsset: 'BTC', tradeId: expect.stringMatching(/^[1-9][0-9]*$/) }]);
    ok(await limitOrder(merchant, 'SELL', '0.002', '30010'));

    const resting = ok<OrderRecord>(await limitOrder(trader, 'BUY', '0.001', '20000'));
    expect(resting).toMatchObject({ fills: [], avgPrice: '0', cummulativeQuoteQty: '0', stopPrice: '0' });
    const canceled = ok<OrderRecord>(await signed(trader, 'DELETE', '/openapi/v1/order', `orderId=${resting.orderId}`));
    expect(canceled.transactTime).toMatch(/^[1-9][0-9]*$/);
    expect(Number(canceled.transactTime)).toBeGreaterThanOrEqual(Number(resting.time));
  });

  it('item 15: when DELETE /openapi/v1/openOrders is sent, then it cancels the open orders of the symbol and returns them', async () => {
    const a = ok<OrderRecord>(await limitOrder(trader, 'BUY', '0.001', '20000'));
    const b = ok<OrderRecord>(await limitOrder(trader, 'SELL', '0.001', '40000'));
    const canceled = ok<OrderRecord[]>(await signed(trader, 'DELETE', '/openapi/v1/openOrders', 'symbol=BTCUSDT'));
    expect(canceled.map((o) => [o.orderId, o.status])).toEqual([
      [a.orderId, 'CANCELED'],
      [b.orderId, 'CANCELED'],
    ]);
    expect(ok<OrderRecord[]>(await signed(trader, 'GET', '/openapi/v1/openOrders', 'symbol=BTCUSDT'))).toEqual([]);
  });

  it('item 16: when myTrades is read, then each trade has the coinsph fields and the SDKs fee fields', async () => {
    const trades = ok<Record<string, unknown>[]>(await signed(user, 'GET', '/openapi/v1/myTrades', `symbol=BTCUSDT&orderId=${setupBuy.orderId}`));
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({
      id: '1',
      symbol: 'BTCUSDT',
      orderId: setupBuy.orderId,
      price: '30010',
      qty: '0.001',
      quoteQty: '30.01',
      commission: '0.000001',
      commissionAsset: 'BTC',
      isBuyer: true,
      isMaker: false,
      fee: { feeTokenId: 'BTC', feeTokenName: 'BTC', fee: '0.000001' },
      feeTokenId: 'BTC',
      feeAmount: '0.000001',
    });
  });

  it('item 17: when balance_flow and subAccount/query are called by GET or POST, or a path ends in "/", then they answer without redirects', async () => {
    for (const path of ['/openapi/v1/balance_flow', '/openapi/v1/subAccount/query']) {
      const byGet = ok<unknown[]>(await signed(user, 'GET', path, ''));
      const byPost = ok<unknown[]>(await signed(user, 'POST', path, ''));
      expect(byPost, path).toEqual(byGet);
      expect(byGet.length, path).toBeGreaterThan(0);
    }
    expect(ok<unknown[]>(await signed(user, 'POST', '/openapi/v1/subAccount/query', ''))).toEqual([
      { accountId: t.demo.accountId, accountName: '', accountType: 1, accountIndex: 0 },
    ]);
    const time = await call('GET', '/openapi/v1/time/');
    expect(time.status, time.text).toBe(200);
    const account = await signed(user, 'GET', '/openapi/v1/account/', '');
    expect(account.status, account.text).toBe(200);
    const depth = await call('GET', '/openapi/quote/v1/depth/', { query: 'symbol=BTCUSDT' });
    expect(depth.status, depth.text).toBe(200);
  });

  it('item 18: when Bourse refuses a request, then coinsph raises the error class the code means', async () => {
    const ex = new BourseCoinsph(t.url, user.apiKey, user.secret, 'X-BH-APIKEY');
    const order = (params: Record<string, string>): Promise<unknown> => ex.privatePostOpenapiV1Order({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', ...params });
    expect(await ccxtFailure(ex.publicGetOpenapiQuoteV1Depth({ symbol: 'NOSUCH' }))).toMatch(/^BadSymbol: .*-1121/);
    expect(await ccxtFailure(ex.privateGetOpenapiV1Order({ orderId: '999999' }))).toMatch(/^OrderNotFound: .*-2013/);
    expect(await ccxtFailure(order({ quantity: '1000', price: '10000' }))).toMatch(/^InsufficientFunds: .*-1131/);
    ok(await limitOrder(user, 'BUY', '0.001', '20000', '&newClientOrderId=dup-18'));
    expect(await ccxtFailure(order({ quantity: '0.001', price: '20000', newClientOrderId: 'dup-18' }))).toMatch(/^DuplicateOrderId: .*-1141/);
    ok(await signed(user, 'DELETE', '/openapi/v1/order', 'origClientOrderId=dup-18'));
    expect(await ccxtFailure(ex.privateDeleteOpenapiV1Order({ origClientOrderId: 'dup-18' }))).toMatch(/^InvalidOrder: .*-1142/);
    expect(await ccxtFailure(order({ quantity: '0.00001', price: '100' }))).toMatch(/^InvalidOrder: .*-1140/);
    expect(await ccxtFailure(order({ quantity: '0.001', price: '20000.001' }))).toMatch(/^InvalidOrder: .*-1134/);
    expect(await ccxtFailure(order({ quantity: '0.001', price: '20000', side: 'SIDEWAYS' }))).toMatch(/^InvalidOrder: .*-1117/);

    const stranger = new BourseCoinsph(t.url, 'C'.repeat(64), user.secret, 'X-BH-APIKEY');
    expect(await ccxtFailure(stranger.privateGetOpenapiV1Account())).toMatch(/^AuthenticationError: .*-2015/);
    const wrongSecret = new BourseCoinsph(t.url, user.apiKey, 'D'.repeat(64), 'X-BH-APIKEY');
    expect(await ccxtFailure(wrongSecret.privateGetOpenapiV1Account())).toMatch(/^BadRequest: .*-1022/);
    const late = new BourseCoinsph(t.url, user.apiKey, user.secret, 'X-BH-APIKEY');
    late.milliseconds = () => Date.now() - 120_000;
    expect(await ccxtFailure(late.privatePostOpenapiV1Order({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '20000' }))).toMatch(
      /^BadRequest: .*-1021/,
    );
    // coinsph cannot send a keyless private request, so its handleErrors reads Bourse's answer directly.
    const keyless = await call('GET', '/openapi/v1/account', { query: signedQuery(user, ts()) });
    expect([codeOf(keyless), ccxtReading(keyless)]).toEqual([-1002, 'AuthenticationError']);

    // A fresh key and limits it exceeds on the first try, so no window edge can make this flaky.
    const limited = await newKey(t.demo.userId);
    const limitedEx = new BourseCoinsph(t.url, limited.apiKey, limited.secret, 'X-BH-APIKEY');
    try {
      await patchConfig({ requestWeightPerMinute: 4, ordersPerDay: 1 });
      expect(await ccxtFailure(limitedEx.privateGetOpenapiV1Account())).toMatch(/^RateLimitExceeded: .*-1003/);
      await patchConfig({ requestWeightPerMinute: 3000 });
      expect(await ccxtFailure(limitedEx.privatePostOpenapiV1Order({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.00001', price: '100' }))).toMatch(
        /-1140/,
      );
      expect(await ccxtFailure(limitedEx.privatePostOpenapiV1Order({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.00001', price: '100' }))).toMatch(
        /^RateLimitExceeded: .*-1015/,
      );
    } finally {
      await patchConfig({ requestWeightPerMinute: 3000, ordersPerDay: 350_000 });
    }
  });

  it('item 19: when coinsph matches phrases in error bodies, then only -1158 reads as OrderImmediatelyFillable and only -2010 names MAX_NUM_ORDERS', async () => {
    const messages = Object.values(ERRORS).map((e) => ({ code: e.code, msg: e.msg }));
    const codesSaying = (phrase: string): number[] => [...new Set(messages.filter((m) => m.msg.includes(phrase)).map((m) => m.code))];
    expect(codesSaying('Order would immediately match and take')).toEqual([-1158]);
    expect(codesSaying('MAX_NUM_ORDERS')).toEqual([-2010]);
    for (const phrase of ['Market is closed', 'Unknown order sent', 'Duplicate order sent', 'not supported for this symbol']) {
      expect(codesSaying(phrase), phrase).toEqual([]);
    }

    const ex = new BourseCoinsph(t.url, merchant.apiKey, merchant.secret, 'X-BH-APIKEY');
    const makerAtAsk = ex.privatePostOpenapiV1Order({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT_MAKER', quantity: '0.001', price: '30010' });
    expect(await ccxtFailure(makerAtAsk)).toMatch(/^OrderImmediatelyFillable: .*-1158/);

    const ethBuy = { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '100' };
    try {
      await patchConfig({ maxOpenOrdersPerSymbol: 1 });
      ok(await signed(merchant, 'POST', '/openapi/v1/order', new URLSearchParams(ethBuy).toString()));
      expect(await ccxtFailure(ex.privatePostOpenapiV1Order(ethBuy))).toMatch(/^InvalidOrder: .*-2010.*MAX_NUM_ORDERS/);
    } finally {
      await patchConfig({ maxOpenOrdersPerSymbol: 200 });
      ok(await signed(merchant, 'DELETE', '/openapi/v1/openOrders', 'symbol=ETHUSDT'));
    }
  });

  it('item 21: when a client goes over its weight, then 429 carries Retry-After; when its IP is banned, then 418 carries Retry-After', async () => {
    const limited = await newKey(t.demo.userId);
    try {
      await patchConfig({ requestWeightPerMinute: 4, banStrikes: 1, banBaseMs: 5_000 });
      const over = await signed(limited, 'GET', '/openapi/v1/account', '');
      expect([over.status, codeOf(over)]).toEqual([429, -1003]);
      const retryAfter = Number(over.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);

      const banned = await call('GET', '/openapi/v1/time');
      expect([banned.status, codeOf(banned)]).toEqual([418, -1003]);
      const banRetry = Number(banned.headers.get('retry-after'));
      expect(banRetry).toBeGreaterThanOrEqual(1);
      expect(banRetry).toBeLessThanOrEqual(5);
    } finally {
      await patchConfig({ requestWeightPerMinute: 3000, banStrikes: 20, banBaseMs: 120_000 });
      const bans = ok<{ ip: string }[]>(await admin.send('GET', '/bans'));
      for (const ban of bans) ok(await admin.send('DELETE', `/bans/${encodeURIComponent(ban.ip)}`));
    }
    const after = await call('GET', '/openapi/v1/time');
    expect(after.status, after.text).toBe(200);
  });
});

/** Market-data answers stamped with the time of the request compare equal without it. */
function withoutTime(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const rest: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  delete rest.time;
  return rest;
}
