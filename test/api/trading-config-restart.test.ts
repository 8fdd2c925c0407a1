import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBourse, type CliRun } from '../support/cli-run.js';
import { AdminClient, request, type HttpAnswer } from '../support/clients.js';
import { Operator } from '../support/fixtures.js';
import { CORE_THREADS, startTestServer, type TestServer } from '../support/server.js';

/** The operator's change: a weight limit a test reaches in a few requests, and a 30-minute first ban after 2 strikes. */
const PATCH = { requestWeightPerMinute: 4, banStrikes: 2, banBaseMs: 1_800_000 };
/** Stop and iceberg orders on, at most one untriggered stop order per account and symbol. */
const ALGO = { algoOrders: true, maxAlgoOrdersPerSymbol: 1, maxAlgoOrdersPerAccount: 50, maxIcebergParts: 3 };

const DEFAULTS = {
  requestWeightPerMinute: 3000,
  ordersPerSecond: 20,
  ordersPerDay: 350000,
  banStrikes: 20,
  banBaseMs: 120000,
  banMaxMs: 259200000,
  listenKeyTtlMs: 3600000,
  maxOpenOrdersPerSymbol: 200,
  maxOpenOrdersPerAccount: 1000,
  defaultMakerFeeRate: '0.001',
  defaultTakerFeeRate: '0.001',
  algoOrders: false,
  maxAlgoOrdersPerSymbol: 5,
  maxAlgoOrdersPerAccount: 100,
  maxIcebergParts: 10,
};

/** `GET /openapi/v1/pairs` (weight 1) until the first answer that is not 200; at most `limit` + 1 of them in one minute. */
async function untilRefused(url: string, limit: number): Promise<{ served: number; refusal: HttpAnswer }> {
  // A minute's edge may fall between two requests and empty the counter once: room for two windows.
  for (let served = 0; served <= 2 * limit + 1; served++) {
    const answer = await request(`${url}/openapi/v1/pairs`);
    if (answer.status !== 200) return { served, refusal: answer };
  }
  throw new Error(`no refusal within ${2 * limit + 2} requests of weight 1 at a limit of ${limit}`);
}

/**
 * The limiter enforces PATCH: the weight limit gives a 429 naming it at the limit's used weight;
 * `banStrikes` 429s in a row start a ban of `banBaseMs`, which the next request meets as a 418.
 */
async function expectEnforced(url: string): Promise<void> {
  const { refusal } = await untilRefused(url, PATCH.requestWeightPerMinute);
  expect(refusal.status).toBe(429);
  expect(refusal.body).toEqual({ code: -1003, msg: `Too many requests; current limit is ${PATCH.requestWeightPerMinute} requests per MINUTE.` });
  expect(refusal.headers.get('X-BH-USED-WEIGHT-1M')).toBe(String(PATCH.requestWeightPerMinute));
  // The first 429 was strike 1; this one is strike 2 = banStrikes, which starts the ban.
  const second = await request(`${url}/openapi/v1/pairs`);
  expect(second.status).toBe(429);
  const banned = await request(`${url}/openapi/v1/pairs`);
  expect(banned.status).toBe(418);
  // ceil of what is left of 1 800 s (the default base would give at most 120).
  const retryAfterSec = Number(banned.headers.get('Retry-After'));
  expect(retryAfterSec).toBeGreaterThan(1790);
  expect(retryAfterSec).toBeLessThanOrEqual(1800);
}

/**
 * The core itself follows ALGO, not only the config's view: a stop order is accepted (the option
 * is on) and a second one on the same symbol is MAX_NUM_ALGO_ORDERS's -2010 (the limit is 1).
 */
async function expectAlgoEnforced(t: TestServer, asset: string): Promise<void> {
  const op = new Operator(t);
  // A market of its own that has never traded: any stop price is accepted there.
  await op.listUsdtMarket({ asset, precision: 8, chains: [asset] });
  const owner = await op.member({ USDT: '1000' });
  const stopOrder = { symbol: `${asset}USDT`, side: 'BUY', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', quantity: '1', price: '100', stopPrice: '99' };
  expect((await owner.client.signed('POST', '/openapi/v1/order', stopOrder)).body).toMatchObject({ type: 'STOP_LOSS_LIMIT', status: 'NEW' });
  const second = await owner.client.signed('POST', '/openapi/v1/order', stopOrder);
  expect(second.status).toBe(400);
  expect(second.body).toEqual({ code: -2010, msg: 'New order rejected: Filter failure: MAX_NUM_ALGO_ORDERS.' });
}

/** One `bourse …` invocation against `t`. */
const bourse = (t: TestServer, argv: string[]): Promise<CliRun> => runBourse(t, argv);

describe.each(CORE_THREADS)('rate limits and the algo option across a restart (%s core)', (coreThread) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-rate-limits-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const start = (): Promise<TestServer> => startTestServer({ BOURSE_DATA: dataDir, BOURSE_CORE_THREAD: coreThread });

  it('when the operator changes rate limits, ban settings and the algo option and the server restarts, then GET shows them and the limiter and the core enforce them before and after', async () => {
    const expected = { ...DEFAULTS, ...PATCH, ordersPerDay: 6000, ...ALGO };
    const first = await start();
    try {
      const admin = new AdminClient(first.url, first.adminToken);
      expect((await admin.send('GET', '/trading/config')).body).toEqual(DEFAULTS);
      // The CLI's `config set` reads the config to type each value, then patches.
      expect(await bourse(first, ['--json', 'config', 'set', 'ordersPerDay=6000'])).toMatchObject({ exitCode: 0, stderr: '' });
      // The spec's spelling, `key value`, mixed with `key=value`; true goes out as the JSON boolean.
      expect(await bourse(first, ['--json', 'config', 'set', 'algoOrders', 'true', 'maxAlgoOrdersPerSymbol=1'])).toMatchObject({ exitCode: 0, stderr: '' });
      // Before the weight limit of 4 is set: these orders would spend it.
      await expectAlgoEnforced(first, 'STPA');
      const patched = await admin.send('PATCH', '/trading/config', { ...PATCH, maxAlgoOrdersPerAccount: 50, maxIcebergParts: 3 });
      expect(patched.status).toBe(200);
      expect(patched.body).toEqual(expected);
      expect((await admin.send('GET', '/trading/config')).body).toEqual(expected);
      // The journal, replayed from the start, reaches the live state hash, setting included.
      expect((await admin.send('GET', '/verify?replay=1')).body).toMatchObject({ ok: true, replay: { ok: true } });
      await expectEnforced(first.url);
    } finally {
      await first.server.close();
    }

    const second = await start();
    try {
      const admin = new AdminClient(second.url, second.adminToken);
      expect((await admin.send('GET', '/trading/config')).body).toEqual(expected);
      // The ban earned above is journaled: the restart kept it, until the operator lifts it.
      expect(((await admin.send('GET', '/bans')).body as { ip: string }[]).map((ban) => ban.ip)).toEqual(['127.0.0.1']);
      expect((await request(`${second.url}/openapi/v1/exchangeInfo`)).status).toBe(418);
      expect((await admin.send('DELETE', '/bans/127.0.0.1')).body).toEqual({ ip: '127.0.0.1', lifted: true });
      const info = (await request(`${second.url}/openapi/v1/exchangeInfo`)).body as { rateLimits: { rateLimitType: string; interval: string; limit: number }[] };
      expect(info.rateLimits).toEqual([
        { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalUnit: 1, limit: PATCH.requestWeightPerMinute },
        { rateLimitType: 'ORDERS', interval: 'SECOND', intervalUnit: 1, limit: DEFAULTS.ordersPerSecond },
        { rateLimitType: 'ORDERS', interval: 'DAY', intervalUnit: 1, limit: 6000 },
      ]);
      await expectEnforced(second.url);
      // A change after the restart applies at once, and the operator can lift the ban.
      const set = await bourse(second, ['--json', 'config', 'set', 'requestWeightPerMinute=6000']);
      expect(set).toMatchObject({ exitCode: 0, stderr: '' });
      expect(JSON.parse(set.stdout)).toEqual({ ...expected, requestWeightPerMinute: 6000 });
      expect((await admin.send('DELETE', '/bans/127.0.0.1')).body).toEqual({ ip: '127.0.0.1', lifted: true });
      const served = await request(`${second.url}/openapi/v1/pairs`);
      expect(served.status).toBe(200);
      await expectAlgoEnforced(second, 'STPB');
    } finally {
      await second.server.close();
    }
  });
});
