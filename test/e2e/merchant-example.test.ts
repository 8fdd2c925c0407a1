/**
 * The merchant example (examples/merchant) as a merchant runs it: a child process `node
 * examples/merchant/index.mjs` against a real Bourse with its demo data and demo market maker, as
 * after `npm start`. It gets a token, registers its receiver, quotes, places an on-ramp, has the
 * sandbox pay it and exits 0 once status 60 has arrived; its log shows each event verified, and
 * the API shows the order released and every event delivered at the first attempt. It leaves the
 * user's ORDER_WEBHOOK as it found it: one it registered is deleted at the end; one that already
 * went to a running `bourse webhooks receive` is moved for the run, said so, and put back, so that
 * receiver gets the next order's events; Ctrl-C puts it back too. A rejected order makes it exit 1
 * and say why. Its receiver refuses forged or altered requests and handles each eventId once.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runChild, type ChildRun, type ChildRunOptions } from '../support/child-run.js';
import { startBourseReceive } from '../support/cli-run.js';
import { request } from '../support/clients.js';
import { MerchantClient } from '../support/merchant-client.js';
import { startTestServer, type TestServer } from '../support/server.js';

const EXAMPLE = path.join(REPO, 'examples/merchant/index.mjs');
const RUN_DEADLINE_MS = 90_000;

/** One run of the example; `onOutput` sees stdout as it grows, and may signal the process. */
function runExample(env: Record<string, string>, onOutput?: ChildRunOptions['onOutput']): Promise<ChildRun> {
  return runChild(process.execPath, [EXAMPLE], { env, deadlineMs: RUN_DEADLINE_MS, onOutput });
}

/** The example's `event` lines: order, status and eventId of each verified webhook. */
function eventsOf(stdout: string): { orderId: string; status: number; eventId: string }[] {
  return [...stdout.matchAll(/^event +order (\d+) status (\d+) \(.*\), signature verified, event ([0-9a-f]{32})$/gm)].map((m) => ({ orderId: m[1], status: Number(m[2]), eventId: m[3] }));
}

interface Receiver {
  url: string;
  setPublicKey(base64: string): void;
  close(): Promise<void>;
}
type StartReceiver = (options: { port?: number; onEvent: (event: Record<string, unknown>) => void; log: (text: string) => void }) => Promise<Receiver>;

describe('the merchant example against a real Bourse', () => {
  let t: TestServer;
  let client: MerchantClient;

  beforeAll(async () => {
    t = await startTestServer({ BOURSE_DEMO_MARKET_MAKER: '1' });
    client = await MerchantClient.connect(t.url, t.demo.merchantApiKey, t.demo.merchantSecretKey);
  });
  afterAll(async () => t.stop());

  /** The order as B33 shows it, and its B40 events once the delivery worker is idle. */
  async function orderAndEvents(orderId: string): Promise<{ order: Record<string, unknown>; events: Record<string, unknown>[] }> {
    const order = await client.ok<Record<string, unknown>>('GET', '/v2/order/detail', { orderId, orderType: 'fiat_to_crypto' });
    await t.server.webhooks.idle();
    const page = await client.ok<{ record: Record<string, unknown>[] }>('GET', '/v2/webhook/events', { objectId: orderId });
    return { order, events: page.record.reverse() };
  }

  it('when run with the demo data directory, then it exits 0 after verified events 10, 40, 50, 60 of one order, which the API shows released, and deletes the webhook it registered', { timeout: RUN_DEADLINE_MS + 10_000 }, async () => {
    const run = await runExample({ BOURSE_URL: t.url, BOURSE_DATA: t.dataDir });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const registered = /^webhook +ORDER_WEBHOOK ([0-9a-f]{32}) registered for http:\/\/127\.0\.0\.1:\d+\/bourse-webhook; deleted when this run ends$/m.exec(run.stdout);
    expect(registered).not.toBeNull();
    const events = eventsOf(run.stdout);
    expect(events.map((e) => e.status)).toEqual([10, 40, 50, 60]);
    const orderId = events[0].orderId;
    expect(events.every((e) => e.orderId === orderId)).toBe(true);
    expect(run.stdout).toMatch(new RegExp(`^done +order ${orderId} released.*\nwebhook +ORDER_WEBHOOK ${registered?.[1]} deleted\n$`, 'm'));

    const { order, events: delivered } = await orderAndEvents(orderId);
    expect(order).toMatchObject({ orderId, orderType: 'fiat_to_crypto', merchantId: Number(t.demo.merchantId), paymentId: 58, fiat: 'MXN', fiatAmount: '1000.00', crypto: 'USDT', orderStatus: 60 });
    expect(order.traceNumber).toMatch(/^EXAMPLE-\d+$/);
    expect(order.quoteId).toMatch(/^[0-9a-f]{32}$/);
    // The receiver answered every event at once, so none was retried; the delete came after the last was recorded.
    expect(delivered.map((e) => [e.eventId, e.objectStatus, e.status, e.attempts])).toEqual(events.map((e) => [e.eventId, String(e.status), 'DELIVERED', 1]));
    expect(await client.ok('GET', '/v2/webhooks')).toEqual([]);
    const deleted = await client.ok<{ webhookId: string }[]>('GET', '/v2/webhooks', { status: 30 });
    expect(deleted.map((h) => h.webhookId)).toEqual([registered?.[1]]);
  });

  it('when an ORDER_WEBHOOK already goes to a running bourse webhooks receive, then the run says it moves it, puts it back at the end, and that receiver gets the next order', { timeout: RUN_DEADLINE_MS + 10_000 }, async () => {
    // `bourse webhooks receive` in this process, as a developer leaves it running in a terminal.
    const receiver = await startBourseReceive({ BOURSE_URL: t.url, BOURSE_ADMIN_TOKEN: t.adminToken });
    try {
      const { webhookId } = await client.ok<{ webhookId: string }>('POST', '/v2/webhook', { eventType: 'ORDER_WEBHOOK', url: receiver.url });
      const run = await runExample({ BOURSE_URL: t.url, BOURSE_API_KEY: t.demo.merchantApiKey, BOURSE_SECRET_KEY: t.demo.merchantSecretKey, BOURSE_MERCHANT_ID: t.demo.merchantId });
      expect(run.stderr).toBe('');
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain(`webhook   ORDER_WEBHOOK ${webhookId} already registered for ${receiver.url} (status 10): moved here for this run; that receiver gets no order events until the run ends and puts it back\n`);
      expect(run.stdout).toMatch(new RegExp(`\nwebhook +ORDER_WEBHOOK ${webhookId} put back to ${receiver.url.replace(/[.]/g, '\\.')} \\(status 10\\)\n$`));
      const events = eventsOf(run.stdout);
      expect(events.map((e) => e.status)).toEqual([10, 40, 50, 60]);
      expect((await orderAndEvents(events[0].orderId)).order.orderStatus).toBe(60);
      expect(receiver.output()).not.toContain(`order ${events[0].orderId}`);

      const hooks = await client.ok<{ webhookId: string; url: string; status: number }[]>('GET', '/v2/webhooks');
      expect(hooks.map((h) => [h.webhookId, h.url, h.status])).toEqual([[webhookId, receiver.url, 10]]);
      const next = await client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', { country: 'Mexico', fiat: 'MXN', crypto: 'USDT', fiatAmount: '100.00', paymentId: 58 });
      await t.server.webhooks.idle();
      expect(receiver.output()).toMatch(new RegExp(`ORDER_WEBHOOK  event [0-9a-f]{32}  attempt 1  order ${next.orderId} → 10  signature ok`));
    } finally {
      expect(await receiver.stop()).toBe(0);
    }
  });

  it('when stopped with Ctrl-C while the order waits for review, then it says so, puts the webhook back and exits 130', { timeout: RUN_DEADLINE_MS + 10_000 }, async () => {
    const [before] = await client.ok<{ webhookId: string; url: string; status: number }[]>('GET', '/v2/webhooks');
    await client.ok('PUT', '/sandbox/v2/modes', { orderReview: 'manual' });
    try {
      let interrupted = false;
      const run = await runExample({ BOURSE_URL: t.url, BOURSE_DATA: t.dataDir }, (stdout, kill) => {
        if (interrupted || !/^event +order \d+ status 10 /m.test(stdout)) return;
        interrupted = true;
        kill('SIGINT');
      });
      expect(run.exitCode).toBe(130);
      expect(run.stdout).toMatch(new RegExp(`\nstop +SIGINT: ending the run\nwebhook +ORDER_WEBHOOK ${before.webhookId} put back to .* \\(status 10\\)\n$`));
      const hooks = await client.ok<{ webhookId: string; url: string; status: number }[]>('GET', '/v2/webhooks');
      expect(hooks).toEqual([expect.objectContaining({ webhookId: before.webhookId, url: before.url, status: before.status })]);
    } finally {
      await client.ok('PUT', '/sandbox/v2/modes', { orderReview: 'approve' });
    }
  });

  it('when the sandbox rejects the order in review, then it exits 1 and says the order was canceled and why', { timeout: RUN_DEADLINE_MS + 10_000 }, async () => {
    await client.ok('PUT', '/sandbox/v2/modes', { orderReview: 'reject' });
    try {
      const run = await runExample({ BOURSE_URL: t.url, BOURSE_DATA: t.dataDir });
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toMatch(/^FAILED: order (\d+) was canceled \(status 70, ORDER_REVIEW_REJECTION\) before reaching 40$/m);
      expect(eventsOf(run.stdout).map((e) => e.status)).toEqual([10, 70]);
    } finally {
      await client.ok('PUT', '/sandbox/v2/modes', { orderReview: 'approve' });
    }
  });

  it('its receiver acknowledges a signed event once per eventId and refuses a forged or altered one', async () => {
    const { startReceiver } = (await import(pathToFileURL(path.join(REPO, 'examples/merchant/webhook-receiver.mjs')).href)) as { startReceiver: StartReceiver };
    const handled: Record<string, unknown>[] = [];
    const logged: string[] = [];
    const receiver = await startReceiver({ onEvent: (e) => handled.push(e), log: (text) => logged.push(text) });
    try {
      const body = '{"eventId":"0c1d2e3f405162738495a6b7c8d9e0f1","orderId":"10000042","orderStatus":"60"}';
      const post = (text: string, signature?: string) =>
        request(receiver.url, { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8', ...(signature === undefined ? {} : { signature }) }, body: text });
      const signed = (text: string, key: KeyObject) => sign('sha256', Buffer.from(text), key).toString('hex');
      const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const signature = signed(body, privateKey);

      expect((await post(body, signature)).status).toBe(503); // no key yet: Bourse retries later
      receiver.setPublicKey(publicKey.export({ format: 'der', type: 'spki' }).toString('base64'));
      const first = await post(body, signature);
      expect([first.status, first.body]).toEqual([200, { callbackStatus: 'SUCCESS' }]);
      const again = await post(body, signature);
      expect([again.status, again.body]).toEqual([200, { callbackStatus: 'SUCCESS' }]);
      const altered = body.replace('"60"', '"70"');
      expect((await post(altered, signature)).status).toBe(401);
      expect((await post(body)).status).toBe(401);
      const otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      expect((await post(body, signed(body, otherKey))).status).toBe(401);

      expect(handled).toEqual([{ eventId: '0c1d2e3f405162738495a6b7c8d9e0f1', orderId: '10000042', orderStatus: '60' }]);
      expect(logged.filter((l) => l.startsWith('duplicate event 0c1d2e3f405162738495a6b7c8d9e0f1'))).toHaveLength(1);
      expect(logged.filter((l) => l.startsWith('REJECTED'))).toHaveLength(3);
    } finally {
      await receiver.close();
    }
  });
});
