import { BourseError } from '../../core/errors.js';
import type { JsonValue } from '../json-body.js';
import type { JsonSchema } from '../response-schema.js';

/** Where an operator request carries a parameter: OpenAPI's `in`, and the body's members. */
export type ParamPlace = 'path' | 'query' | 'body';

/** What a parameter is read from: a body member as parsed JSON, a path or query value as its text. */
export type Sent<Place extends ParamPlace> = Place extends 'body' ? JsonValue : string;

/**
 * One declared parameter of an operator route: the reader that turns what was sent into the
 * handler's typed value (or refuses it in the operator API's `{code, msg}`), and the schema the
 * OpenAPI document shows for it. Both come from the one declaration, so they cannot drift.
 */
export interface Param<Place extends ParamPlace, Value> {
  readonly in: Place;
  /** The value's JSON Schema (type, range, values, description) in the reference. */
  readonly schema: JsonSchema;
  /** The request must carry it (path parameters always do). */
  readonly required: boolean;
  /** The value from what was sent (undefined: absent), or the refusal naming `name`. */
  readonly read: (sent: Sent<Place> | undefined, name: string) => Value;
}

export type ParamSet<Place extends ParamPlace> = Readonly<Record<string, Param<Place, unknown>>>;

/** The typed values a set of parameters reads to, by name. */
export type Values<Set> = { readonly [Name in keyof Set]: Set[Name] extends { readonly read: (...args: never[]) => infer Value } ? Value : never };

/** Reads every parameter of `set` in its declared order: the first refusal is the answer. */
export function readParams<Place extends ParamPlace, Set extends ParamSet<Place>>(set: Set, sent: (name: string) => Sent<Place> | undefined): Values<Set> {
  const values = Object.entries(set).map(([name, param]) => [name, param.read(sent(name), name)] as const);
  // Each value is what its own reader returned after checking it: the one place the names meet their types.
  return Object.fromEntries(values) as Values<Set>;
}

/** The schemas of a set of parameters, by name. */
export function paramSchemas(set: ParamSet<ParamPlace>): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(set).map(([name, param]) => [name, param.schema]));
}

/** What every kind of parameter may say about itself in the reference. */
export interface Described {
  readonly description?: string;
}

/** `schema` with the description the declaration gives, if any. */
export function describedSchema(schema: JsonSchema, options: Described): JsonSchema {
  return options.description === undefined ? schema : { ...schema, description: options.description };
}

/** A well-formed value that is not allowed: -1130 naming the parameter. */
export function notAllowed(name: string): never {
  throw new BourseError('INVALID_PARAM_VALUE', [name]);
}
