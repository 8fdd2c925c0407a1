import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/core/errors.js';
import { request } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface Operation {
  summary?: string;
  security?: Record<string, string[]>[];
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
}
interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string; scheme?: string }>;
    schemas: { Error: { required: string[]; properties: { code: { enum: number[] } } } };
  };
}

/**
 * Every `METHOD /path` the app routes, read from Fastify's own tree (`printRoutes`): each line is
 * a node whose text continues its parent's path, four columns deeper; HEAD is Fastify's echo of GET.
 */
function servedRoutes(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/u.exec(line);
    if (match === null) continue;
    const depth = [...match[1]].length / 4;
    stack.length = depth;
    stack.push(match[2]);
    const path = stack.join('');
    for (const method of match[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes;
}

/** `/admin/v1/users/:userId/api-keys` as the document writes it. */
const openApiPath = (path: string): string => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('GET /openapi-admin.json: the operator API document', () => {
  let t: TestServer;
  let doc: OpenApi;
  let served: string[];
  let documented: { method: string; path: string; operation: Operation }[];

  beforeAll(async () => {
    t = await startTestServer();
    const answer = await request(`${t.url}/openapi-admin.json`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    doc = answer.body as OpenApi;
    served = servedRoutes(t.server.app).filter((route) => route.split(' ')[1].startsWith('/admin/v1/'));
    documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
    );
  });
  afterAll(async () => t.stop());

  it('when Fastify routes are read, then the walk finds the operator routes (the enumeration itself works)', () => {
    expect(served).toEqual(expect.arrayContaining(['POST /admin/v1/users', 'GET /admin/v1/users/:userId/api-keys', 'POST /admin/v1/users/:userId/api-keys', 'GET /admin/v1/verify']));
    expect(servedRoutes(t.server.app)).toEqual(expect.arrayContaining(['GET /health', 'GET /openapi-admin.json']));
    expect(new Set(served).size).toBe(served.length);
  });

  it('when the document is fetched, then it is OpenAPI 3.1.0 with a bearer security scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.values(doc.components.securitySchemes)).toEqual([{ type: 'http', scheme: 'bearer', description: expect.any(String) }]);
  });

  it('when every registered /admin/v1 route is looked up, then the document has an operation for it', () => {
    const listed = new Set(documented.map((d) => `${d.method} ${d.path}`));
    expect(served.filter((route) => !listed.has(openApiPath(route)))).toEqual([]);
  });

  it('when every documented operation is looked up, then it is a registered /admin/v1 route (nothing extra)', () => {
    const registered = new Set(served.map(openApiPath));
    expect(documented.filter((d) => !registered.has(`${d.method} ${d.path}`) || !d.path.startsWith('/admin/v1/')).map((d) => `${d.method} ${d.path}`)).toEqual([]);
    expect(documented).toHaveLength(served.length);
  });

  it('when the operations are read, then each has a summary led by its id, the bearer security and its path parameters', () => {
    const wrong = documented.filter(({ path, operation }) => {
      const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const listed = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      return (
        !/^O[0-9]+ \S/.test(operation.summary ?? '') ||
        JSON.stringify(operation.security) !== JSON.stringify([{ adminBearer: [] }]) ||
        JSON.stringify(listed) !== JSON.stringify(pathParams)
      );
    });
    expect(wrong.map((d) => `${d.method} ${d.path}`)).toEqual([]);
    const ids = documented.map((d) => d.operation.summary?.split(' ')[0]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('when bodies are described, then the members the operator API defines appear, required ones as required', () => {
    const body = (method: string, path: string) => doc.paths[path][method].requestBody?.content['application/json'].schema;
    expect(body('post', '/admin/v1/deposits')?.required).toEqual(['accountId', 'asset', 'amount']);
    expect(Object.keys(body('post', '/admin/v1/deposits')?.properties ?? {})).toContain('txId');
    expect(Object.keys(body('post', '/admin/v1/users/{userId}/api-keys')?.properties ?? {})).toEqual(expect.arrayContaining(['permissions', 'ipWhitelist', 'label']));
    expect(body('patch', '/admin/v1/symbols/{symbol}')?.required).toEqual(['status']);
    expect(doc.paths['/admin/v1/verify'].get.parameters.map((p) => [p.name, p.in])).toEqual([['replay', 'query']]);
  });

  it('when the Error schema is read, then it is {code, msg} with every code of the area A registry', () => {
    const error = doc.components.schemas.Error;
    expect(error.required).toEqual(['code', 'msg']);
    expect([...error.properties.code.enum].sort((a, b) => a - b)).toEqual([...new Set(Object.values(ERRORS).map((e) => e.code))].sort((a, b) => a - b));
    expect(error.properties.code.enum).toEqual(expect.arrayContaining([-1002, -2015]));
  });

  it('when every documented operation is called without a token, then it is refused 401 -1002 (all go through the bearer check)', async () => {
    const answers = await Promise.all(
      documented.map(async ({ method, path }) => {
        const answer = await request(`${t.url}${path.replace(/\{[^}]+\}/g, '1')}`, { method, headers: { 'Content-Type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });
        return { route: `${method} ${path}`, status: answer.status, code: (answer.body as { code?: number }).code };
      }),
    );
    expect(answers.filter((a) => a.status !== 401 || a.code !== -1002)).toEqual([]);
  });

  it('when /openapi.json is fetched, then it holds every operator operation exactly as the operator document does', async () => {
    const all = (await request(`${t.url}/openapi.json`)).body as OpenApi;
    const differing = documented.filter(({ method, path, operation }) => JSON.stringify(all.paths[path]?.[method.toLowerCase()]) !== JSON.stringify(operation));
    expect(differing.map((d) => `${d.method} ${d.path}`)).toEqual([]);
  });
});
