/**
 * JSON of area B requests (docs/merchant-payments.md "Requests"), read so that every number keeps its source text.
 * `JSON.parse` turns `0.10` into 0.1, `1e3` into 1000 and an 18-digit CLABE into a rounded float,
 * and Node 20's reviver does not see the source text, so the decimal rules could not be applied to
 * what the client actually sent. This reader validates RFC 8259 itself and keeps the literals.
 */
import { invalidParam, PaymentError } from '../../core/payment-errors.js';
import { unsafeCharacter } from '../../payments/validation/formats.js';

/** A JSON number as its literal text (`100.50`, `1e3`): readers decide what they accept. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** A JSON value; objects are Maps so that a member named `__proto__` is just a name. */
export type JsonValue = string | boolean | null | JsonNumber | JsonValue[] | Map<string, JsonValue>;

/** Bounds the recursion: no area B parameter nests deeper than a few levels. */
const MAX_DEPTH = 32;
const BODY = 'body';

const WHITESPACE = /[ \t\n\r]*/y;
/** Unescaped characters are U+0020 and above except `"` and `\` (RFC 8259 section 7). */
const STRING = /"(?:[ !#-[\]-\uFFFF]|\\(?:["\\/bfnrt]|u[0-9A-Fa-f]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERAL = /true|false|null/y;
/** A lone surrogate (from a `\uD800` escape) is no character: it cannot be stored or echoed as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A text holding a control or bidi-override character (`unsafeCharacter`): -4010 naming the
 * parameter, which the operator API restates as its -1100 for the same name.
 */
export class UnsafeTextError extends PaymentError {
  constructor(
    readonly param: string,
    /** `U+XXXX`. */
    readonly character: string,
  ) {
    super('PARAM_IS_INVALID', `${param} contains ${character}: control and bidi-override characters are refused`);
  }
}

/** Refuses a text that holds a control or bidi-override character, naming `param`. */
export function refuseUnsafeText(param: string, text: string): void {
  const character = unsafeCharacter(text);
  if (character !== undefined) throw new UnsafeTextError(param, character);
}

/** Where a member sits, for `detail`: `merchantName`, `fieldList.City`, `rails[0].paymentMethodName`. */
function memberPath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}.${name}`;
}

class Reader {
  at = 0;

  constructor(
    private readonly source: string,
    /** What `detail` names when the text is broken: `body`, or the parameter whose value it is. */
    private readonly subject: string,
  ) {}

  fail(): never {
    invalidParam(this.subject, 'is not valid JSON');
  }

  skipWhitespace(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.test(this.source);
    this.at = WHITESPACE.lastIndex;
  }

  atEnd(): boolean {
    return this.at >= this.source.length;
  }

  match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.at;
    const text = pattern.exec(this.source)?.[0];
    if (text !== undefined) this.at += text.length;
    return text;
  }

  expect(char: string): void {
    if (this.source[this.at] !== char) this.fail();
    this.at += 1;
  }

  /** `path` names the value in `detail` (see `memberPath`); "" is the whole body. */
  value(depth: number, path: string): JsonValue {
    if (depth > MAX_DEPTH) invalidParam(this.subject, `nests deeper than ${MAX_DEPTH} levels`);
    this.skipWhitespace();
    const char = this.source[this.at];
    if (char === '{') return this.object(depth, path);
    if (char === '[') return this.array(depth, path);
    if (char === '"') return this.string(path);
    const literal = this.match(LITERAL);
    if (literal !== undefined) return literal === 'null' ? null : literal === 'true';
    const number = this.match(NUMBER);
    if (number === undefined) this.fail();
    return new JsonNumber(number);
  }

  /** A string value, or a member name (`path` then names its object); every stored text passes here. */
  string(path: string): string {
    const literal = this.match(STRING) ?? this.fail();
    // The literal is well-formed, so JSON.parse only decodes its escapes.
    const text = JSON.parse(literal) as string;
    if (LONE_SURROGATE.test(text)) this.fail();
    refuseUnsafeText(path === '' ? BODY : path, text);
    return text;
  }

  object(depth: number, path: string): Map<string, JsonValue> {
    const members = new Map<string, JsonValue>();
    this.expect('{');
    this.skipWhitespace();
    if (this.source[this.at] === '}') {
      this.at += 1;
      return members;
    }
    // Every turn consumes at least one member, so the loop ends within source.length turns.
    for (let turn = 0; turn <= this.source.length; turn++) {
      this.skipWhitespace();
      const name = this.string(path);
      this.skipWhitespace();
      this.expect(':');
      const value = this.value(depth + 1, memberPath(path, name));
      // Two values for one name are ambiguous; JSON.parse would silently keep the last.
      if (members.has(name)) invalidParam(name, 'is sent twice');
      members.set(name, value);
      this.skipWhitespace();
      if (this.source[this.at] === '}') {
        this.at += 1;
        return members;
      }
      this.expect(',');
    }
    this.fail();
  }

  array(depth: number, path: string): JsonValue[] {
    const items: JsonValue[] = [];
    this.expect('[');
    this.skipWhitespace();
    if (this.source[this.at] === ']') {
      this.at += 1;
      return items;
    }
    for (let turn = 0; turn <= this.source.length; turn++) {
      items.push(this.value(depth + 1, `${path}[${items.length}]`));
      this.skipWhitespace();
      if (this.source[this.at] === ']') {
        this.at += 1;
        return items;
      }
      this.expect(',');
    }
    this.fail();
  }
}

/**
 * Parses one JSON text (a whole body, or the JSON text of a form value) into a `JsonValue`;
 * broken text is -4010 with `detail` naming `subject`, and a string holding a control or
 * bidi-override character -4010 naming its member (`UnsafeTextError`).
 */
export function parseJson(source: string, subject: string = BODY): JsonValue {
  const reader = new Reader(source, subject);
  const value = reader.value(0, subject === BODY ? '' : subject);
  reader.skipWhitespace();
  if (!reader.atEnd()) reader.fail();
  return value;
}

/**
 * A JSON value as handlers take it inside an `obj` parameter: objects become plain objects,
 * numbers their source text (every area B object member is a string or a decimal, so the text is
 * exact where a float would round), booleans and null stay.
 */
export function toPlain(value: JsonValue): unknown {
  if (value instanceof JsonNumber) return value.text;
  if (value instanceof Map) return Object.fromEntries([...value].map(([name, member]) => [name, toPlain(member)]));
  if (Array.isArray(value)) return value.map(toPlain);
  return value;
}
