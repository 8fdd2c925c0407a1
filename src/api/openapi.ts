import { ERRORS } from '../core/errors.js';
import { PAYMENT_ERRORS } from '../core/payment-errors.js';
import { OPERATOR_PREFIX, operatorPath, type OperatorEndpoint, type OperatorParamDoc } from './admin/operator-endpoint.js';
import { endpointPaths, type Endpoint, type ParamDoc } from './endpoint.js';
import type { MerchantAuth, MerchantEndpoint } from './merchant/merchant-endpoint.js';

const SIGNED_TYPES = new Set(['USER_DATA', 'TRADE', 'SUB_ACCOUNT_LIST', 'ACCOUNT_TRANSFER', 'BALANCE_FLOW', 'TRANSFER', 'WITHDRAW']);

const SCHEMA_OF: Record<ParamDoc['type'], Record<string, unknown>> = {
  STRING: { type: 'string' },
  INT: { type: 'integer', format: 'int32', minimum: 0 },
  LONG: { type: 'integer', format: 'int64', minimum: 0 },
  DECIMAL: { type: 'string', pattern: '^[0-9]{1,20}(\\.[0-9]{1,18})?$' },
  ENUM: { type: 'string' },
  FILE: { type: 'string', format: 'binary' },
};

function parameter(doc: ParamDoc): Record<string, unknown> {
  const schema = { ...SCHEMA_OF[doc.type], ...(doc.values === undefined ? {} : { enum: [...doc.values] }) };
  return { name: doc.name, in: 'query', required: doc.required === true, schema, ...(doc.description ? { description: doc.description } : {}) };
}

function signedParams(endpoint: Endpoint): ParamDoc[] {
  if (endpoint.security === 'NONE') return [];
  const signed = SIGNED_TYPES.has(endpoint.security);
  return [
    { name: 'timestamp', type: 'LONG', required: signed, description: 'ms the request was made' },
    { name: 'recvWindow', type: 'LONG', description: '1-60000, default 5000' },
    { name: 'signature', type: 'STRING', required: signed, description: 'HMAC-SHA256 hex of query + body' },
  ];
}

/** Area A's `{code, msg}` error, with every code of its registry: area A and the operator API answer it. */
function areaAErrorSchema(): Record<string, unknown> {
  const errors = Object.values(ERRORS).map((e) => ({ code: e.code, msg: e.msg, http: e.http }));
  return {
    type: 'object',
    required: ['code', 'msg'],
    properties: { code: { type: 'integer', enum: [...new Set(errors.map((e) => e.code))] }, msg: { type: 'string' } },
    'x-errors': errors,
  };
}

/** OpenAPI 3.1 of area A, generated from the registry: every path alias, method, parameter and error. */
export function openApiDocument(endpoints: readonly Endpoint[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const weight = typeof endpoint.weight === 'number' ? String(endpoint.weight) : 'depends on parameters';
    const [canonical, ...aliases] = endpointPaths(endpoint);
    for (const path of [canonical, ...aliases]) {
      const operation: Record<string, unknown> = {
        operationId: `${endpoint.id}_${endpoint.method}_${path.replace(/[^A-Za-z0-9]+/g, '_')}`,
        summary: `${endpoint.id} ${endpoint.summary}`,
        description: `Security ${endpoint.security}; weight ${weight}.${path === canonical ? '' : ` Alias of ${canonical}.`}`,
        tags: [endpoint.group],
        parameters: [...endpoint.params, ...signedParams(endpoint)].map(parameter),
        responses: {
          '200': { description: 'Success (a JSON object or array without a top-level code)', content: { 'application/json': {} } },
          '4XX': { description: 'Request error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
          '5XX': { description: 'Outcome unknown', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
        ...(endpoint.security === 'NONE' ? {} : { security: [{ apiKey: [] }] }),
      };
      for (const method of [endpoint.method, ...(endpoint.extraMethods ?? [])]) {
        paths[path] = { ...paths[path], [method.toLowerCase()]: { ...operation, operationId: `${operation.operationId as string}_${method}` } };
      }
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bourse spot Open API (area A)',
      version: '2018-09-25',
      description: 'BHEX/HBTC-style spot trading API. Signed endpoints take timestamp and signature; errors are {code, msg}.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-BH-APIKEY' } },
      schemas: {
        Error: areaAErrorSchema(),
      },
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A readable, self-contained API page (no scripts, no external assets): area A, area B, then the operator API. */
export function docsPage(endpoints: readonly Endpoint[], merchantEndpoints: readonly MerchantEndpoint[] = [], operatorEndpoints: readonly OperatorEndpoint[] = []): string {
  const rows = endpoints
    .map((e) => {
      const [canonical, ...aliases] = endpointPaths(e);
      const params = e.params.map((p) => `${escapeHtml(p.name)}${p.required ? '*' : ''} <small>${p.type}</small>`).join('<br>');
      const weight = typeof e.weight === 'number' ? e.weight : 'varies';
      return `<tr><td>${e.id}</td><td><b>${e.method}</b> <code>${escapeHtml(canonical)}</code><br><small>${aliases.map(escapeHtml).join(', ')}</small></td><td>${escapeHtml(e.summary)}</td><td>${e.security}</td><td>${weight}</td><td>${params}</td></tr>`;
    })
    .join('\n');
  const errors = Object.values(ERRORS)
    .map((e) => `<tr><td>${e.code}</td><td>${e.http}</td><td>${escapeHtml(e.msg)}</td></tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bourse API</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:80rem}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}code{background:#f4f4f4}</style>
</head><body>
<h1>Bourse spot Open API</h1>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Signed endpoints: send the key in <code>X-BH-APIKEY</code>,
<code>timestamp</code> (ms) and <code>signature</code> = HMAC-SHA256 hex of the raw query string followed by the raw body. * = required.</p>
<h2>Endpoints</h2>
<table><tr><th>#</th><th>Path</th><th>Operation</th><th>Security</th><th>Weight</th><th>Parameters</th></tr>
${rows}
</table>
<h2>Errors</h2>
<table><tr><th>code</th><th>HTTP</th><th>msg</th></tr>
${errors}
</table>
${merchantEndpoints.length === 0 ? '' : merchantSection(merchantEndpoints)}${operatorEndpoints.length === 0 ? '' : operatorSection(operatorEndpoints)}</body></html>
`;
}

/** Area B's document is separate: its envelope, auth and errors differ from area A's. */
export const MERCHANT_OPENAPI_PATH = '/openapi-v2.json';

const MERCHANT_SCHEMA_OF: Record<ParamDoc['type'], Record<string, unknown>> = {
  // §1.1: integers and decimals accept a JSON number or a string.
  STRING: { type: 'string' },
  INT: { type: ['integer', 'string'], pattern: '^[0-9]+$' },
  LONG: { type: ['integer', 'string'], pattern: '^[0-9]+$' },
  DECIMAL: { type: ['string', 'number'], pattern: '^[0-9]+(\\.[0-9]+)?$' },
  ENUM: { type: 'string' },
  // B35: one part per file, under the same name.
  FILE: { type: 'array', items: { type: 'string', format: 'binary' } },
};

const MERCHANT_SECURITY: Record<MerchantAuth, Record<string, string[]>[]> = {
  KEY: [{ apiKey: [] }],
  TOKEN: [{ token: [] }],
  // `/v2/base/*`: anonymous, or with a token (then charged to the user, §9.1).
  OPTIONAL_TOKEN: [{}, { token: [] }],
  SANDBOX: [{ token: [] }, { adminBearer: [] }],
};

const MERCHANT_AUTH_TEXT: Record<MerchantAuth, string> = {
  KEY: 'X-BH-APIKEY with timestamp and signature (HMAC-SHA256 hex of the raw query without signature)',
  TOKEN: 'X-BH-TOKEN',
  OPTIONAL_TOKEN: 'none, or X-BH-TOKEN (a bad token is ignored)',
  SANDBOX: 'X-BH-TOKEN while BOURSE_SANDBOX=1, or Authorization: Bearer <operator token>',
};

function merchantSchema(doc: ParamDoc): Record<string, unknown> {
  return { ...MERCHANT_SCHEMA_OF[doc.type], ...(doc.values === undefined ? {} : { enum: [...doc.values] }), ...(doc.description ? { description: doc.description } : {}) };
}

/** `/v2/payments/:userPaymentId` → `/v2/payments/{userPaymentId}` and its path parameter names. */
function openApiPath(path: string): { path: string; pathParams: string[] } {
  const pathParams: string[] = [];
  const converted = path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    pathParams.push(name);
    return `{${name}}`;
  });
  return { path: converted, pathParams };
}

/** Tag of an area B path: `sandbox`, else its first segment after the version (`base`, `merchant`, …). */
function merchantTag(path: string): string {
  if (path.startsWith('/sandbox')) return 'sandbox';
  const segments = path.split('/').filter((s) => s.length > 0);
  const version = segments.indexOf('v2');
  return segments[version + 1] ?? 'v2';
}

function merchantOperation(endpoint: MerchantEndpoint, path: string, canonical: string, pathParams: readonly string[]): Record<string, unknown> {
  const inQuery = endpoint.method === 'GET';
  const fields = endpoint.params.filter((p) => !pathParams.includes(p.name));
  const bucket = endpoint.auth === 'KEY' ? 'B0 (10/min per key)' : endpoint.bucket === 'quote' ? 'quote (60/min per user)' : 'general (1200/min per user)';
  const parameters = [
    ...pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...(inQuery ? fields.map((doc) => ({ name: doc.name, in: 'query', required: doc.required === true, schema: merchantSchema(doc) })) : []),
  ];
  const bodySchema = {
    type: 'object',
    properties: Object.fromEntries(fields.map((doc) => [doc.name, merchantSchema(doc)])),
    required: fields.filter((doc) => doc.required === true).map((doc) => doc.name),
  };
  const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };
  return {
    operationId: `${endpoint.id}_${endpoint.method}_${path.replace(/[^A-Za-z0-9]+/g, '_')}`,
    summary: `${endpoint.id} ${endpoint.summary}`,
    description: `Auth: ${MERCHANT_AUTH_TEXT[endpoint.auth]}. Rate bucket ${bucket}; counts ${endpoint.cost ?? 1}.${path === canonical ? '' : ` Alias of ${canonical}.`}`,
    tags: [merchantTag(path)],
    parameters,
    ...(inQuery || fields.length === 0
      ? {}
      : {
          requestBody: {
            required: bodySchema.required.length > 0,
            content:
              endpoint.multipart === true
                ? { 'multipart/form-data': { schema: bodySchema } }
                : { 'application/json': { schema: bodySchema }, 'application/x-www-form-urlencoded': { schema: bodySchema } },
          },
        }),
    responses: {
      '200': { description: 'Success: data in the envelope', content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } } },
      '4XX': { description: 'Refused (HTTP status per code, §8)', content: errorContent },
      '5XX': { description: '-1001 outcome unknown, or -1016 stopping', content: errorContent },
    },
    security: MERCHANT_SECURITY[endpoint.auth],
  };
}

/** OpenAPI 3.1 of area B, generated from its registry: paths, methods, parameters, auth, envelope and §8 codes. */
export function merchantOpenApiDocument(endpoints: readonly MerchantEndpoint[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const canonical = openApiPath(endpoint.path).path;
    for (const raw of [endpoint.path, ...(endpoint.extraPaths ?? [])]) {
      const { path, pathParams } = openApiPath(raw);
      paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: merchantOperation(endpoint, path, canonical, pathParams) };
    }
  }
  const errors = Object.entries(PAYMENT_ERRORS).map(([msg, e]) => ({ code: e.code, msg, http: e.http }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bourse merchant payments API (area B)',
      version: '2025-06-13',
      description:
        'Merchant payments under /v2, /openapi/v2 and /sandbox/v2. Every answer is an envelope {code, msg, data}; errors add detail. GET takes parameters in the query, other methods a JSON (or form) body; the query wins.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-BH-APIKEY', description: 'B0 only; with timestamp and signature in the query' },
        token: { type: 'apiKey', in: 'header', name: 'X-BH-TOKEN', description: 'from B0; valid 2 h by default' },
        adminBearer: { type: 'http', scheme: 'bearer', description: 'the operator token; sandbox routes only' },
      },
      schemas: {
        Envelope: {
          type: 'object',
          required: ['code', 'msg', 'data'],
          properties: { code: { const: 200 }, msg: { const: 'SUCCESS' }, data: {} },
        },
        ErrorEnvelope: {
          type: 'object',
          required: ['code', 'msg', 'detail', 'data'],
          properties: {
            code: { type: 'integer', enum: errors.map((e) => e.code) },
            msg: { type: 'string', enum: errors.map((e) => e.msg) },
            detail: { type: 'string', description: 'a human sentence; wording may change' },
            data: { description: 'null, except the existing ids on -1174' },
          },
          'x-errors': errors,
        },
      },
    },
  };
}

function merchantSection(endpoints: readonly MerchantEndpoint[]): string {
  const rows = endpoints
    .map((e) => {
      const paths = [e.path, ...(e.extraPaths ?? [])].map((p) => openApiPath(p).path);
      const params = e.params.map((p) => `${escapeHtml(p.name)}${p.required ? '*' : ''} <small>${p.type}</small>`).join('<br>');
      return `<tr><td>${e.id}</td><td><b>${e.method}</b> <code>${escapeHtml(paths[0])}</code><br><small>${paths.slice(1).map(escapeHtml).join(', ')}</small></td><td>${escapeHtml(e.summary)}</td><td>${escapeHtml(MERCHANT_AUTH_TEXT[e.auth])}</td><td>${params}</td></tr>`;
    })
    .join('\n');
  const errors = Object.entries(PAYMENT_ERRORS)
    .map(([msg, e]) => `<tr><td>${e.code}</td><td>${e.http}</td><td>${escapeHtml(msg)}</td></tr>`)
    .join('\n');
  return `<h1>Bourse merchant payments API (area B)</h1>
<p>Machine-readable: <a href="${MERCHANT_OPENAPI_PATH}">${MERCHANT_OPENAPI_PATH}</a> (OpenAPI 3.1). Answers are envelopes
<code>{"code":200,"msg":"SUCCESS","data":…}</code>; errors <code>{"code":…,"msg":…,"detail":…,"data":null}</code>. * = required.</p>
<h2>Endpoints</h2>
<table><tr><th>#</th><th>Path</th><th>Operation</th><th>Auth</th><th>Parameters</th></tr>
${rows}
</table>
<h2>Errors</h2>
<table><tr><th>code</th><th>HTTP</th><th>msg</th></tr>
${errors}
</table>
`;
}

/** The operator API's document is separate too: bearer token, plain JSON answers, area A's `{code, msg}` errors. */
export const OPERATOR_OPENAPI_PATH = '/openapi-admin.json';

const OPERATOR_SCHEMA_OF: Record<OperatorParamDoc['type'], Record<string, unknown>> = {
  STRING: { type: 'string' },
  // operator.md "Values": ids and counts as numbers or strings of digits, decimals as DECIMAL text or numbers.
  INT: { type: ['integer', 'string'], minimum: 0, pattern: '^[0-9]{1,15}$' },
  DECIMAL: { type: ['string', 'number'], minimum: 0, pattern: '^[0-9]{1,20}(\\.[0-9]{1,18})?$' },
  BOOLEAN: { type: 'boolean' },
  STRINGS: { type: 'array', items: { type: 'string' } },
  ENUM: { type: 'string' },
};

function operatorSchema(doc: OperatorParamDoc): Record<string, unknown> {
  const base = OPERATOR_SCHEMA_OF[doc.type];
  const values = doc.values === undefined ? {} : doc.type === 'STRINGS' ? { items: { type: 'string', enum: [...doc.values] } } : { enum: [...doc.values] };
  return { ...base, ...values, ...(doc.description ? { description: doc.description } : {}) };
}

function operatorOperation(endpoint: OperatorEndpoint): Record<string, unknown> {
  const { path, pathParams } = openApiPath(operatorPath(endpoint));
  const body = endpoint.body ?? [];
  const parameters = [
    ...pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...(endpoint.query ?? []).map((doc) => ({ name: doc.name, in: 'query', required: doc.required === true, schema: operatorSchema(doc) })),
  ];
  const bodySchema =
    endpoint.bodyDocument !== undefined
      ? { type: 'object', additionalProperties: true, description: endpoint.bodyDocument }
      : { type: 'object', properties: Object.fromEntries(body.map((doc) => [doc.name, operatorSchema(doc)])), required: body.filter((doc) => doc.required === true).map((doc) => doc.name) };
  const hasBody = endpoint.bodyDocument !== undefined || body.length > 0;
  const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  return {
    operationId: `${endpoint.id}_${endpoint.method}_${path.replace(/[^A-Za-z0-9]+/g, '_')}`,
    summary: `${endpoint.id} ${endpoint.summary}`,
    description: `Authorization: Bearer <operator token>.${hasBody ? ' JSON body.' : ''}`,
    tags: [endpoint.path.split('/').filter((s) => s.length > 0)[0] ?? 'admin'],
    parameters,
    ...(hasBody ? { requestBody: { required: body.some((doc) => doc.required === true), content: { 'application/json': { schema: bodySchema } } } } : {}),
    responses: {
      '200': { description: 'Success (JSON; ids as strings, amounts as decimal strings, times in ms)', content: { 'application/json': {} } },
      '401': { description: '-1002 no bearer token, -2015 wrong token', content: errorContent },
      '4XX': { description: 'Refused: bad input 400, unknown object 404 (named in msg), a ledger rule its area A code', content: errorContent },
      '5XX': { description: 'Outcome unknown', content: errorContent },
    },
    security: [{ bearer: [] }],
  };
}

/** OpenAPI 3.1 of the operator API (`/admin/v1`), generated from its registry entries. */
export function operatorOpenApiDocument(endpoints: readonly OperatorEndpoint[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const { path } = openApiPath(operatorPath(endpoint));
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operatorOperation(endpoint) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bourse operator API',
      version: '1',
      description: `Operator API under ${OPERATOR_PREFIX}: users, API keys, deposits, withdrawals, assets, symbols, fees, bans, configuration, ledger check. JSON in, JSON out; errors are {code, msg} as in area A.`,
    },
    servers: [{ url: '/' }],
    paths,
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'the operator token (BOURSE_ADMIN_TOKEN or <BOURSE_DATA>/admin-token)' } },
      schemas: {
        Error: areaAErrorSchema(),
      },
    },
  };
}

function operatorSection(endpoints: readonly OperatorEndpoint[]): string {
  const params = (docs: readonly OperatorParamDoc[] | undefined, where: string): string[] =>
    (docs ?? []).map((p) => `${escapeHtml(p.name)}${p.required ? '*' : ''} <small>${p.type}${where}</small>`);
  const rows = endpoints
    .map((e) => {
      const listed = [...params(e.body, ''), ...params(e.query, ', query'), ...(e.bodyDocument === undefined ? [] : [`<small>${escapeHtml(e.bodyDocument)}</small>`])];
      return `<tr><td>${e.id}</td><td><b>${e.method}</b> <code>${escapeHtml(openApiPath(operatorPath(e)).path)}</code></td><td>${escapeHtml(e.summary)}</td><td>${listed.join('<br>')}</td></tr>`;
    })
    .join('\n');
  return `<h1>Bourse operator API</h1>
<p>Machine-readable: <a href="${OPERATOR_OPENAPI_PATH}">${OPERATOR_OPENAPI_PATH}</a> (OpenAPI 3.1). Send <code>Authorization: Bearer &lt;operator token&gt;</code>
and JSON bodies; answers are JSON, errors <code>{"code":…,"msg":…}</code> with the codes of area A above. * = required; body members unless marked query.</p>
<h2>Endpoints</h2>
<table><tr><th>#</th><th>Path</th><th>Operation</th><th>Parameters</th></tr>
${rows}
</table>
`;
}
