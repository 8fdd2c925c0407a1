/**
 * Story: a disabled webhook pauses its pending events and records no new ones. Two FUNDING_WEBHOOK
 * events fail their first attempt (receiver down); B38 `status` 20 disables the webhook: past their
 * due time a pump sends nothing and they stay PENDING. While disabled, an arrival and a completed
 * pending DEPOSIT record change state but record no event (docs/webhooks.md "Registering" "only if a webhook of that type is
 * in status 10 when the change commits"). B38 `status` 10 resumes the paused events at once, and the
 * changes made while disabled are never sent (no backfill). The legacy statuses 2 and 1 do the same
 * (output 20 and 10), and re-enabling sends a paused event at once even before its retry time.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';
import { pumpAt, settled, webhookEvents, WebhookReceiver } from '../../support/webhook-receiver.js';

describe('story: disabling a webhook pauses it and records nothing; enabling resumes at once', () => {
  let s: PaymentsStory;
  let receiver: WebhookReceiver;
  let merchantId: number;
  let webhookId: string;
  let hook: Record<string, unknown>;
  let d1: string;
  let d2: string;
  let due: number;
  /** Amounts whose events the receiver answers 503. */
  const down = new Set<string>();

  const arrival = async (amount: string): Promise<string> => String((await s.client.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount })).txId);
  const statusesOf = async (txId: string): Promise<string[][]> => (await webhookEvents(s.client, { objectId: txId })).map((r) => [r.objectStatus, r.status, String(r.attempts)]);
  const worker = (): typeof s.t.server.webhooks => s.t.server.webhooks;

  beforeAll(async () => {
    s = await paymentsStory();
    receiver = await WebhookReceiver.start(s.t.server.webhookPublicKey);
    receiver.reply = (r) => (down.has(r.body.amount as string) ? { status: 503 } : { status: 200, body: '{"callbackStatus":"SUCCESS"}' });
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    hook = await s.client.ok<Record<string, unknown>>('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: receiver.url });
    webhookId = hook.webhookId as string;
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await s.t.stop();
    await receiver.close();
  });

  it('1. two events fail their first attempt and wait for their retry', async () => {
    down.add('100.00').add('200.00');
    d1 = await arrival('100.00');
    await s.client.ok('PUT', '/sandbox/v2/modes', { deposit: 'manual' });
    d2 = await arrival('200.00');
    await receiver.waitFor(2);
    await settled(worker());
    expect(await statusesOf(d1)).toEqual([['2', 'PENDING', '1']]);
    expect(await statusesOf(d2)).toEqual([['1', 'PENDING', '1']]);
    due = Math.max(...(await webhookEvents(s.client)).map((r) => Number(r.nextAttemptTime)));
    expect(due).toBeGreaterThan(Date.now());
  });

  it('2. B38 status 20 disables it: B37 shows 20; past the due time a pump sends nothing', async () => {
    expect(await s.client.ok('PUT', `/v2/webhook/${webhookId}`, { status: 20 })).toEqual({ ...hook, status: 20 });
    expect(await s.client.ok('GET', '/v2/webhooks')).toEqual([{ ...hook, status: 20 }]);
    expect(await s.client.ok('GET', '/v2/webhooks', { status: 20 })).toEqual([{ ...hook, status: 20 }]);
    expect(await s.client.ok('GET', '/v2/webhooks', { status: 10 })).toEqual([]);
    down.clear();
    // pumpAt returns once every attempt the pump started has its outcome: a request sent would be here.
    await pumpAt(worker(), due + 600_000);
    expect(receiver.received).toHaveLength(2);
    expect(await statusesOf(d1)).toEqual([['2', 'PENDING', '1']]);
    expect(await statusesOf(d2)).toEqual([['1', 'PENDING', '1']]);
  });

  it('3. while disabled, an arrival and a completed record change state but record no event', async () => {
    await s.client.ok('PUT', '/sandbox/v2/modes', { deposit: 'complete' });
    const d3 = await arrival('300.00');
    expect(await s.client.ok('POST', `/sandbox/v2/funding/${d2}/complete`)).toMatchObject({ txId: Number(d2), status: 2 });
    expect(await statusesOf(d3)).toEqual([]);
    expect(await statusesOf(d2)).toEqual([['1', 'PENDING', '1']]);
    expect(await webhookEvents(s.client)).toHaveLength(2);
  });

  it('4. B38 status 10 resumes the paused events at once (no pump); what changed while disabled is never sent', async () => {
    const now = Date.now();
    expect(await s.client.ok('PUT', `/v2/webhook/${webhookId}`, { status: 10 })).toEqual(hook);
    await receiver.waitFor(4);
    await settled(worker());
    const seen = receiver.received.map((r) => [r.body.txId, r.body.status, r.headers['x-bh-delivery-attempt']]);
    expect(seen.slice(0, 2)).toEqual([
      [d1, '2', '1'],
      [d2, '1', '1'],
    ]);
    expect(seen.slice(2).sort()).toEqual(
      [
        [d1, '2', '2'],
        [d2, '1', '2'],
      ].sort(),
    );
    expect(receiver.received.slice(2).every((r) => r.headers['x-bh-timestamp'] === String(now))).toBe(true);
    expect(await statusesOf(d1)).toEqual([['2', 'DELIVERED', '2']]);
    expect(await statusesOf(d2)).toEqual([['1', 'DELIVERED', '2']]);
    await pumpAt(worker(), now + 3_600_000);
    expect(receiver.received).toHaveLength(4);
    expect(await webhookEvents(s.client)).toHaveLength(2);
  });

  it('5. legacy status 2 disables (shown 20) and 1 enables (shown 10): a paused event goes at once, before its retry time', async () => {
    down.add('400.00');
    const d4 = await arrival('400.00');
    await receiver.waitFor(5);
    await settled(worker());
    const retryAt = Number((await webhookEvents(s.client, { objectId: d4 }))[0].nextAttemptTime);
    expect(retryAt).toBeGreaterThan(Date.now());

    expect(await s.client.ok('PUT', `/v2/webhook/${webhookId}`, { status: 2 })).toEqual({ ...hook, status: 20 });
    const d5 = await arrival('500.00');
    down.clear();
    expect(await s.client.ok('PUT', `/v2/webhook/${webhookId}`, { status: 1 })).toEqual(hook);
    await receiver.waitFor(6);
    await settled(worker());
    expect(receiver.received.slice(4).map((r) => [r.body.txId, r.headers['x-bh-delivery-attempt'], r.at < retryAt])).toEqual([
      [d4, '1', true],
      [d4, '2', true],
    ]);
    expect(await statusesOf(d4)).toEqual([['2', 'DELIVERED', '2']]);
    expect(await statusesOf(d5)).toEqual([]);
  });

  it('6. after enabling, new changes are recorded and sent again', async () => {
    const d6 = await arrival('600.00');
    await receiver.waitFor(7);
    await settled(worker());
    expect(receiver.received[6].body).toMatchObject({ txId: d6, amount: '600.00', status: '2' });
    expect(await statusesOf(d6)).toEqual([['2', 'DELIVERED', '1']]);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  });
});
