import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Exchange } from '../../exchange/exchange.js';
import { normalizePeerAddress } from '../auth/ip-whitelist.js';
import type { Authenticator } from '../auth/authenticate.js';
import { endpointPaths, type Endpoint, type RequestContext } from '../endpoint.js';
import { toBourseError } from '../http-errors.js';
import { bodyKind, parseRawParams, Params } from '../params.js';

/** Body and query exactly as the client sent them: signatures are over these bytes (§1.6). */
export function rawParts(request: FastifyRequest): { rawQuery: string; rawBody: string } {
  const url = request.raw.url ?? '';
  const question = url.indexOf('?');
  const rawQuery = question < 0 ? '' : url.slice(question + 1);
  const rawBody = typeof request.body === 'string' ? request.body : '';
  return { rawQuery, rawBody };
}

export function sendJson(reply: FastifyReply, status: number, headers: Record<string, string>, body: unknown): FastifyReply {
  return reply.code(status).headers(headers).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

export function sendError(reply: FastifyReply, error: unknown, headers: Record<string, string>, log: FastifyRequest['log']): FastifyReply {
  const failure = toBourseError(error);
  if (failure.http >= 500) log.error({ err: error }, 'request failed');
  return sendJson(reply, failure.http, headers, failure.toBody());
}

/** Registers every area A endpoint of the registry under all its paths and methods. */
export function registerSpotRoutes(app: FastifyInstance, endpoints: readonly Endpoint[], exchange: Exchange, auth: Authenticator): void {
  for (const endpoint of endpoints) {
    const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const headers: Record<string, string> = {};
      const ip = normalizePeerAddress(request.socket.remoteAddress ?? '');
      try {
        const { rawQuery, rawBody } = rawParts(request);
        const contentType = request.headers['content-type'];
        // A malformed parameter list is answered at the parameter step of §1.8, after the key checks.
        let params: Params;
        let paramsError: unknown;
        let bodyIsJson = false;
        try {
          bodyIsJson = bodyKind(rawBody, contentType) === 'json';
          params = parseRawParams(rawQuery, rawBody, contentType);
        } catch (error) {
          paramsError = error;
          params = new Params(new Map());
        }
        const key = auth.authorize(endpoint, { rawQuery, rawBody, bodyIsJson, params, headers: request.headers, ip }, headers);
        if (paramsError !== undefined) throw paramsError;
        const ctx: RequestContext = { params, exchange, key, ip, headers };
        const result = await endpoint.handler(ctx);
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
