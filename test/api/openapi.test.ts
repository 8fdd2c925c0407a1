import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../src/api/auth/rate-limiter.js';
import { endpointPaths, type SecurityType } from '../../src/api/endpoint.js';
import { areaAEndpoints } from '../../src/api/registry.js';
import { ListenKeys } from '../../src/api/ws/listen-keys.js';
import { ERRORS } from '../../src/core/errors.js';
import { ExchangeCore } from '../../src/exchange/exchange-core.js';
import { request } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface Parameter {
  name: string;
  in: string;
  required: boolean;
}
interface Operation {
  summary: string;
  parameters: Parameter[];
}
interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: { Error: { required: string[]; properties: { code: { enum: number[] } } } } };
}

/** docs/spot-api.md "Security types and permissions": where `timestamp` and `signature` are required, optional, or not taken at all. */
const SIGNING: Record<SecurityType, 'required' | 'optional' | 'none'> = {
  NONE: 'none',
  MARKET_DATA: 'none',
  USER_STREAM: 'optional',
  USER_DATA: 'required',
  TRADE: 'required',
  SUB_ACCOUNT_LIST: 'required',
  ACCOUNT_TRANSFER: 'required',
  BALANCE_FLOW: 'required',
  TRANSFER: 'required',
  WITHDRAW: 'required',
};

const listenKeys = new ListenKeys({ core: new ExchangeCore(), clock: Date.now });
listenKeys.stop();
const endpoints = areaAEndpoints(DEFAULT_RATE_LIMITS, listenKeys);

/** Every (path, method) the registry serves, with the endpoint behind it. */
const routes = endpoints.flatMap((endpoint) =>
  endpointPaths(endpoint).flatMap((path) => [endpoint.method, ...(endpoint.extraMethods ?? [])].map((method) => ({ endpoint, path, method }))),
);

describe('GET /openapi.json and /docs', () => {
  let t: TestServer;
  let doc: OpenApi;
  beforeAll(async () => {
    t = await startTestServer();
    const answer = await request(`${t.url}/openapi.json`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    doc = answer.body as OpenApi;
  });
  afterAll(async () => t.stop());

  it('when the document is fetched, then it is OpenAPI 3.1.0', () => {
    expect(doc.openapi).toBe('3.1.0');
  });

  it('when the registry is walked, then every endpoint, every path alias and every method has an operation named for its endpoint', () => {
    // A5–A10 under both prefixes, A11 under all three private ones: the walk must cover the aliases.
    expect(routes.filter((r) => r.endpoint.id === 'A5').map((r) => r.path)).toEqual(['/openapi/quote/v1/depth', '/openapi/v1/depth']);
    expect(routes.filter((r) => r.endpoint.id === 'A11').map((r) => r.path)).toEqual(['/openapi/v1/order', '/openapi/order', '/openapi/account/v1/order']);
    const missing = routes.filter(({ path, method }) => doc.paths[path]?.[method.toLowerCase()] === undefined).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    const misnamed = routes.filter(({ endpoint, path, method }) => !doc.paths[path][method.toLowerCase()].summary.startsWith(`${endpoint.id} `));
    expect(misnamed.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('when the document lists operations, then each is a route the registry serves (nothing extra)', () => {
    const served = new Set(routes.map((r) => `${r.method.toLowerCase()} ${r.path}`));
    // The document also holds area B (`/v2`, `/openapi/v2`, `/sandbox`) and the operator API (`/admin`).
    const spotPaths = Object.entries(doc.paths).filter(([path]) => path.startsWith('/openapi/') && !path.startsWith('/openapi/v2'));
    const listed = spotPaths.flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`));
    expect(listed.filter((route) => !served.has(route))).toEqual([]);
    expect(listed).toHaveLength(served.size);
  });

  it('when an endpoint is signed, then its operations list timestamp and signature as required query parameters', () => {
    const wrong = routes
      .filter(({ endpoint }) => SIGNING[endpoint.security] === 'required')
      .filter(({ path, method }) => {
        const params = doc.paths[path][method.toLowerCase()].parameters;
        return !['timestamp', 'signature'].every((name) => params.some((p) => p.name === name && p.in === 'query' && p.required));
      });
    expect(wrong.map((r) => `${r.endpoint.id} ${r.method} ${r.path}`)).toEqual([]);
    expect(routes.filter(({ endpoint }) => SIGNING[endpoint.security] === 'required').length).toBeGreaterThan(0);
  });

  it('when an endpoint is USER_STREAM, then timestamp and signature are listed as optional; when public, not at all', () => {
    const signingParams = (path: string, method: string): Parameter[] =>
      doc.paths[path][method.toLowerCase()].parameters.filter((p) => p.name === 'timestamp' || p.name === 'signature');
    // A26–A28 once registered; the public half below always has operations to check.
    const stream = routes.filter(({ endpoint }) => endpoint.security === 'USER_STREAM');
    for (const { path, method } of stream) expect(signingParams(path, method).map((p) => [p.name, p.required])).toEqual([['timestamp', false], ['signature', false]]);
    const publicRoutes = routes.filter(({ endpoint }) => endpoint.security === 'NONE');
    expect(publicRoutes.filter((r) => r.endpoint.id === 'A5')).toHaveLength(2);
    for (const { path, method } of publicRoutes) expect(signingParams(path, method)).toEqual([]);
  });

  it('when the Error schema is read, then it requires code and msg and lists every code of the error registry', () => {
    const error = doc.components.schemas.Error;
    expect(error.required).toEqual(['code', 'msg']);
    const registryCodes = [...new Set(Object.values(ERRORS).map((e) => e.code))].sort((a, b) => a - b);
    expect([...error.properties.code.enum].sort((a, b) => a - b)).toEqual(registryCodes);
    expect(registryCodes).toContain(-1121);
  });

  it('when /docs is fetched, then it is the reference page, every asset it loads is served from this server', async () => {
    const answer = await request(`${t.url}/docs`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const assets = [...answer.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.filter((a) => !a.startsWith('/'))).toEqual([]);
    expect(assets).toEqual(expect.arrayContaining(['/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css', '/docs/init.js']));
    const served = await Promise.all(assets.map(async (a) => [a, (await fetch(`${t.url}${a}`)).status] as const));
    expect(served.filter(([, status]) => status !== 200)).toEqual([]);
    const script = await request(`${t.url}/docs/init.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.text).toContain("url: '/openapi.json'");
  });
});
