/**
 * Story: at most `maxInFlightPerUrl` (16) attempts in flight per URL (docs/webhooks.md "Answering, retries, order"). A receiver holds its
 * answers while 24 deposit records' events are due: exactly 16 requests come and wait, none more;
 * released, all 24 arrive once. Set to 4 by the operator, the cap follows at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

describe('story: at most 16 attempts in flight per URL', () => {
  let s: PaymentsStory;
  let receiver: WebhookReceiver;
  let merchantId: number;

  const deposits = async (n: number, prefix: string): Promise<void> => {
    await Promise.all(Array.from({ length: n }, (_, i) => s.client.ok('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '10.00', traceNumber: `${prefix}-${i}` })));
  };

  beforeAll(async () => {
    s = await paymentsStory();
    receiver = await WebhookReceiver.start(s.t.server.webhookPublicKey);
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    await s.client.ok('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: receiver.url });
  });
  afterAll(async () => {
    await s.t.stop();
    await receiver.close();
  });

  /** Holds every answer until the returned function is called. */
  const hold = (): (() => void) => {
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    receiver.reply = () => ({ status: 200, body: '{"callbackStatus":"SUCCESS"}', until: gate });
    return () => open();
  };
  /**
   * The worker has started every attempt the cap allows: a pump starts no other. Attempts start
   * synchronously, so `busy` counts every request sent or on its way, and each has arrived.
   */
  const expectCapped = (cap: number, arrived: number): void => {
    s.t.server.webhooks.pump();
    expect(s.t.server.webhooks.busy).toBe(cap);
    expect(receiver.received.length).toBe(arrived);
  };

  it('1. 24 records at once: 16 requests in flight at most, and every event arrives once', async () => {
    const release = hold();
    await deposits(24, 'A');
    await receiver.waitFor(16);
    expectCapped(16, 16);
    release();
    await receiver.waitFor(24);
    await s.t.server.webhooks.idle();
    expect(receiver.peakAll).toBe(16);
    expect(new Set(receiver.received.map((r) => r.body.eventId)).size).toBe(24);
  });

  it('2. with maxInFlightPerUrl 4, at most 4', async () => {
    await s.op.ok('PATCH', '/payments/config', { webhook: { maxInFlightPerUrl: 4 } });
    receiver.peakAll = 0;
    const release = hold();
    await deposits(10, 'B');
    await receiver.waitFor(28);
    expectCapped(4, 28);
    release();
    await receiver.waitFor(34);
    await s.t.server.webhooks.idle();
    expect(receiver.peakAll).toBe(4);
  });
});
