/**
 * Requests no route takes are answered in the area's own format, never with the framework's body
 * or a bare text: `{code, msg}` (docs/spot-api.md "Errors", docs/operating.md "Values") or the
 * merchant envelope under `/v2`, `/openapi/v2` and `/sandbox` (docs/merchant-payments.md
 * "Answers and errors"). That holds for an unknown path, an empty path segment, a path that is not
 * percent-encoded UTF-8 and a path segment longer than the router reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type HttpAnswer } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

const LONG = '1'.repeat(101);

describe('requests no route takes', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t.stop());

  const send = (method: string, path: string): Promise<HttpAnswer> => request(`${t.url}${path}`, { method, headers: { Authorization: `Bearer ${t.adminToken}` } });

  /** A JSON answer with exactly the members of its area's error format. */
  function expectJsonError(answer: HttpAnswer, status: number, body: Record<string, unknown>): void {
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect({ status: answer.status, body: answer.body }).toEqual({ status, body });
  }

  it.each([
    ['GET', '/web//'],
    ['GET', '/web/no-such-bundle.js'],
    ['GET', '/web/..%2Fpackage.json'],
    ['GET', '/openapi//v1/time'],
    ['POST', '/openapi/v1//order'],
    ['DELETE', '/admin/v1/bans/'],
    ['GET', '//'.repeat(3)],
  ])('when %s %s names no resource, then 404 {code:-1000, msg}', async (method, path) => {
    expectJsonError(await send(method, path), 404, { code: -1000, msg: 'Unknown path or method.' });
  });

  it.each([
    ['GET', '/v2//merchants'],
    ['POST', '/sandbox/v2//deposits'],
  ])('when %s %s names no merchant endpoint, then 404 -1000 in the envelope', async (method, path) => {
    expectJsonError(await send(method, path), 404, { code: -1000, msg: 'UNKNOWN', detail: `No endpoint ${method} ${path}`, data: null });
  });

  it.each([
    ['GET', '/openapi/v1/%zz'],
    ['DELETE', '/admin/v1/bans/%'],
    ['GET', '/web/%E0%A4%A'],
  ])('when %s %s is not percent-encoded UTF-8, then 400 -1100 names the path', async (method, path) => {
    expectJsonError(await send(method, path), 400, { code: -1100, msg: "Illegal characters found in parameter 'path'; legal range is 'percent-encoded UTF-8'." });
  });

  it('when a merchant path is not percent-encoded UTF-8, then 400 -4010 in the envelope', async () => {
    expectJsonError(await send('PUT', '/v2/webhook/%zz'), 400, { code: -4010, msg: 'PARAM_IS_INVALID', detail: 'path is not percent-encoded UTF-8', data: null });
  });

  it.each([
    ['GET', `/admin/v1/users/${LONG}/balances`],
    ['DELETE', `/admin/v1/api-keys/${LONG}`],
  ])('when %s has a path segment over 100 characters, then 400 -1100 names the path', async (method, path) => {
    expectJsonError(await send(method, path), 400, { code: -1100, msg: "Illegal characters found in parameter 'path'; legal range is 'segments of at most 100 characters'." });
  });

  it('when a merchant path has a segment over 100 characters, then 400 -4010 in the envelope', async () => {
    expectJsonError(await send('DELETE', `/v2/webhook/${LONG}`), 400, { code: -4010, msg: 'PARAM_IS_INVALID', detail: 'path has a segment over 100 characters', data: null });
  });
});
