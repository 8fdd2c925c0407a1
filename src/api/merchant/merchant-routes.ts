/**
 * Area B on Fastify (docs/merchant-payments.md "Requests", docs/merchant-payments.md "Rate limits"): every MerchantEndpoint of the registry becomes a
 * route that admits the caller (ban, auth, rate limit), reads the parameters, runs the handler
 * and answers in the envelope. Unknown paths and methods under area B's prefixes are 404 -1000 in
 * that envelope; app.ts asks `isMerchantPath` to choose between the two areas' formats.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PaymentError } from '../../core/payment-errors.js';
import type { Exchange } from '../../exchange/exchange.js';
import type { DocumentStore } from '../../store/documents.js';
import { normalizePeerAddress } from '../auth/ip-whitelist.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import type { SecretBox } from '../auth/secret-box.js';
import { rawParts } from '../spot/spot-routes.js';
import { sendEnvelope, sendEnvelopeError } from './envelope.js';
import { MerchantGate } from './merchant-auth.js';
import type { MerchantContext, MerchantEndpoint } from './merchant-endpoint.js';
import { MerchantParams } from './merchant-params.js';

/** docs/merchant-payments.md "Requests": bodies up to 1 MiB, multipart (B35) up to 26 MiB; over → -4011. */
export const MERCHANT_BODY_LIMIT_BYTES = 1024 * 1024;
export const MULTIPART_BODY_LIMIT_BYTES = 26 * 1024 * 1024;

/** Path prefixes area B owns (docs/merchant-payments.md "Answers and errors"); nothing of area A lives under them. */
const MERCHANT_PREFIXES = ['/v2', '/openapi/v2', '/sandbox'] as const;

/** True when `url` (path and query) is under `/v2`, `/openapi/v2` or `/sandbox`: answered in the area B envelope. */
export function isMerchantPath(url: string): boolean {
  const question = url.indexOf('?');
  const path = question < 0 ? url : url.slice(0, question);
  return MERCHANT_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** 404 -1000 in the envelope, for app.ts's not-found handler. */
export function sendMerchantNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = (request.raw.url ?? '').split('?', 1)[0];
  return sendEnvelopeError(reply, new PaymentError('UNKNOWN', `No endpoint ${request.method} ${path}`), {}, request.log);
}

export interface MerchantRouteDeps {
  exchange: Exchange;
  limiter: RateLimiter;
  secretBox: SecretBox;
  adminToken: string;
  /** `BOURSE_SANDBOX`. */
  sandbox: boolean;
  /** The server's own `http://<HOST>:<PORT>`, known once it listens. */
  publicBaseUrl: () => string;
  /** Where B35 keeps uploads; optional so that apps built without one (tests) need not invent it. */
  documents?: DocumentStore;
  /** docs/webhooks.md "Verifying the signature" `publicKey`; "" in apps built without the key (tests that register no webhook). */
  webhookPublicKey?: string;
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0].trim().toLowerCase();
}

/** The configured base of links, else the server's own URL; without a trailing `/` so paths append cleanly. */
function linkBase(exchange: Exchange, serverUrl: () => string): string {
  const configured = exchange.core.payments.config.publicBaseUrl;
  return (configured === '' ? serverUrl() : configured).replace(/\/+$/, '');
}

/** Registers every endpoint under its path and extra paths. */
export function registerMerchantRoutes(app: FastifyInstance, endpoints: readonly MerchantEndpoint[], deps: MerchantRouteDeps): void {
  const gate = new MerchantGate(deps);
  for (const endpoint of endpoints) {
    const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const headers: Record<string, string> = {};
      try {
        const ip = normalizePeerAddress(request.ip);
        const { rawQuery, rawBodyBytes } = rawParts(request);
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const contentType = request.headers['content-type'];
        // A malformed request is answered after the caller is admitted: an anonymous flood of
        // broken bodies is still counted, and a bad token is reported before a bad parameter.
        let params: MerchantParams | undefined;
        let paramsError: unknown;
        try {
          params = MerchantParams.parse(rawQuery, body, contentType, { multipart: endpoint.multipart === true });
        } catch (error) {
          paramsError = error;
        }
        const bodyIsJson = body.length > 0 && mediaType(contentType) === 'application/json';
        const caller = gate.admit(endpoint, { headers: request.headers, rawQuery, rawBody: rawBodyBytes, bodyIsJson, contentType, ip }, headers);
        if (params === undefined) throw paramsError;
        const ctx: MerchantContext = {
          params,
          path: request.params as Record<string, string>,
          exchange: deps.exchange,
          userId: caller.userId,
          admin: caller.admin,
          apiKey: caller.apiKey,
          ip,
          sandbox: deps.sandbox,
          publicBaseUrl: linkBase(deps.exchange, deps.publicBaseUrl),
          documents: deps.documents,
          webhookPublicKey: deps.webhookPublicKey ?? '',
        };
        return sendEnvelope(reply, await endpoint.handler(ctx), headers);
      } catch (error) {
        return sendEnvelopeError(reply, error, headers, request.log);
      }
    };
    const bodyLimit = endpoint.multipart === true ? MULTIPART_BODY_LIMIT_BYTES : MERCHANT_BODY_LIMIT_BYTES;
    for (const url of [endpoint.path, ...(endpoint.extraPaths ?? [])]) {
      app.route({
        method: endpoint.method,
        url,
        bodyLimit,
        config: { writes: endpoint.writes === true },
        handler,
        // Body errors (over the limit, a broken length) are raised before the handler runs.
        errorHandler: (error, request, reply) => sendEnvelopeError(reply, error, {}, request.log),
      });
    }
  }
}
