/**
 * Query parameters of the operator routes, declared once: each kind reads its text into the
 * handler's typed value and names its type and range for the OpenAPI document. A value that
 * is not allowed is -1130 naming it; an empty value counts as absent.
 */
import type { JsonSchema } from '../response-schema.js';
import { describedSchema, notAllowed, type Described, type Param } from './operator-param.js';

export type QueryParam<Value> = Param<'query', Value>;

/** A query id or count: 1 to 15 digits (no sign), as the operator's lists take it. */
const QUERY_DIGITS = /^[0-9]{1,15}$/;
const MAX_QUERY_INTEGER = 999_999_999_999_999;

/** An optional parameter: absent or empty reads as undefined, anything else through `read`. */
function optional<Value>(schema: JsonSchema, options: Described, read: (text: string, name: string) => Value): QueryParam<Value | undefined> {
  return {
    in: 'query',
    schema: describedSchema(schema, options),
    required: false,
    read: (sent, name) => (sent === undefined || sent === '' ? undefined : read(sent, name)),
  };
}

/** An integer of digits within `min` (default 0) and `max` (default the largest of 15 digits). */
export function integer(options: Described & { readonly min?: number; readonly max?: number } = {}): QueryParam<number | undefined> {
  const min = options.min ?? 0;
  const max = options.max ?? MAX_QUERY_INTEGER;
  return optional({ type: 'integer', minimum: min, maximum: max }, options, (text, name) => {
    const value = Number(text);
    return QUERY_DIGITS.test(text) && value >= min && value <= max ? value : notAllowed(name);
  });
}

/** One of `values` as written, or with `ignoreCase` in any case (read as its upper case). */
export function oneOf<const Value extends string>(values: readonly Value[], options: Described & { readonly ignoreCase?: boolean } = {}): QueryParam<Value | undefined> {
  return optional({ type: 'string', enum: [...values] }, options, (text, name) => {
    const wanted = options.ignoreCase === true ? text.toUpperCase() : text;
    return values.find((value) => value === wanted) ?? notAllowed(name);
  });
}

/** The parameter as `param` reads it, `fallback` when absent. */
export function withDefault<Value>(param: QueryParam<Value | undefined>, fallback: Value): QueryParam<Value> {
  return { ...param, schema: { ...param.schema, default: fallback }, read: (sent, name) => param.read(sent, name) ?? fallback };
}

/** A text as sent (an empty one included: it matches only empty values). */
export function text(options: Described = {}): QueryParam<string | undefined> {
  return { in: 'query', schema: describedSchema({ type: 'string' }, options), required: false, read: (sent) => sent };
}

/** A switch: `1` or `true` turns it on; absent, or any other value, leaves it off. */
export function on(options: Described = {}): QueryParam<boolean> {
  return { in: 'query', schema: describedSchema({ type: 'string', examples: ['1', 'true'] }, options), required: false, read: (sent) => sent === '1' || sent === 'true' };
}
