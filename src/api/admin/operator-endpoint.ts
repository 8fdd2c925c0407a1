import type { JsonSchema } from '../response-schema.js';
import type { AdminBody } from './admin-body.js';
import type { BodySpec } from './body-members.js';
import { notAllowed, readParams, type Param, type ParamSet, type Values } from './operator-param.js';

/** Every operator route lives below this prefix (docs/operating.md). */
export const OPERATOR_PREFIX = '/admin/v1';

export type OperatorMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A route's parameters, each declared once: read into the handler's values, and shown in the reference. */
export interface OperatorParams {
  /** One per `:name` of the path, in any order. */
  readonly path?: ParamSet<'path'>;
  readonly query?: ParamSet<'query'>;
  readonly body?: BodySpec<unknown>;
}

/** What a handler receives: every declared parameter read and typed; `body` undefined when none is declared. */
export interface OperatorInput<Params extends OperatorParams> {
  readonly path: Params extends { readonly path: infer Set } ? Values<Set> : Record<never, never>;
  readonly query: Params extends { readonly query: infer Set } ? Values<Set> : Record<never, never>;
  readonly body: Params extends { readonly body: BodySpec<infer Body> } ? Body : undefined;
}

/** The names of a path's parameters: `/users/:userId/api-keys` → `userId`. */
type PathNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}` ? Name | PathNames<Rest> : Path extends `${string}:${infer Name}` ? Name : never;

/** A path with parameters must declare each of them; one without needs no `params` at all. */
type ParamsOf<Path extends string, Params extends OperatorParams> = [PathNames<Path>] extends [never]
  ? { readonly params?: Params }
  : { readonly params: Params & { readonly path: { readonly [Name in PathNames<Path>]: Param<'path', unknown> } } };

interface Route {
  /** Our number, e.g. "O1" (our own numbering, shown in /docs and /openapi-admin.json). */
  readonly id: string;
  readonly summary: string;
  readonly method: OperatorMethod;
  /** Path below `/admin/v1`, Fastify syntax for path parameters (`/users/:userId/api-keys`). */
  readonly path: string;
  /** JSON Schema of the 200 answer; tests check real answers against it. */
  readonly response: JsonSchema;
  /** A typical answer, shown in the reference (tests check it against `response`). */
  readonly example: unknown;
  /** The media types of a route that answers a file (a `FileAnswer`) instead of JSON. */
  readonly produces?: readonly string[];
}

/** A request as it came: the parsed JSON body, and the path and query values Fastify decoded. */
export interface SentRequest {
  readonly body: AdminBody;
  readonly path: unknown;
  readonly query: unknown;
}

/** An operator route as the registry, the router and the OpenAPI document see it. */
export interface OperatorEndpoint extends Route {
  readonly params: OperatorParams;
  /** Reads the declared parameters (the first refusal is the answer) and answers with the handler's value. */
  readonly answer: (request: SentRequest) => Promise<unknown> | unknown;
}

/**
 * An operator route from its declaration: its parameters, each declared once, are read into the
 * typed values the handler receives, and the OpenAPI document shows the same declarations.
 * Path parameters are read first (an unknown object is 404 whatever the body says), then the
 * query, then the body's members, each set in its declared order.
 */
export function operatorEndpoint<const Path extends string, const Params extends OperatorParams = Record<never, never>>(
  declaration: Route & { readonly path: Path; readonly handler: (input: OperatorInput<Params>) => Promise<unknown> | unknown } & ParamsOf<Path, Params>,
): OperatorEndpoint {
  const { handler, params, ...route } = declaration;
  const declared = Object.keys(params?.path ?? {});
  const names = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]);
  if (declared.length !== names.length || !names.every((name) => declared.includes(name))) {
    throw new Error(`operator route ${route.id}: path parameters ${names.join(', ')} but declared ${declared.join(', ')}`);
  }
  return {
    ...route,
    params: params ?? {},
    answer: (request) => handler(readInput(params, request)),
  };
}

function readInput<Params extends OperatorParams>(params: Params | undefined, request: SentRequest): OperatorInput<Params> {
  const path = sentTexts(request.path);
  const query = sentTexts(request.query);
  const input = {
    path: readParams(params?.path ?? {}, path),
    query: readParams(params?.query ?? {}, query),
    body: params?.body?.read(request.body),
  };
  // Each value is what its declared reader returned after checking it; only their assembly is typed here.
  return input as OperatorInput<Params>;
}

/**
 * Fastify's decoded path or query values, by name. A query name sent more than once has no one
 * value: it is not allowed (-1130 naming it), rather than one of its values taken.
 */
function sentTexts(values: unknown): (name: string) => string | undefined {
  const texts = new Map<string, unknown>(typeof values === 'object' && values !== null ? Object.entries(values) : []);
  return (name) => {
    const value = texts.get(name);
    return value === undefined || typeof value === 'string' ? value : notAllowed(name);
  };
}

/** The absolute path an operator endpoint is served on. */
export function operatorPath(endpoint: Route): string {
  return `${OPERATOR_PREFIX}${endpoint.path}`;
}
