/**
 * The traffic counters of `/metrics` (docs/running.md "Observability"): trades by symbol, new orders
 * by outcome and HTTP requests by method, route and status, scraped before and after real orders,
 * trades and requests. The route label is the route's template, never the path a client sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/clients.js';
import { Operator, type Member } from '../support/fixtures.js';
import { CORE_THREADS, startTestServer, type TestServer } from '../support/server.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function samplesOf(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) continue;
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[name] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

const SYMBOL = 'MTXUSDT';
const ORDER = '/openapi/v1/order';

// The core in a worker thread reaches the counters through its replica's commits: both must count alike.
describe.each(CORE_THREADS)('/metrics traffic counters (core %s)', (coreThread) => {
  let t: TestServer;
  let op: Operator;
  let maker: Member;
  let taker: Member;

  const scrape = async (): Promise<Sample[]> => samplesOf((await request(`${t.url}/metrics`)).text);
  /** The value of the one sample of `name` with exactly `labels` (0 when there is none yet). */
  const valueOf = (samples: Sample[], name: string, labels: Record<string, string>): number =>
    samples.find((s) => s.name === name && JSON.stringify(Object.entries(s.labels).sort()) === JSON.stringify(Object.entries(labels).sort()))?.value ?? 0;
  const order = (who: Member, params: Record<string, string>) => who.client.signed('POST', ORDER, { symbol: SYMBOL, type: 'LIMIT', ...params });

  beforeAll(async () => {
    t = await startTestServer({ BOURSE_CORE_THREAD: coreThread });
    op = new Operator(t);
    await op.listUsdtMarket({ asset: 'MTX', precision: 8, chains: ['MTX'] });
    maker = await op.member({ MTX: '10' });
    taker = await op.member({ USDT: '100' });
  });
  afterAll(async () => t.stop());

  it('when orders rest, fill, part-fill, expire and are refused, then trades and orders count by symbol and outcome', async () => {
    const before = await scrape();
    expect((await order(maker, { side: 'SELL', quantity: '2', price: '10' })).status).toBe(200); // rests: NEW
    expect((await order(taker, { side: 'BUY', quantity: '1', price: '10' })).status).toBe(200); // trade 1: FILLED
    expect((await order(taker, { side: 'BUY', quantity: '2', price: '10' })).status).toBe(200); // trade 2, the rest rests: PARTIALLY_FILLED
    expect((await order(taker, { side: 'BUY', quantity: '1', price: '9', timeInForce: 'IOC' })).status).toBe(200); // nothing to take: CANCELED
    expect((await order(taker, { side: 'BUY', quantity: '1000', price: '10' })).status).toBe(400); // -1131: refused, no order
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string>): number => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('bourse_trades_total', { symbol: SYMBOL })).toBe(2);
    expect(['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED'].map((outcome) => delta('bourse_orders_total', { outcome }))).toEqual([1, 1, 1, 1]);
    // The refused order is the order route's 400.
    expect(delta('bourse_http_requests_total', { method: 'POST', route: ORDER, status: '200' })).toBe(4);
    expect(delta('bourse_http_requests_total', { method: 'POST', route: ORDER, status: '400' })).toBe(1);
  });

  it('when requests name concrete paths, then they count under their route template and status', async () => {
    const before = await scrape();
    const balancesPath = `/admin/v1/users/${maker.userId}/balances`;
    expect((await op.admin.send('GET', `/users/${maker.userId}/balances`)).status).toBe(200);
    expect((await op.admin.send('GET', '/users/987654/balances')).status).toBe(404);
    expect((await request(`${t.url}/no/such/path/${maker.userId}`)).status).toBe(404);
    expect((await request(`${t.url}/openapi/v1/%zz`)).status).toBe(400);
    const after = await scrape();

    const delta = (labels: Record<string, string>): number => valueOf(after, 'bourse_http_requests_total', labels) - valueOf(before, 'bourse_http_requests_total', labels);
    expect(delta({ method: 'GET', route: '/admin/v1/users/:userId/balances', status: '200' })).toBe(1);
    expect(delta({ method: 'GET', route: '/admin/v1/users/:userId/balances', status: '404' })).toBe(1);
    expect(delta({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(delta({ method: 'GET', route: 'unmatched', status: '400' })).toBe(1);
    // The scrape before this one is counted once it was answered.
    expect(delta({ method: 'GET', route: '/metrics', status: '200' })).toBe(1);
    const routes = new Set(after.filter((s) => s.name === 'bourse_http_requests_total').map((s) => s.labels.route));
    expect([...routes].filter((route) => route !== 'unmatched' && !route.startsWith('/'))).toEqual([]);
    expect(routes.has(balancesPath)).toBe(false);
    expect([...routes].some((route) => route.includes('987654') || route.includes('no/such') || route.includes('%zz'))).toBe(false);
  });

  it('when /metrics is scraped, then the three counters are declared as counters', async () => {
    const text = (await request(`${t.url}/metrics`)).text;
    for (const name of ['bourse_http_requests_total', 'bourse_trades_total', 'bourse_orders_total']) expect(text).toContain(`# TYPE ${name} counter`);
  });
});
