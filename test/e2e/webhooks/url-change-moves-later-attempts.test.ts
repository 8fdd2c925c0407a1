/**
 * Story: the merchant moves its receiver. The old URL answers 503 to attempt 1 of an ORDER_WEBHOOK
 * event; B38 changes `url` only (status stays 10): the retry, at its due time, goes to the new URL
 * with the byte-identical body and signature (its `webhookId` unchanged), and is delivered. B40 shows
 * each attempt with the URL it went to. Later events go to the new URL only.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';
import { pumpAt, settled, webhookEvents, WebhookReceiver } from '../../support/webhook-receiver.js';

describe('story: a URL change sends later attempts to the new URL with the same body', () => {
  let s: PaymentsStory;
  let before: WebhookReceiver;
  let after: WebhookReceiver;
  let merchantId: number;
  let hook: Record<string, unknown>;
  let webhookId: string;
  let orderId: string;
  let eventId: string;

  beforeAll(async () => {
    s = await paymentsStory();
    before = await WebhookReceiver.start(s.t.server.webhookPublicKey, '/old');
    after = await WebhookReceiver.start(s.t.server.webhookPublicKey, '/new');
    before.reply = () => ({ status: 503 });
    await exampleBooks(s.op);
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    await s.client.ok('PUT', '/sandbox/v2/modes', { orderReview: 'manual' });
    hook = await s.client.ok<Record<string, unknown>>('POST', '/v2/webhook', { eventType: 'ORDER_WEBHOOK', url: before.url });
    webhookId = hook.webhookId as string;
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await s.t.stop();
    await before.close();
    await after.close();
  });

  it('1. attempt 1 of the order\'s creation event fails at the old URL', async () => {
    orderId = String((await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', { merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, clientId: 'moving-1' })).orderId);
    await before.waitFor(1);
    await settled(s.t.server.webhooks);
    eventId = before.received[0].body.eventId as string;
    expect(before.received[0].body).toMatchObject({ webhookId, orderId, orderStatus: '10' });
    expect((await webhookEvents(s.client))[0]).toMatchObject({ eventId, status: 'PENDING', attempts: 1 });
  });

  it('2. B38 with url only changes the URL, keeps status 10 and the key', async () => {
    expect(await s.client.ok('PUT', `/v2/webhook/${webhookId}`, { url: after.url })).toEqual({ ...hook, url: after.url });
    expect(await s.client.ok('GET', '/v2/webhooks')).toEqual([{ ...hook, url: after.url }]);
    await settled(s.t.server.webhooks);
    expect(after.received).toHaveLength(0);
  });

  it('3. the retry goes to the new URL at its due time with the byte-identical body and signature', async () => {
    const due = Number((await webhookEvents(s.client))[0].nextAttemptTime);
    await pumpAt(s.t.server.webhooks, due);
    expect(before.received).toHaveLength(1);
    expect(after.received).toHaveLength(1);
    const [old, moved] = [before.received[0], after.received[0]];
    expect(moved.raw.equals(old.raw)).toBe(true);
    expect(moved.headers.signature).toBe(old.headers.signature);
    expect(moved.verified).toBe(true);
    expect([moved.headers['x-bh-event-id'], moved.headers['x-bh-webhook-id'], moved.headers['x-bh-delivery-attempt'], moved.body.webhookId]).toEqual([eventId, webhookId, '2', webhookId]);
  });

  it('4. B40 shows each attempt with the URL it went to', async () => {
    const [row] = await webhookEvents(s.client);
    expect(row).toMatchObject({ eventId, status: 'DELIVERED', attempts: 2, payload: before.received[0].raw.toString('utf8') });
    expect(row.deliveries.map((d) => [d.attempt, d.url, d.httpStatus, d.result, d.error])).toEqual([
      [2, after.url, 200, 'SUCCESS', ''],
      [1, before.url, 503, 'FAILED', 'HTTP 503'],
    ]);
  });

  it('5. later events of the order go to the new URL only', async () => {
    await s.client.ok('POST', `/sandbox/v2/orders/${orderId}/review`, { decision: 'approve' });
    await after.waitFor(2);
    await settled(s.t.server.webhooks);
    expect(after.of(orderId).map((b) => b.orderStatus)).toEqual(['10', '40']);
    expect(before.received).toHaveLength(1);
  });
});
