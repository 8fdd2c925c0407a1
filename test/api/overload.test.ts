/**
 * More writes at once than may wait for the core (BOURSE_MAX_PENDING_COMMANDS, here 2): those
 * beyond the bound are answered at once with 503 -1003 in each area's format, instead of queueing
 * without limit; a refused request is not executed, and the ledger and journal stay sound.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWithReplay } from '../support/ack-check.js';
import { request, SpotClient, type HttpAnswer } from '../support/clients.js';
import { CORE_THREADS, startTestServer, type TestServer } from '../support/server.js';
import { liftRateLimits } from '../support/trading-setup.js';

const ORDER = '/openapi/v1/order';
/** Small enough that a burst of 80 concurrent requests overflows it also when the core is inline (a queue of one event-loop turn). */
const BOUND = 2;
const ENGINE_BUSY = { code: -1003, msg: `Too many requests; current limit is ${BOUND} requests waiting for the engine.` };
const ENGINE_BUSY_ENVELOPE = { code: -1003, msg: 'TOO_MANY_REQUESTS', detail: ENGINE_BUSY.msg, data: null };
/** Waves of concurrent requests sent until both areas have been refused at least once. */
const MAX_WAVES = 20;

describe.each(CORE_THREADS)('when more writes arrive at once than may wait (core %s)', (placement) => {
  let t: TestServer;
  let spot: SpotClient;
  /** The demo merchant's user. */
  let merchantUserId = 0;
  let dataDir = '';

  beforeAll(async () => {
    // The demo is seeded in one batch under the default bound; the server then runs with a small one.
    const seeded = await startTestServer({ BOURSE_CORE_THREAD: placement });
    await seeded.server.close();
    t = await startTestServer({ BOURSE_CORE_THREAD: placement, BOURSE_MAX_PENDING_COMMANDS: String(BOUND), BOURSE_DATA: seeded.dataDir });
    dataDir = seeded.dataDir;
    spot = new SpotClient(t.url, t.demo.apiKey, t.demo.secretKey);
    merchantUserId = [...t.server.exchange.core.ledger.users.values()].find((u) => u.userType === 'merchant')?.userId ?? 0;
    await liftRateLimits(t.url, t.adminToken);
  });
  afterAll(async () => {
    await t?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('then the overload is answered with 503 -1003 in each area’s format, and what was refused was not executed', async () => {
    const accepted: string[] = [];
    const refused: string[] = [];
    let merchantRefusals = 0;
    let merchantAccepted = 0;
    for (let wave = 0; wave < MAX_WAVES && (refused.length === 0 || merchantRefusals === 0); wave++) {
      const ids = Array.from({ length: 60 }, (_, i) => `w${wave}-${i}`);
      const orders = ids.map((id) => spot.signed('POST', ORDER, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.001', price: '20000', newClientOrderId: id }));
      // Area B writes among the orders: the operator sets the demo merchant's simulator modes (docs/merchant-payments.md "The simulator and the sandbox API").
      const tokens = Array.from({ length: 20 }, () =>
        request(`${t.url}/sandbox/v2/modes`, {
          method: 'PUT',
          headers: { Authorization: `Bearer ${t.adminToken}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ userId: merchantUserId, kyc: 'approve' }),
        }),
      );
      const answers: HttpAnswer[] = await Promise.all(orders);
      answers.forEach((answer, i) => {
        if (answer.status === 200) accepted.push(ids[i]);
        else {
          expect([answer.status, answer.body, answer.headers.get('retry-after')]).toEqual([503, ENGINE_BUSY, '1']);
          refused.push(ids[i]);
        }
      });
      for (const answer of await Promise.all(tokens)) {
        if (answer.status === 200) merchantAccepted++;
        else {
          expect([answer.status, answer.body, answer.headers.get('retry-after')]).toEqual([503, ENGINE_BUSY_ENVELOPE, '1']);
          merchantRefusals++;
        }
      }
    }

    expect(refused.length).toBeGreaterThan(0);
    expect(merchantRefusals).toBeGreaterThan(0);
    expect(accepted.length + merchantAccepted).toBeGreaterThan(0);
    for (const id of refused.slice(0, 20)) {
      expect((await spot.signed('GET', ORDER, { origClientOrderId: id })).body, id).toEqual({ code: -2013, msg: 'Order does not exist.' });
    }
    for (const id of accepted.slice(0, 20)) expect((await spot.signed('GET', ORDER, { origClientOrderId: id })).status, id).toBe(200);
    expect((await verifyWithReplay(t.url, t.adminToken)).ok).toBe(true);
  });

  it('then once the burst has passed, a write is taken as usual', async () => {
    const answer = await spot.signed('POST', ORDER, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.001', price: '20000' });
    expect(answer.status, answer.text).toBe(200);
  });
});
