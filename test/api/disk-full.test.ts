/**
 * A full disk, end to end: the database is capped (SQLite `max_page_count` on the writer's
 * connection, the same SQLITE_FULL a full disk gives) until a commit finds no room. The server
 * stays up: writes are answered 503 in each area's format, reads are served from the committed
 * state, nothing acknowledged is lost, and once the cap is lifted writes resume by themselves.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INLINE_ROWS_EVERY_COMMITS } from '../../src/exchange/core-host.js';
import { verifyWithReplay } from '../support/ack-check.js';
import { AdminClient, SpotClient, type HttpAnswer } from '../support/clients.js';
import { CORE_THREADS, startTestServer, type TestServer } from '../support/server.js';
import { liftRateLimits } from '../support/trading-setup.js';

const ORDER = '/openapi/v1/order';
const WRITES_SUSPENDED = {
  code: -1016,
  msg: 'This service is no longer available. Writes are suspended: the journal cannot be written (disk full); reads still work, retry later.',
};
const WRITES_SUSPENDED_ENVELOPE = {
  code: -1016,
  msg: 'SERVICE_SHUTTING_DOWN',
  detail: 'Writes are suspended: the journal cannot be written (disk full); reads still work, retry later',
  data: null,
};

/** An IOC buy with no ask to meet: journaled and canceled at once, so it adds history but no open order. */
function iocBuy(clientOrderId: string): Record<string, string> {
  return { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.001', price: '20000', newClientOrderId: clientOrderId };
}

describe.each(CORE_THREADS)('when the disk fills (core %s)', (placement) => {
  let t: TestServer;
  let spot: SpotClient;
  let admin: AdminClient;
  /** One data directory for both lives of the server. */
  let dataDir: string;
  /** Client order ids of every order the server acknowledged (200). */
  const acknowledged: string[] = [];
  let restingIds: string[] = [];
  let balancesBefore: unknown;
  let refusedId = '';

  async function start(): Promise<void> {
    t = await startTestServer({ BOURSE_CORE_THREAD: placement, BOURSE_DATA: dataDir });
    spot = new SpotClient(t.url, t.demo.apiKey, t.demo.secretKey);
    admin = new AdminClient(t.url, t.adminToken);
    await liftRateLimits(t.url, t.adminToken);
  }

  const openOrderIds = async (): Promise<string[]> => {
    const answer = await spot.signed('GET', '/openapi/v1/openOrders', { symbol: 'BTCUSDT' });
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as { clientOrderId: string }[]).map((o) => o.clientOrderId).sort();
  };
  const balances = async (): Promise<unknown> => {
    const answer = await spot.signed('GET', '/openapi/v1/account');
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as { balances: unknown }).balances;
  };
  const queryOrder = (clientOrderId: string): Promise<HttpAnswer> => spot.signed('GET', ORDER, { origClientOrderId: clientOrderId });

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-disk-full-'));
    await start();
    for (let i = 0; i < 3; i++) {
      const id = `rest-${placement}-${i}`;
      const answer = await spot.signed('POST', ORDER, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: String(20000 + i), newClientOrderId: id });
      expect(answer.status, answer.text).toBe(200);
      restingIds.push(id);
    }
    restingIds = restingIds.sort();
    balancesBefore = await balances();
  });
  afterAll(async () => {
    await t?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('then orders are acknowledged until a commit finds no room, and that order is answered 503 -1016, not executed', async () => {
    // Room for about 120 KiB more than the file holds now.
    const size = await t.server.exchange.limitDatabasePages(1);
    await t.server.exchange.limitDatabasePages(size + 30);
    let refusal: HttpAnswer | undefined;
    for (let i = 0; i < 5000 && refusal === undefined; i++) {
      const id = `ioc-${placement}-${i}`;
      const answer = await spot.signed('POST', ORDER, iocBuy(id));
      if (answer.status === 200) acknowledged.push(id);
      else {
        refusal = answer;
        refusedId = id;
      }
    }
    expect(acknowledged.length).toBeGreaterThan(0);
    expect([refusal?.status, refusal?.body]).toEqual([503, WRITES_SUSPENDED]);
    // A refused command changes nothing: the order does not exist.
    expect((await queryOrder(refusedId)).body).toEqual({ code: -2013, msg: 'Order does not exist.' });
  });

  it('then every write is refused at once with 503 in its area’s format: area A, the operator API and area B', async () => {
    const order = await spot.signed('POST', ORDER, iocBuy(`late-${placement}`));
    expect([order.status, order.body, order.headers.get('retry-after')]).toEqual([503, WRITES_SUSPENDED, '5']);
    const cancel = await spot.signed('DELETE', ORDER, { origClientOrderId: restingIds[0] });
    expect([cancel.status, cancel.body]).toEqual([503, WRITES_SUSPENDED]);
    const deposit = await admin.send('POST', '/deposits', { accountId: t.demo.accountId, asset: 'USDT', amount: '1' });
    expect([deposit.status, deposit.body]).toEqual([503, WRITES_SUSPENDED]);

    // B0 issues a token: a command like any other.
    const b0 = await new SpotClient(t.url, t.demo.merchantApiKey, t.demo.merchantSecretKey).signed('GET', '/v2/token/generate');
    expect([b0.status, b0.body, b0.headers.get('retry-after')]).toEqual([503, WRITES_SUSPENDED_ENVELOPE, '5']);
  });

  it('then reads are served from the committed state: balances, open orders, every acknowledged order, the book, verify', async () => {
    expect(await balances()).toEqual(balancesBefore);
    expect(await openOrderIds()).toEqual(restingIds);
    // docs/running.md "When the disk fills": rows of the last batches, still waiting to be written
    // when the disk filled, may be missing from history reads until there is room (at most the
    // commits the inline writer lets rows wait for); every other acknowledged order is there.
    const mayWait = acknowledged.length - (INLINE_ROWS_EVERY_COMMITS - 1);
    for (const [i, id] of acknowledged.entries()) {
      const answer = await queryOrder(id);
      if (i >= mayWait && answer.status === 400) {
        expect(answer.body, id).toEqual({ code: -2013, msg: 'Order does not exist.' });
        continue;
      }
      expect([answer.status, (answer.body as { status: string }).status], id).toEqual([200, 'CANCELED']);
    }
    const depth = await spot.get('/openapi/quote/v1/depth', { symbol: 'BTCUSDT' });
    expect(depth.status, depth.text).toBe(200);
    expect((depth.body as { bids: string[][] }).bids.map(([price]) => price)).toEqual(expect.arrayContaining(['20000', '20001', '20002']));
    const verify = await admin.send('GET', '/verify');
    expect([verify.status, (verify.body as { ok: boolean }).ok]).toEqual([200, true]);
  });

  it('then once there is room again, writes resume by themselves within seconds, and nothing acknowledged is lost', async () => {
    await t.server.exchange.limitDatabasePages(null);
    // The writer's probe finds the room on a timer of its own, and only its log says so: a client
    // sees it by retrying, as here.
    let answer: HttpAnswer | undefined;
    let attempt = 0;
    const order = async (): Promise<number> => (answer = await spot.signed('POST', ORDER, iocBuy(`resumed-${placement}-${attempt++}`))).status;
    await expect.poll(order, { timeout: 5000, interval: 100 }).not.toBe(503);
    expect(answer?.status, answer?.text).toBe(200);
    acknowledged.push(`resumed-${placement}-${attempt - 1}`);

    // With room again, history is complete: the rows that waited are written.
    for (const id of acknowledged) {
      const found = await queryOrder(id);
      expect([found.status, (found.body as { status: string }).status], id).toEqual([200, 'CANCELED']);
    }
    const replay = await verifyWithReplay(t.url, t.adminToken);
    expect(replay.ok).toBe(true);
  });

  it('then after a restart every acknowledged order is there and the journal replays to the same state', async () => {
    await t.server.close();
    await start();
    expect(await openOrderIds()).toEqual(restingIds);
    for (const id of acknowledged) expect((await queryOrder(id)).status, id).toBe(200);
    expect((await queryOrder(refusedId)).body).toEqual({ code: -2013, msg: 'Order does not exist.' });
    expect((await verifyWithReplay(t.url, t.adminToken)).ok).toBe(true);
  });
});
