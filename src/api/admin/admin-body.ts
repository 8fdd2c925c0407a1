import { parseDecimal } from '../../core/decimal.js';
import { BourseError } from '../../core/errors.js';
import { PaymentError } from '../../core/payment-errors.js';
import { JsonNumber, parseJson, UnsafeTextError, type JsonValue } from '../merchant/json-body.js';
import { mediaType } from '../params.js';

/** An integer member's text: digits only (no sign, fraction or exponent), as area A's INT. */
const DIGITS = /^[0-9]+$/;
/** 2^53 − 1 has 16 digits: a longer text (leading zeros aside) is beyond every id and count. */
const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER).length;
const DECIMAL_RANGE = 'a decimal string: digits with one optional point, no sign or exponent';
const TEXT_RANGE = 'text without control or bidi-override characters';

export interface IntegerOptions {
  readonly required?: boolean;
  /** Smallest value allowed (default 0); below it is -1130 with the range in `msg`. */
  readonly min?: number;
}

/**
 * A JSON request body of the operator API, with readers that answer the operator API's errors (docs/operating.md "Values").
 * Numbers are read from their literal text, never through a double: a value the operator sent is
 * either taken exactly or refused (`12345678.123456789` stays that, and an 8-decimal asset
 * refuses it; `9007199254740993` is no id), never rounded on the way in.
 */
export class AdminBody {
  private constructor(private readonly fields: Map<string, JsonValue>) {}

  /**
   * A body is JSON: sent as `application/json`, or without a Content-Type. Any other type is 415
   * naming it, so that a client which forgot the header is told so rather than that its JSON is bad.
   */
  static parse(raw: string, contentType: string | undefined): AdminBody {
    if (raw.trim().length === 0) return new AdminBody(new Map());
    const media = mediaType(contentType);
    if (media !== '' && media !== 'application/json') {
      throw new BourseError('UNSUPPORTED_MEDIA', [], `(Content-Type ${media}; the operator API takes application/json)`);
    }
    let value: JsonValue;
    try {
      value = parseJson(raw);
    } catch (error) {
      // The reader is area B's; the operator API answers in area A's `{code, msg}`.
      if (error instanceof UnsafeTextError) throw new BourseError('ILLEGAL_CHARS', [error.param, TEXT_RANGE], `(found ${error.character})`);
      if (error instanceof PaymentError) throw new BourseError('ILLEGAL_CHARS', ['body', 'a JSON object'], `(${error.detail})`);
      throw error;
    }
    if (!(value instanceof Map)) throw new BourseError('ILLEGAL_CHARS', ['body', 'a JSON object']);
    return new AdminBody(value);
  }

  /**
   * Every member as sent, for a partial document merged by the core (payments config). A JSON
   * number becomes a JS number only when that number is exactly the decimal sent; else -1130
   * naming the member (`webhook.timeoutMs`, `fiats[0].accuracy`, as the core names them).
   */
  members(): Record<string, unknown> {
    return exactPlain(this.fields, '', (at) => {
      throw new BourseError('INVALID_PARAM_VALUE', [at]);
    }) as Record<string, unknown>;
  }

  private raw(name: string, required: boolean): JsonValue | undefined {
    const value = this.fields.get(name);
    if (value === undefined || value === null) {
      if (required) throw new BourseError('MANDATORY_PARAM', [name]);
      return undefined;
    }
    return value;
  }

  string(name: string, options: { required: true; pattern?: RegExp }): string;
  string(name: string, options?: { required?: false; pattern?: RegExp }): string | undefined;
  string(name: string, options: { required?: boolean; pattern?: RegExp } = {}): string | undefined {
    const value = this.raw(name, options.required === true);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new BourseError('ILLEGAL_CHARS', [name, 'a string']);
    if (options.pattern !== undefined && !options.pattern.test(value)) throw new BourseError('INVALID_PARAM_VALUE', [name]);
    return value;
  }

  /**
   * A decimal as its text: a JSON string, or a JSON number's literal; either must be area A's
   * DECIMAL form (no sign or exponent, at most 18 decimals), and is handed on exactly as sent.
   */
  decimal(name: string, required: true): string;
  decimal(name: string, required?: false): string | undefined;
  decimal(name: string, required = false): string | undefined {
    const value = this.raw(name, required);
    if (value === undefined) return undefined;
    const text = typeof value === 'string' ? value : value instanceof JsonNumber ? value.text : undefined;
    if (text === undefined || parseDecimal(text) === null) throw new BourseError('ILLEGAL_CHARS', [name, DECIMAL_RANGE]);
    return text;
  }

  /**
   * An integer id or count: a JSON number or a string, of digits only (-1100 else, as area A's
   * INT, with the legal range in `msg`); below `min` or beyond 2^53 − 1 it is well-formed but not
   * allowed (-1130, the range in `msg` too).
   */
  integer(name: string, options: IntegerOptions & { required: true }): number;
  integer(name: string, options?: IntegerOptions): number | undefined;
  integer(name: string, options: IntegerOptions = {}): number | undefined {
    const value = this.raw(name, options.required === true);
    if (value === undefined) return undefined;
    const min = options.min ?? 0;
    const range = `${min}-${Number.MAX_SAFE_INTEGER}`;
    const text = typeof value === 'string' ? value : value instanceof JsonNumber ? value.text : undefined;
    if (text === undefined || !DIGITS.test(text)) throw new BourseError('ILLEGAL_CHARS', [name, range]);
    const significant = text.replace(/^0+(?=.)/, '');
    if (significant.length > MAX_SAFE_DIGITS || BigInt(significant) > BigInt(Number.MAX_SAFE_INTEGER) || Number(significant) < min) {
      throw new BourseError('INVALID_PARAM_VALUE', [name], `(legal range is ${range})`);
    }
    return Number(significant);
  }

  boolean(name: string): boolean | undefined {
    const value = this.raw(name, false);
    if (value === undefined) return undefined;
    if (typeof value !== 'boolean') throw new BourseError('ILLEGAL_CHARS', [name, 'true or false']);
    return value;
  }

  strings(name: string): string[] | undefined {
    const value = this.raw(name, false);
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new BourseError('ILLEGAL_CHARS', [name, 'an array of strings']);
    return value as string[];
  }

  has(name: string): boolean {
    return this.fields.get(name) !== undefined;
  }
}

/** A path id: digits only, else 404 naming the object. */
export function pathId(text: string, what: string): number {
  if (!/^[0-9]{1,15}$/.test(text)) throw new BourseError('NOT_FOUND', [`${what} ${text}`]);
  return Number(text);
}

/**
 * A JSON value as plain data (objects, arrays, strings, booleans, null, numbers) where every
 * number is exactly the decimal its literal wrote; a literal no double carries exactly
 * (`1.0000000000000001`, `9007199254740993`) goes to `inexact` with its path (`a.b[2]`).
 * The operator API's payments config and the CLI's JSON values share this rule.
 */
export function exactPlain(value: JsonValue, at: string, inexact: (at: string) => never): unknown {
  if (value instanceof JsonNumber) return numberKeepsValue(value.text) ? Number(value.text) : inexact(at);
  if (value instanceof Map) {
    return Object.fromEntries([...value].map(([name, member]) => [name, exactPlain(member, at === '' ? name : `${at}.${name}`, inexact)]));
  }
  if (Array.isArray(value)) return value.map((item, i) => exactPlain(item, `${at}[${i}]`, inexact));
  return value;
}

/**
 * True when the double nearest a JSON number literal, written back as JSON (`String`, as
 * `JSON.stringify` writes it), is the same decimal: `0.1`, `1.50` and `1e3` are; `2^53 + 1` and
 * `1.0000000000000001` are not, since the double is another number.
 */
export function numberKeepsValue(literal: string): boolean {
  const sent = decimalKey(literal);
  return sent !== undefined && sent === decimalKey(String(Number(literal)));
}

const NUMBER_PARTS = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

/** A number's value as one text, sign, significant digits and power of ten (`-12.50e1` → `-125e0`). */
function decimalKey(literal: string): string | undefined {
  const parts = NUMBER_PARTS.exec(literal);
  if (parts === null) return undefined; // `Infinity`, `NaN`: no JSON number writes those
  const [, sign, whole, fraction = '', exponent = '0'] = parts;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  // A power beyond 10^±9999999 needs more digits than a body holds to be any double's value.
  if (exponent.replace(/^[+-]?0*/, '').length > 7) return `${sign}${digits}e${exponent}!`;
  const significant = digits.replace(/0+$/, '');
  const power = BigInt(exponent) - BigInt(fraction.length) + BigInt(digits.length - significant.length);
  return `${sign}${significant}e${power}`;
}
