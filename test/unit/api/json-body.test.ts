import { describe, expect, it } from 'vitest';
import {
  JsonFault,
  JsonNumber,
  readJson,
  readJsonMembers,
  STORED_TEXT_JSON,
  type JsonRules,
  type JsonStep,
  type JsonValue,
} from '../../../src/api/json-body.js';

/** What `run` refused, as kind, steps and character. */
function faultOf(run: () => unknown): { kind: string; at: readonly JsonStep[]; character: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof JsonFault) return { kind: error.kind, at: error.at, character: error.character };
    throw error;
  }
  throw new Error('expected a JsonFault');
}

function describedFault(text: string, subject: string): string {
  try {
    readJson(text, STORED_TEXT_JSON);
  } catch (error) {
    if (error instanceof JsonFault) return error.describe(subject);
    throw error;
  }
  throw new Error('expected a JsonFault');
}

const nested = (levels: number): string => `{"a":${'['.repeat(levels)}${']'.repeat(levels)}}`;

describe('readJson: one reader for the spot API, /v2 and the operator API', () => {
  it('when numbers are sent, then each keeps its literal text, where JSON.parse would round', () => {
    const value = readJson('{"price":0.10,"qty":1e3,"clabe":706180000000000001,"neg":-2.50E-3}', STORED_TEXT_JSON);
    expect(value).toEqual(
      new Map<string, JsonValue>([
        ['price', new JsonNumber('0.10')],
        ['qty', new JsonNumber('1e3')],
        ['clabe', new JsonNumber('706180000000000001')],
        ['neg', new JsonNumber('-2.50E-3')],
      ]),
    );
  });

  it('when a member is named __proto__, then it is just a name', () => {
    const value = readJson('{"__proto__":{"admin":true}}', STORED_TEXT_JSON) as Map<string, JsonValue>;
    expect(value.get('__proto__')).toEqual(new Map([['admin', true]]));
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it.each([
    ['a truncated member', 'syntax', '{"a":1', ['a']],
    ['a missing colon', 'syntax', '{"a" 1}', ['a']],
    ['two members without a comma', 'syntax', '{"a":1 "b":2}', ['a']],
    ['a trailing comma', 'syntax', '{"a":1,}', []],
    ['text after the object', 'syntax', '{"a":1} x', []],
    ['a broken array item', 'syntax', '{"a":{"b":[1,}]}}', ['a', 'b', 1]],
    ['a lone surrogate', 'syntax', '{"a":"\\ud800"}', ['a']],
    ['a raw control character', 'syntax', '{"a":"x\ty"}', ['a']],
    ['a name sent twice', 'repeated', '{"a":1,"a":2}', ['a']],
    ['a name sent twice inside a member', 'repeated', '{"a":{"b":1,"b":2}}', ['a', 'b']],
    ['a value 33 levels down', 'depth', nested(33), ['a', ...new Array<number>(32).fill(0)]],
  ] as const)('when the text has %s, then the fault is %s at its steps', (_what, kind, text, at) => {
    expect(faultOf(() => readJson(text, STORED_TEXT_JSON))).toEqual({ kind, at, character: '' });
  });

  it('when the deepest value is 32 levels down, then the text is read', () => {
    expect(readJson(nested(32), STORED_TEXT_JSON)).toBeInstanceOf(Map);
  });

  it.each([
    ['an escaped bell in a value', '{"note":"x\\u0007"}', ['note'], 'U+0007'],
    ['a raw right-to-left override in a nested value', '{"fieldList":{"City":"a\u202eb"}}', ['fieldList', 'City'], 'U+202E'],
    ['a control character in an array item', '{"rails":[{"name":"\\u001b[31m"}]}', ['rails', 0, 'name'], 'U+001B'],
    ['a control character in a member name', '{"a":{"b\\u0000":1}}', ['a'], 'U+0000'],
  ] as const)('when a stored text holds %s, then the fault names where it is and the character', (_what, text, at, character) => {
    expect(faultOf(() => readJson(text, STORED_TEXT_JSON))).toEqual({ kind: 'character', at, character });
  });

  it('when accents, emoji and right-to-left marks are sent, then they are read as sent', () => {
    expect(readJson('{"name":"Müller 😀 \u200f"}', STORED_TEXT_JSON)).toEqual(new Map([['name', 'Müller 😀 \u200f']]));
  });

  it.each([
    ['a broken body', '{"a":', 'body', 'body is not valid JSON'],
    ['a broken parameter text', '{"a":', 'fieldList', 'fieldList is not valid JSON'],
    ['a body nested too deep', nested(40), 'body', 'body nests deeper than 32 levels'],
    ['a name sent twice deep inside', '{"a":{"b":1,"b":2}}', 'body', 'b is sent twice'],
    ['a control character in a body member', '{"rails":[{"name":"\\u0007"}]}', 'body', 'rails[0].name contains U+0007'],
    ['a control character in a parameter text', '{"City":"\\u0007"}', 'fieldList', 'fieldList.City contains U+0007'],
    ['a control character in a body name', '{"\\u0007":1}', 'body', 'body contains U+0007'],
  ])('when a fault is described for %s, then it reads as /v2 states it', (_what, text, subject, expected) => {
    expect(describedFault(text, subject)).toBe(expected);
  });
});

describe('readJsonMembers: an object member by member', () => {
  const FLAT: JsonRules = { maxDepth: 1, refusedCharacter: () => undefined };

  it('when a member is followed by broken text, then the member is handed out before the fault', () => {
    const members = readJsonMembers('{"a":null,"b":', FLAT);
    expect(members.next().value).toEqual(['a', null]);
    expect(faultOf(() => members.next())).toEqual({ kind: 'syntax', at: ['b'], character: '' });
  });

  it('when names repeat at the top, then each is handed out for the caller to judge', () => {
    expect([...readJsonMembers(' {"a":"","a":"1"} ', FLAT)]).toEqual([
      ['a', ''],
      ['a', '1'],
    ]);
  });

  it('when a member nests beyond maxDepth, then the fault is in that member', () => {
    expect(faultOf(() => [...readJsonMembers('{"a":{"b":1}}', FLAT)])).toEqual({ kind: 'depth', at: ['a', 'b'], character: '' });
  });

  it.each([['[1]'], ['"a"'], ['']])('when the text %j is not one object, then the fault is at the root', (text) => {
    expect(faultOf(() => [...readJsonMembers(text, FLAT)])).toEqual({ kind: 'syntax', at: [], character: '' });
  });

  it('when the object ends, then text after it is a fault at the root', () => {
    const members = readJsonMembers('{"a":1} x', FLAT);
    expect(members.next().value).toEqual(['a', new JsonNumber('1')]);
    expect(faultOf(() => members.next())).toEqual({ kind: 'syntax', at: [], character: '' });
  });
});
