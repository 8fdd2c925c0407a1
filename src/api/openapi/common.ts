import { ERRORS } from '../../core/errors.js';
import type { JsonSchema } from '../response-schema.js';

export type Document = Record<string, unknown>;
export type Operation = Record<string, unknown>;

/** Area A's `{code, msg}` error, with every code of its registry: area A and the operator API answer it. */
export function areaAErrorSchema(): JsonSchema {
  const errors = Object.values(ERRORS).map((e) => ({ code: e.code, msg: e.msg, http: e.http }));
  return {
    type: 'object',
    required: ['code', 'msg'],
    properties: { code: { type: 'integer', enum: [...new Set(errors.map((e) => e.code))] }, msg: { type: 'string' } },
    'x-errors': errors,
  };
}

/** An error answer of the spot and operator APIs: the `Error` schema both documents hold. */
export const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/** `/v2/payments/:userPaymentId` → `/v2/payments/{userPaymentId}` and its path parameter names. */
export function openApiPath(path: string): { path: string; pathParams: string[] } {
  const pathParams: string[] = [];
  const converted = path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    pathParams.push(name);
    return `{${name}}`;
  });
  return { path: converted, pathParams };
}

export function operationId(id: string, method: string, path: string): string {
  return `${id}_${method}_${path.replace(/[^A-Za-z0-9]+/g, '_')}`;
}

/** A 200 answer in JSON with its schema and, when the registry gives one, an example. */
export function jsonContent(schema: JsonSchema | undefined, example: unknown): Record<string, unknown> {
  return { 'application/json': { schema: schema ?? {}, ...(example === undefined ? {} : { example }) } };
}

/** Alias operations carry their canonical path, so readers (and the schema test) can tell them apart. */
export function aliasMarks(path: string, canonical: string): Record<string, unknown> {
  return path === canonical ? {} : { 'x-alias-of': canonical };
}

/** The tag of the operations served under another path too: kept apart so the main tags stay readable. */
export const ALIAS_TAG = 'Path aliases';

/** Security schemes shared by the interfaces (the merged document requires them equal). */
export const API_KEY_SCHEME = { type: 'apiKey', in: 'header', name: 'X-BH-APIKEY', description: 'the API key; signed requests add timestamp and signature' };
export const ADMIN_BEARER_SCHEME = { type: 'http', scheme: 'bearer', description: 'the operator token (BOURSE_ADMIN_TOKEN or <BOURSE_DATA>/admin-token)' };
