/**
 * The area B envelope (docs/merchant-payments.md "Answers and errors"): `{"code":200,"msg":"SUCCESS","data":…}` on success,
 * `{code, msg, detail, data}` with the code's HTTP status on error. Whatever fails under `/v2`,
 * `/openapi/v2` or `/sandbox` is answered here, so a client never sees area A's `{code, msg}` there.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BourseError } from '../../core/errors.js';
import { PaymentError } from '../../core/payment-errors.js';
import { sendJson } from '../spot/spot-routes.js';

export interface SuccessEnvelope {
  code: 200;
  msg: 'SUCCESS';
  data: unknown;
}

/** `data` is `null` when a handler has nothing to say: no `undefined` on the wire (docs/merchant-payments.md "Values and rounding"). */
export function successEnvelope(data: unknown): SuccessEnvelope {
  return { code: 200, msg: 'SUCCESS', data: data === undefined ? null : data };
}

/** -1003 answered with 418 instead of 429: the IP is banned (docs/merchant-payments.md "Rate limits"). */
export class IpBannedError extends PaymentError {
  override readonly http: number = 418;

  constructor(bannedUntil: number) {
    super('TOO_MANY_REQUESTS', `IP banned until ${bannedUntil}`);
  }
}

/** -1003 answered with 503 instead of 429: the engine's queue is full, whoever sent the requests. */
export class EngineBusyError extends PaymentError {
  override readonly http: number = 503;

  constructor(detail: string) {
    super('TOO_MANY_REQUESTS', detail);
  }
}

interface FrameworkError {
  code?: string;
  statusCode?: number;
}

/**
 * Any failure as the area B error it answers with: area B refusals as they are; area A's
 * "stopping" and "writes suspended" as -1016, "engine busy" as -1003 (503); the framework's body errors as -4011 (too large) or -4010; everything else
 * -1001, whose outcome is unknown (the caller logs it).
 */
export function toPaymentError(error: unknown): PaymentError {
  if (error instanceof PaymentError) return error;
  if (error instanceof BourseError) {
    if (error.errorName === 'SERVICE_UNAVAILABLE') return new PaymentError('SERVICE_SHUTTING_DOWN', 'The server is stopping; retry on another instance or later');
    if (error.errorName === 'WRITES_SUSPENDED') {
      return new PaymentError('SERVICE_SHUTTING_DOWN', 'Writes are suspended: the journal cannot be written (disk full); reads still work, retry later');
    }
    if (error.errorName === 'ENGINE_BUSY') return new EngineBusyError(error.message);
    return new PaymentError('DISCONNECTED', 'Internal error; the outcome is unknown');
  }
  const { code, statusCode } = (error ?? {}) as FrameworkError;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || statusCode === 413) return new PaymentError('PARAM_EXCEEDS_LIMIT_LENGTH', 'body exceeds the size limit');
  if (statusCode === 404) return new PaymentError('UNKNOWN', 'Unknown path or method');
  if (typeof code === 'string' && code.startsWith('FST_ERR_CTP_')) return new PaymentError('PARAM_IS_INVALID', 'body is malformed');
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) return new PaymentError('PARAM_IS_INVALID', 'body is malformed');
  return new PaymentError('DISCONNECTED', 'Internal error; the outcome is unknown');
}

export function sendEnvelope(reply: FastifyReply, data: unknown, headers: Record<string, string>): FastifyReply {
  return sendJson(reply, 200, headers, successEnvelope(data));
}

/** Answers `error` in the envelope; -1001 is logged with the original error (never a token: errors carry none). */
export function sendEnvelopeError(reply: FastifyReply, error: unknown, headers: Record<string, string>, log: FastifyRequest['log']): FastifyReply {
  const failure = toPaymentError(error);
  if (failure.errorName === 'DISCONNECTED' && failure !== error) log.error({ err: error }, 'request failed');
  if (error instanceof BourseError && error.retryAfterSec !== undefined) headers['Retry-After'] ??= String(error.retryAfterSec);
  return sendJson(reply, failure.http, headers, failure.toBody());
}
