/**
 * API key and secret formats of docs/spot-api.md "API keys", and where a request carries its key.
 */
import { randomBytes } from 'node:crypto';
import { BourseError } from '../../core/errors.js';
import type { Params } from '../params.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const CREDENTIAL_LENGTH = 64;
/** Bytes at or above 248 (= 4 × 62) are dropped, so `byte % 62` is uniform. */
const UNBIASED_BYTE_LIMIT = 256 - (256 % ALPHABET.length);
const API_KEY_FORMAT = /^[A-Za-z0-9]{64}$/;

/** A fresh key or secret: 64 `[A-Za-z0-9]` from the CSPRNG, without modulo bias. */
export function generateApiCredential(): string {
  let credential = '';
  // Each round keeps about 97% of its bytes; 64 rounds of 64 bytes failing is practically impossible.
  for (let round = 0; round < CREDENTIAL_LENGTH && credential.length < CREDENTIAL_LENGTH; round++) {
    for (const byte of randomBytes(CREDENTIAL_LENGTH)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      credential += ALPHABET[byte % ALPHABET.length];
      if (credential.length === CREDENTIAL_LENGTH) return credential;
    }
  }
  throw new Error('CSPRNG returned too few usable bytes');
}

/** True for the key and secret shape of docs/spot-api.md "API keys": exactly 64 `[A-Za-z0-9]`. */
export function isApiKeyFormat(text: string): boolean {
  return API_KEY_FORMAT.test(text);
}

export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** Header names as Node delivers them (lower case), in order of precedence. */
const KEY_HEADERS = ['x-bh-apikey', 'x-coins-apikey'] as const;

/**
 * The request's API key: header `X-BH-APIKEY`, else `X-COINS-APIKEY`, else parameter `accessKey`;
 * undefined when none is sent (the caller answers -1002). A repeated header (Node joins it with
 * ", " or gives an array) or any other shape than the one of docs/spot-api.md "API keys" throws -2014.
 */
export function extractApiKey(headers: RequestHeaders, params: Params): string | undefined {
  let key: string | undefined;
  for (const header of KEY_HEADERS) {
    const value = headers[header];
    if (Array.isArray(value)) throw new BourseError('API_KEY_FORMAT');
    if (value !== undefined && value.length > 0) {
      key = value;
      break;
    }
  }
  key ??= params.get('accessKey');
  if (key === undefined) return undefined;
  if (!isApiKeyFormat(key)) throw new BourseError('API_KEY_FORMAT');
  return key;
}
