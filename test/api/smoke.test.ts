import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpotClient } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('a fresh server', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t.stop());

  it('when a demo user places a resting order, then it is listed as open', async () => {
    const client = new SpotClient(t.url, t.demo.apiKey, t.demo.secretKey);
    const placed = await client.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' });
    expect(placed.status).toBe(200);
    expect(placed.body).toMatchObject({ status: 'NEW', price: '100', origQty: '1', symbol: 'ETHUSDT' });
    const open = await client.signed('GET', '/openapi/v1/openOrders', { symbol: 'ETHUSDT' });
    expect((open.body as { orderId: string }[]).map((o) => o.orderId)).toEqual([(placed.body as { orderId: string }).orderId]);
  });
});
