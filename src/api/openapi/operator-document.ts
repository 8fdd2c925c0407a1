import { OPERATOR_PREFIX, operatorPath, type OperatorEndpoint, type OperatorParamDoc } from '../admin/operator-endpoint.js';
import { ADMIN_BEARER_SCHEME, areaAErrorSchema, ERROR_CONTENT, jsonContent, openApiPath, operationId, type Document, type Operation } from './common.js';

/** The operator API is also served alone: bearer token, plain JSON answers, area A's `{code, msg}` errors. */
export const OPERATOR_OPENAPI_PATH = '/openapi-admin.json';

const SCHEMA_OF: Record<OperatorParamDoc['type'], Record<string, unknown>> = {
  STRING: { type: 'string' },
  // Ids and counts as numbers or strings of digits, decimals as DECIMAL text or numbers.
  INT: { type: ['integer', 'string'], minimum: 0, pattern: '^[0-9]{1,15}$' },
  DECIMAL: { type: ['string', 'number'], minimum: 0, pattern: '^[0-9]{1,20}(\\.[0-9]{1,18})?$' },
  BOOLEAN: { type: 'boolean' },
  STRINGS: { type: 'array', items: { type: 'string' } },
  ENUM: { type: 'string' },
};

function paramSchema(doc: OperatorParamDoc): Record<string, unknown> {
  const base = SCHEMA_OF[doc.type];
  const values = doc.values === undefined ? {} : doc.type === 'STRINGS' ? { items: { type: 'string', enum: [...doc.values] } } : { enum: [...doc.values] };
  return { ...base, ...values, ...(doc.description ? { description: doc.description } : {}) };
}

function operation(endpoint: OperatorEndpoint): Operation {
  const { path, pathParams } = openApiPath(operatorPath(endpoint));
  const body = endpoint.body ?? [];
  const parameters = [
    ...pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...(endpoint.query ?? []).map((doc) => ({ name: doc.name, in: 'query', required: doc.required === true, schema: paramSchema(doc) })),
  ];
  const bodySchema =
    endpoint.bodyDocument !== undefined
      ? { type: 'object', additionalProperties: true, description: endpoint.bodyDocument }
      : { type: 'object', properties: Object.fromEntries(body.map((doc) => [doc.name, paramSchema(doc)])), required: body.filter((doc) => doc.required === true).map((doc) => doc.name) };
  const hasBody = endpoint.bodyDocument !== undefined || body.length > 0;
  return {
    operationId: operationId(endpoint.id, endpoint.method, path),
    summary: `${endpoint.id} ${endpoint.summary}`,
    description: `Authorization: Bearer <operator token>.${hasBody ? ' JSON body.' : ''}`,
    tags: [`Operator · ${endpoint.path.split('/').filter((s) => s.length > 0)[0] ?? 'admin'}`],
    parameters,
    ...(hasBody ? { requestBody: { required: body.some((doc) => doc.required === true), content: { 'application/json': { schema: bodySchema } } } } : {}),
    responses: {
      '200': { description: 'Success (ids as strings, amounts as decimal strings, times in ms)', content: jsonContent(endpoint.response, endpoint.example) },
      '401': { description: '-1002 no bearer token, -2015 wrong token', content: ERROR_CONTENT },
      '4XX': { description: 'Refused: bad input 400, unknown object 404 (named in msg), a ledger rule its area A code', content: ERROR_CONTENT },
      '5XX': { description: 'Outcome unknown', content: ERROR_CONTENT },
    },
    security: [{ adminBearer: [] }],
  };
}

/** OpenAPI 3.1 of the operator API (`/admin/v1`), generated from its registry entries. */
export function operatorOpenApiDocument(endpoints: readonly OperatorEndpoint[]): Document {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const { path } = openApiPath(operatorPath(endpoint));
    paths[path] = { ...paths[path], [endpoint.method.toLowerCase()]: operation(endpoint) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bourse operator API',
      version: '1',
      description: `Operator API under ${OPERATOR_PREFIX}: users, API keys, deposits, withdrawals, assets, symbols, fees, bans, configuration, ledger check. JSON in, JSON out; errors are {code, msg} as in the spot API.`,
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: { adminBearer: ADMIN_BEARER_SCHEME },
      schemas: { Error: areaAErrorSchema() },
    },
  };
}
