/**
 * Story: B40 history is purged 30 days (`retentionDays`) after an event ends (docs/webhooks.md "Answering, retries, order"). Event A is
 * delivered on day 0, event P fails and stays PENDING, event B is delivered on day 2. The purge the
 * delivery worker submits (`purgeWebhookEvents`, at start and hourly) run 1 ms before A's 30 days
 * keeps everything; run on day 31 it removes A only (B ended 29 days before, P never ended), and
 * B41 on A is then -5103. B resent on day 31 ends again, so its 30 days start over: a purge on day 33
 * keeps it, one on day 62 removes it. Tokens expire meanwhile, so each jump takes a new one.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onboardedMerchant, type MerchantClient } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';
import { reconnect, settled, webhookEvents, WebhookReceiver } from '../../support/webhook-receiver.js';

const DAY_MS = 86_400_000;

describe('story: ended events are purged 30 days after they end', () => {
  let s: PaymentsStory;
  let client: MerchantClient;
  let receiver: WebhookReceiver;
  let merchantId: number;
  let t0: number;
  const events = { a: '', p: '', b: '' };

  const arrival = async (amount: string): Promise<string> => String((await client.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount })).txId);
  const eventOf = async (txId: string): Promise<string> => {
    await settled(s.t.server.webhooks);
    const [row] = await webhookEvents(client, { objectId: txId });
    return row.eventId;
  };
  /** Moves the clock to `ms` (a new token: the old one has expired) and lets the worker's purge run then. */
  const purgeAt = async (ms: number): Promise<void> => {
    vi.setSystemTime(ms);
    client = await reconnect(s.op, s.t.url, s.userId);
    await s.t.server.exchange.submit({ type: 'purgeWebhookEvents' });
    await settled(s.t.server.webhooks);
  };
  const listed = async (): Promise<string[]> => (await webhookEvents(client)).map((r) => r.eventId);

  beforeAll(async () => {
    s = await paymentsStory();
    client = s.client;
    receiver = await WebhookReceiver.start(s.t.server.webhookPublicKey);
    receiver.reply = (r) => (r.body.amount === '200.00' ? { status: 503 } : { status: 200, body: '{"callbackStatus":"SUCCESS"}' });
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    await s.client.ok('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: receiver.url });
    vi.useFakeTimers({ toFake: ['Date'] });
    t0 = Date.now();
  });
  afterAll(async () => {
    vi.useRealTimers();
    await s.t.stop();
    await receiver.close();
  });

  it('1. day 0: A is delivered, P fails and stays PENDING; day 2: B is delivered', async () => {
    events.a = await eventOf(await arrival('100.00'));
    events.p = await eventOf(await arrival('200.00'));
    vi.setSystemTime(t0 + 2 * DAY_MS);
    client = await reconnect(s.op, s.t.url, s.userId);
    events.b = await eventOf(await arrival('300.00'));
    const rows = await webhookEvents(client);
    expect(rows.map((r) => [r.eventId, r.status])).toEqual([
      [events.b, 'DELIVERED'],
      [events.p, 'PENDING'],
      [events.a, 'DELIVERED'],
    ]);
    expect(rows.find((r) => r.eventId === events.a)?.deliveredTime).toBe(String(t0));
  });

  it('2. a purge 1 ms before A has been ended for 30 days keeps everything', async () => {
    await purgeAt(t0 + 30 * DAY_MS - 1);
    expect(await listed()).toEqual([events.b, events.p, events.a]);
  });

  it('3. the purge on day 31 removes A only: B ended 29 days ago, P never ended', async () => {
    await purgeAt(t0 + 31 * DAY_MS);
    expect(await listed()).toEqual([events.b, events.p]);
    expect((await webhookEvents(client, { status: 'PENDING' })).map((r) => r.eventId)).toEqual([events.p]);
    expect(await client.refused('POST', `/v2/webhook/events/${events.a}/resend`)).toEqual([404, -5103]);
  });

  it('4. B resent and delivered on day 31: its retention starts over (kept on day 33, purged on day 62)', async () => {
    await client.ok('POST', `/v2/webhook/events/${events.b}/resend`);
    await settled(s.t.server.webhooks);
    expect((await webhookEvents(client, { status: 'DELIVERED' })).map((r) => [r.eventId, r.attempts, r.deliveredTime])).toEqual([[events.b, 2, String(t0 + 31 * DAY_MS)]]);
    await purgeAt(t0 + 33 * DAY_MS);
    expect(await listed()).toContain(events.b);
    await purgeAt(t0 + 62 * DAY_MS);
    expect(await listed()).not.toContain(events.b);
    expect(await listed()).not.toContain(events.a);
  });
});
