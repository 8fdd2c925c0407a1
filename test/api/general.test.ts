import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, request } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The demo catalogue of docs/operating.md "Demo data", by name (byte order), as A3 lists it. */
const DEMO_SYMBOLS = [
  // symbol, base, quote, tickSize, stepSize, minNotional, maxPrice, maxQty
  ['BTCMXN', 'BTC', 'MXN', '0.01', '0.000001', '10', '100000000', '1000'],
  ['BTCUSDT', 'BTC', 'USDT', '0.01', '0.000001', '1', '10000000', '1000'],
  ['ETHBTC', 'ETH', 'BTC', '0.00001', '0.001', '0.0001', '1000', '10000'],
  ['ETHUSDT', 'ETH', 'USDT', '0.01', '0.0001', '1', '1000000', '10000'],
  ['USDTEUR', 'USDT', 'EUR', '0.0001', '0.01', '1', '100', '10000000'],
  ['USDTMXN', 'USDT', 'MXN', '0.0001', '0.01', '10', '10000', '10000000'],
  ['USDTUSD', 'USDT', 'USD', '0.0001', '0.01', '1', '100', '10000000'],
] as const;

const DEMO_TOKENS = [
  { tokenId: 'BTC', tokenName: 'BTC', tokenFullName: 'Bitcoin', allowDeposit: true, allowWithdraw: true, chainTypes: [chain('BTC')] },
  { tokenId: 'ETH', tokenName: 'ETH', tokenFullName: 'Ethereum', allowDeposit: true, allowWithdraw: true, chainTypes: [chain('ETH')] },
  { tokenId: 'EUR', tokenName: 'EUR', tokenFullName: 'Euro', allowDeposit: false, allowWithdraw: false, chainTypes: [] },
  { tokenId: 'MXN', tokenName: 'MXN', tokenFullName: 'Mexican Peso', allowDeposit: false, allowWithdraw: false, chainTypes: [] },
  { tokenId: 'USD', tokenName: 'USD', tokenFullName: 'US Dollar', allowDeposit: false, allowWithdraw: false, chainTypes: [] },
  {
    tokenId: 'USDT',
    tokenName: 'USDT',
    tokenFullName: 'Tether USD',
    allowDeposit: true,
    allowWithdraw: true,
    chainTypes: [chain('TRC20'), chain('ERC20'), chain('BEP20'), chain('POL')],
  },
];

function chain(chainType: string): Record<string, unknown> {
  return { chainType, allowDeposit: true, allowWithdraw: true };
}

function symbolEntry(row: (typeof DEMO_SYMBOLS)[number], rich: boolean): Record<string, unknown> {
  const [symbol, baseAsset, quoteAsset, tickSize, stepSize, minNotional, maxPrice, maxQty] = row;
  const filters: Record<string, unknown>[] = [
    { filterType: 'PRICE_FILTER', minPrice: tickSize, maxPrice, tickSize },
    { filterType: 'LOT_SIZE', minQty: stepSize, maxQty, stepSize },
    { filterType: 'MIN_NOTIONAL', minNotional },
  ];
  if (rich) filters.push({ filterType: 'NOTIONAL', minNotional }, { filterType: 'MAX_NUM_ORDERS', limit: 200 });
  return {
    symbol,
    symbolName: symbol,
    status: 'TRADING',
    exchangeId: '301',
    baseAsset,
    baseAssetName: baseAsset,
    baseAssetPrecision: stepSize,
    quoteAsset,
    quoteAssetName: quoteAsset,
    quotePrecision: tickSize,
    quoteAssetPrecision: tickSize,
    icebergAllowed: false,
    isAggregate: false,
    allowMargin: false,
    filters,
  };
}

function exchangeBody(rich: boolean): Record<string, unknown> {
  return {
    timezone: 'UTC',
    serverTime: expect.stringMatching(/^[0-9]{13}$/),
    rateLimits: [
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalUnit: 1, limit: 3000 },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalUnit: 1, limit: 20 },
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalUnit: 1, limit: 350000 },
    ],
    brokerFilters: rich ? [{ filterType: 'BROKER_MAX_NUM_ORDERS', limit: 1000 }] : [],
    symbols: DEMO_SYMBOLS.map((row) => symbolEntry(row, rich)),
    options: [],
    contracts: [],
    tokens: DEMO_TOKENS,
  };
}

const PAIRS = DEMO_SYMBOLS.map(([symbol, baseToken, quoteToken]) => ({ symbol, quoteToken, baseToken }));
const UNKNOWN = { code: -1000, msg: 'Unknown path or method.' };

/** Every path of docs/spot-api.md "Paths and aliases" for a group, each also with one trailing `/`. */
function withSlash(paths: readonly string[]): string[] {
  return paths.flatMap((p) => [p, `${p}/`]);
}

describe('general endpoints A1–A4', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t.stop());

  it.each(withSlash(['/openapi/v1/ping', '/openapi/ping', '/openapi/quote/v1/ping']))('when GET %s, then 200 {} as JSON', async (path) => {
    const answer = await request(`${t.url}${path}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.text).toBe('{}');
  });

  it.each(withSlash(['/openapi/v1/time', '/openapi/time', '/openapi/quote/v1/time']))(
    'when GET %s, then serverTime is the server clock as a number',
    async (path) => {
      const before = Date.now();
      const answer = await request(`${t.url}${path}`);
      const after = Date.now();
      expect(answer.status).toBe(200);
      const body = answer.body as { serverTime: number };
      expect(Object.keys(body)).toEqual(['serverTime']);
      expect(typeof body.serverTime).toBe('number');
      expect(body.serverTime).toBeGreaterThanOrEqual(before);
      expect(body.serverTime).toBeLessThanOrEqual(after);
    },
  );

  it.each(withSlash(['/openapi/v1/exchange', '/openapi/v1/brokerInfo', '/openapi/brokerInfo']))(
    'when GET %s, then the seed view lists every demo symbol and token with exactly three filters',
    async (path) => {
      const answer = await request(`${t.url}${path}?type=SPOT`);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(exchangeBody(false));
    },
  );

  it.each(withSlash(['/openapi/v1/exchangeInfo']))('when GET %s, then the rich view adds NOTIONAL, MAX_NUM_ORDERS and BROKER_MAX_NUM_ORDERS', async (path) => {
    const answer = await request(`${t.url}${path}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(exchangeBody(true));
  });

  it('when A3 answers, then serverTime is a string of the server clock', async () => {
    const before = Date.now();
    const body = (await request(`${t.url}/openapi/v1/exchange`)).body as { serverTime: string };
    expect(Number(body.serverTime)).toBeGreaterThanOrEqual(before);
    expect(Number(body.serverTime)).toBeLessThanOrEqual(Date.now());
  });

  it.each(withSlash(['/openapi/v1/pairs', '/openapi/pairs']))('when GET %s, then every TRADING symbol is listed by name', async (path) => {
    const answer = await request(`${t.url}${path}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(PAIRS);
  });

  it.each([
    ['GET', '/openapi/v1/nothing'],
    ['GET', '/openapi/v1/PING'],
    ['GET', '/openapi/v1/ping//'],
    ['GET', '/openapi/v3/ping'],
    ['POST', '/'],
    ['POST', '/openapi/v1/ping'],
    ['DELETE', '/openapi/v1/time'],
    ['PUT', '/openapi/v1/exchange'],
    ['POST', '/openapi/v1/pairs'],
    ['PUT', '/openapi/v1/order'],
    ['GET', '/openapi/v1/order/test'],
    ['POST', '/openapi/v1/openOrders'],
  ])('when %s %s, then 404 -1000 without a redirect', async (method, path) => {
    const answer = await request(`${t.url}${path}`, { method, redirect: 'manual' });
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.body).toEqual(UNKNOWN);
  });

  it('when a symbol is halted, then A4 leaves it out and A3 still lists it as HALT', async () => {
    const admin = new AdminClient(t.url, t.adminToken);
    expect((await admin.send('PATCH', '/symbols/ETHBTC', { status: 'HALT' })).status).toBe(200);
    try {
      const pairs = await request(`${t.url}/openapi/v1/pairs`);
      expect(pairs.body).toEqual(PAIRS.filter((p) => p.symbol !== 'ETHBTC'));
      const info = (await request(`${t.url}/openapi/v1/exchange`)).body as { symbols: { symbol: string; status: string }[] };
      expect(info.symbols.map((s) => `${s.symbol}:${s.status}`)).toEqual(
        DEMO_SYMBOLS.map(([symbol]) => `${symbol}:${symbol === 'ETHBTC' ? 'HALT' : 'TRADING'}`),
      );
    } finally {
      await admin.send('PATCH', '/symbols/ETHBTC', { status: 'TRADING' });
    }
  });
});
