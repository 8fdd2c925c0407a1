/**
 * Area B test helpers: merchant-type users and their keys through the operator API, B0 requests
 * signed like a client signs them, and the envelope's shape.
 */
import { expect } from 'vitest';
import { AdminClient, hmacHex, request, type HttpAnswer } from './clients.js';

export interface MerchantKey {
  userId: number;
  apiKey: string;
  secretKey: string;
}

export interface ErrorEnvelope {
  code: number;
  msg: string;
  detail: string;
  data: unknown;
}

/** A new user of `type` (default merchant) with one API key; `keyBody` goes to the key's creation. */
export async function createUserKey(admin: AdminClient, options: { type?: 'merchant' | 'user'; keyBody?: Record<string, unknown> } = {}): Promise<MerchantKey> {
  const user = await admin.send('POST', '/users', { type: options.type ?? 'merchant' });
  expect(user.status).toBe(200);
  const userId = Number((user.body as { userId: string }).userId);
  const key = await admin.send('POST', `/users/${userId}/api-keys`, options.keyBody ?? {});
  expect(key.status).toBe(200);
  const { apiKey, secretKey } = key.body as { apiKey: string; secretKey: string };
  return { userId, apiKey, secretKey };
}

/** `GET /v2/token/generate?<query>&signature=…` signed over `query` with `secret`, unless `signature` is given. */
export function requestToken(baseUrl: string, apiKey: string | undefined, parts: { query: string; secret?: string; signature?: string }): Promise<HttpAnswer> {
  const signature = parts.signature ?? (parts.secret === undefined ? undefined : hmacHex(parts.secret, parts.query));
  const query = signature === undefined ? parts.query : `${parts.query}${parts.query === '' ? '' : '&'}signature=${signature}`;
  return request(`${baseUrl}/v2/token/generate${query === '' ? '' : `?${query}`}`, { headers: apiKey === undefined ? {} : { 'X-BH-APIKEY': apiKey } });
}

/** A fresh token for `key`, signed now. */
export async function issueToken(baseUrl: string, key: MerchantKey, now: number = Date.now()): Promise<{ token: string; expireTime: string }> {
  const answer = await requestToken(baseUrl, key.apiKey, { query: `timestamp=${now}`, secret: key.secretKey });
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as { data: { token: string; expireTime: string } }).data;
}

/** Asserts an area B error answer: status, code and msg; returns the envelope. */
export function expectError(answer: HttpAnswer, status: number, code: number, msg: string): ErrorEnvelope {
  expect({ status: answer.status, code: (answer.body as ErrorEnvelope | undefined)?.code, msg: (answer.body as ErrorEnvelope | undefined)?.msg }, answer.text).toEqual({ status, code, msg });
  const body = answer.body as ErrorEnvelope;
  expect(Object.keys(body)).toEqual(['code', 'msg', 'detail', 'data']);
  return body;
}

/** Asserts a success answer and returns its `data`. */
export function expectData(answer: HttpAnswer): unknown {
  expect(answer.status, answer.text).toBe(200);
  const body = answer.body as { code: number; msg: string; data: unknown };
  expect(Object.keys(body)).toEqual(['code', 'msg', 'data']);
  expect([body.code, body.msg]).toEqual([200, 'SUCCESS']);
  return body.data;
}
