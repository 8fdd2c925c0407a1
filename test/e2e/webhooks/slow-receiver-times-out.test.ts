/**
 * Story: a slow receiver times out. The operator sets `webhook.timeoutMs` to 300; the receiver
 * answers only after 1 s: the attempt fails with error "timeout" and `httpStatus` 0 after about
 * 300 ms, and the late answer changes nothing. Answering quickly again, the retry is delivered. A
 * URL where nothing listens fails with "connection error", also `httpStatus` 0.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';
import { pumpAt, settled, webhookEvents, WebhookReceiver, type EventRow } from '../../support/webhook-receiver.js';

const TIMEOUT_MS = 300;
const SLOW_MS = 1_000;

describe('story: a slow receiver times out', () => {
  let s: PaymentsStory;
  let receiver: WebhookReceiver;
  let merchantId: number;
  let webhookId: string;
  let txId: string;
  let sentAt: number;

  const arrival = async (amount: string): Promise<string> => String((await s.client.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount })).txId);
  const rowOf = async (objectId: string): Promise<EventRow> => (await webhookEvents(s.client, { objectId }))[0];

  beforeAll(async () => {
    s = await paymentsStory();
    receiver = await WebhookReceiver.start(s.t.server.webhookPublicKey);
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    webhookId = (await s.client.ok<{ webhookId: string }>('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: receiver.url })).webhookId;
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await s.t.stop();
    await receiver.close();
  });

  it('1. the operator sets webhook.timeoutMs to 300', async () => {
    await s.op.ok('PATCH', '/payments/config', { webhook: { timeoutMs: TIMEOUT_MS } });
    expect((await s.op.ok<{ webhook: { timeoutMs: number } }>('GET', '/payments/config')).webhook.timeoutMs).toBe(TIMEOUT_MS);
  });

  it('2. a reply after 1 s: the attempt fails "timeout", httpStatus 0, after about 300 ms', async () => {
    receiver.reply = () => ({ status: 200, body: '{"callbackStatus":"SUCCESS"}', delayMs: SLOW_MS });
    const started = performance.now();
    txId = await arrival('100.00');
    await receiver.waitFor(1);
    await settled(s.t.server.webhooks);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(waited).toBeLessThan(SLOW_MS);
    const row = await rowOf(txId);
    sentAt = Number(row.createTime);
    expect(row).toMatchObject({ status: 'PENDING', attempts: 1, deliveredTime: '' });
    expect(row.deliveries).toEqual([{ attempt: 1, time: String(sentAt), url: receiver.url, httpStatus: 0, durationMs: expect.any(Number) as unknown, result: 'FAILED', error: 'timeout' }]);
    expect(row.deliveries[0].durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(row.deliveries[0].durationMs).toBeLessThan(SLOW_MS);
  });

  it('3. the late answer changes nothing', async () => {
    await receiver.until(() => receiver.answered === 1, 'the late answer');
    await settled(s.t.server.webhooks);
    expect(await rowOf(txId)).toMatchObject({ status: 'PENDING', attempts: 1, deliveries: [expect.objectContaining({ error: 'timeout' })] });
  });

  it('4. answering quickly again, the retry at its due time is delivered', async () => {
    receiver.reply = () => ({ status: 200, body: '{"callbackStatus":"SUCCESS"}' });
    const due = Number((await rowOf(txId)).nextAttemptTime);
    expect(due - sentAt).toBeGreaterThanOrEqual(15_000);
    await pumpAt(s.t.server.webhooks, due);
    const row = await rowOf(txId);
    expect(row).toMatchObject({ status: 'DELIVERED', attempts: 2 });
    expect(row.deliveries.map((d) => [d.attempt, d.httpStatus, d.error])).toEqual([
      [2, 200, ''],
      [1, 0, 'timeout'],
    ]);
    expect(receiver.ofEvent(row.eventId).map((r) => r.headers['x-bh-delivery-attempt'])).toEqual(['1', '2']);
  });

  it('5. a URL where nothing listens fails with "connection error", httpStatus 0', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await s.client.ok('PUT', `/v2/webhook/${webhookId}`, { url: `http://127.0.0.1:${port}/gone` });
    const other = await arrival('200.00');
    // The arrival's commit started the attempt before its answer came back: settled waits for its outcome.
    await settled(s.t.server.webhooks);
    const row = await rowOf(other);
    expect(row).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect(row.deliveries).toEqual([expect.objectContaining({ attempt: 1, url: `http://127.0.0.1:${port}/gone`, httpStatus: 0, result: 'FAILED', error: 'connection error' })]);
  });
});
