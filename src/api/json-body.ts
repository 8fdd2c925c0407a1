/**
 * The one JSON reader of the three APIs: area A's flat bodies (docs/spot-api.md "Methods and
 * parameters"), area B's bodies and object parameters (docs/merchant-payments.md "Requests") and
 * the operator API's bodies (docs/operating.md "Values"). `JSON.parse` turns `0.10` into 0.1, `1e3`
 * into 1000 and an 18-digit CLABE into a rounded float, and Node 20's reviver does not see the
 * source text, so no decimal rule could be applied to what the client sent: this reader validates
 * RFC 8259 itself and keeps every number's literal. It throws a `JsonFault` saying what is wrong
 * and where; each API turns that into its own error.
 */
import { unsafeCharacter } from '../payments/validation/formats.js';

/** A JSON number as its literal text (`100.50`, `1e3`): readers decide what they accept. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** A JSON value; objects are Maps so that a member named `__proto__` is just a name. */
export type JsonValue = string | boolean | null | JsonNumber | JsonValue[] | Map<string, JsonValue>;

/** One step from a text's root towards a value: a member name or an array index. */
export type JsonStep = string | number;

export interface JsonRules {
  /** Deepest value allowed, the text itself being depth 0; bounds the recursion. */
  readonly maxDepth: number;
  /** The first character no string (member names included) may hold, as `U+XXXX`; undefined when none. */
  readonly refusedCharacter: (text: string) => string | undefined;
}

/** /v2 and the operator API: no parameter nests deeper than a few levels; stored texts hold no control or bidi-override character. */
export const STORED_TEXT_JSON: JsonRules = { maxDepth: 32, refusedCharacter: unsafeCharacter };

export type JsonFaultKind =
  /** Not RFC 8259 JSON, or a string holding a lone surrogate (no character, so it has no UTF-8). */
  | 'syntax'
  /** A value nested deeper than `maxDepth`. */
  | 'depth'
  /** A member name sent twice in one object: ambiguous, where JSON.parse would silently keep the last. */
  | 'repeated'
  /** A string holding a character the rules refuse. */
  | 'character';

const BODY = 'body';

/** Why a JSON text was refused, and where. */
export class JsonFault extends Error {
  constructor(
    readonly kind: JsonFaultKind,
    /**
     * The value being read when the text failed ([] is the whole text): a member's steps run from
     * its name to the separator after its value, so `{"a":1 "b":2}` fails in `a`. A repeated name
     * ends the steps; a refused character in a member name gives the object holding it.
     */
    readonly at: readonly JsonStep[],
    /** `U+XXXX`, for `character`. */
    readonly character: string,
    /** What is wrong, as words about the subject named by `describe`. */
    private readonly why: string,
  ) {
    super(`${jsonPath('', at) || 'the JSON text'} ${why}`);
  }

  /**
   * The fault as /v2's `detail` states it for a text that is `subject` (`body`, or the parameter
   * whose value the text is): `body is not valid JSON`, `body nests deeper than 32 levels`,
   * `amount is sent twice`, `fieldList.City contains U+0007`.
   */
  describe(subject: string): string {
    if (this.kind === 'repeated') return `${this.at[this.at.length - 1]} ${this.why}`;
    if (this.kind === 'character') return `${this.named(subject)} ${this.why}`;
    return `${subject} ${this.why}`;
  }

  /** Where the fault is, below `subject`: a body's members are named bare (`merchantName`), a parameter's below it (`fieldList.City`). */
  named(subject: string): string {
    return jsonPath(subject === BODY ? '' : subject, this.at) || subject;
  }
}

/** `rails[0].paymentMethodName`: the steps written below `root` ("" for none). */
function jsonPath(root: string, at: readonly JsonStep[]): string {
  let path = root;
  for (const step of at) path = typeof step === 'number' ? `${path}[${step}]` : path === '' ? step : `${path}.${step}`;
  return path;
}

const WHITESPACE = /[ \t\n\r]*/y;
/** Unescaped characters are U+0020 and above except `"` and `\` (RFC 8259 section 7). */
const STRING = /"(?:[ !#-[\]-\uFFFF]|\\(?:["\\/bfnrt]|u[0-9A-Fa-f]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const LITERAL = /true|false|null/y;
/** A lone surrogate (from a `\uD800` escape) is no character: it cannot be stored or echoed as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

class Reader {
  private at = 0;
  /** The steps from the root to the value being read (see `JsonFault.at`). */
  private readonly path: JsonStep[] = [];

  constructor(
    private readonly source: string,
    private readonly rules: JsonRules,
  ) {}

  fault(kind: JsonFaultKind, why: string, character = ''): never {
    throw new JsonFault(kind, [...this.path], character, why);
  }

  fail(): never {
    this.fault('syntax', 'is not valid JSON');
  }

  skipWhitespace(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.test(this.source);
    this.at = WHITESPACE.lastIndex;
  }

  /** Fails unless only whitespace is left. */
  finish(): void {
    this.skipWhitespace();
    if (this.at < this.source.length) this.fail();
  }

  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.at;
    const text = pattern.exec(this.source)?.[0];
    if (text !== undefined) this.at += text.length;
    return text;
  }

  private expect(char: string): void {
    if (this.source[this.at] !== char) this.fail();
    this.at += 1;
  }

  value(depth: number): JsonValue {
    if (depth > this.rules.maxDepth) this.fault('depth', `nests deeper than ${this.rules.maxDepth} levels`);
    this.skipWhitespace();
    const char = this.source[this.at];
    if (char === '{') return this.object(depth);
    if (char === '[') return this.array(depth);
    if (char === '"') return this.string();
    const literal = this.match(LITERAL);
    if (literal !== undefined) return literal === 'null' ? null : literal === 'true';
    return new JsonNumber(this.match(NUMBER) ?? this.fail());
  }

  /** A string value or a member name: every text the reader hands out passes here. */
  private string(): string {
    const literal = this.match(STRING) ?? this.fail();
    // The literal is well-formed, so JSON.parse only decodes its escapes.
    const text = JSON.parse(literal) as string;
    if (LONE_SURROGATE.test(text)) this.fail();
    const character = this.rules.refusedCharacter(text);
    if (character !== undefined) this.fault('character', `contains ${character}`, character);
    return text;
  }

  private object(depth: number): Map<string, JsonValue> {
    const members = new Map<string, JsonValue>();
    for (const [name, value] of this.members(depth)) {
      if (members.has(name)) this.fault('repeated', 'is sent twice');
      members.set(name, value);
    }
    return members;
  }

  /** The members of the object at the cursor, each yielded as soon as its value is read. */
  *members(depth: number): Generator<[string, JsonValue]> {
    this.expect('{');
    this.skipWhitespace();
    if (this.source[this.at] === '}') {
      this.at += 1;
      return;
    }
    // Every turn consumes at least one member, so the loop ends within source.length turns.
    for (let turn = 0; turn <= this.source.length; turn++) {
      this.skipWhitespace();
      const name = this.string();
      this.path.push(name);
      this.skipWhitespace();
      this.expect(':');
      yield [name, this.value(depth + 1)];
      this.skipWhitespace();
      const end = this.source[this.at] === '}';
      if (!end) this.expect(',');
      this.path.pop();
      if (end) {
        this.at += 1;
        return;
      }
    }
    this.fail();
  }

  private array(depth: number): JsonValue[] {
    const items: JsonValue[] = [];
    this.expect('[');
    this.skipWhitespace();
    if (this.source[this.at] === ']') {
      this.at += 1;
      return items;
    }
    for (let turn = 0; turn <= this.source.length; turn++) {
      this.path.push(items.length);
      items.push(this.value(depth + 1));
      this.skipWhitespace();
      const end = this.source[this.at] === ']';
      if (!end) this.expect(',');
      this.path.pop();
      if (end) {
        this.at += 1;
        return items;
      }
    }
    this.fail();
  }
}

/** Reads one whole JSON text (a body, or the JSON text of a parameter's value) under `rules`. */
export function readJson(source: string, rules: JsonRules): JsonValue {
  const reader = new Reader(source, rules);
  const value = reader.value(0);
  reader.finish();
  return value;
}

/**
 * Reads a JSON text that must be one object, member by member: each is yielded as soon as its
 * value is read, so that a caller's own refusal of a member comes before any fault later in the
 * text. Objects inside a member are read whole, a repeated name in them being a fault.
 */
export function* readJsonMembers(source: string, rules: JsonRules): Generator<[string, JsonValue]> {
  const reader = new Reader(source, rules);
  reader.skipWhitespace();
  yield* reader.members(0);
  reader.finish();
}
