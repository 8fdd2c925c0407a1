/**
 * Building blocks for the JSON Schemas (2020-12, the dialect of OpenAPI 3.1) that every registry
 * entry declares for its answer. Objects are closed (`additionalProperties: false`): a member the
 * server sends but the reference does not name fails the schema test, so the two cannot drift.
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** Amounts, prices and rates travel as decimal strings, never JSON numbers. */
export const decimal: JsonSchema = { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$' };
/** Ids that are strings of digits on the wire (order ids, trade ids, user ids). */
export const digits: JsonSchema = { type: 'string', pattern: '^[0-9]+$' };
export const integer: JsonSchema = { type: 'integer' };
/** A time in milliseconds since the Unix epoch. */
export const millis: JsonSchema = { type: 'integer', minimum: 0, description: 'ms since the Unix epoch' };
export const string: JsonSchema = { type: 'string' };
export const boolean: JsonSchema = { type: 'boolean' };

export function oneOfValues(values: readonly (string | number)[]): JsonSchema {
  return { enum: [...values] };
}

export function constant(value: string | number | boolean | null): JsonSchema {
  return { const: value };
}

/** A closed object: every member is required except those named in `optional`. */
export function object(members: Readonly<Record<string, JsonSchema>>, optional: readonly string[] = []): JsonSchema {
  return {
    type: 'object',
    properties: members,
    required: Object.keys(members).filter((name) => !optional.includes(name)),
    additionalProperties: false,
  };
}

/** An object keyed by names the caller chooses (assets, symbols), every value of one shape. */
export function mapOf(values: JsonSchema): JsonSchema {
  return { type: 'object', additionalProperties: values };
}

export function arrayOf(items: JsonSchema): JsonSchema {
  return { type: 'array', items };
}

export function nullable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'null' }] };
}

export function anyOf(...schemas: JsonSchema[]): JsonSchema {
  return { anyOf: schemas };
}

/** The same schema with a description for the reference. */
export function described(schema: JsonSchema, description: string): JsonSchema {
  return { ...schema, description };
}

/** A fixed-length array whose positions each have their own schema (kline rows, `[price, qty]` levels). */
export function tuple(...items: JsonSchema[]): JsonSchema {
  return { type: 'array', prefixItems: items, items: false, minItems: items.length };
}

/** An array that is always empty (members kept for the shape of a reference API). */
export const emptyArray: JsonSchema = { type: 'array', maxItems: 0 };
