import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpotClient } from '../support/clients.js';
import { startTestServer } from '../support/server.js';

describe('market data across a restart', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-market-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('when the server restarts, then recent trades, klines and the 24h ticker are rebuilt from the committed trades', async () => {
    const first = await startTestServer({ BOURSE_DATA: dataDir });
    const seller = new SpotClient(first.url, first.demo.apiKey, first.demo.secretKey);
    const buyer = new SpotClient(first.url, first.demo.merchantApiKey, first.demo.merchantSecretKey);
    await seller.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '3', price: '2000' });
    await buyer.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '2000' });
    await buyer.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '2000' });
    const before = {
      trades: (await seller.get('/openapi/quote/v1/trades', { symbol: 'ETHUSDT' })).body,
      klines: (await seller.get('/openapi/quote/v1/klines', { symbol: 'ETHUSDT', interval: '1h' })).body,
      depth: (await seller.get('/openapi/quote/v1/depth', { symbol: 'ETHUSDT' })).body as Record<string, unknown>,
    };
    await first.stop();

    const second = await startTestServer({ BOURSE_DATA: dataDir });
    try {
      const client = new SpotClient(second.url, second.demo.apiKey, second.demo.secretKey);
      const trades = (await client.get('/openapi/quote/v1/trades', { symbol: 'ETHUSDT' })).body as { qty: string }[];
      expect(trades.map((t) => t.qty)).toEqual(['1', '0.5']);
      expect(trades).toEqual(before.trades);
      expect((await client.get('/openapi/quote/v1/klines', { symbol: 'ETHUSDT', interval: '1h' })).body).toEqual(before.klines);
      const ticker = (await client.get('/openapi/quote/v1/ticker/24hr', { symbol: 'ETHUSDT' })).body;
      expect(ticker).toMatchObject({ lastPrice: '2000', volume: '1.5', quoteVolume: '3000', count: 2, askPrice: '2000', askQty: '1.5' });
      const depth = (await client.get('/openapi/quote/v1/depth', { symbol: 'ETHUSDT' })).body as Record<string, unknown>;
      expect({ bids: depth.bids, asks: depth.asks, lastUpdateId: depth.lastUpdateId }).toEqual({
        bids: before.depth.bids,
        asks: before.depth.asks,
        lastUpdateId: before.depth.lastUpdateId,
      });
    } finally {
      await second.server.close();
    }
  });
});
