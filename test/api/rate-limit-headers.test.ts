import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type HttpAnswer, type SpotClient } from '../support/clients.js';
import { Operator } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

const WEIGHT = 'x-bh-used-weight-1m';
const ORDER_LIMIT = { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.01', price: '100' };

/**
 * Runs `attempt` until it starts and ends in the same fixed window of `windowMs` (at most twice):
 * counters restart at window edges (docs/spot-api.md "Rate limits"), and exact counts are only meaningful inside one window.
 */
async function inOneWindow<T>(windowMs: number, attempt: () => Promise<T>): Promise<T> {
  for (let tries = 0; tries < 2; tries++) {
    const window = Math.floor(Date.now() / windowMs);
    const result = await attempt();
    if (Math.floor(Date.now() / windowMs) === window) return result;
  }
  throw new Error(`two ${windowMs} ms window edges crossed by one short attempt`);
}

const header = (answer: HttpAnswer, name: string): string | null => answer.headers.get(name);

describe('rate-limit headers and limits (docs/spot-api.md "Rate limits")', () => {
  let t: TestServer;
  let op: Operator;

  const newClient = async (): Promise<SpotClient> => (await op.member({ USDT: '100000' })).client;

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
  });
  afterAll(async () => t.stop());

  it('when a key makes requests, then X-BH-USED-WEIGHT-1M is the sum of endpoint weights this minute, on successes and refusals alike', async () => {
    const seen = await inOneWindow(60_000, async () => {
      const client = await newClient();
      const answers = [
        await client.signed('GET', '/openapi/v1/account'), // 5
        await client.signed('GET', '/openapi/v1/openOrders'), // 1
        await client.signed('POST', '/openapi/v1/order', ORDER_LIMIT), // 1
        await client.signed('GET', '/openapi/v1/order', {}), // 1, refused -1102
        await client.signed('GET', '/openapi/v1/historyOrders'), // 5
        await client.signed('DELETE', '/openapi/v1/openOrders', { symbol: 'ETHUSDT' }), // 5
        await client.signed('GET', '/openapi/v1/account', {}, { signature: '0'.repeat(64) }), // 5, refused -1022
      ];
      return answers.map((a) => [a.status, header(a, WEIGHT)]);
    });
    expect(seen).toEqual([
      [200, '5'],
      [200, '6'],
      [200, '7'],
      [400, '8'],
      [200, '13'],
      [200, '18'],
      [400, '23'],
    ]);
  });

  it('when public requests come from one IP, then the IP counter grows by each weight (A1 and A2 weigh 0)', async () => {
    const deltas = await inOneWindow(60_000, async () => {
      const base = Number(header(await request(`${t.url}/openapi/v1/ping`), WEIGHT));
      const paths = ['/openapi/v1/time', '/openapi/v1/pairs', '/openapi/quote/v1/depth?symbol=ETHUSDT&limit=500', '/openapi/v1/exchange', '/openapi/quote/v1/ticker/24hr'];
      const values: number[] = [];
      for (const path of paths) values.push(Number(header(await request(`${t.url}${path}`), WEIGHT)) - base);
      return values;
    });
    expect(deltas).toEqual([0, 1, 6, 6, 46]);
  });

  it('when a public request is refused for its parameters, then it still carries the header', async () => {
    const answer = await request(`${t.url}/openapi/quote/v1/depth?symbol=NOPE`);
    expect(answer.status).toBe(400);
    expect(header(answer, WEIGHT)).toMatch(/^[0-9]+$/);
  });

  it('when a keyed request is refused before the key is known, then it still carries the header', async () => {
    const answer = await request(`${t.url}/openapi/v1/account`, { headers: { 'X-BH-APIKEY': 'Z'.repeat(64) } });
    expect(answer.body).toMatchObject({ code: -2015 });
    expect(header(answer, WEIGHT)).toMatch(/^[0-9]+$/);
  });

  it('when A11 is called, then X-BH-ORDER-COUNT-1S and -1D count every order that reaches the ORDERS step, accepted or not', async () => {
    const counts = await inOneWindow(1000, async () => {
      const client = await newClient();
      const answers = [
        await client.signed('POST', '/openapi/v1/order', ORDER_LIMIT),
        await client.signed('POST', '/openapi/v1/order', { ...ORDER_LIMIT, symbol: 'NOPE' }),
        await client.signed('POST', '/openapi/v1/order', ORDER_LIMIT),
      ];
      return answers.map((a) => [a.status, header(a, 'x-bh-order-count-1s'), header(a, 'x-bh-order-count-1d')]);
    });
    expect(counts).toEqual([
      [200, '1', '1'],
      [400, '2', '2'],
      [200, '3', '3'],
    ]);
  });

  it('when A11 is refused before the ORDERS step (bad signature), then it is not counted', async () => {
    const client = await newClient();
    const refused = await client.signed('POST', '/openapi/v1/order', ORDER_LIMIT, { signature: 'f'.repeat(64) });
    expect(refused.body).toMatchObject({ code: -1022 });
    const accepted = await client.signed('POST', '/openapi/v1/order', ORDER_LIMIT);
    expect(header(accepted, 'x-bh-order-count-1d')).toBe('1');
  });

  it('when other endpoints answer, then they carry no order-count headers', async () => {
    const client = await newClient();
    const answer = await client.signed('GET', '/openapi/v1/openOrders');
    expect(header(answer, 'x-bh-order-count-1s')).toBeNull();
    expect(header(answer, 'x-bh-order-count-1d')).toBeNull();
  });

  it('when the weight limit is lowered to 5, then the next request over it is 429 -1003 with Retry-After, and the refusal adds nothing', async () => {
    const client = await newClient();
    await op.tradingConfig({ requestWeightPerMinute: 5 });
    try {
      const { first, refused, again } = await inOneWindow(60_000, async () => {
        const fresh = await newClient();
        return {
          first: await fresh.signed('GET', '/openapi/v1/account'),
          refused: await fresh.signed('GET', '/openapi/v1/openOrders'),
          again: await fresh.signed('GET', '/openapi/v1/openOrders'),
        };
      });
      expect([first.status, header(first, WEIGHT)]).toEqual([200, '5']);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ code: -1003, msg: 'Too many requests; current limit is 5 requests per MINUTE.' });
      expect(header(refused, WEIGHT)).toBe('5');
      const retryAfter = Number(header(refused, 'retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(again.status).toBe(429);
      expect(header(again, WEIGHT)).toBe('5');
      // Each key has its own counter.
      expect((await client.signed('GET', '/openapi/v1/openOrders')).status).toBe(200);
    } finally {
      await op.tradingConfig({ requestWeightPerMinute: 3000 });
    }
  });

  it('when the limit is raised again, then the same key is served at once (effective from the next request)', async () => {
    const client = await newClient();
    await op.tradingConfig({ requestWeightPerMinute: 5 });
    try {
      await client.signed('GET', '/openapi/v1/account');
      expect((await client.signed('GET', '/openapi/v1/account')).status).toBe(429);
    } finally {
      await op.tradingConfig({ requestWeightPerMinute: 3000 });
    }
    expect((await client.signed('GET', '/openapi/v1/account')).status).toBe(200);
  });

  it('when ordersPerSecond is 2, then a third order in the same second is 429 -1015 with Retry-After 1', async () => {
    await op.tradingConfig({ ordersPerSecond: 2 });
    try {
      const answers = await inOneWindow(1000, async () => {
        const client = await newClient();
        return Promise.all([1, 2, 3].map(() => client.signed('POST', '/openapi/v1/order', ORDER_LIMIT)));
      });
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429]);
      const refused = answers.find((a) => a.status === 429) as HttpAnswer;
      expect(refused.body).toEqual({ code: -1015, msg: 'Too many new orders; current limit is 2 orders per SECOND.' });
      expect(header(refused, 'retry-after')).toBe('1');
      expect(header(refused, 'x-bh-order-count-1s')).toBe('2');
    } finally {
      await op.tradingConfig({ ordersPerSecond: 20 });
    }
  });

  it('when A3 is read after a change, then rateLimits shows the current values', async () => {
    await op.tradingConfig({ ordersPerSecond: 7, ordersPerDay: 1234 });
    try {
      const body = (await request(`${t.url}/openapi/v1/exchange`)).body as { rateLimits: unknown[] };
      expect(body.rateLimits).toEqual([
        { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalUnit: 1, limit: 3000 },
        { rateLimitType: 'ORDERS', interval: 'SECOND', intervalUnit: 1, limit: 7 },
        { rateLimitType: 'ORDERS', interval: 'DAY', intervalUnit: 1, limit: 1234 },
      ]);
    } finally {
      await op.tradingConfig({ ordersPerSecond: 20, ordersPerDay: 350000 });
    }
  });
});
