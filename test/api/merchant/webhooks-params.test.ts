/**
 * Bad input to B36–B41 (docs/webhooks.md "Registering", docs/merchant-payments.md "Requests", docs/merchant-payments.md "Error codes"): a missing, malformed or out-of-range parameter is
 * -4010 naming it, a string over its length -4011, and a webhook or event id that is not 32
 * lowercase hex (or unknown) -5103 with HTTP 404. No refused request changes anything: the one
 * webhook registered beforehand is listed unchanged afterwards, and nothing else was registered.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';

interface Row {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path, given the registered webhook's id. */
  path: (webhookId: string) => string;
  params: Record<string, unknown>;
  /** HTTP status, code, and for -4010/-4011 the parameter the detail names. */
  expect: [number, number, string?];
}

const URL_OK = 'https://merchant.example/bourse';
/** An absolute https URL of exactly `length` characters. */
const urlOf = (length: number): string => `https://merchant.example/${'a'.repeat(length - 'https://merchant.example/'.length)}`;
const unknownHex = randomBytes(16).toString('hex');

const ROWS: Row[] = [
  // B36
  { name: 'B36 without eventType', method: 'POST', path: () => '/v2/webhook', params: { url: URL_OK }, expect: [400, -4010, 'eventType'] },
  { name: 'B36 with eventType ""', method: 'POST', path: () => '/v2/webhook', params: { eventType: '', url: URL_OK }, expect: [400, -4010, 'eventType'] },
  { name: 'B36 with an unknown eventType', method: 'POST', path: () => '/v2/webhook', params: { eventType: 'MERCHANT_WEBHOOK', url: URL_OK }, expect: [400, -4010, 'eventType'] },
  { name: 'B36 without url', method: 'POST', path: () => '/v2/webhook', params: { eventType: 'FUNDING_WEBHOOK' }, expect: [400, -4010, 'url'] },
  { name: 'B36 with url ""', method: 'POST', path: () => '/v2/webhook', params: { eventType: 'FUNDING_WEBHOOK', url: '' }, expect: [400, -4010, 'url'] },
  { name: 'B36 with a url of 513 characters', method: 'POST', path: () => '/v2/webhook', params: { eventType: 'FUNDING_WEBHOOK', url: urlOf(513) }, expect: [400, -4011, 'url'] },
  { name: 'B36 with an ftp url', method: 'POST', path: () => '/v2/webhook', params: { eventType: 'FUNDING_WEBHOOK', url: 'ftp://merchant.example/hook' }, expect: [400, -4010, 'url'] },
  { name: 'B36 with a url without scheme', method: 'POST', path: () => '/v2/webhook', params: { eventType: 'FUNDING_WEBHOOK', url: 'merchant.example/hook' }, expect: [400, -4010, 'url'] },
  { name: 'B36 with a url without host', method: 'POST', path: () => '/v2/webhook', params: { eventType: 'FUNDING_WEBHOOK', url: 'https://' }, expect: [400, -4010, 'url'] },
  { name: 'B36 with a url holding a space', method: 'POST', path: () => '/v2/webhook', params: { eventType: 'FUNDING_WEBHOOK', url: 'https://merchant.example/a hook' }, expect: [400, -4010, 'url'] },
  { name: 'B36 with url an object', method: 'POST', path: () => '/v2/webhook', params: { eventType: 'FUNDING_WEBHOOK', url: { href: URL_OK } }, expect: [400, -4010, 'url'] },
  // B37
  { name: 'B37 with status 40', method: 'GET', path: () => '/v2/webhooks', params: { status: 40 }, expect: [400, -4010, 'status'] },
  { name: 'B37 with status 1 (legacy values are B38 input only)', method: 'GET', path: () => '/v2/webhooks', params: { status: 1 }, expect: [400, -4010, 'status'] },
  { name: 'B37 with status "active"', method: 'GET', path: () => '/v2/webhooks', params: { status: 'active' }, expect: [400, -4010, 'status'] },
  // B38
  { name: 'B38 with neither url nor status', method: 'PUT', path: (id) => `/v2/webhook/${id}`, params: {}, expect: [400, -4010, 'url'] },
  { name: 'B38 with url "" and no status', method: 'PUT', path: (id) => `/v2/webhook/${id}`, params: { url: '' }, expect: [400, -4010, 'url'] },
  { name: 'B38 with status 30 (delete is B39)', method: 'PUT', path: (id) => `/v2/webhook/${id}`, params: { status: 30 }, expect: [400, -4010, 'status'] },
  { name: 'B38 with status 3', method: 'PUT', path: (id) => `/v2/webhook/${id}`, params: { status: 3 }, expect: [400, -4010, 'status'] },
  { name: 'B38 with status 0', method: 'PUT', path: (id) => `/v2/webhook/${id}`, params: { status: 0 }, expect: [400, -4010, 'status'] },
  { name: 'B38 with status "disabled"', method: 'PUT', path: (id) => `/v2/webhook/${id}`, params: { status: 'disabled' }, expect: [400, -4010, 'status'] },
  { name: 'B38 with a good url but status 30', method: 'PUT', path: (id) => `/v2/webhook/${id}`, params: { url: 'https://other.example/hook', status: 30 }, expect: [400, -4010, 'status'] },
  { name: 'B38 with an ftp url', method: 'PUT', path: (id) => `/v2/webhook/${id}`, params: { url: 'ftp://merchant.example/hook' }, expect: [400, -4010, 'url'] },
  { name: 'B38 with a url of 513 characters', method: 'PUT', path: (id) => `/v2/webhook/${id}`, params: { url: urlOf(513) }, expect: [400, -4011, 'url'] },
  { name: 'B38 with a non-hex webhookId', method: 'PUT', path: () => '/v2/webhook/not-a-webhook', params: { status: 20 }, expect: [404, -5103] },
  { name: 'B38 with the webhookId in upper case', method: 'PUT', path: (id) => `/v2/webhook/${id.toUpperCase()}`, params: { status: 20 }, expect: [404, -5103] },
  { name: 'B38 with 31 hex digits', method: 'PUT', path: (id) => `/v2/webhook/${id.slice(1)}`, params: { status: 20 }, expect: [404, -5103] },
  { name: 'B38 with a numeric webhookId', method: 'PUT', path: () => '/v2/webhook/12345', params: { status: 20 }, expect: [404, -5103] },
  { name: 'B38 with an unknown webhookId', method: 'PUT', path: () => `/v2/webhook/${unknownHex}`, params: { status: 20 }, expect: [404, -5103] },
  // B39
  { name: 'B39 with a non-hex webhookId', method: 'DELETE', path: () => '/v2/webhook/not-a-webhook', params: {}, expect: [404, -5103] },
  { name: 'B39 with the webhookId in upper case', method: 'DELETE', path: (id) => `/v2/webhook/${id.toUpperCase()}`, params: {}, expect: [404, -5103] },
  { name: 'B39 with an unknown webhookId', method: 'DELETE', path: () => `/v2/webhook/${unknownHex}`, params: {}, expect: [404, -5103] },
  // B40
  { name: 'B40 with status "DONE"', method: 'GET', path: () => '/v2/webhook/events', params: { status: 'DONE' }, expect: [400, -4010, 'status'] },
  { name: 'B40 with an unknown eventType', method: 'GET', path: () => '/v2/webhook/events', params: { eventType: 'MERCHANT_WEBHOOK' }, expect: [400, -4010, 'eventType'] },
  { name: 'B40 with startTime after endTime', method: 'GET', path: () => '/v2/webhook/events', params: { startTime: 1_750_000_001_000, endTime: 1_750_000_000_000 }, expect: [400, -4010] },
  { name: 'B40 with startTime not a number', method: 'GET', path: () => '/v2/webhook/events', params: { startTime: 'yesterday' }, expect: [400, -4010, 'startTime'] },
  { name: 'B40 with pageSize 0', method: 'GET', path: () => '/v2/webhook/events', params: { pageSize: 0 }, expect: [400, -4010, 'pageSize'] },
  { name: 'B40 with currentPage 0', method: 'GET', path: () => '/v2/webhook/events', params: { currentPage: 0 }, expect: [400, -4010, 'currentPage'] },
  // B41
  { name: 'B41 with a non-hex eventId', method: 'POST', path: () => '/v2/webhook/events/not-an-event/resend', params: {}, expect: [404, -5103] },
  { name: 'B41 with an unknown eventId', method: 'POST', path: () => `/v2/webhook/events/${unknownHex}/resend`, params: {}, expect: [404, -5103] },
];

describe('bad input to B36–B41', () => {
  let s: PaymentsStory;
  let hook: Record<string, unknown>;

  beforeAll(async () => {
    s = await paymentsStory();
    hook = await s.client.ok<Record<string, unknown>>('POST', '/v2/webhook', { eventType: 'ORDER_WEBHOOK', url: URL_OK });
  });
  afterAll(async () => s.t.stop());

  for (const row of ROWS) {
    const [status, code, names] = row.expect;
    it(`when ${row.name}, then ${status} ${code}${names === undefined ? '' : ` naming ${names}`}`, async () => {
      const answer = await s.client.call(row.method, row.path(hook.webhookId as string), row.params);
      expect([answer.status, answer.code, answer.data]).toEqual([status, code, null]);
      if (names !== undefined) expect(answer.detail).toContain(names);
    });
  }

  it('then nothing changed: the one webhook is listed as registered, and no event was recorded', async () => {
    expect(await s.client.ok('GET', '/v2/webhooks', { status: 10 })).toEqual([hook]);
    expect(await s.client.ok('GET', '/v2/webhooks', { status: 20 })).toEqual([]);
    expect(await s.client.ok('GET', '/v2/webhooks', { status: 30 })).toEqual([]);
    expect(await s.client.ok('GET', '/v2/webhook/events')).toMatchObject({ total: 0, record: [] });
  });

  it('and the limits hold at their edge: a url of exactly 512 characters is accepted, a pageSize over 1000 clamped', async () => {
    const url = urlOf(512);
    expect(await s.client.ok('PUT', `/v2/webhook/${hook.webhookId as string}`, { url })).toEqual({ ...hook, url });
    expect(await s.client.ok('GET', '/v2/webhook/events', { pageSize: 5000 })).toEqual({ currentPage: 1, size: 1000, total: 0, record: [] });
  });
});
