/**
 * Each operator route declares its parameters once, and both the reading of a request and
 * `/openapi-admin.json` come from that declaration: what the document says a parameter takes
 * (range, values, form) is what the server takes. The checks below are driven by the document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, request } from '../../support/clients.js';
import { startTestServer, type TestServer } from '../../support/server.js';

interface Schema {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  enum?: string[];
  pattern?: string;
  description?: string;
}
interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Schema;
}
interface Operation {
  parameters: Parameter[];
  requestBody?: { content: { 'application/json': { schema: { properties?: Record<string, Schema> } } } };
}
type Paths = Record<string, Record<string, Operation>>;

/** One documented parameter with the operation it belongs to. */
interface Documented {
  method: string;
  path: string;
  parameter: Parameter;
}

describe('operator parameters: the document and the server read one declaration', () => {
  let t: TestServer;
  let admin: AdminClient;
  let paths: Paths;
  let documented: Documented[];

  beforeAll(async () => {
    t = await startTestServer();
    admin = new AdminClient(t.url, t.adminToken);
    paths = ((await request(`${t.url}/openapi-admin.json`)).body as { paths: Paths }).paths;
    documented = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) => operation.parameters.map((parameter) => ({ method: method.toUpperCase(), path, parameter }))),
    );
  });
  afterAll(async () => t.stop());

  /** `/admin/v1/users` → `/users`, as the admin client takes it. */
  const below = (path: string): string => path.slice('/admin/v1'.length);
  const refusedNaming = (name: string) => ({ code: -1130, msg: `Data sent for paramter '${name}' is not valid.` });

  it('when the document is read, then parameters show their ranges, defaults, values and forms', () => {
    expect(paths['/admin/v1/users'].get.parameters).toEqual([
      { name: 'fromUserId', in: 'query', required: false, schema: { type: 'integer', minimum: 0, maximum: 999_999_999_999_999, default: 0, description: expect.any(String) } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100, description: 'a shorter page is the last' } },
    ]);
    expect(paths['/admin/v1/withdrawals'].get.parameters.find((p) => p.name === 'status')?.schema.enum).toEqual(['PENDING', 'REJECTED', 'SENT']);
    expect(paths['/admin/v1/users/{userId}/balances'].get.parameters).toEqual([
      { name: 'userId', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]{1,15}$', description: "the user's id" } },
    ]);
    const deposit = paths['/admin/v1/deposits'].post.requestBody?.content['application/json'].schema.properties;
    expect(deposit?.accountId).toEqual({ type: ['integer', 'string'], minimum: 0, maximum: Number.MAX_SAFE_INTEGER, pattern: '^[0-9]+$' });
  });

  it('when each documented integer query parameter is sent at its bounds and just past them, then the bounds are answered and the rest refused -1130 naming it', async () => {
    const integers = documented.filter((d) => d.parameter.in === 'query' && d.parameter.schema.type === 'integer');
    expect(integers.map((d) => `${d.path} ${d.parameter.name}`)).toEqual(
      expect.arrayContaining(['/admin/v1/users limit', '/admin/v1/withdrawals limit', '/admin/v1/webhooks/events limit', '/admin/v1/webhooks/events changedSince']),
    );
    for (const { method, path, parameter } of integers) {
      const { minimum = 0, maximum } = parameter.schema;
      expect(maximum, `${path} ${parameter.name}`).toBeDefined();
      const send = (value: number) => admin.send(method, `${below(path)}?${parameter.name}=${value}`);
      for (const value of [minimum, maximum ?? 0]) expect((await send(value)).status, `${path} ${parameter.name}=${value}`).toBe(200);
      const past = [...(minimum > 0 ? [minimum - 1] : []), (maximum ?? 0) + 1];
      for (const value of past) expect((await send(value)).body, `${path} ${parameter.name}=${value}`).toEqual(refusedNaming(parameter.name));
    }
  });

  it('when each documented query enum is sent each of its values and one outside them, then its values are answered and the other refused -1130 naming it', async () => {
    const enums = documented.filter((d) => d.parameter.in === 'query' && d.parameter.schema.enum !== undefined);
    expect(enums.length).toBeGreaterThanOrEqual(3);
    for (const { method, path, parameter } of enums) {
      const send = (value: string) => admin.send(method, `${below(path)}?${parameter.name}=${value}`);
      for (const value of parameter.schema.enum ?? []) expect((await send(value)).status, `${path} ${parameter.name}=${value}`).toBe(200);
      expect((await send('NO_SUCH_VALUE')).body, `${path} ${parameter.name}`).toEqual(refusedNaming(parameter.name));
    }
  });

  it('when each documented path id is sent a segment outside its form, then 404 -1000 names it before any body member is read', async () => {
    const ids = documented.filter((d) => d.parameter.in === 'path' && d.parameter.schema.pattern !== undefined);
    expect(ids.length).toBeGreaterThanOrEqual(7);
    for (const { method, path, parameter } of ids) {
      // An empty body: members a route requires would be refused too, but the path comes first.
      const answer = await admin.send(method, below(path).replace(`{${parameter.name}}`, 'x7'), method === 'GET' ? undefined : {});
      expect({ status: answer.status, body: answer.body }, `${method} ${path}`).toEqual({ status: 404, body: { code: -1000, msg: expect.stringMatching(/^[a-z]+ x7 does not exist\.$/) } });
    }
  });

  it('when a text query parameter is sent twice, then 400 -1130 names it (no one value is taken, and no failure)', async () => {
    expect((await admin.send('GET', '/webhooks/events?webhookId=a&webhookId=b')).body).toEqual(refusedNaming('webhookId'));
    expect((await admin.send('GET', '/withdrawals?limit=1&limit=2')).body).toEqual(refusedNaming('limit'));
  });
});
