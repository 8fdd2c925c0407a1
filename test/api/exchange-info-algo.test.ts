/**
 * A3 and the algoOrders option (docs/spot-api.md "Stop and iceberg orders", "Exchange information"):
 * while it is on, `/exchangeInfo` lists MAX_NUM_ALGO_ORDERS and ICEBERG_PARTS on every symbol,
 * BROKER_MAX_NUM_ALGO_ORDERS among the broker filters and `icebergAllowed` true, with the trading
 * config's values; `/exchange` and `/brokerInfo` keep the seed's three filters whatever the option.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, request } from '../support/clients.js';
import { SchemaCheck } from '../support/schema-check.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface Filter {
  filterType: string;
  [member: string]: unknown;
}
interface ExchangeBody {
  serverTime: string;
  brokerFilters: Filter[];
  symbols: { symbol: string; icebergAllowed: boolean; filters: Filter[] }[];
}

const SEED_PATHS = ['/openapi/v1/exchange', '/openapi/v1/brokerInfo', '/openapi/brokerInfo'];

describe('exchange information with the algoOrders option', () => {
  let t: TestServer;
  let admin: AdminClient;
  let check: SchemaCheck;
  /** The answers with the option off, as a new data directory has it. */
  const before = new Map<string, Omit<ExchangeBody, 'serverTime'>>();

  /** A3's answer at `path`, which must satisfy its schema in the OpenAPI document, without the clock. */
  async function read(path: string): Promise<Omit<ExchangeBody, 'serverTime'>> {
    const answer = await request(`${t.url}${path}`);
    expect(answer.status).toBe(200);
    check.check('GET', path, answer.body);
    expect(check.violations).toEqual([]);
    const { serverTime, ...rest } = answer.body as ExchangeBody;
    expect(serverTime).toMatch(/^[0-9]{13}$/);
    return rest;
  }

  async function configure(members: Record<string, unknown>): Promise<void> {
    const answer = await admin.send('PATCH', '/trading/config', members);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject(members);
  }

  beforeAll(async () => {
    t = await startTestServer();
    admin = new AdminClient(t.url, t.adminToken);
    check = await SchemaCheck.load(t.url);
    for (const path of ['/openapi/v1/exchangeInfo', ...SEED_PATHS]) before.set(path, await read(path));
  });
  afterAll(async () => t?.stop());

  it('when the option is off, then /exchangeInfo lists no algo filter and allows no iceberg', () => {
    const info = before.get('/openapi/v1/exchangeInfo')!;
    expect(info.symbols.length).toBeGreaterThan(0);
    for (const symbol of info.symbols) {
      expect(symbol.icebergAllowed).toBe(false);
      expect(symbol.filters.map((f) => f.filterType)).toEqual(['PRICE_FILTER', 'LOT_SIZE', 'MIN_NOTIONAL', 'NOTIONAL', 'MAX_NUM_ORDERS']);
    }
    expect(info.brokerFilters).toEqual([{ filterType: 'BROKER_MAX_NUM_ORDERS', limit: 1000 }]);
  });

  it('when the option is turned on, then every symbol at /exchangeInfo lists MAX_NUM_ALGO_ORDERS and ICEBERG_PARTS, the broker filters BROKER_MAX_NUM_ALGO_ORDERS, and icebergAllowed is true', async () => {
    await configure({ algoOrders: true });
    const info = await read('/openapi/v1/exchangeInfo');
    const off = before.get('/openapi/v1/exchangeInfo')!;
    expect(info.symbols.map((s) => s.symbol)).toEqual(off.symbols.map((s) => s.symbol));
    for (const [index, symbol] of info.symbols.entries()) {
      expect(symbol).toEqual({
        ...off.symbols[index],
        icebergAllowed: true,
        filters: [...off.symbols[index]!.filters, { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 5 }, { filterType: 'ICEBERG_PARTS', limit: 10 }],
      });
    }
    expect(info.brokerFilters).toEqual([
      { filterType: 'BROKER_MAX_NUM_ORDERS', limit: 1000 },
      { filterType: 'BROKER_MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 100 },
    ]);
  });

  it('when the algo limits are changed, then /exchangeInfo shows the new values as integers', async () => {
    await configure({ maxAlgoOrdersPerSymbol: 3, maxAlgoOrdersPerAccount: 7, maxIcebergParts: 4 });
    const info = await read('/openapi/v1/exchangeInfo');
    for (const symbol of info.symbols) {
      expect(symbol.filters.slice(-2)).toEqual([
        { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 3 },
        { filterType: 'ICEBERG_PARTS', limit: 4 },
      ]);
    }
    expect(info.brokerFilters.at(-1)).toEqual({ filterType: 'BROKER_MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 7 });
  });

  it.each(SEED_PATHS)('when the option is on, then %s is exactly as with it off: three filters, icebergAllowed false', async (path) => {
    expect(await read(path)).toEqual(before.get(path));
  });

  it('when the option is turned off again, then /exchangeInfo is as before it was on', async () => {
    await configure({ algoOrders: false });
    expect(await read('/openapi/v1/exchangeInfo')).toEqual(before.get('/openapi/v1/exchangeInfo'));
  });
});
