/**
 * Story: B41 resends an event. A delivered FUNDING_WEBHOOK event is resent: B41 answers its B40 row
 * PENDING, and the receiver gets the same `eventId` and byte-identical body (and signature) as
 * attempt 2. An event whose schedule ran out (FAILED; retry gaps shortened to 15 s, 1 min for the
 * story) is resent while the receiver is still down: attempt 4 fails and a new schedule starts at
 * the first gap; attempt 5 is delivered. A pending event is resent ahead of its schedule and goes at
 * once. While the webhook is disabled B41 is -5104 and sends nothing; an unknown event id, a non-hex
 * one, and another user's event are -5103 (HTTP 404).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { merchantUser, onboardedMerchant, type MerchantClient } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';
import { pumpAt, settled, webhookEvent, webhookEvents, WebhookReceiver, type EventRow } from '../../support/webhook-receiver.js';

describe('story: B41 resends an event with the same id and bytes', () => {
  let s: PaymentsStory;
  let other: MerchantClient;
  let receiver: WebhookReceiver;
  let merchantId: number;
  let webhookId: string;
  let delivered: string;
  let failed: string;
  let pending: string;
  /** Amounts of the arrivals whose events the receiver answers 500. */
  const down = new Set<string>();

  const arrival = async (amount: string): Promise<string> => String((await s.client.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount })).txId);
  const eventOf = (txId: string): string => {
    const got = receiver.received.find((r) => r.body.txId === txId);
    if (got === undefined) throw new Error(`no event of ${txId} arrived`);
    return got.body.eventId as string;
  };
  const row = (eventId: string): Promise<EventRow> => webhookEvent(s.client, eventId);
  const worker = (): typeof s.t.server.webhooks => s.t.server.webhooks;

  beforeAll(async () => {
    s = await paymentsStory();
    other = (await merchantUser(s.op, s.t.url)).client;
    receiver = await WebhookReceiver.start(s.t.server.webhookPublicKey);
    receiver.reply = (r) => (down.has(r.body.amount as string) ? { status: 500 } : { status: 200, body: '{"callbackStatus":"SUCCESS"}' });
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    webhookId = (await s.client.ok<{ webhookId: string }>('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: receiver.url })).webhookId;
    await s.op.ok('PATCH', '/payments/config', { webhook: { retryGapsMs: [15_000, 60_000] } });
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await s.t.stop();
    await receiver.close();
  });

  it('1. a delivered event resent: B41 answers the B40 row PENDING; attempt 2 carries the same eventId, bytes and signature', async () => {
    const txId = await arrival('100.00');
    await receiver.waitFor(1);
    await settled(worker());
    delivered = eventOf(txId);
    expect(await row(delivered)).toMatchObject({ status: 'DELIVERED', attempts: 1 });

    const now = Date.now();
    const answer = await s.client.ok<EventRow>('POST', `/v2/webhook/events/${delivered}/resend`);
    expect(answer).toEqual({
      eventId: delivered,
      webhookId,
      eventType: 'FUNDING_WEBHOOK',
      objectId: txId,
      objectStatus: '2',
      status: 'PENDING',
      attempts: 1,
      nextAttemptTime: String(now),
      createTime: String(now),
      deliveredTime: '',
      payload: receiver.received[0].raw.toString('utf8'),
      deliveries: [{ attempt: 1, time: String(now), url: receiver.url, httpStatus: 200, durationMs: expect.any(Number) as unknown, result: 'SUCCESS', error: '' }],
    });
    await receiver.waitFor(2);
    await settled(worker());
    const [first, second] = receiver.ofEvent(delivered);
    expect(second.headers['x-bh-delivery-attempt']).toBe('2');
    expect(second.headers['x-bh-event-id']).toBe(delivered);
    expect(second.raw.equals(first.raw)).toBe(true);
    expect(second.headers.signature).toBe(first.headers.signature);
    expect(second.verified).toBe(true);
    const after = await row(delivered);
    expect(after).toMatchObject({ status: 'DELIVERED', attempts: 2, nextAttemptTime: '', deliveredTime: String(now) });
    expect(after.deliveries.map((d) => [d.attempt, d.result])).toEqual([
      [2, 'SUCCESS'],
      [1, 'SUCCESS'],
    ]);
  });

  it('2. an event whose schedule runs out (attempt 1, then +15 s, +1 min) is FAILED and not tried again', async () => {
    down.add('200.00');
    const txId = await arrival('200.00');
    await receiver.waitFor(3);
    await settled(worker());
    failed = eventOf(txId);
    for (const attempts of [1, 2]) {
      const event = await row(failed);
      expect(event).toMatchObject({ status: 'PENDING', attempts });
      await pumpAt(worker(), Number(event.nextAttemptTime));
    }
    const event = await row(failed);
    expect(event).toMatchObject({ status: 'FAILED', attempts: 3, nextAttemptTime: '', deliveredTime: '' });
    expect(event.deliveries.map((d) => [d.attempt, d.error])).toEqual([
      [3, 'HTTP 500'],
      [2, 'HTTP 500'],
      [1, 'HTTP 500'],
    ]);
    await pumpAt(worker(), Date.now() + 3_600_000);
    expect(receiver.ofEvent(failed)).toHaveLength(3);
  });

  it('3. the FAILED event resent while the receiver is still down: attempt 4 goes at once, fails, and a new schedule starts at 15 s', async () => {
    const now = Date.now();
    expect(await s.client.ok<EventRow>('POST', `/v2/webhook/events/${failed}/resend`)).toMatchObject({ eventId: failed, status: 'PENDING', attempts: 3, nextAttemptTime: String(now) });
    await receiver.waitFor(5);
    await settled(worker());
    expect(receiver.ofEvent(failed).map((r) => r.headers['x-bh-delivery-attempt'])).toEqual(['1', '2', '3', '4']);
    const event = await row(failed);
    expect(event).toMatchObject({ status: 'PENDING', attempts: 4 });
    expect(event.deliveries[0]).toMatchObject({ attempt: 4, time: String(now), httpStatus: 500, result: 'FAILED', error: 'HTTP 500' });
    const gap = Number(event.nextAttemptTime) - now;
    expect(gap).toBeGreaterThanOrEqual(15_000);
    expect(gap).toBeLessThanOrEqual(16_500);
  });

  it('4. the receiver is back: attempt 5 at the due time is delivered, every attempt the same bytes', async () => {
    down.clear();
    const due = Number((await row(failed)).nextAttemptTime);
    await pumpAt(worker(), due);
    const got = receiver.ofEvent(failed);
    expect(got.map((r) => r.headers['x-bh-delivery-attempt'])).toEqual(['1', '2', '3', '4', '5']);
    expect(got.every((r) => r.raw.equals(got[0].raw) && r.headers['x-bh-event-id'] === failed && r.verified)).toBe(true);
    expect(await row(failed)).toMatchObject({ status: 'DELIVERED', attempts: 5, deliveredTime: String(due) });
  });

  it('5. a pending event resent ahead of its schedule goes at once', async () => {
    down.add('300.00');
    const sent = receiver.received.length;
    const txId = await arrival('300.00');
    await receiver.waitFor(sent + 1);
    await settled(worker());
    pending = eventOf(txId);
    const before = await row(pending);
    expect(before).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect(Number(before.nextAttemptTime)).toBeGreaterThan(Date.now());
    down.clear();
    const count = receiver.received.length;
    await s.client.ok('POST', `/v2/webhook/events/${pending}/resend`);
    await receiver.waitFor(count + 1);
    await settled(worker());
    expect(receiver.ofEvent(pending).map((r) => r.headers['x-bh-delivery-attempt'])).toEqual(['1', '2']);
    expect(await row(pending)).toMatchObject({ status: 'DELIVERED', attempts: 2 });
  });

  it('6. while the webhook is disabled B41 is -5104 and sends nothing; enabled again it works', async () => {
    await s.client.ok('PUT', `/v2/webhook/${webhookId}`, { status: 20 });
    const count = receiver.received.length;
    expect(await s.client.refused('POST', `/v2/webhook/events/${delivered}/resend`)).toEqual([400, -5104]);
    await settled(worker());
    expect(receiver.received).toHaveLength(count);
    expect(await row(delivered)).toMatchObject({ status: 'DELIVERED', attempts: 2 });
    await s.client.ok('PUT', `/v2/webhook/${webhookId}`, { status: 10 });
    await s.client.ok('POST', `/v2/webhook/events/${delivered}/resend`);
    await receiver.waitFor(count + 1);
    await settled(worker());
    expect(receiver.ofEvent(delivered).map((r) => r.headers['x-bh-delivery-attempt'])).toEqual(['1', '2', '3']);
  });

  it('7. an unknown event id, a non-hex one and another user\'s event are -5103 (404), and nothing is sent', async () => {
    const count = receiver.received.length;
    expect(await s.client.refused('POST', `/v2/webhook/events/${randomBytes(16).toString('hex')}/resend`)).toEqual([404, -5103]);
    expect(await s.client.refused('POST', '/v2/webhook/events/not-an-event/resend')).toEqual([404, -5103]);
    expect(await s.client.refused('POST', `/v2/webhook/events/${delivered.toUpperCase()}/resend`)).toEqual([404, -5103]);
    expect(await other.refused('POST', `/v2/webhook/events/${delivered}/resend`)).toEqual([404, -5103]);
    expect(await other.refused('POST', `/v2/webhook/events/${pending}/resend`)).toEqual([404, -5103]);
    expect(await webhookEvents(other)).toEqual([]);
    await settled(worker());
    expect(receiver.received).toHaveLength(count);
    expect(await row(delivered)).toMatchObject({ status: 'DELIVERED', attempts: 3 });
  });
});
