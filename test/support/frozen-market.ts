import { vi } from 'vitest';
import { SpotClient, type HttpAnswer } from './clients.js';
import { startTestServer, type TestServer } from './server.js';
import { liftRateLimits } from './trading-setup.js';
import { MarketProbe, wsUrl } from './ws-market-client.js';

/**
 * The setup the market stream tests share: a real server with `Date` faked at a known time, so
 * every command is stamped, and every frame sent, at it and frames can be compared exactly; two
 * traders (the demo user and the demo merchant); and the probes opened, closed at the end.
 */
export interface FrozenMarket {
  server: TestServer;
  user: SpotClient;
  merchant: SpotClient;
  /** Opens a market stream socket on `path`; `stop` closes it. */
  probe(path: string): Promise<MarketProbe>;
  /** Closes the probes, stops the server and gives `Date` back. */
  stop(): Promise<void>;
}

export async function startFrozenMarket(now: number): Promise<FrozenMarket> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  const server = await startTestServer();
  // ORDERS per second would never reset on a frozen clock.
  await liftRateLimits(server.url, server.adminToken);
  const clock = (): number => Date.now();
  const open: MarketProbe[] = [];
  return {
    server,
    user: new SpotClient(server.url, server.demo.apiKey, server.demo.secretKey, clock),
    merchant: new SpotClient(server.url, server.demo.merchantApiKey, server.demo.merchantSecretKey, clock),
    async probe(path) {
      const p = await MarketProbe.open(wsUrl(server.url, path));
      open.push(p);
      return p;
    },
    async stop() {
      await Promise.all(open.map((p) => p.close()));
      await server.stop();
      vi.useRealTimers();
    },
  };
}

/** The answer, which must be a 200. */
export function ok(answer: HttpAnswer): HttpAnswer {
  if (answer.status !== 200) throw new Error(`expected 200, got ${answer.status} ${answer.text}`);
  return answer;
}

/** Places a limit order and waits for its answer, which must be a 200. */
export async function placeLimit(client: SpotClient, side: string, price: string, quantity: string, symbol = 'ETHUSDT'): Promise<void> {
  ok(await client.signed('POST', '/openapi/v1/order', { symbol, side, type: 'LIMIT', price, quantity }));
}
