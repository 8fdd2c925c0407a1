/**
 * Story: the webhook debugger. `bourse webhooks receive --port 0` listens, verifies each request
 * with the deployment's key (asked of the server) and prints the event; a FUNDING_WEBHOOK
 * registered to it gets a bank deposit's event, printed "signature ok". `webhooks events` lists it
 * DELIVERED; `webhooks resend` sends it again with attempt 2, which `events --follow` prints as it
 * happens. A receiver given another key prints "SIGNATURE INVALID" and answers 401, so Bourse
 * records a failed attempt.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBourse, type RunningBourse } from '../support/cli-run.js';
import { onboardedMerchant } from '../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../support/payments-story.js';

describe('story: the webhook debugger (bourse webhooks receive | events | resend)', () => {
  let s: PaymentsStory;
  let merchantId: number;
  let eventId: string;

  /** Starts `bourse …` in this process, its stdout and stderr as one `output()`. */
  const start = (argv: string[]): RunningBourse => startBourse(argv, { BOURSE_URL: s.t.url, BOURSE_ADMIN_TOKEN: s.t.adminToken });
  const bourse = async (argv: string[]): Promise<{ code: number; out: string }> => {
    const run = start(argv);
    const code = await run.stop().catch(() => -1);
    return { code, out: run.output() };
  };
  const listening = (run: RunningBourse): string => /listening on (http:\/\/127\.0\.0\.1:[0-9]+\/)/.exec(run.output())?.[1] ?? '';

  beforeAll(async () => {
    s = await paymentsStory();
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
  });
  afterAll(async () => s.t.stop());

  it('1. receive verifies and prints a deposit event sent to it', async () => {
    const receiver = start(['webhooks', 'receive', '--port', '0']);
    await receiver.until(() => listening(receiver) !== '', 'the receiver listens');
    await s.client.ok('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: listening(receiver) });
    const { txId } = await s.client.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '5000.00', traceNumber: 'CLI-1', payerName: 'CENTAURE SA DE CV' });
    await receiver.until(() => receiver.output().includes('signature ok'), 'the event arrives verified');
    expect(receiver.output()).toMatch(new RegExp(`FUNDING_WEBHOOK  event [0-9a-f]{32}  attempt 1  record ${txId} \\(DEPOSIT\\) → 2  signature ok`));
    eventId = /event ([0-9a-f]{32})/.exec(receiver.output())?.[1] ?? '';
    await s.t.server.webhooks.idle();

    const listed = await bourse(['--json', 'webhooks', 'events', '--type', 'funding_webhook']);
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.out) as { eventId: string; status: string; attempts: number; userId: string }[];
    expect(rows.map((r) => [r.eventId, r.status, r.attempts, r.userId])).toEqual([[eventId, 'DELIVERED', 1, s.userId]]);
    const table = await bourse(['webhooks', 'events']);
    expect(table.out).toContain(`${txId} → 2`);
    expect(table.out).toContain('#1 SUCCESS');

    const follower = start(['webhooks', 'events', '--follow', '--interval', '100']);
    await follower.until(() => follower.output().includes(`new FUNDING_WEBHOOK ${eventId}`), 'follow prints the known event');
    const resent = await bourse(['--json', 'webhooks', 'resend', eventId]);
    expect(JSON.parse(resent.out)).toMatchObject({ eventId, status: 'PENDING', attempts: 1 });
    await receiver.until(() => receiver.output().includes('attempt 2'), 'the resend arrives');
    await follower.until(() => follower.output().includes(`${eventId}  attempt 2  SUCCESS`), 'follow prints the new attempt');
    expect(await follower.stop()).toBe(0);
    expect(await receiver.stop()).toBe(0);
  });

  it('2. a receiver with another key prints SIGNATURE INVALID and answers 401: Bourse records the failure', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const receiver = start(['webhooks', 'receive', '--port', '0', '--public-key', other]);
    await receiver.until(() => listening(receiver) !== '', 'the receiver listens');
    const [hook] = await s.client.ok<{ webhookId: string }[]>('GET', '/v2/webhooks');
    await s.client.ok('PUT', `/v2/webhook/${hook.webhookId}`, { url: listening(receiver) });
    await s.client.ok('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '10.00', traceNumber: 'CLI-2' });
    await receiver.until(() => receiver.output().includes('SIGNATURE INVALID'), 'the bad signature is reported');
    await s.t.server.webhooks.idle();
    const page = await s.client.ok<{ record: { status: string; deliveries: { error: string }[] }[] }>('GET', '/v2/webhook/events', { status: 'PENDING' });
    expect(page.record[0].deliveries[0].error).toBe('HTTP 401');
    expect(await receiver.stop()).toBe(0);
  });

  it('3. resend of an unknown event exits 1 with the server error', async () => {
    const run = await bourse(['webhooks', 'resend', '0'.repeat(32)]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/-1000|does not exist/);
  });
});
