import { describe, expect, it } from 'vitest';
import { MerchantParams } from '../../../../src/api/merchant/merchant-params.js';
import { PaymentError } from '../../../../src/core/payment-errors.js';

const JSON_TYPE = 'application/json';
const FORM = 'application/x-www-form-urlencoded';

/** Parameters from a query and a body given as text (JSON when an object is passed). */
function paramsOf(query: string, body: string | object = '', contentType?: string): MerchantParams {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = contentType ?? (typeof body === 'string' ? (text === '' ? undefined : FORM) : JSON_TYPE);
  return MerchantParams.parse(query, Buffer.from(text, 'utf8'), type);
}

function json(text: string): MerchantParams {
  return MerchantParams.parse('', Buffer.from(text, 'utf8'), JSON_TYPE);
}

/** The area B error `run` throws, as `[code, detail]`. */
function refusal(run: () => unknown): [number, string] {
  try {
    run();
  } catch (error) {
    if (error instanceof PaymentError) return [error.code, error.detail];
    throw error;
  }
  throw new Error('expected a PaymentError');
}

describe('MerchantParams.parse: where values come from (docs/merchant-payments.md "Requests")', () => {
  it.each([
    ['query only', 'a=1', '', undefined, '1'],
    ['form body only', '', 'a=2', FORM, '2'],
    ['JSON body only', '', '{"a":"3"}', JSON_TYPE, '3'],
    ['form body without Content-Type', '', 'a=4', undefined, '4'],
    ['query and JSON body: the query wins', 'a=q', '{"a":"b"}', JSON_TYPE, 'q'],
    ['query and form body: the query wins', 'a=q', 'a=b', FORM, 'q'],
    ['empty query value: the body is used', 'a=', '{"a":"b"}', JSON_TYPE, 'b'],
    ['blank query value: the body is used', 'a=%20%20', 'a=b', FORM, 'b'],
    ['JSON null in the body: absent', '', '{"a":null}', JSON_TYPE, undefined],
    ['"" in the body: absent', '', '{"a":""}', JSON_TYPE, undefined],
    ['Content-Type with a charset', '', '{"a":"5"}', 'application/json; charset=utf-8', '5'],
    ['empty JSON body', 'a=6', '', JSON_TYPE, '6'],
    ['whitespace-only JSON body', 'a=7', '  \n', JSON_TYPE, '7'],
    ['unknown content type with an empty body', 'a=8', '', 'text/plain', '8'],
    ['percent-encoded query value', 'a=x%2By+z', '', undefined, 'x+y z'],
  ])('when %s, then str gives %s', (_what, query, body, type, expected) => {
    expect(MerchantParams.parse(query, Buffer.from(body, 'utf8'), type).str('a')).toBe(expected);
  });

  it('when unknown parameters are sent, then they are ignored', () => {
    const params = paramsOf('zzz=1', { other: { deep: [1, 2] }, a: 'x' });
    expect(params.str('a')).toBe('x');
    expect(params.has('missing')).toBe(false);
  });

  it.each([
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"a"'],
    ['a JSON number', '5'],
    ['JSON null', 'null'],
  ])('when the JSON body is %s, then -4010 "body" (one object only)', (_what, body) => {
    const [code, detail] = refusal(() => json(body));
    expect(code).toBe(-4010);
    expect(detail).toMatch(/^body /);
  });

  it.each([
    ['truncated JSON', '{"a":1'],
    ['trailing garbage', '{"a":1} x'],
    ['single quotes', "{'a':1}"],
    ['a trailing comma', '{"a":1,}'],
    ['a leading-zero number', '{"a":01}'],
    ['a raw control character in a string', '{"a":"x\ty"}'],
    ['a lone surrogate escape', '{"a":"\\ud800"}'],
    ['nesting deeper than 32 levels', `{"a":${'['.repeat(40)}${']'.repeat(40)}}`],
  ])('when the JSON body has %s, then -4010 "body"', (_what, body) => {
    const [code, detail] = refusal(() => json(body));
    expect(code).toBe(-4010);
    expect(detail).toMatch(/^body /);
  });

  it('when bytes of the body are not UTF-8, then -4010 "body"', () => {
    expect(refusal(() => MerchantParams.parse('', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]), JSON_TYPE))).toEqual([-4010, 'body is not UTF-8']);
  });

  it.each([
    ['broken percent escape', 'a=%zz'],
    ['a name sent twice', 'a=1&a=2'],
  ])('when a form body has a %s, then -4010 "body"', (_what, body) => {
    const [code, detail] = refusal(() => paramsOf('', body, FORM));
    expect(code).toBe(-4010);
    expect(detail).toMatch(/^body is malformed/);
  });

  it('when the query has a broken escape, then -4010 naming the query', () => {
    const [code, detail] = refusal(() => paramsOf('a=%zz'));
    expect(code).toBe(-4010);
    expect(detail).toMatch(/^query is malformed/);
  });

  it('when a JSON body names a member twice, then -4010 naming it', () => {
    expect(refusal(() => json('{"a":1,"a":2}'))).toEqual([-4010, 'a is sent twice']);
  });

  it.each(['text/plain', 'application/xml', 'multipart/form-data; boundary=x'])('when a non-empty body is %s, then -4010 "body"', (type) => {
    const [code, detail] = refusal(() => MerchantParams.parse('', Buffer.from('a=1'), type));
    expect(code).toBe(-4010);
    expect(detail).toMatch(/^body has Content-Type/);
  });

  it('when the endpoint takes multipart (B35), then a multipart body is left to the handler and the query is read', () => {
    const body = Buffer.from('--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n');
    const params = MerchantParams.parse('orderId=7', body, 'multipart/form-data; boundary=x', { multipart: true });
    expect(params.str('orderId')).toBe('7');
    expect(params.has('a')).toBe(false);
    expect(params.rawBody).toBe(body);
    expect(params.contentType).toBe('multipart/form-data; boundary=x');
  });
});

describe('MerchantParams: presence', () => {
  it.each([
    ['str', (p: MerchantParams) => p.str('merchantId', { required: true })],
    ['int', (p: MerchantParams) => p.int('merchantId', { required: true })],
    ['long', (p: MerchantParams) => p.long('merchantId', { required: true })],
    ['bool', (p: MerchantParams) => p.bool('merchantId', { required: true })],
    ['obj', (p: MerchantParams) => p.obj('merchantId', { required: true })],
  ])('when a required %s is absent, then -4010 naming it', (_reader, read) => {
    const params = paramsOf('');
    expect(refusal(() => read(params))).toEqual([-4010, 'merchantId is required']);
  });

  it('when a required dec or enum is absent, then -4010 naming it', () => {
    const params = paramsOf('', { amount: null });
    expect(refusal(() => params.dec('amount', 2, { required: true }))).toEqual([-4010, 'amount is required']);
    expect(refusal(() => params.enumOf('side', ['A'], { required: true }))).toEqual([-4010, 'side is required']);
  });

  it('when an optional value is absent, then the reader gives undefined', () => {
    const params = paramsOf('');
    expect([params.str('a'), params.int('a'), params.dec('a', 2), params.bool('a'), params.obj('a'), params.enumOf('a', ['x'])]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('MerchantParams.str', () => {
  it.each([
    ['outer whitespace', { s: '  Acme  ' }, 'Acme'],
    ['a JSON number', { s: 12 }, '12'],
    ['a JSON boolean', { s: true }, 'true'],
    ['whitespace only (absent)', { s: '   ' }, undefined],
  ])('when the value has %s, then it reads %s', (_what, body, expected) => {
    expect(paramsOf('', body).str('s')).toBe(expected);
  });

  it('when a JSON number is sent for a string, then its literal text is kept', () => {
    expect(json('{"clabe":706180000000000001}').str('clabe')).toBe('706180000000000001');
  });

  it.each([
    ['an array', { s: ['a'] }],
    ['an object', { s: { a: 1 } }],
  ])('when it is %s, then -4010 naming it', (_what, body) => {
    expect(refusal(() => paramsOf('', body).str('s'))).toEqual([-4010, 's must not be an array or object']);
  });

  it('when it is longer than max characters, then -4011; max counts characters, not UTF-16 units', () => {
    expect(refusal(() => paramsOf('', { s: 'abcd' }).str('s', { max: 3 }))).toEqual([-4011, 's exceeds 3 characters']);
    expect(paramsOf('', { s: '😀😀😀' }).str('s', { max: 3 })).toBe('😀😀😀');
  });
});

describe('MerchantParams.int and long', () => {
  it.each([
    ['a JSON number', { n: 42 }, 42],
    ['a digit string', { n: '42' }, 42],
    ['a padded digit string', { n: ' 7 ' }, 7],
    ['leading zeros', { n: '007' }, 7],
    ['2^53 - 1', { n: '9007199254740991' }, 9007199254740991],
  ])('when it is %s, then it reads %s', (_what, body, expected) => {
    expect(paramsOf('', body).int('n')).toBe(expected);
  });

  it.each([
    ['a fraction', '{"n":1.5}', 'n must be an integer'],
    ['an exponent', '{"n":1e3}', 'n must be an integer'],
    ['a decimal string', '{"n":"10.0"}', 'n must be an integer'],
    ['letters', '{"n":"12a"}', 'n must be an integer'],
    ['a boolean', '{"n":true}', 'n must not be a boolean'],
    ['an object', '{"n":{}}', 'n must not be an array or object'],
    ['above 2^53 - 1', '{"n":9007199254740993}', 'n is out of range'],
    ['negative, with the default minimum 0', '{"n":-1}', 'n must be at least 0'],
  ])('when it is %s, then -4010', (_what, body, detail) => {
    expect(refusal(() => json(body).int('n'))).toEqual([-4010, detail]);
  });

  it('when min and max are given, then values outside are -4010 and a negative min admits a sign', () => {
    expect(refusal(() => paramsOf('', { n: 0 }).int('n', { min: 1 }))).toEqual([-4010, 'n must be at least 1']);
    expect(refusal(() => paramsOf('', { n: 11 }).int('n', { max: 10 }))).toEqual([-4010, 'n must be at most 10']);
    expect(paramsOf('', { n: -7001 }).int('n', { min: -7001 })).toBe(-7001);
  });

  it('when long reads a ms time, then it follows the same rules', () => {
    expect(paramsOf('startTime=1750000000000').long('startTime')).toBe(1750000000000);
    expect(refusal(() => paramsOf('t=1.0').long('t'))).toEqual([-4010, 't must be an integer']);
  });
});

describe('MerchantParams.dec', () => {
  it.each([
    ['a string', '{"amount":"100.50"}', 2, '100.50'],
    ['a JSON number, kept as written', '{"amount":100.50}', 2, '100.50'],
    ['an integer', '{"amount":100}', 2, '100'],
    ['fewer decimals than the accuracy', '{"amount":"0.1"}', 8, '0.1'],
    ['padded', '{"amount":" 5.25 "}', 2, '5.25'],
  ])('when it is %s, then it reads the text as sent', (_what, body, accuracy, expected) => {
    expect(json(body).dec('amount', accuracy)).toBe(expected);
  });

  it('when a JSON number has more digits than a float holds, then its text is kept exactly', () => {
    expect(json('{"amount":0.12345678901234567}').dec('amount', 18)).toBe('0.12345678901234567');
  });

  it.each([
    ['more decimals than the accuracy (never rounded)', '{"amount":"1.005"}', 'amount has more than 2 decimals'],
    ['trailing zeros beyond the accuracy', '{"amount":"1.000"}', 'amount has more than 2 decimals'],
    ['an exponent in a JSON number', '{"amount":1e3}', 'amount must be a plain decimal'],
    ['an exponent in a string', '{"amount":"1E3"}', 'amount must be a plain decimal'],
    ['a sign', '{"amount":"-1"}', 'amount must be a plain decimal'],
    ['a plus sign', '{"amount":"+1"}', 'amount must be a plain decimal'],
    ['a negative JSON number', '{"amount":-1}', 'amount must be a plain decimal'],
    ['a thousands separator', '{"amount":"1,000"}', 'amount must be a plain decimal'],
    ['a bare point', '{"amount":".5"}', 'amount must be a plain decimal'],
    ['a trailing point', '{"amount":"5."}', 'amount must be a plain decimal'],
    ['zero', '{"amount":"0.00"}', 'amount must be greater than 0'],
    ['a boolean', '{"amount":true}', 'amount must not be a boolean'],
    ['an array', '{"amount":["1"]}', 'amount must not be an array or object'],
  ])('when it has %s, then -4010', (_what, body, detail) => {
    const [code, text] = refusal(() => json(body).dec('amount', 2));
    expect(code).toBe(-4010);
    expect(text.startsWith(detail)).toBe(true);
  });

  it('when zero is allowed (limits: 0 = no cap), then 0 reads as sent', () => {
    expect(json('{"limit":"0"}').dec('limit', 2, { allowZero: true })).toBe('0');
  });
});

describe('MerchantParams.bool', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['True', true],
    ['1', true],
    ['false', false],
    ['FaLsE', false],
    ['0', false],
  ])('when the query says %s, then %s', (text, expected) => {
    expect(paramsOf(`b=${text}`).bool('b')).toBe(expected);
  });

  it.each([
    ['{"b":true}', true],
    ['{"b":false}', false],
    ['{"b":1}', true],
    ['{"b":0}', false],
  ])('when the JSON body is %s, then %s', (body, expected) => {
    expect(json(body).bool('b')).toBe(expected);
  });

  it.each(['yes', '2', 'on'])('when it is "%s", then -4010', (text) => {
    expect(refusal(() => paramsOf(`b=${text}`).bool('b'))).toEqual([-4010, 'b must be true or false']);
  });
});

describe('MerchantParams.obj', () => {
  it('when a JSON body holds an object, then it reads as a plain object with numbers as their text', () => {
    expect(json('{"fieldList":{"name":"Ana","zip":"01234","clabe":706180000000000001,"n":{"x":1.50},"ok":true}}').obj('fieldList')).toEqual({
      name: 'Ana',
      zip: '01234',
      clabe: '706180000000000001',
      n: { x: '1.50' },
      ok: true,
    });
  });

  it('when a form body carries the JSON text of an object, then it reads the same', () => {
    const body = `fieldList=${encodeURIComponent('{"a":"1","b":2}')}`;
    expect(paramsOf('', body, FORM).obj('fieldList')).toEqual({ a: '1', b: '2' });
  });

  it('when a member is named __proto__, then it is an ordinary member', () => {
    const value = json('{"o":{"__proto__":{"polluted":true}}}').obj('o');
    expect(Object.keys(value ?? {})).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['a string that is not JSON', 'o=abc', FORM, 'o is not valid JSON'],
    ['the JSON text of an array', `o=${encodeURIComponent('[1]')}`, FORM, 'o must be a JSON object'],
    ['a JSON array', '{"o":[1]}', JSON_TYPE, 'o must be a JSON object'],
    ['a JSON number', '{"o":5}', JSON_TYPE, 'o must be a JSON object'],
    ['a JSON boolean', '{"o":true}', JSON_TYPE, 'o must be a JSON object'],
  ])('when it is %s, then -4010 naming it', (_what, body, type, detail) => {
    expect(refusal(() => MerchantParams.parse('', Buffer.from(body), type).obj('o'))).toEqual([-4010, detail]);
  });
});

describe('MerchantParams.enumOf', () => {
  const TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;

  it('when the value is listed, then it reads as the listed value', () => {
    expect(paramsOf('', { merchantType: ' BUSINESS ' }).enumOf('merchantType', TYPES)).toBe('BUSINESS');
  });

  it.each(['business', 'OTHER'])('when it is "%s" (case matters), then -4010 naming the values', (value) => {
    expect(refusal(() => paramsOf('', { merchantType: value }).enumOf('merchantType', TYPES))).toEqual([-4010, 'merchantType must be one of INDIVIDUAL, BUSINESS']);
  });

  it('when a JSON number is sent, then its text is compared', () => {
    expect(json('{"failCode":-7000}').enumOf('failCode', ['-7001', '-7000'])).toBe('-7000');
  });
});

describe('MerchantParams.paging (docs/merchant-payments.md "Answers and errors")', () => {
  it.each([
    ['nothing sent', '', { currentPage: 1, pageSize: 10 }],
    ['both sent', 'currentPage=3&pageSize=50', { currentPage: 3, pageSize: 50 }],
    ['pageSize 1000', 'pageSize=1000', { currentPage: 1, pageSize: 1000 }],
    ['pageSize above 1000: clamped', 'pageSize=5000', { currentPage: 1, pageSize: 1000 }],
  ])('when %s, then %j', (_what, query, expected) => {
    expect(paramsOf(query).paging()).toEqual(expected);
  });

  it.each([
    ['pageSize=0', 'pageSize must be at least 1'],
    ['pageSize=-5', 'pageSize must be at least 1'],
    ['pageSize=2.5', 'pageSize must be an integer'],
    ['currentPage=0', 'currentPage must be at least 1'],
    ['currentPage=x', 'currentPage must be an integer'],
  ])('when %s, then -4010', (query, detail) => {
    expect(refusal(() => paramsOf(query).paging())).toEqual([-4010, detail]);
  });
});

describe('MerchantParams.timeRange (docs/merchant-payments.md "Answers and errors")', () => {
  it.each([
    ['nothing sent', '', {}],
    ['start only', 'startTime=100', { startTime: 100 }],
    ['both, equal', 'startTime=100&endTime=100', { startTime: 100, endTime: 100 }],
    ['both, ordered', 'startTime=100&endTime=200', { startTime: 100, endTime: 200 }],
  ])('when %s, then %j', (_what, query, expected) => {
    expect(paramsOf(query).timeRange()).toEqual(expected);
  });

  it('when startTime is after endTime, then -4010', () => {
    expect(refusal(() => paramsOf('startTime=201&endTime=200').timeRange())).toEqual([-4010, 'startTime is after endTime']);
  });
});
