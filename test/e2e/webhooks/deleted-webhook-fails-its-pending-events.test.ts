/**
 * Story: deleting a webhook ends its pending events. The receiver is down; three FUNDING_WEBHOOK
 * events are pending: two failed once, one never tried (queued behind the first, same funding
 * record). B39 deletes the webhook: each becomes FAILED with a delivery entry of attempt 0, error
 * "webhook deleted", and nothing is sent any more. The webhook is listed only with B37 `status=30`;
 * B38, B39 and B41 on it or its events are -5103 (404). A new webhook of the same type can then be
 * registered; it receives later changes (also of the same records), never the old events.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';
import { pumpAt, settled, webhookEvents, WebhookReceiver, type EventRow } from '../../support/webhook-receiver.js';

describe('story: a deleted webhook fails its pending events and frees its type', () => {
  let s: PaymentsStory;
  let receiver: WebhookReceiver;
  let next: WebhookReceiver;
  let merchantId: number;
  let hook: Record<string, unknown>;
  let webhookId: string;
  let d1: string;
  let d2: string;
  let deletedAt: number;
  let old: EventRow[];

  const arrival = async (amount: string): Promise<string> => String((await s.client.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount })).txId);
  const worker = (): typeof s.t.server.webhooks => s.t.server.webhooks;

  beforeAll(async () => {
    s = await paymentsStory();
    receiver = await WebhookReceiver.start(s.t.server.webhookPublicKey);
    next = await WebhookReceiver.start(s.t.server.webhookPublicKey, '/next');
    receiver.reply = () => ({ status: 503 });
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    hook = await s.client.ok<Record<string, unknown>>('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: receiver.url });
    webhookId = hook.webhookId as string;
    await s.client.ok('PUT', '/sandbox/v2/modes', { deposit: 'manual' });
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await s.t.stop();
    await receiver.close();
    await next.close();
  });

  it('1. three events pending: two failed once, one queued behind its record\'s first event', async () => {
    d1 = await arrival('100.00');
    await receiver.waitFor(1);
    await settled(worker());
    await s.client.ok('POST', `/sandbox/v2/funding/${d1}/complete`);
    d2 = await arrival('200.00');
    await receiver.waitFor(2);
    await settled(worker());
    old = await webhookEvents(s.client);
    expect(old.map((r) => [r.objectId, r.objectStatus, r.status, r.attempts])).toEqual([
      [d2, '1', 'PENDING', 1],
      [d1, '2', 'PENDING', 0],
      [d1, '1', 'PENDING', 1],
    ]);
    expect(receiver.received.map((r) => [r.body.txId, r.body.status])).toEqual([
      [d1, '1'],
      [d2, '1'],
    ]);
  });

  it('2. B39 deletes it: every pending event is FAILED with an attempt-0 entry "webhook deleted"', async () => {
    deletedAt = Date.now() + 5_000;
    vi.setSystemTime(deletedAt);
    expect(await s.client.ok('DELETE', `/v2/webhook/${webhookId}`)).toEqual({ result: true });
    const rows = await webhookEvents(s.client);
    expect(rows.map((r) => r.eventId)).toEqual(old.map((r) => r.eventId));
    const deleted = { attempt: 0, time: String(deletedAt), url: receiver.url, httpStatus: 0, durationMs: 0, result: 'FAILED', error: 'webhook deleted' };
    for (const [i, row] of rows.entries()) {
      expect(row).toMatchObject({ status: 'FAILED', attempts: old[i].attempts, nextAttemptTime: '', deliveredTime: '', payload: old[i].payload });
      expect(row.deliveries[0]).toEqual(deleted);
      expect(row.deliveries.slice(1)).toEqual(old[i].deliveries);
    }
    expect(rows[1].deliveries).toEqual([deleted]);
    expect(await webhookEvents(s.client, { status: 'PENDING' })).toEqual([]);
  });

  it('3. nothing is sent any more, however far the clock moves', async () => {
    // pumpAt returns once every attempt the pump started has its outcome: a request sent would be here.
    await pumpAt(worker(), deletedAt + 600_000);
    expect(receiver.received).toHaveLength(2);
    expect(await webhookEvents(s.client, { status: 'FAILED' })).toHaveLength(3);
  });

  it('4. B37 lists it only with status=30, shown as 30', async () => {
    expect(await s.client.ok('GET', '/v2/webhooks')).toEqual([]);
    expect(await s.client.ok('GET', '/v2/webhooks', { status: 10 })).toEqual([]);
    expect(await s.client.ok('GET', '/v2/webhooks', { status: 20 })).toEqual([]);
    expect(await s.client.ok('GET', '/v2/webhooks', { status: 30 })).toEqual([{ ...hook, status: 30 }]);
  });

  it('5. B38, B39 and B41 on the deleted webhook or its events are -5103 (404)', async () => {
    expect(await s.client.refused('PUT', `/v2/webhook/${webhookId}`, { status: 10 })).toEqual([404, -5103]);
    expect(await s.client.refused('PUT', `/v2/webhook/${webhookId}`, { url: next.url })).toEqual([404, -5103]);
    expect(await s.client.refused('DELETE', `/v2/webhook/${webhookId}`)).toEqual([404, -5103]);
    for (const row of old) expect(await s.client.refused('POST', `/v2/webhook/events/${row.eventId}/resend`)).toEqual([404, -5103]);
    expect(await s.client.ok('GET', '/v2/webhooks', { status: 30 })).toEqual([{ ...hook, status: 30 }]);
  });

  it('6. a new webhook of the same type is registered; it gets later changes, never the old events', async () => {
    const fresh = await s.client.ok<Record<string, unknown>>('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: next.url });
    expect(fresh).toMatchObject({ eventType: 'FUNDING_WEBHOOK', url: next.url, status: 10 });
    expect(fresh.webhookId).not.toBe(webhookId);
    expect(await s.client.ok('GET', '/v2/webhooks')).toEqual([fresh]);
    expect(await s.client.ok('GET', '/v2/webhooks', { status: 30 })).toEqual([{ ...hook, status: 30 }]);

    await s.client.ok('POST', `/sandbox/v2/funding/${d2}/complete`);
    await next.waitFor(1);
    await settled(worker());
    await pumpAt(worker(), Date.now() + 600_000);
    expect(next.received.map((r) => [r.body.webhookId, r.body.txId, r.body.status, r.verified])).toEqual([[fresh.webhookId, d2, '2', true]]);
    expect(receiver.received).toHaveLength(2);
    const rows = await webhookEvents(s.client, { objectId: d2 });
    expect(rows.map((r) => [r.webhookId, r.objectStatus, r.status])).toEqual([
      [fresh.webhookId, '2', 'DELIVERED'],
      [webhookId, '1', 'FAILED'],
    ]);
  });
});
