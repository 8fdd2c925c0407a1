import { describe, expect, it } from 'vitest';
import {
  bodyKind,
  Params,
  parseRawParams,
  readClientOrderId,
  readDecimal,
  readEnum,
  readInt,
  readLimit,
  readLong,
  readString,
  readSymbol,
  FORMATS,
} from '../../../src/api/params.js';
import { BourseError } from '../../../src/core/errors.js';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

function errorOf(run: () => unknown): { code: number; msg: string; http: number } {
  try {
    run();
  } catch (error) {
    if (error instanceof BourseError) return { ...error.toBody(), http: error.http };
    throw error;
  }
  throw new Error('expected a BourseError');
}

function paramsOf(entries: Record<string, string>): Params {
  return new Params(new Map(Object.entries(entries)));
}

function entriesOf(params: Params, names: string[]): Record<string, string | undefined> {
  return Object.fromEntries(names.map((name) => [name, params.get(name)]));
}

describe('parseRawParams: form and query', () => {
  it('when the query is form-encoded, then "+" is a space and escapes are decoded', () => {
    const params = parseRawParams('a=x+y&b=%2F%20%C3%A9&c=1%2B1', undefined, undefined);
    expect(entriesOf(params, ['a', 'b', 'c'])).toEqual({ a: 'x y', b: '/ é', c: '1+1' });
  });

  it('when values or segments are empty, then those parameters are absent', () => {
    const params = parseRawParams('orderId=&&a=1&&flag&=5&b=2&', undefined, undefined);
    expect(entriesOf(params, ['orderId', 'a', 'flag', '', 'b'])).toEqual({ orderId: undefined, a: '1', flag: undefined, '': undefined, b: '2' });
    expect(params.has('orderId')).toBe(false);
    expect(params.has('a')).toBe(true);
  });

  it('when a value contains "=", then everything after the first "=" is the value', () => {
    expect(parseRawParams('a=b=c', undefined, undefined).get('a')).toBe('b=c');
  });

  it('when a name appears twice in the query, then -1101', () => {
    expect(errorOf(() => parseRawParams('a=1&a=1', undefined, undefined))).toEqual({
      code: -1101,
      msg: 'Duplicate values for a parameter detected.',
      http: 400,
    });
  });

  it('when a name appears twice in the body, then -1101', () => {
    expect(errorOf(() => parseRawParams('', 'a=1&b=2&a=3', FORM)).code).toBe(-1101);
  });

  it('when a name appears once empty and once set, then only the set value counts', () => {
    expect(parseRawParams('a=&a=1', undefined, undefined).get('a')).toBe('1');
  });

  it('when a name is in both the query and the body, then the query value wins', () => {
    const params = parseRawParams('symbol=ETHBTC&a=1', 'symbol=BTCUSDT&b=2', FORM);
    expect(entriesOf(params, ['symbol', 'a', 'b'])).toEqual({ symbol: 'ETHBTC', a: '1', b: '2' });
  });

  it('when the body has no Content-Type, then it is read as a form', () => {
    expect(parseRawParams('', 'side=BUY&quantity=1', undefined).get('quantity')).toBe('1');
  });

  it('when the form Content-Type has a charset, then it is still a form', () => {
    expect(parseRawParams('', 'a=1', 'Application/X-WWW-Form-Urlencoded; charset=UTF-8').get('a')).toBe('1');
  });

  it('when a percent escape is broken, then -1100 names the parameter', () => {
    expect(errorOf(() => parseRawParams('address=ab%2', undefined, undefined))).toEqual({
      code: -1100,
      msg: "Illegal characters found in parameter 'address'; legal range is 'percent-encoded UTF-8'.",
      http: 400,
    });
    expect(errorOf(() => parseRawParams('x=%zz', undefined, undefined)).msg).toContain("parameter 'x'");
  });

  it('when the decoded bytes are not UTF-8, then -1100 names the parameter', () => {
    expect(errorOf(() => parseRawParams('note=%FF', undefined, undefined)).msg).toContain("parameter 'note'");
    expect(errorOf(() => parseRawParams('note=%ED%A0%80', undefined, undefined)).code).toBe(-1100);
    expect(errorOf(() => parseRawParams('note=%EF%BF%BD', undefined, undefined)).code).toBe(-1100);
  });

  it('when a name is badly encoded, then -1100 names it as sent', () => {
    expect(errorOf(() => parseRawParams('a%G1=1', undefined, undefined)).msg).toContain("parameter 'a%G1'");
  });

  it('when a later unescaped value holds bytes that were not UTF-8, then -1100 names that parameter, not the first', () => {
    expect(errorOf(() => parseRawParams('', 'symbol=BTCUSDT&note=a\uFFFDb&side=BUY', undefined)).msg).toContain("parameter 'note'");
    expect(errorOf(() => parseRawParams('', 'symbol=BTCUSDT&side=BUY&memo=\uD800', undefined)).msg).toContain("parameter 'memo'");
  });

  it('when a surrogate pair is sent whole, then it is read as one character', () => {
    expect(parseRawParams('', 'symbol=BTCUSDT&note=\uD83D\uDE00', undefined).get('note')).toBe('\uD83D\uDE00');
  });
});

describe('parseRawParams: JSON body', () => {
  it('when numbers are sent, then their literal text is kept', () => {
    const body = '{"price":0.10,"quantity":1e5,"big":123456789012345678901234567890,"neg":-2.50E-3}';
    const params = parseRawParams('', body, JSON_TYPE);
    expect(entriesOf(params, ['price', 'quantity', 'big', 'neg'])).toEqual({
      price: '0.10',
      quantity: '1e5',
      big: '123456789012345678901234567890',
      neg: '-2.50E-3',
    });
  });

  it('when strings and booleans are sent, then strings are decoded and booleans become "true"/"false"', () => {
    const body = ' {\n "symbol" : "btc\\u0075sdt", "note":"a\\"b\\\\c\\/d\\n", "flag":true, "off":false } ';
    const params = parseRawParams('', body, 'application/json; charset=utf-8');
    expect(entriesOf(params, ['symbol', 'note', 'flag', 'off'])).toEqual({
      symbol: 'btcusdt',
      note: 'a"b\\c/d\n',
      flag: 'true',
      off: 'false',
    });
  });

  it('when a string is empty, then the parameter is absent', () => {
    expect(parseRawParams('', '{"orderId":"","a":"1"}', JSON_TYPE).has('orderId')).toBe(false);
  });

  it('when the object is empty or the body is blank, then there are no parameters', () => {
    expect(parseRawParams('a=1', '{}', JSON_TYPE).get('a')).toBe('1');
    expect(parseRawParams('a=1', ' \n', JSON_TYPE).get('a')).toBe('1');
  });

  it('when a value is an object, an array or null, then -1100 names it', () => {
    expect(errorOf(() => parseRawParams('', '{"a":"1","nested":{"b":1}}', JSON_TYPE)).msg).toContain("parameter 'nested'");
    expect(errorOf(() => parseRawParams('', '{"list":[1]}', JSON_TYPE)).msg).toContain("parameter 'list'");
    expect(errorOf(() => parseRawParams('', '{"price":null}', JSON_TYPE)).msg).toContain("parameter 'price'");
  });

  it('when the body is not one JSON object, then -1100 for the body', () => {
    const bad = ['[1]', '"a"', '{"a":1', '{"a":1}x', '{"a":1,}', "{'a':1}", '{"a":01}', '{"a":1.}', '{"a":+1}', '{"a":"x\ny"}', '{"a" 1}'];
    for (const body of bad) {
      expect(errorOf(() => parseRawParams('', body, JSON_TYPE)).code, body).toBe(-1100);
    }
  });

  it('when a JSON string holds a lone surrogate, then -1100 names it', () => {
    expect(errorOf(() => parseRawParams('', '{"a":"\\ud800"}', JSON_TYPE)).msg).toContain("parameter 'a'");
  });

  it('when a key is repeated, then -1101', () => {
    expect(errorOf(() => parseRawParams('', '{"a":1,"a":2}', JSON_TYPE)).code).toBe(-1101);
  });

  it('when the query repeats a JSON key, then the query wins', () => {
    expect(parseRawParams('a=q', '{"a":"b"}', JSON_TYPE).get('a')).toBe('q');
  });
});

describe('bodyKind', () => {
  it('when a non-empty body has another type, then 415 -1000', () => {
    expect(errorOf(() => parseRawParams('', 'a=1', 'text/plain'))).toEqual({ code: -1000, msg: 'Unsupported content type.', http: 415 });
    expect(errorOf(() => bodyKind('<a/>', 'application/xml')).http).toBe(415);
  });

  it('when the body is empty, then its Content-Type does not matter', () => {
    expect(bodyKind('', 'text/plain')).toBe('empty');
    expect(bodyKind(undefined, 'application/json')).toBe('empty');
  });

  it('when the type is JSON or form, then it says so', () => {
    expect(bodyKind('{}', 'application/json;charset=UTF-8')).toBe('json');
    expect(bodyKind('a=1', undefined)).toBe('form');
    expect(bodyKind('a=1', '')).toBe('form');
  });
});

describe('readInt and readLong', () => {
  it('when absent and optional, then undefined; when required, then -1102 naming it', () => {
    expect(readInt(paramsOf({}), 'limit')).toBeUndefined();
    expect(errorOf(() => readInt(paramsOf({}), 'limit', { required: true }))).toEqual({
      code: -1102,
      msg: "Mandatory parameter 'limit' was not sent, was empty/null, or malformed.",
      http: 400,
    });
  });

  it('when well-formed, then the number, leading zeros allowed', () => {
    expect(readInt(paramsOf({ a: '007' }), 'a')).toBe(7);
    expect(readInt(paramsOf({ a: '2147483647' }), 'a')).toBe(2147483647);
  });

  it('when not digits only, then -1100', () => {
    for (const text of ['-1', '1.0', '12a', ' 1', '1e3', '+5', '12345678901234567890']) {
      expect(errorOf(() => readInt(paramsOf({ a: text }), 'a')).code, text).toBe(-1100);
    }
  });

  it('when over the 32-bit range, then -1100 with the range', () => {
    expect(errorOf(() => readInt(paramsOf({ a: '2147483648' }), 'a')).msg).toBe(
      "Illegal characters found in parameter 'a'; legal range is '0-2147483647'.",
    );
  });

  it('when outside min..max, then -1130', () => {
    const options = { min: 1, max: 60000 };
    expect(readInt(paramsOf({ recvWindow: '60000' }), 'recvWindow', options)).toBe(60000);
    expect(errorOf(() => readInt(paramsOf({ recvWindow: '60001' }), 'recvWindow', options))).toEqual({
      code: -1130,
      msg: "Data sent for paramter 'recvWindow' is not valid.",
      http: 400,
    });
    expect(errorOf(() => readInt(paramsOf({ recvWindow: '0' }), 'recvWindow', options)).code).toBe(-1130);
  });

  it('when 0 is sent for a zero-is-absent name, then it is absent; required, -1102', () => {
    expect(readLong(paramsOf({ startTime: '0' }), 'startTime', { zeroIsAbsent: true })).toBeUndefined();
    expect(readLong(paramsOf({ startTime: '000' }), 'startTime', { zeroIsAbsent: true })).toBeUndefined();
    expect(readLong(paramsOf({ startTime: '0' }), 'startTime')).toBe(0);
    expect(errorOf(() => readLong(paramsOf({ orderId: '0' }), 'orderId', { zeroIsAbsent: true, required: true })).code).toBe(-1102);
  });

  it('when a LONG is a safe integer, then the number', () => {
    expect(readLong(paramsOf({ timestamp: '1538323200000' }), 'timestamp', { required: true })).toBe(1538323200000);
    expect(readLong(paramsOf({ id: '9007199254740991' }), 'id')).toBe(9007199254740991);
  });

  it('when a LONG is above 2^53−1 but within 64 bits, then -1130; above 2^63−1, then -1100', () => {
    expect(errorOf(() => readLong(paramsOf({ id: '9007199254740992' }), 'id')).code).toBe(-1130);
    expect(errorOf(() => readLong(paramsOf({ id: '9223372036854775807' }), 'id')).code).toBe(-1130);
    expect(errorOf(() => readLong(paramsOf({ id: '9223372036854775808' }), 'id')).code).toBe(-1100);
  });
});

describe('readDecimal', () => {
  it('when a DECIMAL is sent, then its atto value and the text as sent', () => {
    expect(readDecimal(paramsOf({ price: '0.10' }), 'price')).toEqual({ atto: 100_000_000_000_000_000n, text: '0.10' });
    expect(readDecimal(paramsOf({ qty: '30000' }), 'qty', { required: true })).toEqual({
      atto: 30_000_000_000_000_000_000_000n,
      text: '30000',
    });
  });

  it('when it has a sign, an exponent, a separator or 19 decimals, then -1100', () => {
    for (const text of ['-1', '+1', '1e5', '1,000', '.5', '5.', '0.0000000000000000001', ' 1']) {
      expect(errorOf(() => readDecimal(paramsOf({ price: text }), 'price')).code, text).toBe(-1100);
    }
  });

  it('when absent, then undefined or -1102 when required', () => {
    expect(readDecimal(paramsOf({}), 'price')).toBeUndefined();
    expect(errorOf(() => readDecimal(paramsOf({}), 'quantity', { required: true })).code).toBe(-1102);
  });
});

describe('readEnum', () => {
  const SIDES = ['BUY', 'SELL'] as const;

  it('when the name is in the upper-casing list, then "sell" is SELL', () => {
    expect(readEnum(paramsOf({ side: 'sell' }), 'side', SIDES, { errorName: 'INVALID_SIDE' })).toBe('SELL');
  });

  it('when the value is not one of them, then the named error, else -1130', () => {
    expect(errorOf(() => readEnum(paramsOf({ side: 'HOLD' }), 'side', SIDES, { errorName: 'INVALID_SIDE' }))).toEqual({
      code: -1117,
      msg: 'Invalid side.',
      http: 400,
    });
    expect(errorOf(() => readEnum(paramsOf({ assetType: 'MARGIN' }), 'assetType', ['CASH'])).code).toBe(-1130);
  });

  it('when the name is not in the list, then case matters (interval)', () => {
    const intervals = ['1m', '1M'] as const;
    expect(readEnum(paramsOf({ interval: '1M' }), 'interval', intervals, { errorName: 'INVALID_INTERVAL' })).toBe('1M');
    expect(readEnum(paramsOf({ interval: '1m' }), 'interval', intervals, { errorName: 'INVALID_INTERVAL' })).toBe('1m');
    expect(errorOf(() => readEnum(paramsOf({ interval: '1H' }), 'interval', ['1h'], { errorName: 'INVALID_INTERVAL' })).code).toBe(-1120);
  });

  it('when required and absent, then -1102', () => {
    expect(errorOf(() => readEnum(paramsOf({}), 'side', SIDES, { required: true })).code).toBe(-1102);
  });
});

describe('readString, readSymbol, readClientOrderId', () => {
  it('when a symbol is sent in lower case, then it is upper-cased and otherwise unchecked', () => {
    expect(readSymbol(paramsOf({ symbol: 'btcUsdt' }), 'symbol')).toBe('BTCUSDT');
    expect(readSymbol(paramsOf({ symbol: 'btc-usdt' }), 'symbol')).toBe('BTC-USDT');
    expect(readSymbol(paramsOf({}), 'symbol')).toBeUndefined();
    expect(errorOf(() => readSymbol(paramsOf({}), 'symbol', { required: true })).code).toBe(-1102);
  });

  it('when a non-ASCII letter upper-cases to ASCII, then it is left as is', () => {
    expect(readSymbol(paramsOf({ symbol: 'btcu\u017Fdt' }), 'symbol')).toBe('BTCU\u017FDT');
  });

  it('when a token is read with its format, then it is upper-cased first', () => {
    expect(readString(paramsOf({ tokenId: 'usdt' }), 'tokenId', { pattern: FORMATS.token, required: true })).toBe('USDT');
    expect(errorOf(() => readString(paramsOf({ tokenId: 'us dt' }), 'tokenId', { pattern: FORMATS.token })).msg).toBe(
      "Illegal characters found in parameter 'tokenId'; legal range is '^[A-Z0-9]{1,20}$'.",
    );
  });

  it('when a client order id has 64 allowed characters, then it is kept as sent', () => {
    const id = `Ab0._:/-${'x'.repeat(56)}`;
    expect(readClientOrderId(paramsOf({ newClientOrderId: id }), 'newClientOrderId')).toBe(id);
  });

  it('when a client order id is too long or has another character, then -1100', () => {
    expect(errorOf(() => readClientOrderId(paramsOf({ c: 'x'.repeat(65) }), 'c')).code).toBe(-1100);
    expect(errorOf(() => readClientOrderId(paramsOf({ c: 'a b' }), 'c')).code).toBe(-1100);
    expect(errorOf(() => readClientOrderId(paramsOf({}), 'c', { required: true })).code).toBe(-1102);
  });
});

describe('readLimit', () => {
  const OPTIONS = { default: 500, max: 1000 };

  it('when absent or 0, then the default', () => {
    expect(readLimit(paramsOf({}), OPTIONS)).toBe(500);
    expect(readLimit(paramsOf({ limit: '0' }), OPTIONS)).toBe(500);
  });

  it('when over the maximum, then clamped; within, then as sent', () => {
    expect(readLimit(paramsOf({ limit: '5000' }), OPTIONS)).toBe(1000);
    expect(readLimit(paramsOf({ limit: '7' }), OPTIONS)).toBe(7);
  });

  it('when malformed, then -1100', () => {
    expect(errorOf(() => readLimit(paramsOf({ limit: '-1' }), OPTIONS)).code).toBe(-1100);
  });
});
