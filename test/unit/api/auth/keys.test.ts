import { describe, expect, it } from 'vitest';
import { extractApiKey, generateApiCredential, isApiKeyFormat } from '../../../../src/api/auth/keys.js';
import { Params } from '../../../../src/api/params.js';
import { BourseError } from '../../../../src/core/errors.js';

const KEY_A = 'A'.repeat(32) + 'b'.repeat(16) + '0123456789abcdef';
const KEY_B = 'z'.repeat(64);
const NO_PARAMS = new Params(new Map());

function codeOf(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof BourseError) return error.code;
    throw error;
  }
  return undefined;
}

describe('generateApiCredential', () => {
  it('when called, then it returns 64 characters of [A-Za-z0-9]', () => {
    const credential = generateApiCredential();
    expect(credential).toMatch(/^[A-Za-z0-9]{64}$/);
  });

  it('when called many times, then every value differs and all 62 characters appear', () => {
    const credentials = Array.from({ length: 200 }, () => generateApiCredential());
    expect(new Set(credentials).size).toBe(200);
    expect(new Set(credentials.join('')).size).toBe(62);
  });
});

describe('isApiKeyFormat', () => {
  it('when the text is 64 letters and digits, then it is a key', () => {
    expect(isApiKeyFormat(KEY_A)).toBe(true);
  });

  it('when the text is 63 or 65 characters or holds another character, then it is not', () => {
    expect(isApiKeyFormat(KEY_A.slice(1))).toBe(false);
    expect(isApiKeyFormat(`${KEY_A}x`)).toBe(false);
    expect(isApiKeyFormat(`${KEY_A.slice(1)}-`)).toBe(false);
    expect(isApiKeyFormat('')).toBe(false);
  });
});

describe('extractApiKey', () => {
  it('when X-BH-APIKEY is sent, then it wins over X-COINS-APIKEY and accessKey', () => {
    const params = new Params(new Map([['accessKey', KEY_B]]));
    expect(extractApiKey({ 'x-bh-apikey': KEY_A, 'x-coins-apikey': KEY_B }, params)).toBe(KEY_A);
  });

  it('when only X-COINS-APIKEY is sent, then it is the key', () => {
    expect(extractApiKey({ 'x-coins-apikey': KEY_B }, NO_PARAMS)).toBe(KEY_B);
  });

  it('when no header is sent, then the accessKey parameter is the key', () => {
    expect(extractApiKey({}, new Params(new Map([['accessKey', KEY_B]])))).toBe(KEY_B);
  });

  it('when a header is empty, then it is absent and the next source is read', () => {
    expect(extractApiKey({ 'x-bh-apikey': '', 'x-coins-apikey': KEY_B }, NO_PARAMS)).toBe(KEY_B);
  });

  it('when no key is sent anywhere, then the answer is undefined (caller: -1002)', () => {
    expect(extractApiKey({ host: 'localhost' }, NO_PARAMS)).toBeUndefined();
  });

  it('when the key has another shape, then -2014', () => {
    expect(codeOf(() => extractApiKey({ 'x-bh-apikey': 'short' }, NO_PARAMS))).toBe(-2014);
    expect(codeOf(() => extractApiKey({}, new Params(new Map([['accessKey', `${KEY_A}!`]]))))).toBe(-2014);
  });

  it('when the header is repeated, then -2014 whether Node joined it or gave an array', () => {
    expect(codeOf(() => extractApiKey({ 'x-bh-apikey': `${KEY_A}, ${KEY_B}` }, NO_PARAMS))).toBe(-2014);
    expect(codeOf(() => extractApiKey({ 'x-bh-apikey': [KEY_A, KEY_B] }, NO_PARAMS))).toBe(-2014);
  });
});
