/**
 * Story: with `BOURSE_SANDBOX=0` webhooks go only to public https targets (docs/webhooks.md "Registering"). B36 and B38 refuse
 * an http URL (-4010). An https URL naming a loopback, private, link-local or unique-local address
 * (127.0.0.1, localhost, [::1], 10.x, the IPv4-mapped [::ffff:127.0.0.1], 192.168.x, 169.254.x,
 * [fd00::1]) is accepted at registration, but every attempt to it fails at send time with "blocked
 * target", `httpStatus` 0, and no connection reaches any local receiver. Retry gaps are set to 15 s
 * for the story, so that the event's eight attempts each try the next URL (B38 between attempts);
 * after the eighth it is FAILED. The docs/merchant-payments.md "The simulator and the sandbox API" calls use the operator's admin token (merchant tokens may
 * not call docs/merchant-payments.md "The simulator and the sandbox API" in production).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminSandbox, onboardedMerchant } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';
import { pumpAt, settled, webhookEvents, WebhookReceiver, type EventRow } from '../../support/webhook-receiver.js';

const TARGET_NAMES = ['127.0.0.1', 'localhost', '[::1]', '10.x', '[::ffff:127.0.0.1]', '192.168.x', '169.254.169.254', '[fd00::1]'];

describe('story: production blocks private webhook targets at send time', () => {
  let s: PaymentsStory;
  let v4: WebhookReceiver;
  let v6: WebhookReceiver;
  let merchantId: number;
  let webhookId: string;
  let txId: string;
  let targets: [string, string][];

  const portOf = (r: WebhookReceiver): string => new URL(r.url).port;
  const row = async (): Promise<EventRow> => (await webhookEvents(s.client, { objectId: txId }))[0];
  const admin = async <T,>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await adminSandbox<T>(s.t.url, s.t.adminToken, method, path, body);
    expect([answer.code, answer.detail]).toEqual([200, '']);
    return answer.data;
  };

  beforeAll(async () => {
    s = await paymentsStory({ BOURSE_SANDBOX: '0' });
    v4 = await WebhookReceiver.start(s.t.server.webhookPublicKey);
    v6 = await WebhookReceiver.start(s.t.server.webhookPublicKey, '/hook', '::1');
    targets = [
      ['127.0.0.1', `https://127.0.0.1:${portOf(v4)}/hook`],
      ['localhost', `https://localhost:${portOf(v4)}/hook`],
      ['[::1]', `https://[::1]:${portOf(v6)}/hook`],
      ['10.x', 'https://10.1.2.3/hook'],
      ['[::ffff:127.0.0.1]', `https://[::ffff:127.0.0.1]:${portOf(v4)}/hook`],
      ['192.168.x', 'https://192.168.1.20/hook'],
      ['169.254.169.254', 'https://169.254.169.254/latest/meta-data'],
      ['[fd00::1]', 'https://[fd00::1]/hook'],
    ];
    // Production defaults every simulator mode to manual: the operator sets automatic ones for this user.
    await admin('PUT', `/modes?userId=${s.userId}`, { kyc: 'approve', accountReview: 'approve', deposit: 'complete' });
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    await s.op.ok('PATCH', '/payments/config', { webhook: { retryGapsMs: [15_000, 15_000, 15_000, 15_000, 15_000, 15_000, 15_000] } });
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await s.t.stop();
    await v4.close();
    await v6.close();
  });

  it('1. B36 with an http URL is -4010 and registers nothing; an https URL to 127.0.0.1 is accepted', async () => {
    expect(await s.client.refused('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: v4.url })).toEqual([400, -4010]);
    expect(await s.client.ok('GET', '/v2/webhooks')).toEqual([]);
    const hook = await s.client.ok<{ webhookId: string }>('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: targets[0][1] });
    expect(hook).toMatchObject({ eventType: 'FUNDING_WEBHOOK', url: targets[0][1], status: 10 });
    webhookId = hook.webhookId;
  });

  it('2. B38 to an http URL is -4010 and leaves the URL as it was', async () => {
    expect(await s.client.refused('PUT', `/v2/webhook/${webhookId}`, { url: v4.url })).toEqual([400, -4010]);
    expect(await s.client.ok('GET', '/v2/webhooks')).toEqual([expect.objectContaining({ url: targets[0][1] })]);
  });

  it('3. an arrival\'s event: attempt 1 to https://127.0.0.1 fails "blocked target", httpStatus 0', async () => {
    txId = String((await admin<{ txId: number }>('POST', '/deposits', { merchantId, fiat: 'MXN', amount: '100.00' })).txId);
    // The deposit's commit started the attempt before its answer came back: settled waits for its outcome.
    await settled(s.t.server.webhooks);
    const event = await row();
    expect(event).toMatchObject({ status: 'PENDING', attempts: 1 });
    expect(event.deliveries).toEqual([{ attempt: 1, time: expect.stringMatching(/^[0-9]{13}$/) as unknown, url: targets[0][1], httpStatus: 0, durationMs: expect.any(Number) as unknown, result: 'FAILED', error: 'blocked target' }]);
  });

  for (let attempt = 2; attempt <= 8; attempt++) {
    it(`${attempt + 2}. attempt ${attempt} after B38 to ${TARGET_NAMES[attempt - 1]} fails "blocked target", httpStatus 0`, async () => {
      const [, url] = targets[attempt - 1];
      expect(await s.client.ok('PUT', `/v2/webhook/${webhookId}`, { url })).toMatchObject({ url, status: 10 });
      await pumpAt(s.t.server.webhooks, Number((await row()).nextAttemptTime));
      const event = await row();
      expect(event.attempts).toBe(attempt);
      expect(event.deliveries[0]).toMatchObject({ attempt, url, httpStatus: 0, result: 'FAILED', error: 'blocked target' });
    });
  }

  it('11. after the eighth blocked attempt the event is FAILED, every attempt "blocked target"', async () => {
    const event = await row();
    expect(event).toMatchObject({ status: 'FAILED', attempts: 8, nextAttemptTime: '' });
    expect(event.deliveries.map((d) => [d.attempt, d.url, d.httpStatus, d.error])).toEqual(targets.map(([, url], i) => [i + 1, url, 0, 'blocked target']).reverse());
  });

  it('12. nothing reached any local receiver, not even a connection', () => {
    expect([v4.connections, v4.received.length, v6.connections, v6.received.length]).toEqual([0, 0, 0, 0]);
  });
});
