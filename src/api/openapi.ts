import { ERRORS } from '../core/errors.js';
import { endpointPaths, type Endpoint, type ParamDoc } from './endpoint.js';

const SIGNED_TYPES = new Set(['USER_DATA', 'TRADE', 'SUB_ACCOUNT_LIST', 'ACCOUNT_TRANSFER', 'BALANCE_FLOW', 'TRANSFER', 'WITHDRAW']);

const SCHEMA_OF: Record<ParamDoc['type'], Record<string, unknown>> = {
  STRING: { type: 'string' },
  INT: { type: 'integer', format: 'int32', minimum: 0 },
  LONG: { type: 'integer', format: 'int64', minimum: 0 },
  DECIMAL: { type: 'string', pattern: '^[0-9]{1,20}(\\.[0-9]{1,18})?$' },
  ENUM: { type: 'string' },
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
  const errors = Object.values(ERRORS).map((e) => ({ code: e.code, msg: e.msg, http: e.http }));
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
        Error: {
          type: 'object',
          required: ['code', 'msg'],
          properties: { code: { type: 'integer', enum: [...new Set(errors.map((e) => e.code))] }, msg: { type: 'string' } },
          'x-errors': errors,
        },
      },
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A readable, self-contained API page (no scripts, no external assets). */
export function docsPage(endpoints: readonly Endpoint[]): string {
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
</body></html>
`;
}
