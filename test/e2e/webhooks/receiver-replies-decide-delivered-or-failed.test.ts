/**
 * Story: what the receiver answers decides whether an attempt delivered the event (docs/webhooks.md "Answering, retries, order"). One
 * FUNDING_WEBHOOK event per reply kind (each arrival its own record, so none waits for another):
 * a 2xx with `{"callbackStatus":"SUCCESS"}`, with an empty body, a non-JSON body, JSON without
 * `callbackStatus` or a 204 is DELIVERED; a 2xx with another `callbackStatus` ("FAIL", or "success"
 * in the wrong case) fails with "callbackStatus <value>"; a 302 is not followed (its Location
 * target gets nothing) and fails "HTTP 302"; 4xx and 5xx fail "HTTP <status>". Failed events stay
 * PENDING for their retry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';
import { settled, webhookEvents, WebhookReceiver, type EventRow, type Reply } from '../../support/webhook-receiver.js';

interface Case {
  name: string;
  amount: string;
  reply: Reply;
  /** B40 status after the attempt, and the attempt's httpStatus, result and error. */
  expect: [string, number, string, string];
}

/** Replaced by the redirect receiver's URL when answering. */
const REDIRECT_TO = 'redirect-target';

const CASES: Case[] = [
  { name: '200 {"callbackStatus":"SUCCESS"}', amount: '101.00', reply: { status: 200, body: '{"callbackStatus":"SUCCESS"}' }, expect: ['DELIVERED', 200, 'SUCCESS', ''] },
  { name: '201 {"callbackStatus":"SUCCESS"}', amount: '102.00', reply: { status: 201, body: '{"callbackStatus":"SUCCESS"}' }, expect: ['DELIVERED', 201, 'SUCCESS', ''] },
  { name: '200 with an empty body', amount: '103.00', reply: { status: 200, body: '' }, expect: ['DELIVERED', 200, 'SUCCESS', ''] },
  { name: '200 with a non-JSON body', amount: '104.00', reply: { status: 200, body: 'thanks, got it' }, expect: ['DELIVERED', 200, 'SUCCESS', ''] },
  { name: '200 with JSON without callbackStatus', amount: '105.00', reply: { status: 200, body: '{"received":true}' }, expect: ['DELIVERED', 200, 'SUCCESS', ''] },
  { name: '204 No Content', amount: '106.00', reply: { status: 204 }, expect: ['DELIVERED', 204, 'SUCCESS', ''] },
  { name: '200 {"callbackStatus":"FAIL"}', amount: '107.00', reply: { status: 200, body: '{"callbackStatus":"FAIL"}' }, expect: ['PENDING', 200, 'FAILED', 'callbackStatus FAIL'] },
  { name: '200 {"callbackStatus":"success"} (not SUCCESS)', amount: '108.00', reply: { status: 200, body: '{"callbackStatus":"success"}' }, expect: ['PENDING', 200, 'FAILED', 'callbackStatus success'] },
  { name: '302 to another receiver', amount: '109.00', reply: { status: 302, headers: { Location: REDIRECT_TO } }, expect: ['PENDING', 302, 'FAILED', 'HTTP 302'] },
  { name: '400', amount: '110.00', reply: { status: 400, body: '{"error":"bad"}' }, expect: ['PENDING', 400, 'FAILED', 'HTTP 400'] },
  { name: '404', amount: '111.00', reply: { status: 404 }, expect: ['PENDING', 404, 'FAILED', 'HTTP 404'] },
  { name: '500 with {"callbackStatus":"SUCCESS"}', amount: '112.00', reply: { status: 500, body: '{"callbackStatus":"SUCCESS"}' }, expect: ['PENDING', 500, 'FAILED', 'HTTP 500'] },
];

describe('story: the receiver\'s reply decides delivered or failed', () => {
  let s: PaymentsStory;
  let receiver: WebhookReceiver;
  let elsewhere: WebhookReceiver;
  let merchantId: number;
  const rows = new Map<string, EventRow>();


  beforeAll(async () => {
    s = await paymentsStory();
    receiver = await WebhookReceiver.start(s.t.server.webhookPublicKey);
    elsewhere = await WebhookReceiver.start(s.t.server.webhookPublicKey, '/redirected');
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    await s.client.ok('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: receiver.url });
    const byAmount = new Map(CASES.map((c) => [c.amount, c.reply]));
    receiver.reply = (r) => {
      const reply = byAmount.get(r.body.amount as string) ?? { status: 500 };
      return reply.headers?.Location === REDIRECT_TO ? { ...reply, headers: { Location: elsewhere.url } } : reply;
    };
    const txIds = new Map<string, string>();
    for (const c of CASES) txIds.set(c.amount, String((await s.client.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: c.amount })).txId));
    await receiver.waitFor(CASES.length);
    await settled(s.t.server.webhooks);
    for (const row of await webhookEvents(s.client)) rows.set([...txIds].find(([, txId]) => txId === row.objectId)?.[0] ?? '', row);
  });
  afterAll(async () => {
    await s.t.stop();
    await receiver.close();
    await elsewhere.close();
  });

  it('1. each event was tried exactly once, signed', () => {
    expect(receiver.received.map((r) => r.body.amount).sort()).toEqual(CASES.map((c) => c.amount));
    expect(receiver.received.every((r) => r.verified && r.headers['x-bh-delivery-attempt'] === '1')).toBe(true);
  });

  for (const [i, c] of CASES.entries()) {
    it(`${i + 2}. ${c.name} → ${c.expect[0] === 'DELIVERED' ? 'delivered' : `failed, "${c.expect[3]}"`}`, () => {
      const row = rows.get(c.amount);
      const [status, httpStatus, result, error] = c.expect;
      expect(row).toMatchObject({ status, attempts: 1, deliveredTime: status === 'DELIVERED' ? expect.stringMatching(/^[0-9]{13}$/) : '' });
      expect(row?.nextAttemptTime === '').toBe(status === 'DELIVERED');
      expect(row?.deliveries).toEqual([{ attempt: 1, time: expect.stringMatching(/^[0-9]{13}$/) as unknown, url: receiver.url, httpStatus, durationMs: expect.any(Number) as unknown, result, error }]);
    });
  }

  it(`${CASES.length + 2}. the redirect was not followed: its target got nothing`, () => {
    expect(elsewhere.received).toHaveLength(0);
    expect(elsewhere.connections).toBe(0);
  });
});
