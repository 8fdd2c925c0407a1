import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findSignature, signedPayloads, verifySignature } from '../../../../src/api/auth/signature.js';

// Public BHEX documentation vectors (docs/spot-api.md "Signing").
const SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
const P = 'symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000';
const SIG_P = '5f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6';
const SIG_SPLIT = '885c9e3dd89ccd13408b25e6d54c2330703759d7494bea6dd5a3d1fd16ba3afa';
const SIG_P_AMP = '8145accd8d997bf2bc84ec8efb370eb6b251ccc3c00fdd45f40edc1976080c38';
const SIG_TIMESTAMP = 'b5bcf90d5740c5bf2fd601d4f4d4a80b328dcaa0a451b5686656fd1d4d758ef6';

function verifies(rawQuery: string, rawBody: string, signature: string, bodyIsJson = false): boolean {
  return verifySignature(SECRET, signedPayloads(rawQuery, rawBody, bodyIsJson), signature);
}

describe('signedPayloads', () => {
  it('when the signature ends the query, then totalParams is the query without it', () => {
    expect(signedPayloads(`${P}&signature=${SIG_P}`, '', false)).toEqual([P]);
  });

  it('when the signature is in the middle, then only its segment is removed', () => {
    expect(signedPayloads('a=1&signature=ff&b=2', '', false)).toEqual(['a=1&b=2']);
  });

  it('when a segment merely starts with "signature", then it is kept', () => {
    expect(signedPayloads('signatureX=1&signature=ff&x=signature', '', false)).toEqual(['signatureX=1&x=signature']);
  });

  it('when the query ends in "&&signature=", then both the text with and without the trailing & are candidates', () => {
    expect(signedPayloads(`${P}&&signature=x`, '', false)).toEqual([`${P}&`, P]);
  });

  it('when the body is JSON, then it is used whole, signature field included', () => {
    const body = '{"signature":"ab","a":"1"}&';
    expect(signedPayloads('timestamp=1&signature=cd', body, true)).toEqual([`timestamp=1${body}`]);
  });

  it('when query and form body are split, then they are joined without a separator', () => {
    expect(signedPayloads('a=1&', 'b=2&signature=x', false)).toEqual(['a=1&b=2', 'a=1b=2']);
  });
});

describe('verifySignature with the docs/spot-api.md "Signing" test vectors', () => {
  it('when everything is in the query, then the documented signature verifies', () => {
    expect(verifies(`${P}&signature=${SIG_P}`, '', SIG_P)).toBe(true);
  });

  it('when everything is in the form body, then the documented signature verifies', () => {
    expect(verifies('', `${P}&signature=${SIG_P}`, SIG_P)).toBe(true);
  });

  it('when the query holds the first four parameters and the body the rest, then the split vector verifies', () => {
    const query = 'symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC';
    const body = `quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000&signature=${SIG_SPLIT}`;
    expect(verifies(query, body, SIG_SPLIT)).toBe(true);
    expect(verifies(query, body, SIG_P)).toBe(false);
  });

  it('when coinsph sends "…&&signature=", then both the HMAC of "P&" and of P verify', () => {
    expect(verifies(`${P}&&signature=${SIG_P_AMP}`, '', SIG_P_AMP)).toBe(true);
    expect(verifies(`${P}&&signature=${SIG_P}`, '', SIG_P)).toBe(true);
  });

  it('when only a timestamp is signed, then its vector verifies', () => {
    expect(verifies(`timestamp=1538323200000&signature=${SIG_TIMESTAMP}`, '', SIG_TIMESTAMP)).toBe(true);
  });

  it('when the hex is upper case, then it verifies', () => {
    expect(verifies(P, '', SIG_P.toUpperCase())).toBe(true);
  });

  it('when one byte of the payload is changed, then it fails', () => {
    expect(verifies(P.replace('quantity=1', 'quantity=2'), '', SIG_P)).toBe(false);
  });

  it('when one hex digit of the signature is changed, then it fails', () => {
    expect(verifies(P, '', `${SIG_P.slice(0, -1)}7`)).toBe(false);
  });

  it('when the signature has the wrong length or is not ASCII, then it fails without throwing', () => {
    expect(verifies(P, '', SIG_P.slice(0, 63))).toBe(false);
    expect(verifies(P, '', `${SIG_P}0`)).toBe(false);
    expect(verifies(P, '', `${SIG_P.slice(0, 62)}é`)).toBe(false);
    expect(verifies(P, '', '')).toBe(false);
  });

  it('when the query is percent-encoded, then the raw bytes are signed, not the decoded text', () => {
    const raw = 'address=a%2Fb&timestamp=1';
    const rawSignature = createHmac('sha256', SECRET).update(raw).digest('hex');
    const decodedSignature = createHmac('sha256', SECRET).update('address=a/b&timestamp=1').digest('hex');
    expect(verifies(`${raw}&signature=${rawSignature}`, '', rawSignature)).toBe(true);
    expect(verifies(`${raw}&signature=${decodedSignature}`, '', decodedSignature)).toBe(false);
  });
});

describe('findSignature', () => {
  it('when the query and the form body both carry one, then the query wins', () => {
    expect(findSignature('a=1&signature=aa', 'signature=bb', false)).toBe('aa');
  });

  it('when only the form body carries one, then it is used', () => {
    expect(findSignature('a=1', 'b=2&signature=bb', false)).toBe('bb');
  });

  it('when the body is JSON, then a signature inside it is not one', () => {
    expect(findSignature('a=1', 'signature=bb', true)).toBeUndefined();
  });

  it('when the query signature is empty, then it is absent and the body is read', () => {
    expect(findSignature('signature=', 'signature=bb', false)).toBe('bb');
    expect(findSignature('signature', '', false)).toBeUndefined();
  });
});

describe('a text whose one signature segment comes last (read without splitting it)', () => {
  it('when the signature ends the text, then the payload is what precedes it and the value what follows', () => {
    expect(signedPayloads('', `${P}&signature=${SIG_P}`, false)).toEqual([P]);
    expect(findSignature('', `${P}&signature=${SIG_P}`, false)).toBe(SIG_P);
  });

  it('when the last signature is empty, then it is absent and its segment still left out', () => {
    expect(findSignature('', 'a=1&signature=', false)).toBeUndefined();
    expect(signedPayloads('', 'a=1&signature=', false)).toEqual(['a=1']);
  });

  it('when the value holds "=" or the word signature, then it is taken whole', () => {
    expect(findSignature('', 'a=1&signature=ab=cd', false)).toBe('ab=cd');
    expect(findSignature('', 'a=1&signature=signature', false)).toBe('signature');
    expect(signedPayloads('', 'a=1&signature=signature', false)).toEqual(['a=1']);
  });

  it('when an earlier name contains the word, or a second signature comes first, then every segment is read as before', () => {
    expect(signedPayloads('', 'mysignature=1&signature=aa', false)).toEqual(['mysignature=1']);
    expect(findSignature('', 'signature=&b=2&signature=bb', false)).toBe('bb');
    expect(signedPayloads('', 'signature=aa&b=2&signature=bb', false)).toEqual(['b=2']);
  });

  it('when empty segments precede it, then they stay in the payload', () => {
    expect(signedPayloads('', 'a=1&&signature=aa', false)).toEqual(['a=1&', 'a=1']);
  });
});
