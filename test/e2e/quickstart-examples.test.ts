/**
 * The quick-start examples (examples/quickstart, presented in docs/quickstart.md) as a reader runs
 * them after `npm start`: each a child process from the repository's root against a real Bourse
 * with its demo data and demo market maker, reading <BOURSE_DATA>/demo-credentials.json. What each
 * prints is checked, and the orders it names are read back from the server. The demo user has no
 * order of its own between the examples (signed-curl.sh leaves its limit order open; the test
 * cancels it), so its balances are stable while an example prints them.
 *
 * The shell script needs curl and openssl, signed.py needs python3 with `requests`: a machine
 * without them does not register that case.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ATTO_ONE, parseDecimal } from '../../src/core/decimal.js';
import { REPO, runChild, type ChildRun, type ChildRunOptions } from '../support/child-run.js';
import { AdminClient, SpotClient } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

const QUICKSTART = path.join(REPO, 'examples/quickstart');
/** Each example takes a second or two; ccxt's import is the slowest part. */
const RUN_DEADLINE_MS = 15_000;
const BOOK_DEADLINE_MS = 10_000;

/** The environment a reader's shell gives the scripts (runChild adds PATH). */
const ENV = { HOME: process.env.HOME ?? '/' };

/** Whether `command args…` runs and exits 0 here: a prerequisite of one of the examples. */
function available(command: string, args: string[]): boolean {
  return spawnSync(command, args, { cwd: REPO, env: { PATH: process.env.PATH ?? '', ...ENV }, stdio: 'ignore' }).status === 0;
}
const HAS_CURL_AND_OPENSSL = available('curl', ['--version']) && available('openssl', ['version']);
const HAS_PYTHON_REQUESTS = available('python3', ['-c', 'import requests']);

function atto(text: string): bigint {
  const value = parseDecimal(text);
  if (value === null) throw new Error(`not a decimal: ${text}`);
  return value;
}

/** Lines of stdout, the trailing newline dropped. */
function linesOf(run: ChildRun): string[] {
  return run.stdout.replace(/\n$/, '').split('\n');
}

interface OrderRecord {
  orderId: string;
  symbol: string;
  type: string;
  side: string;
  price: string;
  origQty: string;
  executedQty: string;
  status: string;
  stopPrice: string;
  icebergQty: string;
  isWorking: boolean;
}

type StreamEvent = Record<string, unknown>;

interface Balance {
  asset: string;
  free: string;
}

interface SymbolFilters {
  tickSize: string;
  stepSize: string;
  minQty: string;
  minNotional: string;
}

describe('the quick-start examples against a real Bourse', () => {
  let t: TestServer;
  let spot: SpotClient;

  /** `node examples/quickstart/<file> <base> …` (or another interpreter), with BOURSE_DATA at the server's data directory. */
  function runExample(command: string, file: string, args: string[], onOutput?: ChildRunOptions['onOutput']): Promise<ChildRun> {
    return runChild(command, [path.join(QUICKSTART, file), ...args], { env: { ...ENV, BOURSE_DATA: t.dataDir }, deadlineMs: RUN_DEADLINE_MS, onOutput });
  }

  async function order(orderId: string): Promise<OrderRecord> {
    const answer = await spot.signed('GET', '/openapi/v1/order', { orderId });
    expect(answer.status).toBe(200);
    return answer.body as OrderRecord;
  }

  async function filtersOf(symbol: string): Promise<SymbolFilters> {
    const info = (await spot.get('/openapi/v1/exchangeInfo')).body as { symbols: { symbol: string; filters: Record<string, string>[] }[] };
    const filters = info.symbols.find((s) => s.symbol === symbol)?.filters ?? [];
    return Object.assign({}, ...filters) as SymbolFilters;
  }

  beforeAll(async () => {
    t = await startTestServer({ BOURSE_DEMO_MARKET_MAKER: '1' });
    spot = new SpotClient(t.url, t.demo.apiKey, t.demo.secretKey);
    // The maker quotes on its own timer from the start: the book is two-sided after its first tick.
    const twoSided = async (): Promise<boolean> => {
      const ticker = (await spot.get('/openapi/quote/v1/ticker/bookTicker', { symbol: 'BTCUSDT' })).body as { bidPrice: string; askPrice: string };
      return ticker.bidPrice !== '0' && ticker.askPrice !== '0';
    };
    await vi.waitUntil(twoSided, { timeout: BOOK_DEADLINE_MS, interval: 50 });
  });
  afterAll(async () => t.stop());

  if (HAS_CURL_AND_OPENSSL) {
    it('when signed-curl.sh runs (sh, curl, openssl), then it prints the demo account and a NEW limit buy that the server holds', async () => {
      const run = await runExample('sh', 'signed-curl.sh', [t.url, t.dataDir]);
      expect(run.stderr).toBe('');
      expect(run.exitCode).toBe(0);
      const [accountLine, orderLine, ...rest] = linesOf(run);
      expect(rest).toEqual([]);
      const account = JSON.parse(accountLine) as { accountId: string; canTrade: boolean; balances: Balance[] };
      expect(account).toMatchObject({ accountId: t.demo.accountId, canTrade: true });
      expect(account.balances.map((b) => b.asset)).toEqual(expect.arrayContaining(['BTC', 'USDT']));
      const placed = JSON.parse(orderLine) as OrderRecord;
      expect(placed).toMatchObject({ symbol: 'BTCUSDT', type: 'LIMIT', side: 'BUY', price: '50000', origQty: '0.001', status: 'NEW', isWorking: true });
      expect(await order(placed.orderId)).toMatchObject({ status: 'NEW', price: '50000', origQty: '0.001' });
      // The script leaves its order open, as a reader's would be; the next examples start without it.
      expect((await spot.signed('DELETE', '/openapi/v1/order', { orderId: placed.orderId })).status).toBe(200);
    });
  }

  if (HAS_PYTHON_REQUESTS) {
    it('when signed.py runs (python3 with requests), then it prints the free balances as the server has them, then an order NEW and the same order CANCELED', async () => {
      const account = (await spot.signed('GET', '/openapi/v1/account')).body as { balances: Balance[] };
      const run = await runExample('python3', 'signed.py', [t.url, t.dataDir]);
      expect(run.stderr).toBe('');
      expect(run.exitCode).toBe(0);
      const [balances, placed, canceled, ...rest] = linesOf(run);
      expect(rest).toEqual([]);
      expect(balances).toBe(`{${account.balances.map((b) => `'${b.asset}': '${b.free}'`).join(', ')}}`);
      const orderId = /^order (\d+) NEW$/.exec(placed)?.[1];
      expect(orderId).toBeDefined();
      expect(canceled).toBe(`canceled ${orderId} CANCELED`);
      expect(await order(orderId ?? '')).toMatchObject({ type: 'LIMIT', side: 'BUY', price: '50000', origQty: '0.001', status: 'CANCELED' });
    });
  }

  it('when ccxt-coinsph.mjs runs (ccxt from the repository), then it prints the best levels, an open order, its cancel and the balances', async () => {
    const run = await runExample(process.execPath, 'ccxt-coinsph.mjs', [t.url]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const [book, placed, canceled, balances, ...rest] = linesOf(run);
    expect(rest).toEqual([]);
    const levels = /^best bid \[ ([\d.]+), ([\d.]+) \] best ask \[ ([\d.]+), ([\d.]+) \]$/.exec(book);
    expect(levels).not.toBeNull();
    expect(atto(levels?.[1] ?? '')).toBeLessThan(atto(levels?.[3] ?? ''));
    const orderId = /^order (\d+) open$/.exec(placed)?.[1];
    expect(orderId).toBeDefined();
    expect(canceled).toBe('canceled canceled');
    expect(balances).toMatch(/^BTC \{ free: [\d.]+, used: 0, total: [\d.]+ \} USDT \{ free: [\d.]+, used: 0, total: [\d.]+ \}$/);
    expect(await order(orderId ?? '')).toMatchObject({ type: 'LIMIT', side: 'BUY', price: '50000', origQty: '0.001', status: 'CANCELED' });
  });

  it('when user-stream.mjs runs, then it prints the push of its market sell: the order NEW then FILLED, its ticket and the new balances', async () => {
    const run = await runExample(process.execPath, 'user-stream.mjs', [t.url]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    // Each push is an array of events; the server's heartbeat pings are objects without `e`.
    const events = linesOf(run)
      .flatMap((line): StreamEvent[] => {
        const push = JSON.parse(line) as StreamEvent | StreamEvent[];
        return Array.isArray(push) ? push : [push];
      })
      .filter((event) => 'e' in event);
    const reports = events.filter((e) => e.e === 'executionReport');
    expect(reports.map((e) => [e.s, e.S, e.o, e.q, e.X])).toEqual([
      ['BTCUSDT', 'SELL', 'MARKET', '0.001', 'NEW'],
      ['BTCUSDT', 'SELL', 'MARKET', '0.001', 'FILLED'],
    ]);
    const orderId = reports[0].i as string;
    const tickets = events.filter((e) => e.e === 'ticketInfo');
    expect(tickets.length).toBeGreaterThan(0);
    expect(tickets.every((e) => e.o === orderId && e.a === t.demo.accountId && e.S === 'SELL')).toBe(true);
    const balances = events.filter((e) => e.e === 'outboundAccountInfo').flatMap((e) => e.B as { a: string }[]);
    expect(balances.map((b) => b.a)).toEqual(expect.arrayContaining(['BTC', 'USDT']));
    expect(await order(orderId)).toMatchObject({ type: 'MARKET', side: 'SELL', executedQty: '0.001', status: 'FILLED' });
  });

  it('when ws-depth.mjs runs while the book changes, then it prints a snapshot, two updates of later versions and the close', async () => {
    // The demo user joins the best bid once the snapshot is out and leaves on the first update, so
    // two changes come without waiting for the maker's next tick.
    let joined: Promise<string | undefined> | undefined;
    let left: Promise<{ orderId?: string; status: number }> | undefined;
    const run = await runExample(process.execPath, 'ws-depth.mjs', [t.url.replace(/^http/, 'ws')], (stdout) => {
      const bestBid = /^snapshot v=\d+ bid (\S+) x /m.exec(stdout)?.[1];
      if (joined === undefined && bestBid !== undefined) {
        const params = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT_MAKER', quantity: '0.001', price: bestBid };
        joined = spot.signed('POST', '/openapi/v1/order', params).then((a) => (a.body as OrderRecord).orderId);
      }
      if (left === undefined && joined !== undefined && /^update /m.test(stdout)) {
        left = joined.then(async (orderId) => (orderId === undefined ? { status: 0 } : { orderId, status: (await spot.signed('DELETE', '/openapi/v1/order', { orderId })).status }));
      }
    });
    // 0: the maker's book moved across the bid first, so the LIMIT_MAKER was refused and nothing rests.
    // 400: the maker's next tick traded against the resting bid before the cancel, so it is filled.
    const cancel = await left;
    expect([0, 200, 400]).toContain(cancel?.status);
    if (cancel?.status === 400) expect((await order(cancel.orderId ?? '')).status).toBe('FILLED');
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const lines = linesOf(run);
    expect(lines).toHaveLength(4);
    const frames = lines.slice(0, 3).map((line) => /^(snapshot|update {2}) v=(\d+) bid ([\d.]+) x ([\d.]+) \| ask ([\d.]+) x ([\d.]+)$/.exec(line));
    expect(frames.map((f) => f?.[1])).toEqual(['snapshot', 'update  ', 'update  ']);
    const versions = frames.map((f) => Number(f?.[2]));
    expect(versions[1]).toBeGreaterThan(versions[0]);
    expect(versions[2]).toBeGreaterThan(versions[1]);
    for (const f of frames) expect(atto(f?.[3] ?? '')).toBeLessThan(atto(f?.[5] ?? ''));
    expect(lines[3]).toMatch(/^closed 1005 ?$/);
  });

  it('when stop-order.mjs runs while the algoOrders option is off, then it exits 1 saying how to turn it on, and places nothing', async () => {
    const run = await runExample(process.execPath, 'stop-order.mjs', [t.url]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('icebergAllowed false for BTCUSDT');
    expect(run.stderr).toContain('\n  npx bourse config set algoOrders true\n');
    expect((await spot.signed('GET', '/openapi/v1/openOrders')).body).toEqual([]);
  });

  it('when stop-order.mjs runs with the option on, then it places a stop-limit sell below the last price sized by the filters, lists it waiting, cancels it, and does the same with an iceberg far above showing one part in the depth', async () => {
    const patched = await new AdminClient(t.url, t.adminToken).send('PATCH', '/trading/config', { algoOrders: true });
    expect(patched.status).toBe(200);
    const run = await runExample(process.execPath, 'stop-order.mjs', [t.url]);
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const out = run.stdout;
    const { tickSize, stepSize, minQty, minNotional } = await filtersOf('BTCUSDT');
    expect(out).toMatch(new RegExp(`^symbol {4}BTCUSDT: tickSize ${tickSize}, stepSize ${stepSize}, minQty ${minQty}, minNotional ${minNotional}; icebergAllowed true, at most 5 stop orders here, 10 iceberg parts\n`));

    // The last price user-stream.mjs's sell (or the maker) set, as the example read it; before a first
    // trade the example says so and takes the best bid instead.
    const market = /^market {4}last trade ([\d.]+), best bid ([\d.]+), best ask ([\d.]+)$/m.exec(out);
    expect(market).not.toBeNull();
    const lastTrade = atto(market?.[1] ?? '');
    const last = lastTrade > 0n ? lastTrade : atto(market?.[2] ?? '');
    expect(last).toBeGreaterThan(0n);

    const stop = /^stop {6}order (\d+) STOP_LOSS_LIMIT SELL ([\d.]+) @ ([\d.]+) stop ([\d.]+): status NEW, isWorking false$/m.exec(out);
    expect(stop).not.toBeNull();
    const [, stopId, stopQty, limitPrice, stopPrice] = stop ?? [];
    const [tick, step, least, notional] = [tickSize, stepSize, minQty, minNotional].map(atto);
    // Exact: 2 % and 3 % below the last price, floored to the tick; the least quantity on the step
    // whose notional at the limit price reaches minNotional.
    expect(atto(stopPrice)).toBe(((last * 98n) / 100n / tick) * tick);
    expect(atto(limitPrice)).toBe(((last * 97n) / 100n / tick) * tick);
    expect(atto(stopPrice)).toBeLessThan(last);
    const quantity = atto(stopQty);
    expect(quantity % step).toBe(0n);
    expect(quantity >= least && quantity * atto(limitPrice) >= notional * ATTO_ONE).toBe(true);
    expect(quantity === least || (quantity - step) * atto(limitPrice) < notional * ATTO_ONE).toBe(true);
    const record = JSON.parse(/^record {4}(.*)$/m.exec(out)?.[1] ?? 'null') as OrderRecord;
    expect(record).toMatchObject({ orderId: stopId, type: 'STOP_LOSS_LIMIT', side: 'SELL', status: 'NEW', isWorking: false, stopPrice, price: limitPrice, origQty: stopQty });
    expect(out).toContain(`\nopen      order ${stopId} STOP_LOSS_LIMIT SELL ${stopQty} @ ${limitPrice} stop ${stopPrice}: status NEW, isWorking false\n`);
    expect(out).toContain(`\ncanceled  order ${stopId} CANCELED\n`);
    expect(await order(stopId)).toMatchObject({ type: 'STOP_LOSS_LIMIT', status: 'CANCELED', stopPrice });

    const iceberg = /^iceberg {3}order (\d+) LIMIT SELL ([\d.]+) @ ([\d.]+) showing ([\d.]+) at a time: status NEW, isWorking true$/m.exec(out);
    expect(iceberg).not.toBeNull();
    const [, icebergId, icebergQty, icebergPrice, part] = iceberg ?? [];
    expect(atto(icebergPrice)).toBeGreaterThan(atto(market?.[3] ?? ''));
    expect(atto(icebergQty)).toBe(3n * atto(part));
    expect(out).toContain(`\ndepth     asks at ${icebergPrice}: ${part}\ncanceled  order ${icebergId} CANCELED\n`);
    expect(out.endsWith(`canceled  order ${icebergId} CANCELED\n`)).toBe(true);
    expect(await order(icebergId)).toMatchObject({ type: 'LIMIT', status: 'CANCELED', icebergQty: part, origQty: icebergQty });
  });
});
