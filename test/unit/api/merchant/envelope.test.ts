import { describe, expect, it } from 'vitest';
import { IpBannedError, successEnvelope, toPaymentError } from '../../../../src/api/merchant/envelope.js';
import { BourseError } from '../../../../src/core/errors.js';
import { PaymentError } from '../../../../src/core/payment-errors.js';

function answerOf(error: unknown): { http: number; code: number; msg: string } {
  const failure = toPaymentError(error);
  return { http: failure.http, code: failure.code, msg: failure.errorName };
}

describe('successEnvelope (docs/merchant-payments.md "Answers and errors")', () => {
  it('when a handler returns data, then it travels as code 200, msg SUCCESS, data', () => {
    expect(JSON.stringify(successEnvelope([{ a: 1 }]))).toBe('{"code":200,"msg":"SUCCESS","data":[{"a":1}]}');
  });

  it('when a handler returns nothing, then data is null', () => {
    expect(successEnvelope(undefined)).toEqual({ code: 200, msg: 'SUCCESS', data: null });
  });
});

describe('toPaymentError', () => {
  it('when the error is an area B refusal, then it is answered as it is, with its data', () => {
    const error = new PaymentError('REPEATED_SUBMIT_REQUEST', 'clientId used', { orderId: '10000042' });
    expect(toPaymentError(error)).toBe(error);
    expect(error.toBody()).toEqual({ code: -1174, msg: 'REPEATED_SUBMIT_REQUEST', detail: 'clientId used', data: { orderId: '10000042' } });
  });

  it.each([
    ["area A's SERVICE_UNAVAILABLE (stopping)", new BourseError('SERVICE_UNAVAILABLE'), { http: 503, code: -1016, msg: 'SERVICE_SHUTTING_DOWN' }],
    ["area A's WRITES_SUSPENDED (disk full)", new BourseError('WRITES_SUSPENDED'), { http: 503, code: -1016, msg: 'SERVICE_SHUTTING_DOWN' }],
    ["area A's ENGINE_BUSY (the engine's queue is full)", new BourseError('ENGINE_BUSY', [10000]), { http: 503, code: -1003, msg: 'TOO_MANY_REQUESTS' }],
    ["another area A error", new BourseError('INTERNAL'), { http: 500, code: -1001, msg: 'DISCONNECTED' }],
    ["Fastify's body too large", Object.assign(new Error('too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }), { http: 400, code: -4011, msg: 'PARAM_EXCEEDS_LIMIT_LENGTH' }],
    ["Fastify's unsupported media type", Object.assign(new Error('media'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }), { http: 400, code: -4010, msg: 'PARAM_IS_INVALID' }],
    ["Fastify's invalid content length", Object.assign(new Error('length'), { code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH', statusCode: 400 }), { http: 400, code: -4010, msg: 'PARAM_IS_INVALID' }],
    ['a 404 from the framework', Object.assign(new Error('nf'), { statusCode: 404 }), { http: 404, code: -1000, msg: 'UNKNOWN' }],
    ['a programming error', new TypeError('x is undefined'), { http: 500, code: -1001, msg: 'DISCONNECTED' }],
    ['a thrown non-error', 'boom', { http: 500, code: -1001, msg: 'DISCONNECTED' }],
  ])('when the failure is %s, then it is answered %j', (_what, error, expected) => {
    expect(answerOf(error)).toEqual(expected);
  });

  it('when the IP is banned, then -1003 is answered with HTTP 418 and the ban end in detail', () => {
    const error = new IpBannedError(1750000120000);
    expect([error.http, error.toBody()]).toEqual([418, { code: -1003, msg: 'TOO_MANY_REQUESTS', detail: 'IP banned until 1750000120000', data: null }]);
  });
});
