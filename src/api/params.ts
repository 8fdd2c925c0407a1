/**
 * Request parameters of docs/spot-api.md "Methods and parameters": the raw query and body become one `Params`, then typed
 * readers turn a value into what a handler needs or throw the registry error the spec names.
 */
import { parseDecimal } from '../core/decimal.js';
import { BourseError, type ErrorName } from '../core/errors.js';
import { JsonFault, JsonNumber, readJsonMembers, type JsonRules, type JsonValue } from './json-body.js';

/** Values by name after the docs/spot-api.md "Methods and parameters" rules: empty values are absent, the query wins over the body. */
export class Params {
  constructor(private readonly values: ReadonlyMap<string, string>) {}

  get(name: string): string | undefined {
    return this.values.get(name);
  }

  has(name: string): boolean {
    return this.values.has(name);
  }
}

export type BodyKind = 'empty' | 'form' | 'json';

/** The media type of a Content-Type header, lower case and without parameters (`application/json; charset=utf-8` → `application/json`); "" when absent. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0].trim().toLowerCase();
}

/**
 * How the body is encoded. An empty body carries no parameters whatever its Content-Type says
 * ("empty bodies are normal", docs/spot-api.md "Methods and parameters", and a bodiless DELETE may still name a type), so only a
 * non-empty body can be 415.
 */
export function bodyKind(rawBody: string | undefined, contentType: string | undefined): BodyKind {
  if (rawBody === undefined || rawBody.length === 0) return 'empty';
  const media = mediaType(contentType);
  if (media === '' || media === 'application/x-www-form-urlencoded') return 'form';
  if (media === 'application/json') return 'json';
  throw new BourseError('UNSUPPORTED_MEDIA');
}

/** Parses the raw query (bytes after `?`) and body into one `Params`. */
export function parseRawParams(rawQuery: string, rawBody: string | undefined, contentType: string | undefined): Params {
  const kind = bodyKind(rawBody, contentType);
  const merged = new Map<string, string>();
  if (kind === 'form') addAll(merged, parseForm(rawBody ?? ''));
  if (kind === 'json') addAll(merged, readFlatJsonObject(rawBody ?? ''));
  // The query is applied last so that its value wins, as on the original BHEX API.
  addAll(merged, parseForm(rawQuery));
  return new Params(merged);
}

function addAll(target: Map<string, string>, source: ReadonlyMap<string, string>): void {
  for (const [name, value] of source) target.set(name, value);
}

const PERCENT_ESCAPE_BROKEN = /%(?![0-9A-Fa-f]{2})/;
/** U+FFFD stands for bytes that were not UTF-8; lone surrogates cannot be UTF-8 either. */
const NOT_UTF8 = /\uFFFD|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The parameters as far as they can be read, for the key and timestamp steps of docs/spot-api.md "Order of checks" that
 * come before the parameter step: undecodable segments and bodies are skipped, the first of a
 * repeated name wins. The strict `parseRawParams` then answers what was wrong.
 */
export function parseLenientParams(rawQuery: string, rawBody: string | undefined, contentType: string | undefined): Params {
  const merged = new Map<string, string>();
  let kind: BodyKind = 'empty';
  try {
    kind = bodyKind(rawBody, contentType);
  } catch {
    kind = 'empty';
  }
  if (kind === 'form') addAll(merged, parseForm(rawBody ?? '', true));
  if (kind === 'json') {
    try {
      addAll(merged, readFlatJsonObject(rawBody ?? ''));
    } catch {
      // An unreadable JSON body carries no usable parameters.
    }
  }
  addAll(merged, parseForm(rawQuery, true));
  return new Params(merged);
}

/** Parses `a=1&b=2` form encoding; one place, so a repeated name is -1101 (unless lenient). */
function parseForm(raw: string, lenient = false): Map<string, string> {
  const values = new Map<string, string>();
  if (raw.length === 0) return values;
  // One check of the whole text instead of one per name and value: a part cut at `&` or `=` is
  // UTF-8 when the whole is (neither splits a surrogate pair). Decoded escapes are still checked.
  const rawIsUtf8 = !NOT_UTF8.test(raw);
  for (const segment of raw.split('&')) {
    if (segment.length === 0) continue;
    const equals = segment.indexOf('=');
    const rawName = equals < 0 ? segment : segment.slice(0, equals);
    let name: string;
    let value: string;
    try {
      name = decodeFormComponent(rawName, rawName, rawIsUtf8);
      value = equals < 0 ? '' : decodeFormComponent(segment.slice(equals + 1), name, rawIsUtf8);
    } catch (error) {
      if (lenient) continue;
      throw error;
    }
    if (name.length === 0 || value.length === 0) continue;
    if (values.has(name)) {
      if (lenient) continue;
      throw new BourseError('DUPLICATE_PARAM');
    }
    values.set(name, value);
  }
  return values;
}

function decodeFormComponent(raw: string, paramName: string, rawIsUtf8: boolean): string {
  // Most segments carry no escapes: nothing to decode, only the UTF-8 check (done already when the whole text passed it).
  if (!raw.includes('%') && !raw.includes('+')) {
    if (!rawIsUtf8 && NOT_UTF8.test(raw)) throw illegalEncoding(paramName);
    return raw;
  }
  if (PERCENT_ESCAPE_BROKEN.test(raw)) throw illegalEncoding(paramName);
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw illegalEncoding(paramName);
  }
  if (NOT_UTF8.test(decoded)) throw illegalEncoding(paramName);
  return decoded;
}

function illegalEncoding(paramName: string): BourseError {
  return new BourseError('ILLEGAL_CHARS', [paramName, 'percent-encoded UTF-8']);
}

/**
 * Area A's JSON body: one flat object. No member nests, and U+FFFD is refused like a lone surrogate,
 * since in a body read as UTF-8 it stands for bytes that were not UTF-8.
 */
const FLAT_JSON: JsonRules = {
  maxDepth: 1,
  refusedCharacter: (text) => (text.includes('\uFFFD') ? 'U+FFFD' : undefined),
};
const JSON_BLANK = /^[ \t\n\r]*$/;
const BODY = 'body';

/**
 * Reads a JSON body that must be one flat object of strings, numbers and booleans. A number keeps
 * its literal text (`0.10` stays "0.10", `1e5` stays "1e5" and then fails as a DECIMAL): going
 * through a JS number would round money. A fault is -1100 for the member it is in (nested values
 * and null included), or for the body; a name sent twice with a value is -1101.
 */
function readFlatJsonObject(source: string): Map<string, string> {
  const values = new Map<string, string>();
  if (JSON_BLANK.test(source)) return values;
  try {
    for (const [name, value] of readJsonMembers(source, FLAT_JSON)) {
      const text = flatText(value) ?? illegalJson(name);
      if (name.length > 0 && text.length > 0) {
        if (values.has(name)) throw new BourseError('DUPLICATE_PARAM');
        values.set(name, text);
      }
    }
  } catch (error) {
    if (error instanceof JsonFault) illegalJson(typeof error.at[0] === 'string' ? error.at[0] : BODY);
    throw error;
  }
  return values;
}

/** A string as decoded, a number's literal, `true`/`false`; undefined for null, objects and arrays. */
function flatText(value: JsonValue): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  return value instanceof JsonNumber ? value.text : undefined;
}

function illegalJson(name: string): never {
  throw new BourseError('ILLEGAL_CHARS', [name, 'one flat JSON object of strings, numbers and booleans']);
}

/** Wire names whose values are upper-cased before any check (docs/spot-api.md "Methods and parameters"); `interval` is not. */
export const UPPER_CASED_PARAMS: ReadonlySet<string> = new Set([
  'side',
  'type',
  'timeInForce',
  'assetType',
  'symbol',
  'tokenId',
  'token',
  'chainType',
]);

const ASCII_LOWER = /[a-z]/;

/** ASCII only: `toUpperCase` would turn `ſ` into `S` and `ı` into `I`, letting lookalikes name a symbol. */
function asciiUpperCase(text: string): string {
  // Most values arrive upper-cased already: no replace, no new string.
  if (!ASCII_LOWER.test(text)) return text;
  return text.replace(/[a-z]+/g, (run) => run.toUpperCase());
}

/** Formats of docs/spot-api.md "Methods and parameters", for `readString` and the callers that check them. */
export const FORMATS = {
  symbol: /^[A-Z0-9]{1,20}$/,
  token: /^[A-Z0-9]{1,20}$/,
  clientOrderId: /^[A-Za-z0-9._:/-]{1,64}$/,
  listenKey: /^[A-Za-z0-9]{64}$/,
  address: /^[\x21-\x7E]{1,128}$/,
  addressExt: /^[\x21-\x7E]{0,64}$/,
} as const;

interface Presence {
  readonly required?: boolean;
}

/** `T` when the options say `required: true` (a missing value threw), else `T | undefined`. */
export type ReadResult<T, O> = O extends { required: true } ? T : T | undefined;

function present(params: Params, name: string, required: boolean | undefined): string | undefined {
  const value = params.get(name);
  if (value === undefined) {
    if (required === true) throw new BourseError('MANDATORY_PARAM', [name]);
    return undefined;
  }
  return UPPER_CASED_PARAMS.has(name) ? asciiUpperCase(value) : value;
}

export interface IntegerOptions extends Presence {
  /** For the optional ids, times and limits of docs/spot-api.md "Methods and parameters" that clients send as `0` to mean "not set". */
  readonly zeroIsAbsent?: boolean;
  readonly min?: number;
  readonly max?: number;
}

const INTEGER_PATTERN = /^[0-9]{1,19}$/;
const INT_MAX = 2_147_483_647n;
const LONG_MAX = 9_223_372_036_854_775_807n;

/** An INT (32-bit) parameter; -1100 outside the type, -1130 outside `min`..`max`. */
export function readInt<const O extends IntegerOptions>(params: Params, name: string, options?: O): ReadResult<number, O> {
  return readInteger(params, name, INT_MAX, options) as ReadResult<number, O>;
}

/**
 * A LONG (64-bit) parameter as a number. Beyond 2^63−1 it is malformed (-1100); between 2^53 and
 * 2^63−1 it is well-formed but not allowed (-1130): no id, time or count of Bourse gets there.
 */
export function readLong<const O extends IntegerOptions>(params: Params, name: string, options?: O): ReadResult<number, O> {
  return readInteger(params, name, LONG_MAX, options) as ReadResult<number, O>;
}

function readInteger(params: Params, name: string, typeMax: bigint, options: IntegerOptions = {}): number | undefined {
  const text = present(params, name, options.required);
  if (text === undefined) return undefined;
  if (!INTEGER_PATTERN.test(text)) throw new BourseError('ILLEGAL_CHARS', [name, `0-${typeMax}`]);
  const big = BigInt(text);
  if (big > typeMax) throw new BourseError('ILLEGAL_CHARS', [name, `0-${typeMax}`]);
  if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw new BourseError('INVALID_PARAM_VALUE', [name]);
  const value = Number(big);
  if (value === 0 && options.zeroIsAbsent === true) {
    if (options.required === true) throw new BourseError('MANDATORY_PARAM', [name]);
    return undefined;
  }
  if (options.min !== undefined && value < options.min) throw new BourseError('INVALID_PARAM_VALUE', [name]);
  if (options.max !== undefined && value > options.max) throw new BourseError('INVALID_PARAM_VALUE', [name]);
  return value;
}

/** A DECIMAL value: exact atto units plus the text as sent (for echoing and for decimals checks). */
export interface DecimalParam {
  readonly atto: bigint;
  readonly text: string;
}

const DECIMAL_RANGE = '^[0-9]{1,20}(\\.[0-9]{1,18})?$';

/** A DECIMAL parameter (docs/spot-api.md "Methods and parameters"): no sign, exponent or separators, at most 18 decimals. */
export function readDecimal<const O extends Presence>(params: Params, name: string, options?: O): ReadResult<DecimalParam, O> {
  const text = present(params, name, options?.required);
  if (text === undefined) return undefined as ReadResult<DecimalParam, O>;
  const atto = parseDecimal(text);
  if (atto === null) throw new BourseError('ILLEGAL_CHARS', [name, DECIMAL_RANGE]);
  return { atto, text };
}

export interface EnumOptions extends Presence {
  /** The code named for this parameter (docs/spot-api.md "Methods and parameters"); default -1130. */
  readonly errorName?: ErrorName;
}

/** One of `values`, after upper-casing for the names of docs/spot-api.md "Methods and parameters". */
export function readEnum<T extends string, const O extends EnumOptions>(
  params: Params,
  name: string,
  values: readonly T[],
  options?: O,
): ReadResult<T, O> {
  const text = present(params, name, options?.required);
  if (text === undefined) return undefined as ReadResult<T, O>;
  const found = values.find((value) => value === text);
  if (found === undefined) throw new BourseError(options?.errorName ?? 'INVALID_PARAM_VALUE', [name]);
  return found as ReadResult<T, O>;
}

export interface StringOptions extends Presence {
  readonly pattern: RegExp;
}

/** A STRING parameter that must match `pattern` (anchored by the caller), else -1100. */
export function readString<const O extends StringOptions>(params: Params, name: string, options: O): ReadResult<string, O> {
  const text = present(params, name, options.required);
  if (text !== undefined && !options.pattern.test(text)) {
    throw new BourseError('ILLEGAL_CHARS', [name, options.pattern.source]);
  }
  return text as ReadResult<string, O>;
}

/**
 * The upper-cased symbol text, unchecked: a symbol that is not listed is -1121 whether it is
 * well-formed or not (docs/spot-api.md "Methods and parameters"), so the caller's catalogue lookup is the only check.
 */
export function readSymbol<const O extends Presence>(params: Params, name: string, options?: O): ReadResult<string, O> {
  return present(params, name, options?.required) as ReadResult<string, O>;
}

/** A client order id: 1–64 `[A-Za-z0-9._:/-]`, case-sensitive. */
export function readClientOrderId<const O extends Presence>(params: Params, name: string, options?: O): ReadResult<string, O> {
  return readString(params, name, { pattern: FORMATS.clientOrderId, required: options?.required }) as ReadResult<string, O>;
}

/** Optional `startTime` and `endTime` (0 = absent); start after end is -1128 (docs/spot-api.md "Endpoints"). */
export function readTimeRange(params: Params): { startTime?: number; endTime?: number } {
  const startTime = readLong(params, 'startTime', { zeroIsAbsent: true });
  const endTime = readLong(params, 'endTime', { zeroIsAbsent: true });
  if (startTime !== undefined && endTime !== undefined && startTime > endTime) throw new BourseError('INVALID_COMBINATION');
  return { startTime, endTime };
}

export interface LimitOptions {
  readonly default: number;
  readonly max: number;
  readonly name?: string;
}

/** A `limit`: absent or 0 gives the default, over the maximum is clamped (docs/spot-api.md "Endpoints"). */
export function readLimit(params: Params, options: LimitOptions): number {
  const value = readInt(params, options.name ?? 'limit', { zeroIsAbsent: true });
  if (value === undefined) return options.default;
  return Math.min(value, options.max);
}
