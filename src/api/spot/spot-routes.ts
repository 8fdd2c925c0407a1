import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Exchange } from '../../exchange/exchange.js';
import { normalizePeerAddress } from '../auth/ip-whitelist.js';
import type { Authenticator } from '../auth/authenticate.js';
import { endpointPaths, JsonText, type Endpoint, type RequestContext } from '../endpoint.js';
import { BourseError } from '../../core/errors.js';
import { toBourseError } from '../http-errors.js';
import { bodyKind, parseLenientParams, parseRawParams, readLong, type Params } from '../params.js';
import { MAX_RECV_WINDOW_MS } from '../../core/recv-window.js';

/**
 * Query and body exactly as the client sent them: `rawBodyBytes` is the body one character per
 * byte (signatures are over these bytes, docs/spot-api.md "Signing"), `rawBody` its UTF-8 reading for parameters.
 */
export function rawParts(request: FastifyRequest): { rawQuery: string; rawBody: string; rawBodyBytes: string } {
  const url = request.raw.url ?? '';
  const question = url.indexOf('?');
  const rawQuery = question < 0 ? '' : url.slice(question + 1);
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  return { rawQuery, rawBody: body.toString('utf8'), rawBodyBytes: body.toString('latin1') };
}

export function sendJson(reply: FastifyReply, status: number, headers: Record<string, string>, body: unknown): FastifyReply {
  const text = body instanceof JsonText ? body.text : JSON.stringify(body);
  return reply.code(status).headers(headers).type('application/json; charset=utf-8').send(text);
}

export function sendError(reply: FastifyReply, error: unknown, headers: Record<string, string>, log: FastifyRequest['log']): FastifyReply {
  const failure = toBourseError(error);
  // Overload and suspended writes are expected answers with a time to come back, not failures to log.
  if (failure.retryAfterSec !== undefined) headers['Retry-After'] ??= String(failure.retryAfterSec);
  else if (failure.http >= 500) log.error({ err: error }, 'request failed');
  return sendJson(reply, failure.http, headers, failure.toBody());
}

/**
 * The core's answer, or -1007 once `ms` have passed (docs/spot-api.md "Errors": "engine silent 10 s"): the command
 * may still be executed later, which is why the message says its status is unknown.
 */
function withinDeadline(answer: Promise<unknown>, ms: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new BourseError('TIMEOUT')), ms);
    answer.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Registers every area A endpoint of the registry under all its paths and methods. */
export function registerSpotRoutes(
  app: FastifyInstance,
  endpoints: readonly Endpoint[],
  exchange: Exchange,
  auth: Authenticator,
  engineTimeoutMs: number,
): void {
  for (const endpoint of endpoints) {
    const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const headers: Record<string, string> = {};
      const ip = normalizePeerAddress(request.ip);
      try {
        const { rawQuery, rawBody, rawBodyBytes } = rawParts(request);
        const contentType = request.headers['content-type'];
        // A body of another type is 415, answered like 404 and 413 before any check of docs/spot-api.md "Order of checks"
        // (docs/spot-api.md "Methods and parameters", docs/spot-api.md "Order of checks": 404, 413 and 415 come first): the key checks cannot read `timestamp` or `signature`
        // out of it and would answer a misleading -1102.
        const bodyIsJson = bodyKind(rawBody, contentType) === 'json';
        // A malformed parameter list is answered at the parameter step of docs/spot-api.md "Order of checks", after the key and
        // signature checks, which read what can be read of it.
        let params: Params;
        let paramsError: unknown;
        try {
          params = parseRawParams(rawQuery, rawBody, contentType);
        } catch (error) {
          paramsError = error;
          params = parseLenientParams(rawQuery, rawBody, contentType);
        }
        const incoming = { rawQuery, rawBody: rawBodyBytes, bodyIsJson, params, headers: request.headers, ip };
        const key = auth.authorize(endpoint, incoming, headers);
        if (paramsError !== undefined) throw paramsError;
        // docs/spot-api.md "Timestamp and recvWindow": 1–60000 wherever a signed request sends it.
        const recvWindow = endpoint.security === 'NONE' ? undefined : readLong(params, 'recvWindow', { min: 1, max: MAX_RECV_WINDOW_MS });
        const ctx: RequestContext = { params, exchange, key, ip, headers, recvWindow };
        const answer = endpoint.handler(ctx);
        const result = answer instanceof Promise ? await withinDeadline(answer, engineTimeoutMs) : answer;
        headers['X-BH-USED-WEIGHT-1M'] ??= String(auth.limiter.usedWeight(`ip:${ip}`));
        return sendJson(reply, 200, headers, result);
      } catch (error) {
        headers['X-BH-USED-WEIGHT-1M'] ??= String(auth.limiter.usedWeight(`ip:${ip}`));
        return sendError(reply, error, headers, request.log);
      }
    };
    const methods = [endpoint.method, ...(endpoint.extraMethods ?? [])];
    for (const url of endpointPaths(endpoint)) app.route({ method: methods, url, handler });
  }
}
