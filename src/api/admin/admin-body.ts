import { BourseError } from '../../core/errors.js';
import { JsonFault, JsonNumber, readJson, STORED_TEXT_JSON, type JsonValue } from '../json-body.js';
import { mediaType } from '../params.js';

const TEXT_RANGE = 'text without control or bidi-override characters';
const BODY = 'body';

/**
 * A JSON request body of the operator API (docs/operating.md "Values"), numbers kept as their
 * literal text; its members are read by the kinds an operator route declares (body-members.ts).
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
      value = readJson(raw, STORED_TEXT_JSON);
    } catch (error) {
      if (!(error instanceof JsonFault)) throw error;
      if (error.kind === 'character') throw new BourseError('ILLEGAL_CHARS', [error.named(BODY), TEXT_RANGE], `(found ${error.character})`);
      throw new BourseError('ILLEGAL_CHARS', [BODY, 'a JSON object'], `(${error.describe(BODY)})`);
    }
    if (!(value instanceof Map)) throw new BourseError('ILLEGAL_CHARS', [BODY, 'a JSON object']);
    return new AdminBody(value);
  }

  /**
   * Every member as sent, for a partial document merged by the core (payments config). A JSON
   * number becomes a JS number only when that number is exactly the decimal sent; else -1130
   * naming the member (`webhook.timeoutMs`, `fiats[0].accuracy`, as the core names them).
   */
  members(): Record<string, unknown> {
    const inexact = (at: string): never => {
      throw new BourseError('INVALID_PARAM_VALUE', [at]);
    };
    return Object.fromEntries([...this.fields].map(([name, member]) => [name, exactPlain(member, name, inexact)]));
  }

  /** A member as sent (null included), for the members an operator route declares (body-members.ts). */
  member(name: string): JsonValue | undefined {
    return this.fields.get(name);
  }
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
