import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpotClient } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('market data after a trade', () => {
  let t: TestServer;
  let client: SpotClient;
  beforeAll(async () => {
    t = await startTestServer();
    client = new SpotClient(t.url, t.demo.apiKey, t.demo.secretKey);
    await client.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '2', price: '2000' });
  });
  afterAll(async () => t.stop());

  it('when the book has one ask, then depth shows it', async () => {
    const depth = await client.get('/openapi/quote/v1/depth', { symbol: 'ETHUSDT' });
    expect(depth.body).toMatchObject({ bids: [], asks: [['2000', '2']] });
  });

  it('when a merchant buys, then trades, klines and tickers show the trade', async () => {
    const merchant = new SpotClient(t.url, t.demo.merchantApiKey, t.demo.merchantSecretKey);
    const bought = await merchant.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', quantity: '1000' });
    expect(bought.body).toMatchObject({ status: 'FILLED', executedQty: '0.5', cummulativeQuoteQty: '1000' });
    const trades = await client.get('/openapi/v1/trades', { symbol: 'ETHUSDT' });
    expect(trades.body).toMatchObject([{ price: '2000', qty: '0.5', isBuyerMaker: false }]);
    const klines = (await client.get('/openapi/quote/v1/klines', { symbol: 'ETHUSDT', interval: '1m' })).body as unknown[][];
    expect(klines).toHaveLength(1);
    expect(klines[0].slice(1, 6)).toEqual(['2000', '2000', '2000', '2000', '0.5']);
    expect(klines[0].slice(7)).toEqual(['1000', 1, '0.5', '1000']);
    const ticker = await client.get('/openapi/quote/v1/ticker/24hr', { symbol: 'ETHUSDT' });
    expect(ticker.body).toMatchObject({ lastPrice: '2000', volume: '0.5', quoteVolume: '1000', count: 1, askPrice: '2000', askQty: '1.5', priceChangePercent: '0', weightedAvgPrice: '2000' });
    const price = await client.get('/openapi/quote/v1/ticker/price', { symbols: '["ETHUSDT","BTCUSDT"]' });
    expect(price.body).toEqual([{ symbol: 'ETHUSDT', price: '2000' }, { symbol: 'BTCUSDT', price: '0' }]);
  });
});
