import { PAYMENT_ERRORS } from '../../core/payment-errors.js';
import type { ParamDoc } from '../endpoint.js';
import type { MerchantAuth, MerchantEndpoint } from '../merchant/merchant-endpoint.js';
import { constant, object, type JsonSchema } from '../response-schema.js';
import { ADMIN_BEARER_SCHEME, ALIAS_TAG, API_KEY_SCHEME, aliasMarks, jsonContent, openApiPath, operationId, type Document, type Operation } from './common.js';

/** Area B's document is also served alone: its envelope, auth and errors differ from area A's. */
export const MERCHANT_OPENAPI_PATH = '/openapi-v2.json';

const SCHEMA_OF: Record<ParamDoc['type'], Record<string, unknown>> = {
  // Integers and decimals accept a JSON number or a string.
  STRING: { type: 'string' },
  INT: { type: ['integer', 'string'], pattern: '^[0-9]+$' },
  LONG: { type: ['integer', 'string'], pattern: '^[0-9]+$' },
  DECIMAL: { type: ['string', 'number'], pattern: '^[0-9]+(\\.[0-9]+)?$' },
  ENUM: { type: 'string' },
  // One part per file, under the same name.
  FILE: { type: 'array', items: { type: 'string', format: 'binary' } },
};

const SECURITY: Record<MerchantAuth, Record<string, string[]>[]> = {
  KEY: [{ apiKey: [] }],
  TOKEN: [{ token: [] }],
  // `/v2/base/*`: anonymous, or with a token (then charged to the user).
  OPTIONAL_TOKEN: [{}, { token: [] }],
  SANDBOX: [{ token: [] }, { adminBearer: [] }],
};

const AUTH_TEXT: Record<MerchantAuth, string> = {
  KEY: 'X-BH-APIKEY with timestamp and signature (HMAC-SHA256 hex of the raw query without signature)',
  TOKEN: 'X-BH-TOKEN',
  OPTIONAL_TOKEN: 'none, or X-BH-TOKEN (a bad token is ignored)',
  SANDBOX: 'X-BH-TOKEN while BOURSE_SANDBOX=1, or Authorization: Bearer <operator token>',
};

function paramSchema(doc: ParamDoc): Record<string, unknown> {
  return { ...SCHEMA_OF[doc.type], ...(doc.values === undefined ? {} : { enum: [...doc.values] }), ...(doc.description ? { description: doc.description } : {}) };
}

/** Tag of an area B path: `sandbox`, else its first segment after the version (`base`, `merchant`, …). */
function tagOf(path: string): string {
  if (path.startsWith('/sandbox')) return 'Payments · sandbox';
  const segments = path.split('/').filter((s) => s.length > 0);
  const version = segments.indexOf('v2');
  return `Payments · ${segments[version + 1] ?? 'v2'}`;
}

/** The successful envelope around an endpoint's `data`. */
function envelope(data: JsonSchema | undefined): JsonSchema {
  return object({ code: constant(200), msg: constant('SUCCESS'), data: data ?? {} });
}

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } };

function operation(endpoint: MerchantEndpoint, path: string, canonical: string, pathParams: readonly string[]): Operation {
  const inQuery = endpoint.method === 'GET';
  const fields = endpoint.params.filter((p) => !pathParams.includes(p.name));
  const bucket = endpoint.auth === 'KEY' ? 'B0 (10/min per key)' : endpoint.bucket === 'quote' ? 'quote (60/min per user)' : 'general (1200/min per user)';
  const parameters = [
    ...pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...(inQuery ? fields.map((doc) => ({ name: doc.name, in: 'query', required: doc.required === true, schema: paramSchema(doc) })) : []),
  ];
  const bodySchema = {
    type: 'object',
    properties: Object.fromEntries(fields.map((doc) => [doc.name, paramSchema(doc)])),
    required: fields.filter((doc) => doc.required === true).map((doc) => doc.name),
  };
  const example = endpoint.example === undefined ? undefined : { code: 200, msg: 'SUCCESS', data: endpoint.example };
  return {
    operationId: operationId(endpoint.id, endpoint.method, path),
    summary: `${endpoint.id} ${endpoint.summary}`,
    description: `Auth: ${AUTH_TEXT[endpoint.auth]}. Rate bucket ${bucket}; counts ${endpoint.cost ?? 1}.${path === canonical ? '' : ` Alias of ${canonical}.`}`,
    tags: [path === canonical ? tagOf(path) : ALIAS_TAG],
    ...aliasMarks(path, canonical),
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
      '200': { description: 'Success: data in the envelope', content: jsonContent(envelope(endpoint.response), example) },
      '4XX': { description: 'Refused (the HTTP status follows the code)', content: errorContent },
      '5XX': { description: '-1001 outcome unknown, or -1016 stopping', content: errorContent },
    },
    security: SECURITY[endpoint.auth],
  };
}

/** OpenAPI 3.1 of area B, generated from its registry: paths, methods, parameters, auth, answers and error codes. */
export function merchantOpenApiDocument(endpoints: readonly MerchantEndpoint[]): Document {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const canonical = openApiPath(endpoint.path).path;
    for (const raw of [endpoint.path, ...(endpoint.extraPaths ?? [])]) {
      const { path, pathParams } = openApiPath(raw);
      paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operation(endpoint, path, canonical, pathParams) };
    }
  }
  const errors = Object.entries(PAYMENT_ERRORS).map(([msg, e]) => ({ code: e.code, msg, http: e.http }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bourse merchant payments API',
      version: '2025-06-13',
      description:
        'Merchant payments under /v2, /openapi/v2 and /sandbox/v2. Every answer is an envelope {code, msg, data}; errors add detail. GET takes parameters in the query, other methods a JSON (or form) body; the query wins.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        apiKey: API_KEY_SCHEME,
        token: { type: 'apiKey', in: 'header', name: 'X-BH-TOKEN', description: 'from B0; valid 2 h by default' },
        adminBearer: ADMIN_BEARER_SCHEME,
      },
      schemas: {
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
