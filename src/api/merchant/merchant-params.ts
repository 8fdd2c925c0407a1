/**
 * Request parameters of area B (docs/merchant-payments.md "Requests"): the raw query and the body become one set of
 * values, and typed readers turn a value into what a handler needs or throw the PaymentError the
 * spec names. Rules: the query wins over the body; `""` and `null` are absent; unknown names are
 * ignored; a body that does not parse, or a JSON body that is not one object, is -4010 "body".
 */
import { parseDecimal } from '../../core/decimal.js';
import { BourseError } from '../../core/errors.js';
import { invalidParam, refuse } from '../../core/payment-errors.js';
import { unsafeCharacter } from '../../payments/validation/formats.js';
import { JsonFault, JsonNumber, readJson, STORED_TEXT_JSON, type JsonValue } from '../json-body.js';
import { mediaType, parseRawParams, type Params, type ReadResult } from '../params.js';

export interface Presence {
  readonly required?: boolean;
}

export interface StrOptions extends Presence {
  /** Longest value in characters (code points); longer → -4011. */
  readonly max?: number;
}

export interface IntOptions extends Presence {
  /** Default 0: most integers are ids, counts and times; pass a negative `min` to accept a sign. */
  readonly min?: number;
  readonly max?: number;
}

export interface DecOptions extends Presence {
  /** Limits (docs/merchant-payments.md "Amount limits") are ≥ 0 with `0` = no cap; amounts must be > 0 (the default). */
  readonly allowZero?: boolean;
}

export interface Paging {
  currentPage: number;
  pageSize: number;
}

export interface TimeRange {
  startTime?: number;
  endTime?: number;
}

/** docs/merchant-payments.md "Answers and errors": `pageSize` above this is clamped (a client asking for "everything" still works). */
export const MAX_PAGE_SIZE = 1000;
const DEFAULT_PAGE_SIZE = 10;

const INTEGER = /^-?[0-9]+$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

type Lookup = (name: string) => JsonValue | undefined;

const BODY = 'body';
const UNSAFE_TEXT_REASON = 'control and bidi-override characters are refused';

/**
 * Area B's reading of one JSON text, `subject` being the body or the parameter whose value it is:
 * a fault is -4010, `detail` naming `subject` when the text is broken or too deep, the member sent
 * twice, or the member holding a control or bidi-override character.
 */
function parseJson(source: string, subject: string): JsonValue {
  try {
    return readJson(source, STORED_TEXT_JSON);
  } catch (error) {
    if (!(error instanceof JsonFault)) throw error;
    const detail = error.describe(subject);
    refuse('PARAM_IS_INVALID', error.kind === 'character' ? `${detail}: ${UNSAFE_TEXT_REASON}` : detail);
  }
}

/** Refuses a query or form value holding a control or bidi-override character, as a JSON string holding one is. */
function refuseUnsafeText(param: string, text: string): void {
  const character = unsafeCharacter(text);
  if (character !== undefined) refuse('PARAM_IS_INVALID', `${param} contains ${character}: ${UNSAFE_TEXT_REASON}`);
}

/**
 * A JSON value as handlers take it inside an `obj` parameter: objects become plain objects,
 * numbers their source text (every area B object member is a string or a decimal, so the text is
 * exact where a float would round), booleans and null stay.
 */
function toPlain(value: JsonValue): unknown {
  if (value instanceof JsonNumber) return value.text;
  if (value instanceof Map) return Object.fromEntries([...value].map(([name, member]) => [name, toPlain(member)]));
  if (Array.isArray(value)) return value.map(toPlain);
  return value;
}

/** Area A's form reader, its refusals (bad escapes, a name sent twice) restated as -4010 for `subject`. */
function readForm(rawQuery: string, rawBody: string | undefined, subject: string): Params {
  try {
    return parseRawParams(rawQuery, rawBody, rawBody === undefined ? undefined : 'application/x-www-form-urlencoded');
  } catch (error) {
    if (error instanceof BourseError) invalidParam(subject, `is malformed: ${error.message}`);
    throw error;
  }
}

function bodyLookup(rawBody: Buffer, contentType: string | undefined, multipart: boolean): Lookup {
  if (rawBody.length === 0) return () => undefined;
  const media = mediaType(contentType);
  // B35's files are read by its handler from `rawBody`; elsewhere multipart is not accepted.
  if (multipart && media === 'multipart/form-data') return () => undefined;
  let text: string;
  try {
    text = UTF8.decode(rawBody);
  } catch {
    invalidParam(BODY, 'is not UTF-8');
  }
  if (media === '' || media === 'application/x-www-form-urlencoded') {
    const form = readForm('', text, BODY);
    return (name) => form.get(name);
  }
  if (media !== 'application/json') invalidParam(BODY, `has Content-Type ${media}; send application/json or application/x-www-form-urlencoded`);
  if (text.trim().length === 0) return () => undefined;
  const json = parseJson(text, BODY);
  if (!(json instanceof Map)) invalidParam(BODY, 'is not one JSON object');
  return (name) => json.get(name);
}

/** A value counts only if it says something: `null`, `""` and blanks are absent (docs/merchant-payments.md "Requests"). */
function isAbsent(value: JsonValue | undefined): value is undefined | null {
  return value === undefined || value === null || (typeof value === 'string' && value.trim().length === 0);
}

export class MerchantParams {
  private constructor(
    private readonly query: Params,
    private readonly body: Lookup,
    /** The body as received: B35 reads its multipart files from here. */
    readonly rawBody: Buffer,
    readonly contentType: string,
  ) {}

  /**
   * Reads the raw query (the bytes after `?`) and body. `multipart` (B35 only) leaves a
   * `multipart/form-data` body to the handler instead of refusing it.
   */
  static parse(rawQuery: string, rawBody: Buffer, contentType: string | undefined, options: { multipart?: boolean } = {}): MerchantParams {
    const query = readForm(rawQuery, undefined, 'query');
    return new MerchantParams(query, bodyLookup(rawBody, contentType, options.multipart === true), rawBody, contentType ?? '');
  }

  /** True when the parameter is present (not absent by docs/merchant-payments.md "Requests") in the query or the body. */
  has(name: string): boolean {
    return this.value(name) !== undefined;
  }

  /** A string, trimmed; a number or boolean gives its text; over `max` characters → -4011. */
  str<const O extends StrOptions>(name: string, options?: O): ReadResult<string, O> {
    const text = this.text(name, options?.required);
    if (text !== undefined && options?.max !== undefined && [...text].length > options.max) {
      refuse('PARAM_EXCEEDS_LIMIT_LENGTH', `${name} exceeds ${options.max} characters`);
    }
    return text as ReadResult<string, O>;
  }

  /** An integer (JSON number or digit string) within `min` (default 0) and `max`, safe in JavaScript. */
  int<const O extends IntOptions>(name: string, options?: O): ReadResult<number, O> {
    const text = this.text(name, options?.required, true);
    if (text === undefined) return undefined as ReadResult<number, O>;
    if (!INTEGER.test(text)) invalidParam(name, 'must be an integer');
    // `|| 0` turns `-0` into 0.
    const value = Number(text) || 0;
    if (!Number.isSafeInteger(value)) invalidParam(name, 'is out of range');
    const min = options?.min ?? 0;
    if (value < min) invalidParam(name, `must be at least ${min}`);
    if (options?.max !== undefined && value > options.max) invalidParam(name, `must be at most ${options.max}`);
    return value as ReadResult<number, O>;
  }

  /** A time in ms or another 64-bit integer: the same rules as `int` (every value below 2^53). */
  long<const O extends IntOptions>(name: string, options?: O): ReadResult<number, O> {
    return this.int(name, options);
  }

  /**
   * A decimal in plain notation with at most `accuracy` decimals, > 0 unless `allowZero`; returns
   * the text as sent. More decimals → -4010, never rounded: changing a client's amount silently is
   * worse than refusing it.
   */
  dec<const O extends DecOptions>(name: string, accuracy: number, options?: O): ReadResult<string, O> {
    const text = this.text(name, options?.required, true);
    if (text === undefined) return undefined as ReadResult<string, O>;
    const atto = parseDecimal(text);
    if (atto === null) invalidParam(name, 'must be a plain decimal (digits and one optional point; no sign, exponent or separators)');
    const point = text.indexOf('.');
    const decimals = point < 0 ? 0 : text.length - point - 1;
    if (decimals > accuracy) invalidParam(name, `has more than ${accuracy} decimals`);
    if (atto === 0n && options?.allowZero !== true) invalidParam(name, 'must be greater than 0');
    return text as ReadResult<string, O>;
  }

  /** `true`/`false` in any case, `1`/`0`, or a JSON boolean. */
  bool<const O extends Presence>(name: string, options?: O): ReadResult<boolean, O> {
    const value = this.value(name);
    if (typeof value === 'boolean') return value;
    const text = this.text(name, options?.required, true);
    if (text === undefined) return undefined as ReadResult<boolean, O>;
    const lower = text.toLowerCase();
    if (lower === 'true' || lower === '1') return true;
    if (lower === 'false' || lower === '0') return false;
    invalidParam(name, 'must be true or false');
  }

  /** A JSON object (in a form body or the query: the JSON text of one); numbers inside come as their text. */
  /** A JSON object; with `stringMembers`, every member must be a JSON string (B15 `fieldList`, B25 `fieldJson`). */
  obj<const O extends Presence & { readonly stringMembers?: boolean }>(name: string, options?: O): ReadResult<Record<string, unknown>, O> {
    let value = this.value(name);
    if (value === undefined) {
      if (options?.required === true) invalidParam(name, 'is required');
      return undefined as ReadResult<Record<string, unknown>, O>;
    }
    if (typeof value === 'string') value = parseJson(value.trim(), name);
    if (!(value instanceof Map)) invalidParam(name, 'must be a JSON object');
    if (options?.stringMembers === true) {
      for (const [member, memberValue] of value) {
        if (typeof memberValue !== 'string' && memberValue !== null) invalidParam(`${name}.${member}`, 'must be a string');
      }
    }
    return toPlain(value) as Record<string, unknown>;
  }

  /** One of `values`, exactly as listed (case-sensitive, as the wire names are). */
  enumOf<T extends string, const O extends Presence>(name: string, values: readonly T[], options?: O): ReadResult<T, O> {
    const text = this.text(name, options?.required);
    if (text === undefined) return undefined as ReadResult<T, O>;
    const found = values.find((v) => v === text);
    if (found === undefined) invalidParam(name, `must be one of ${values.join(', ')}`);
    return found as ReadResult<T, O>;
  }

  /** `currentPage` (default 1) and `pageSize` (default 10, above 1000 clamped), docs/merchant-payments.md "Answers and errors". */
  paging(): Paging {
    const currentPage = this.int('currentPage', { min: 1 }) ?? 1;
    const pageSize = this.int('pageSize', { min: 1 }) ?? DEFAULT_PAGE_SIZE;
    return { currentPage, pageSize: Math.min(pageSize, MAX_PAGE_SIZE) };
  }

  /** `startTime`/`endTime` (ms), bounds on `createTime`, inclusive; start after end → -4010. */
  timeRange(): TimeRange {
    const startTime = this.long('startTime');
    const endTime = this.long('endTime');
    if (startTime !== undefined && endTime !== undefined && startTime > endTime) invalidParam('startTime', 'is after endTime');
    const range: TimeRange = {};
    if (startTime !== undefined) range.startTime = startTime;
    if (endTime !== undefined) range.endTime = endTime;
    return range;
  }

  /** The value by docs/merchant-payments.md "Requests": the query's if present, else the body's; absent values are undefined. */
  private value(name: string): JsonValue | undefined {
    const fromQuery = this.query.get(name);
    if (!isAbsent(fromQuery)) return fromQuery;
    const fromBody = this.body(name);
    return isAbsent(fromBody) ? undefined : fromBody;
  }

  /**
   * The value as trimmed text: a string as sent, a JSON number's literal, a boolean's word;
   * an array or object is -4010. `strict` refuses a boolean where a number is expected.
   */
  private text(name: string, required: boolean | undefined, strict = false): string | undefined {
    const value = this.value(name);
    if (value === undefined) {
      if (required === true) invalidParam(name, 'is required');
      return undefined;
    }
    if (typeof value === 'string') {
      // JSON strings were checked as they were read; query and form values are checked here.
      refuseUnsafeText(name, value);
      return value.trim();
    }
    if (value instanceof JsonNumber) return value.text;
    if (typeof value === 'boolean' && !strict) return String(value);
    invalidParam(name, typeof value === 'boolean' ? 'must not be a boolean' : 'must not be an array or object');
  }
}
