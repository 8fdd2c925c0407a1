/**
 * Members of an operator request's JSON body (docs/operating.md "Values"), declared once: each
 * kind reads a member into its typed value or refuses it with the operator API's code, and names
 * its type and range for the OpenAPI document. Numbers are read from their literal text, never
 * through a double: a value the operator sent is taken exactly or refused (`12345678.123456789`
 * stays that, and an 8-decimal asset refuses it; `9007199254740993` is no id), never rounded.
 */
import { parseDecimal } from '../../core/decimal.js';
import { BourseError } from '../../core/errors.js';
import { JsonNumber, type JsonValue } from '../json-body.js';
import type { JsonSchema } from '../response-schema.js';
import type { AdminBody } from './admin-body.js';
import { describedSchema, notAllowed, paramSchemas, readParams, type Described, type Param, type ParamSet, type Values } from './operator-param.js';

export type Member<Value> = Param<'body', Value>;

/** How a request's body is read: fixed members, or a partial document the core merges. */
export interface BodySpec<Value> {
  /** The body's schema in the reference. */
  readonly schema: JsonSchema;
  readonly required: boolean;
  readonly read: (body: AdminBody) => Value;
}

/** An integer member's text: digits only (no sign, fraction or exponent), as area A's INT. */
const DIGITS = /^[0-9]+$/;
/** 2^53 − 1 has 16 digits: a longer text (leading zeros aside) is beyond every id and count. */
const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER).length;
const DECIMAL_RANGE = 'a decimal string: digits with one optional point, no sign or exponent';

/** An optional member: absent (or null) reads as undefined, anything else through `read`. */
function optional<Value>(schema: JsonSchema, options: Described, read: (sent: JsonValue, name: string) => Value): Member<Value | undefined> {
  return {
    in: 'body',
    schema: describedSchema(schema, options),
    required: false,
    read: (sent, name) => (sent === undefined || sent === null ? undefined : read(sent, name)),
  };
}

/** A number's literal or a string's text; undefined for any other JSON value. */
function literal(sent: JsonValue): string | undefined {
  return typeof sent === 'string' ? sent : sent instanceof JsonNumber ? sent.text : undefined;
}

/** The member must be sent: absent or null is -1102 naming it. */
export function required<Value>(member: Member<Value | undefined>): Member<Value> {
  return {
    ...member,
    required: true,
    read: (sent, name) => {
      const value = member.read(sent, name);
      if (value === undefined) throw new BourseError('MANDATORY_PARAM', [name]);
      return value;
    },
  };
}

/** A string (-1100 otherwise); with `pattern`, one it matches (-1130 otherwise). */
export function text(options: Described & { readonly pattern?: RegExp } = {}): Member<string | undefined> {
  const { pattern } = options;
  return optional({ type: 'string', ...(pattern === undefined ? {} : { pattern: pattern.source }) }, options, (sent, name) => {
    if (typeof sent !== 'string') throw new BourseError('ILLEGAL_CHARS', [name, 'a string']);
    return pattern === undefined || pattern.test(sent) ? sent : notAllowed(name);
  });
}

/** One of `values`, exactly as written: a string (-1100 otherwise) that is one of them (-1130 otherwise). */
export function oneOf<const Value extends string>(values: readonly Value[], options: Described = {}): Member<Value | undefined> {
  return optional({ type: 'string', enum: [...values] }, options, (sent, name) => {
    if (typeof sent !== 'string') throw new BourseError('ILLEGAL_CHARS', [name, 'a string']);
    return values.find((value) => value === sent) ?? notAllowed(name);
  });
}

/**
 * A decimal as its text: a JSON string, or a JSON number's literal; either must be area A's
 * DECIMAL form (no sign or exponent, at most 18 decimals), and is handed on exactly as sent.
 */
export function decimal(options: Described = {}): Member<string | undefined> {
  return optional({ type: ['string', 'number'], minimum: 0, pattern: '^[0-9]{1,20}(\\.[0-9]{1,18})?$' }, options, (sent, name) => {
    const value = literal(sent);
    if (value === undefined || parseDecimal(value) === null) throw new BourseError('ILLEGAL_CHARS', [name, DECIMAL_RANGE]);
    return value;
  });
}

/**
 * An integer id or count: a JSON number or a string, of digits only (-1100 else, as area A's
 * INT, with the legal range in `msg`); below `min` (default 0) or beyond 2^53 − 1 it is
 * well-formed but not allowed (-1130, the range in `msg` too).
 */
export function integer(options: Described & { readonly min?: number } = {}): Member<number | undefined> {
  const min = options.min ?? 0;
  const range = `${min}-${Number.MAX_SAFE_INTEGER}`;
  const schema = { type: ['integer', 'string'], minimum: min, maximum: Number.MAX_SAFE_INTEGER, pattern: DIGITS.source };
  return optional(schema, options, (sent, name) => {
    const value = literal(sent);
    if (value === undefined || !DIGITS.test(value)) throw new BourseError('ILLEGAL_CHARS', [name, range]);
    const significant = value.replace(/^0+(?=.)/, '');
    if (significant.length > MAX_SAFE_DIGITS || BigInt(significant) > BigInt(Number.MAX_SAFE_INTEGER) || Number(significant) < min) {
      throw new BourseError('INVALID_PARAM_VALUE', [name], `(legal range is ${range})`);
    }
    return Number(significant);
  });
}

/** `true` or `false` as JSON (-1100 otherwise). */
export function flag(options: Described = {}): Member<boolean | undefined> {
  return optional({ type: 'boolean' }, options, (sent, name) => {
    if (typeof sent !== 'boolean') throw new BourseError('ILLEGAL_CHARS', [name, 'true or false']);
    return sent;
  });
}

/** An array of strings (-1100 otherwise). */
export function strings(options: Described = {}): Member<string[] | undefined> {
  return optional({ type: 'array', items: { type: 'string' } }, options, (sent, name) => {
    if (!Array.isArray(sent) || !sent.every((item) => typeof item === 'string')) throw new BourseError('ILLEGAL_CHARS', [name, 'an array of strings']);
    return sent;
  });
}

/** An array of strings (-1100 otherwise), each one of `values` (-1130 otherwise). */
export function someOf<const Value extends string>(values: readonly Value[], options: Described = {}): Member<Value[] | undefined> {
  const list = strings(options);
  return {
    ...list,
    schema: { ...list.schema, items: { type: 'string', enum: [...values] } },
    read: (sent, name) => list.read(sent, name)?.map((item) => values.find((value) => value === item) ?? notAllowed(name)),
  };
}

/** The member as `member` reads it, and then accepted by `accepts` (-1130 naming it otherwise). */
export function checked<Value>(member: Member<Value | undefined>, accepts: (value: Value) => boolean): Member<Value | undefined> {
  return {
    ...member,
    read: (sent, name) => {
      const value = member.read(sent, name);
      return value === undefined || accepts(value) ? value : notAllowed(name);
    },
  };
}

/** The same member under each of `names`: settings that share one rule. */
export function each<const Name extends string, Value>(names: readonly Name[], member: Member<Value>): { readonly [Key in Name]: Member<Value> } {
  // Every name gets the one member: the object built is exactly the mapped type.
  return Object.fromEntries(names.map((name) => [name, member])) as { readonly [Key in Name]: Member<Value> };
}

/** A body of these members, read in their declared order; members not declared are ignored. */
export function members<const Set extends ParamSet<'body'>>(set: Set): BodySpec<Values<Set>> {
  const names = Object.keys(set);
  return {
    schema: { type: 'object', properties: paramSchemas(set), required: names.filter((name) => set[name].required) },
    required: names.some((name) => set[name].required),
    read: (body) => readParams(set, (name) => body.member(name)),
  };
}

/**
 * A partial document rather than fixed members (the payments configuration), merged member by
 * member by the core, which checks each; numbers as `AdminBody.members` keeps them.
 */
export function partialDocument(description: string): BodySpec<Record<string, unknown>> {
  return { schema: { type: 'object', additionalProperties: true, description }, required: false, read: (body) => body.members() };
}
