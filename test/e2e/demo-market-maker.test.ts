import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDecimal } from '../../src/core/decimal.js';
import { openSecretBox } from '../../src/api/auth/secret-box.js';
import { DEMO_MARKET_MAKER_SEED, DEMO_MARKET_MAKER_SYMBOLS } from '../../src/demo/demo-catalogue.js';
import { findDemoMarketMakerKey } from '../../src/demo/demo-data.js';
import { startDemoMarketMaker, type DemoMarketMaker } from '../../src/demo/market-maker.js';
import type { FetchLike } from '../../src/demo/spot-http-client.js';
import { AdminClient, SpotClient } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

const INTERVAL_MS = 50;
const FILL_DEADLINE_MS = 20_000;

interface Depth {
  lastUpdateId: number;
  bids: [string, string][];
  asks: [string, string][];
}

function atto(text: string): bigint {
  const value = parseDecimal(text);
  if (value === null) throw new Error(`not a decimal: ${text}`);
  return value;
}

function twoSided(depth: Depth): boolean {
  const [bestBid] = depth.bids;
  const [bestAsk] = depth.asks;
  return depth.bids.length >= 5 && depth.asks.length >= 5 && bestBid !== undefined && bestAsk !== undefined && atto(bestBid[0]) < atto(bestAsk[0]);
}

describe('demo market maker against a real server', () => {
  let t: TestServer;
  let client: SpotClient;
  let maker: DemoMarketMaker | undefined;
  let requests = 0;

  beforeAll(async () => {
    // The maker is started here, not by the server, so this test owns its lifetime.
    t = await startTestServer({ BOURSE_DEMO: '1', BOURSE_DEMO_MARKET_MAKER: '0' });
    client = new SpotClient(t.url, t.demo.apiKey, t.demo.secretKey);
    const raised = await new AdminClient(t.url, t.adminToken).send('PATCH', '/trading/config', { ordersPerSecond: 10_000 });
    expect(raised.status).toBe(200);
  });
  afterAll(async () => {
    await maker?.stop();
    await t.stop();
  });

  async function depthOf(symbol: string): Promise<Depth> {
    return (await client.get('/openapi/quote/v1/depth', { symbol })).body as Depth;
  }

  it('when it runs, then every demo book gets five levels a side, a market buy fills, and after stop nothing more is placed', async () => {
    const credentials = findDemoMarketMakerKey(t.server.exchange, openSecretBox(t.dataDir));
    expect(credentials).toBeDefined();
    const countingFetch: FetchLike = (url, init) => {
      requests++;
      return fetch(url, init);
    };
    maker = startDemoMarketMaker({
      baseUrl: t.url,
      apiKey: credentials?.apiKey ?? '',
      secretKey: credentials?.secretKey ?? '',
      symbols: DEMO_MARKET_MAKER_SYMBOLS,
      seed: DEMO_MARKET_MAKER_SEED,
      intervalMs: INTERVAL_MS,
      ordersPerSecond: 1000,
      fetch: countingFetch,
    });

    // The maker quotes on its own timer: the books still one-sided or thin are read again until there are none.
    let pending = DEMO_MARKET_MAKER_SYMBOLS.map((s) => s.symbol);
    const thinBooks = async (): Promise<string[]> => {
      const depths = await Promise.all(pending.map(depthOf));
      pending = pending.filter((_, i) => !twoSided(depths[i]));
      return pending;
    };
    await expect.poll(thinBooks, { timeout: FILL_DEADLINE_MS, interval: INTERVAL_MS }).toEqual([]);

    const bought = await client.signed('POST', '/openapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: '100' });
    expect(bought.status).toBe(200);
    const order = bought.body as { status: string; executedQty: string; fills: { price: string }[] };
    expect(order.status).toBe('FILLED');
    expect(atto(order.executedQty) > 0n).toBe(true);
    expect(order.fills.length).toBeGreaterThan(0);

    await maker.stop();
    const requestsAtStop = requests;
    const versionsAtStop = await Promise.all(DEMO_MARKET_MAKER_SYMBOLS.map(async (s) => (await depthOf(s.symbol)).lastUpdateId));
    // Kept on purpose: absence can only be observed over time, here several intervals during which a
    // running maker would tick.
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS * 6));
    expect(requests).toBe(requestsAtStop);
    expect(await Promise.all(DEMO_MARKET_MAKER_SYMBOLS.map(async (s) => (await depthOf(s.symbol)).lastUpdateId))).toEqual(versionsAtStop);
  });
});
