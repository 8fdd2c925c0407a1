/**
 * Story: one order's events wait for each other, other orders' do not wait for them. The receiver
 * answers every event of on-ramp A only after 400 ms, and its first one not before on-ramp B,
 * created and paid after A, has had all four of its events delivered: A's second one is not even
 * sent by then. A's statuses 10, 40, 50, 60 still arrive in that order, each only once the
 * previous one has been answered (never two of A in flight) (docs/webhooks.md "Answering, retries, order" Ordering: per `(webhook, object)`, different objects in parallel).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';
import { settled, webhookEvents, WebhookReceiver } from '../../support/webhook-receiver.js';

const SLOW_MS = 400;

describe('story: statuses of one order arrive in order while other orders go in parallel', () => {
  let s: PaymentsStory;
  let receiver: WebhookReceiver;
  let merchantId: number;
  let a: string;
  let b = '';
  /** Settles once all four of B's events have arrived: A's first answer waits for it. */
  let bDelivered: Promise<void>;

  const onRamp = async (clientId: string): Promise<string> =>
    String((await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', { merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, clientId })).orderId);
  const index = (orderId: string, status: string): number => receiver.received.findIndex((r) => r.body.orderId === orderId && r.body.orderStatus === status);

  beforeAll(async () => {
    s = await paymentsStory();
    receiver = await WebhookReceiver.start(s.t.server.webhookPublicKey);
    await exampleBooks(s.op);
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    await s.client.ok('POST', '/v2/webhook', { eventType: 'ORDER_WEBHOOK', url: receiver.url });
    receiver.reply = (r) => ({ status: 200, body: '{"callbackStatus":"SUCCESS"}', ...(r.body.orderId === a ? { until: bDelivered.catch(() => undefined), delayMs: SLOW_MS } : {}) });
  });
  afterAll(async () => {
    await s.t.stop();
    await receiver.close();
  });

  it('1. A is created and paid, then B: all of B is delivered before A\'s second event is sent', async () => {
    bDelivered = receiver.until(() => b !== '' && receiver.of(b).length >= 4, "B's four events");
    a = await onRamp('slow-A');
    await receiver.waitFor(1);
    await s.client.ok('POST', `/sandbox/v2/orders/${a}/pay`, { traceNumber: 'SPEI-A' });
    b = await onRamp('fast-B');
    await s.client.ok('POST', `/sandbox/v2/orders/${b}/pay`, { traceNumber: 'SPEI-B' });
    await bDelivered;
    expect(receiver.of(b).map((body) => body.orderStatus)).toEqual(['10', '40', '50', '60']);
    // A's first event is still unanswered: its other three events have not been sent.
    expect(receiver.of(a).map((body) => body.orderStatus)).toEqual(['10']);
  });

  it('2. A\'s statuses arrive in order, each sent only after the previous one was answered', async () => {
    await receiver.waitFor(8);
    await settled(s.t.server.webhooks);
    expect(receiver.of(a).map((body) => body.orderStatus)).toEqual(['10', '40', '50', '60']);
    const times = ['10', '40', '50', '60'].map((status) => receiver.received[index(a, status)].at);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(SLOW_MS - 5);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  });

  it('3. never two events of one order in flight at once, yet A and B were in flight together', () => {
    expect([receiver.peakOf(a), receiver.peakOf(b)]).toEqual([1, 1]);
    expect(receiver.peakAll).toBeGreaterThanOrEqual(2);
  });

  it('4. B40 shows all eight events DELIVERED with one attempt each', async () => {
    const rows = await webhookEvents(s.client);
    expect(rows).toHaveLength(8);
    expect(rows.every((r) => r.status === 'DELIVERED' && r.attempts === 1)).toBe(true);
    // Newest first: each order's statuses in reverse creation order.
    expect(rows.filter((r) => r.objectId === a).map((r) => r.objectStatus)).toEqual(['60', '50', '40', '10']);
    expect(rows.filter((r) => r.objectId === b).map((r) => r.objectStatus)).toEqual(['60', '50', '40', '10']);
  });
});
