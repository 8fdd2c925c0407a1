import type { AdminBody } from './admin-body.js';
import type { JsonSchema } from '../response-schema.js';

/** Every operator route lives below this prefix (docs/operating.md). */
export const OPERATOR_PREFIX = '/admin/v1';

export type OperatorMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * A body member or query parameter as the OpenAPI document describes it; reading and checking
 * it is the handler's, through `AdminBody` (whose readers these types name).
 */
export interface OperatorParamDoc {
  name: string;
  /** `INT`: a JSON number or a string of digits; `DECIMAL`: area A's DECIMAL text (a JSON number too). */
  type: 'STRING' | 'INT' | 'DECIMAL' | 'BOOLEAN' | 'STRINGS' | 'ENUM';
  required?: boolean;
  description?: string;
  values?: readonly string[];
}

/** What an operator handler sees: the JSON body, the path parameters and the query, as sent. */
export interface AdminRequest {
  body: AdminBody;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
}

export interface OperatorEndpoint {
  /** Our number, e.g. "O1" (our own numbering, shown in /docs and /openapi-admin.json). */
  id: string;
  summary: string;
  method: OperatorMethod;
  /** Path below `/admin/v1`, Fastify syntax for path parameters (`/users/:userId/api-keys`). */
  path: string;
  /** Members of the JSON body. */
  body?: readonly OperatorParamDoc[];
  /**
   * The body is a partial document rather than fixed members (PATCH payments config): this text
   * describes it, and the OpenAPI document takes any JSON object.
   */
  bodyDocument?: string;
  /** Query parameters. */
  query?: readonly OperatorParamDoc[];
  /** JSON Schema of the 200 answer; tests check real answers against it. */
  response: JsonSchema;
  /** A typical answer, shown in the reference (tests check it against `response`). */
  example: unknown;
  /** The answer, sent as JSON with status 200. */
  handler: (request: AdminRequest) => Promise<unknown> | unknown;
}

/** The absolute path an operator endpoint is served on. */
export function operatorPath(endpoint: OperatorEndpoint): string {
  return `${OPERATOR_PREFIX}${endpoint.path}`;
}
