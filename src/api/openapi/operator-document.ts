import type { Param } from '../admin/operator-param.js';
import { OPERATOR_PREFIX, operatorPath, type OperatorEndpoint } from '../admin/operator-endpoint.js';
import { ADMIN_BEARER_SCHEME, areaAErrorSchema, ERROR_CONTENT, jsonContent, openApiPath, operationId, type Document, type Operation } from './common.js';

/** The operator API is also served alone: bearer token, plain JSON answers, area A's `{code, msg}` errors. */
export const OPERATOR_OPENAPI_PATH = '/openapi-admin.json';

function parameter(name: string, param: Param<'path' | 'query', unknown>): Record<string, unknown> {
  return { name, in: param.in, required: param.required, schema: param.schema };
}

/** JSON, or for a route that answers a file each of its media types. */
function answerContent(endpoint: OperatorEndpoint): Record<string, unknown> {
  if (endpoint.produces === undefined) return jsonContent(endpoint.response, endpoint.example);
  return Object.fromEntries(endpoint.produces.map((type) => [type, { schema: endpoint.response, example: endpoint.example }]));
}

function operation(endpoint: OperatorEndpoint): Operation {
  const { path, pathParams } = openApiPath(operatorPath(endpoint));
  const { path: declaredPath = {}, query = {}, body } = endpoint.params;
  const parameters = [
    // In the order the path names them (operatorEndpoint checked that each is declared).
    ...pathParams.map((name) => parameter(name, declaredPath[name])),
    ...Object.entries(query).map(([name, param]) => parameter(name, param)),
  ];
  return {
    operationId: operationId(endpoint.id, endpoint.method, path),
    summary: `${endpoint.id} ${endpoint.summary}`,
    description: `Authorization: Bearer <operator token>.${body === undefined ? '' : ' JSON body.'}`,
    tags: [`Operator · ${endpoint.path.split('/').filter((s) => s.length > 0)[0] ?? 'admin'}`],
    parameters,
    ...(body === undefined ? {} : { requestBody: { required: body.required, content: { 'application/json': { schema: body.schema } } } }),
    responses: {
      '200': { description: 'Success (ids as strings, amounts as decimal strings, times in ms)', content: answerContent(endpoint) },
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
