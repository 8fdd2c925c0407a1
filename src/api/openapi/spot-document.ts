import { endpointPaths, type Endpoint, type ParamDoc, type PathGroup } from '../endpoint.js';
import { ALIAS_TAG, API_KEY_SCHEME, aliasMarks, areaAErrorSchema, ERROR_CONTENT, jsonContent, operationId, type Document } from './common.js';

const SIGNED_TYPES = new Set(['USER_DATA', 'TRADE', 'SUB_ACCOUNT_LIST', 'ACCOUNT_TRANSFER', 'BALANCE_FLOW', 'TRANSFER', 'WITHDRAW']);

const SCHEMA_OF: Record<ParamDoc['type'], Record<string, unknown>> = {
  STRING: { type: 'string' },
  INT: { type: 'integer', format: 'int32', minimum: 0 },
  LONG: { type: 'integer', format: 'int64', minimum: 0 },
  DECIMAL: { type: 'string', pattern: '^[0-9]{1,20}(\\.[0-9]{1,18})?$' },
  ENUM: { type: 'string' },
  FILE: { type: 'string', format: 'binary' },
};

const TAG_OF: Record<PathGroup, string> = {
  general: 'Spot · general',
  market: 'Spot · market data',
  private: 'Spot · account and orders',
  wallet: 'Spot · wallet',
};

function parameter(doc: ParamDoc): Record<string, unknown> {
  const schema = { ...SCHEMA_OF[doc.type], ...(doc.values === undefined ? {} : { enum: [...doc.values] }) };
  return { name: doc.name, in: 'query', required: doc.required === true, schema, ...(doc.description ? { description: doc.description } : {}) };
}

/** Keyed operations show the signing parameters: required where the security type signs. */
function signedParams(endpoint: Endpoint): ParamDoc[] {
  if (endpoint.security === 'NONE') return [];
  const signed = SIGNED_TYPES.has(endpoint.security);
  return [
    { name: 'timestamp', type: 'LONG', required: signed, description: 'ms the request was made' },
    { name: 'recvWindow', type: 'LONG', description: '1-60000, default 5000' },
    { name: 'signature', type: 'STRING', required: signed, description: 'HMAC-SHA256 hex of query + body' },
  ];
}

/** OpenAPI 3.1 of the spot API, generated from its registry: every path alias, method, parameter, answer and error. */
export function spotOpenApiDocument(endpoints: readonly Endpoint[]): Document {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const weight = typeof endpoint.weight === 'number' ? String(endpoint.weight) : 'depends on parameters';
    const [canonical, ...aliases] = endpointPaths(endpoint);
    for (const path of [canonical, ...aliases]) {
      for (const method of [endpoint.method, ...(endpoint.extraMethods ?? [])]) {
        paths[path] = {
          ...paths[path],
          [method.toLowerCase()]: {
            operationId: `${operationId(endpoint.id, endpoint.method, path)}_${method}`,
            summary: `${endpoint.id} ${endpoint.summary}`,
            description: `Security ${endpoint.security}; weight ${weight}.${path === canonical ? '' : ` Alias of ${canonical}.`}`,
            tags: [path === canonical ? TAG_OF[endpoint.group] : ALIAS_TAG],
            ...aliasMarks(path, canonical),
            parameters: [...endpoint.params, ...signedParams(endpoint)].map(parameter),
            responses: {
              '200': { description: 'Success', content: jsonContent(endpoint.response, endpoint.example) },
              '4XX': { description: 'Request error', content: ERROR_CONTENT },
              '5XX': { description: 'Outcome unknown', content: ERROR_CONTENT },
            },
            ...(endpoint.security === 'NONE' ? {} : { security: [{ apiKey: [] }] }),
          },
        };
      }
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bourse spot Open API',
      version: '2018-09-25',
      description: 'BHEX/HBTC-style spot trading API. Signed endpoints take timestamp and signature; errors are {code, msg}.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: { apiKey: API_KEY_SCHEME },
      schemas: { Error: areaAErrorSchema() },
    },
  };
}
