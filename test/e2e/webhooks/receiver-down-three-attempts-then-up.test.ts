/**
 * Story: the receiver is down for three attempts, then up. A FUNDING_WEBHOOK event (a SPEI arrival
 * becoming a DEPOSIT record) is tried at once and answered 503; the next attempts follow after the
 * docs/webhooks.md "Answering, retries, order" gaps of 15 s, 1 min and 5 min, each plus 0–10 % jitter (B40 `nextAttemptTime` lies in
 * [gap, gap × 1.1] after the failed attempt), and nothing is sent before that time even when the
 * worker is pumped. The fourth attempt is answered SUCCESS: every attempt carried the same
 * `eventId`, byte-identical body and signature, `X-BH-Delivery-Attempt` 1..4, and verified; B40
 * shows the event DELIVERED after 4 attempts, its deliveries newest first, the failed ones "HTTP 503".
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';
import { pumpAt, settled, webhookEvent, WebhookReceiver, type EventRow } from '../../support/webhook-receiver.js';

const GAPS_MS = [15_000, 60_000, 300_000];

describe('story: a receiver down for three attempts, then up', () => {
  let s: PaymentsStory;
  let receiver: WebhookReceiver;
  let merchantId: number;
  let eventId: string;
  /** When each attempt was made (the frozen server clock). */
  const attemptTimes: number[] = [];
  let t0: number;

  const row = (): Promise<EventRow> => webhookEvent(s.client, eventId);

  beforeAll(async () => {
    s = await paymentsStory();
    receiver = await WebhookReceiver.start(s.t.server.webhookPublicKey);
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    await s.client.ok('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: receiver.url });
    receiver.reply = (r) => (r.headers['x-bh-delivery-attempt'] === '4' ? { status: 200, body: '{"callbackStatus":"SUCCESS"}' } : { status: 503, body: 'down for maintenance' });
    vi.useFakeTimers({ toFake: ['Date'] });
    t0 = Date.now();
  });
  afterAll(async () => {
    vi.useRealTimers();
    await s.t.stop();
    await receiver.close();
  });

  it('1. the arrival commits an event that is tried at once; the 503 leaves it PENDING, next due 15 s (+0–10 %) later', async () => {
    const arrival = await s.client.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '5000.00', traceNumber: 'SPEI-DOWN-1' });
    await receiver.waitFor(1);
    await settled(s.t.server.webhooks);
    const first = receiver.received[0];
    eventId = first.body.eventId as string;
    expect(first.body).toMatchObject({ txId: String(arrival.txId), type: 'DEPOSIT', status: '2' });
    expect(first.headers['x-bh-delivery-attempt']).toBe('1');
    expect(first.headers['x-bh-timestamp']).toBe(String(t0));
    attemptTimes.push(t0);
    const event = await row();
    expect(event).toMatchObject({ status: 'PENDING', attempts: 1, objectId: String(arrival.txId), objectStatus: '2', createTime: String(t0), deliveredTime: '' });
    expect(event.deliveries).toEqual([{ attempt: 1, time: String(t0), url: receiver.url, httpStatus: 503, durationMs: expect.any(Number) as unknown, result: 'FAILED', error: 'HTTP 503' }]);
  });

  for (const [i, gap] of GAPS_MS.entries()) {
    const attempt = i + 2;
    it(`${attempt}. attempt ${attempt} is due ${gap / 1000} s (+0–10 %) after attempt ${attempt - 1}: a pump 1 ms before sends nothing, at the due time it goes`, async () => {
      const previous = attemptTimes[attemptTimes.length - 1];
      const due = Number((await row()).nextAttemptTime);
      expect(due - previous).toBeGreaterThanOrEqual(gap);
      expect(due - previous).toBeLessThanOrEqual(gap * 1.1);

      // pumpAt returns once every attempt the pump started has its outcome: a request sent would be here.
      await pumpAt(s.t.server.webhooks, due - 1);
      expect(receiver.received).toHaveLength(attempt - 1);
      expect(await row()).toMatchObject({ status: 'PENDING', attempts: attempt - 1, nextAttemptTime: String(due) });

      await pumpAt(s.t.server.webhooks, due);
      expect(receiver.received).toHaveLength(attempt);
      const got = receiver.received[attempt - 1];
      expect([got.headers['x-bh-delivery-attempt'], got.headers['x-bh-timestamp'], got.at]).toEqual([String(attempt), String(due), due]);
      attemptTimes.push(due);
      const event = await row();
      expect(event.attempts).toBe(attempt);
      expect(event.deliveries[0]).toMatchObject({ attempt, time: String(due), httpStatus: attempt === 4 ? 200 : 503, result: attempt === 4 ? 'SUCCESS' : 'FAILED', error: attempt === 4 ? '' : 'HTTP 503' });
    });
  }

  it('5. every attempt carried the same eventId, byte-identical body and signature, attempts 1..4, each verified', () => {
    expect(receiver.received).toHaveLength(4);
    expect(receiver.received.map((r) => r.headers['x-bh-delivery-attempt'])).toEqual(['1', '2', '3', '4']);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.headers['x-bh-event-id']))).toEqual(new Set([eventId]));
    expect(new Set(receiver.received.map((r) => r.body.eventId))).toEqual(new Set([eventId]));
    const first = receiver.received[0];
    for (const r of receiver.received) {
      expect(r.raw.equals(first.raw)).toBe(true);
      expect(r.headers.signature).toBe(first.headers.signature);
    }
  });

  it('6. B40 shows the event DELIVERED after 4 attempts, deliveries newest first, the exact body as payload', async () => {
    const event = await row();
    expect(event).toMatchObject({ eventId, eventType: 'FUNDING_WEBHOOK', status: 'DELIVERED', attempts: 4, nextAttemptTime: '', createTime: String(t0), deliveredTime: String(attemptTimes[3]) });
    expect(event.payload).toBe(receiver.received[0].raw.toString('utf8'));
    expect(event.deliveries.map((d) => [d.attempt, d.time, d.url, d.httpStatus, d.result, d.error])).toEqual([
      [4, String(attemptTimes[3]), receiver.url, 200, 'SUCCESS', ''],
      [3, String(attemptTimes[2]), receiver.url, 503, 'FAILED', 'HTTP 503'],
      [2, String(attemptTimes[1]), receiver.url, 503, 'FAILED', 'HTTP 503'],
      [1, String(attemptTimes[0]), receiver.url, 503, 'FAILED', 'HTTP 503'],
    ]);
  });

  it('7. once delivered nothing more is sent, however far the clock moves', async () => {
    await pumpAt(s.t.server.webhooks, attemptTimes[3] + 86_400_000);
    expect(receiver.received).toHaveLength(4);
  });
});
