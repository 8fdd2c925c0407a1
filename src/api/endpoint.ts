import type { Permission } from '../core/types.js';
import type { ApiKeyRecord } from '../exchange/catalogue-module.js';
import type { Exchange } from '../exchange/exchange.js';
import type { Params } from './params.js';
import type { JsonSchema } from './response-schema.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Security types of docs/spot-api.md "Security types and permissions"; NONE endpoints ignore keys and signatures. */
export type SecurityType = 'NONE' | Permission;

/** Which path family an endpoint's path belongs to (docs/spot-api.md "Paths and aliases"). */
export type PathGroup = 'general' | 'market' | 'private' | 'wallet';

/** A parameter as the OpenAPI document describes it; parsing itself is the handler's, via params.ts. */
export interface ParamDoc {
  name: string;
  /** `FILE`: a `multipart/form-data` file part (area B's B35; docs/merchant-payments.md "Endpoints served"). */
  type: 'STRING' | 'INT' | 'LONG' | 'DECIMAL' | 'ENUM' | 'FILE';
  required?: boolean;
  description?: string;
  values?: readonly string[];
}

export interface RequestContext {
  params: Params;
  exchange: Exchange;
  /** The key that signed the request (keyed endpoints only). */
  key: ApiKeyRecord | undefined;
  ip: string;
  /** Response headers the handler adds (e.g. order counts). */
  headers: Record<string, string>;
  /** A signed request's `recvWindow`, already checked to be 1–60000 ms; undefined when not sent. */
  recvWindow: number | undefined;
}

/** The key that authorised a keyed endpoint; the registry's security type guarantees there is one. */
export function requireKey(ctx: RequestContext): ApiKeyRecord {
  if (ctx.key === undefined) throw new Error('keyed endpoint reached without a key');
  return ctx.key;
}

export interface Endpoint {
  /** The spec's number, e.g. "A11". */
  id: string;
  summary: string;
  method: HttpMethod;
  /** Further methods served the same way (docs/spot-api.md "Methods and parameters": the GET read routes also answer POST). */
  extraMethods?: readonly HttpMethod[];
  group: PathGroup;
  /** Path below the group's prefixes, e.g. "order" or "quote/v1/depth" style segments: "depth". */
  path: string;
  /** Further absolute paths served by this endpoint (docs/spot-api.md "Paths and aliases" aliases). */
  extraPaths?: readonly string[];
  security: SecurityType;
  /** Request weight, or a function of the parameters (A5, A8). */
  weight: number | ((params: Params) => number);
  /** A11: counts toward the ORDERS limits. */
  countsOrder?: boolean;
  /** Main-account keys only (-1005 otherwise). */
  mainKeyOnly?: boolean;
  params: readonly ParamDoc[];
  /** JSON Schema of the 200 answer; the reference shows it and tests check real answers against it. */
  response: JsonSchema;
  /** A typical 200 answer, shown in the reference (tests check it against `response`). */
  example: unknown;
  /** The answer's body: a value to serialise, or `JsonText` already serialised. */
  handler: (ctx: RequestContext) => Promise<unknown> | unknown;
}

/** An answer body serialised ahead (A5 reuses the text of a book that has not changed). */
export class JsonText {
  constructor(readonly text: string) {}
}

/** Every path an endpoint answers on (each also with a trailing `/`, which the router allows). */
export function endpointPaths(endpoint: Endpoint): string[] {
  const p = endpoint.path;
  const paths: string[] = [];
  switch (endpoint.group) {
    case 'general':
      paths.push(`/openapi/v1/${p}`, `/openapi/${p}`);
      break;
    case 'market':
      paths.push(`/openapi/quote/v1/${p}`, `/openapi/v1/${p}`);
      break;
    case 'private':
      paths.push(`/openapi/v1/${p}`, `/openapi/${p}`, `/openapi/account/v1/${p}`);
      break;
    case 'wallet':
      paths.push(`/openapi/wallet/v1/${p}`);
      break;
  }
  return [...paths, ...(endpoint.extraPaths ?? [])];
}
