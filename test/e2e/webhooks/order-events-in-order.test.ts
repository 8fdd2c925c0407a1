/**
 * Story: ORDER_WEBHOOK for an on-ramp paid by SPEI. B36 registers a local receiver; B29 creates the
 * order and the bank pays it: the receiver gets one signed event per status passed (10, 40, 50,
 * 60) in that order, each body with the exact fields and types of docs/webhooks.md "What is sent" and the docs/webhooks.md "Verifying the signature" headers; B40 shows
 * each event DELIVERED with its attempt.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

describe('story: order statuses arrive as signed ORDER_WEBHOOK events, in order', () => {
  let s: PaymentsStory;
  let receiver: WebhookReceiver;
  let merchantId: number;
  let webhookId: string;
  let orderId: number;

  beforeAll(async () => {
    s = await paymentsStory();
    receiver = await WebhookReceiver.start(s.t.server.webhookPublicKey);
    await exampleBooks(s.op);
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
  });
  afterAll(async () => {
    await s.t.stop();
    await receiver.close();
  });

  it('1. B36 registers the receiver and shows the deployment key; a second of the type is -1174 with its id', async () => {
    const hook = await s.client.ok<Record<string, unknown>>('POST', '/v2/webhook', { eventType: 'ORDER_WEBHOOK', url: receiver.url });
    expect(hook).toEqual({ webhookId: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown, eventType: 'ORDER_WEBHOOK', url: receiver.url, status: 10, publicKey: s.t.server.webhookPublicKey });
    webhookId = hook.webhookId as string;
    const again = await s.client.call('POST', '/v2/webhook', { eventType: 'ORDER_WEBHOOK', url: receiver.url });
    expect([again.status, again.code, again.data]).toEqual([409, -1174, { webhookId }]);
    expect(await s.client.ok('GET', '/v2/webhooks')).toEqual([hook]);
  });

  it('2. an on-ramp created and paid sends 10, 40, 50, 60 in order, every one signed', async () => {
    const created = await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, clientId: 'inv-1' });
    orderId = created.orderId;
    await s.client.ok('POST', `/sandbox/v2/orders/${orderId}/pay`, { traceNumber: 'SPEI-1' });
    await receiver.waitFor(4);
    const bodies = receiver.of(String(orderId));
    expect(bodies.map((b) => b.orderStatus)).toEqual(['10', '40', '50', '60']);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    const last = receiver.received[3];
    expect(Object.keys(last.body)).toEqual(['webhookId', 'eventId', 'eventType', 'orderId', 'clientId', 'userId', 'merchantId', 'orderType', 'fiat', 'fiatAmount', 'fiatFee', 'crypto', 'cryptoAmount', 'orderPrice', 'orderStatus', 'failCode', 'failReason', 'createTime', 'updateTime']);
    expect(last.body).toMatchObject({ webhookId, eventType: 'ORDER_WEBHOOK', orderId: String(orderId), clientId: 'inv-1', userId: s.userId, merchantId, orderType: 'BUY', fiat: 'MXN', fiatAmount: '1000.00', fiatFee: '1.00', crypto: 'USDT', cryptoAmount: '51.8586', orderPrice: '19.2639', failCode: 0, failReason: '' });
    expect(last.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Bourse-Webhooks/1',
      'x-bh-webhook-id': webhookId,
      'x-bh-event-id': last.body.eventId,
      'x-bh-event-type': 'ORDER_WEBHOOK',
      'x-bh-delivery-attempt': '1',
    });
    expect(last.headers['x-bh-timestamp']).toMatch(/^[0-9]{13}$/);
  });

  it('3. B40 lists each event DELIVERED with its one attempt and the exact body', async () => {
    await s.t.server.webhooks.idle();
    const page = await s.client.ok<{ total: number; record: Record<string, unknown>[] }>('GET', '/v2/webhook/events', { objectId: String(orderId) });
    expect(page.total).toBe(4);
    const first = page.record[3];
    expect(first).toMatchObject({ webhookId, eventType: 'ORDER_WEBHOOK', objectId: String(orderId), objectStatus: '10', status: 'DELIVERED', attempts: 1, nextAttemptTime: '' });
    expect(first.payload).toBe(receiver.received[0].raw.toString('utf8'));
    expect(first.deliveries).toEqual([{ attempt: 1, time: expect.stringMatching(/^[0-9]{13}$/) as unknown, url: receiver.url, httpStatus: 200, durationMs: expect.any(Number) as unknown, result: 'SUCCESS', error: '' }]);
  });
});
