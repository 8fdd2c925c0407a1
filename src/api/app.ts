import { createServer } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type onResponseHookHandler } from 'fastify';
import { BourseError } from '../core/errors.js';
import { PaymentError } from '../core/payment-errors.js';
import type { Exchange } from '../exchange/exchange.js';
import { registerOperatorRoutes } from './admin/admin-routes.js';
import { registerSandboxPages } from './sandbox/pages.js';
import { Authenticator } from './auth/authenticate.js';
import type { RateLimiter } from './auth/rate-limiter.js';
import type { SecretBox } from './auth/secret-box.js';
import { toPaymentError, sendEnvelopeError } from './merchant/envelope.js';
import { isMerchantPath, registerMerchantRoutes, sendMerchantNotFound } from './merchant/merchant-routes.js';
import { UNMATCHED_ROUTE, type Metrics } from './metrics.js';
import { apiDocument } from './openapi/api-document.js';
import { registerDocsPage } from './openapi/docs-page.js';
import { registerWebPages } from './web/web-pages.js';
import { MERCHANT_OPENAPI_PATH, merchantOpenApiDocument } from './openapi/merchant-document.js';
import { OPERATOR_OPENAPI_PATH, operatorOpenApiDocument } from './openapi/operator-document.js';
import { spotOpenApiDocument } from './openapi/spot-document.js';
import { areaAEndpoints, areaBEndpoints, operatorEndpoints } from './registry.js';
import { registerSpotRoutes, sendError, sendJson } from './spot/spot-routes.js';
import { RequestPacer } from './request-pacer.js';
import type { ListenKeys } from './ws/listen-keys.js';
import { attachUpgradeRouter, type UpgradeRoute } from './ws/upgrade-router.js';
import { ClientAddresses } from './client-address.js';
import { registerForwarding, type ClusterEdge } from '../cluster/forwarding.js';
import type { ClusterNodes } from './admin/cluster-endpoints.js';
import type { DocumentStore } from '../store/documents.js';

/** docs/spot-api.md "Methods and parameters": bodies over 64 KiB are 413. */
export const BODY_LIMIT_BYTES = 64 * 1024;

export interface AppDeps {
  exchange: Exchange;
  limiter: RateLimiter;
  secretBox: SecretBox;
  adminToken: string;
  metrics: Metrics;
  logger: FastifyBaseLogger;
  /** False while draining: new requests get -1016. */
  accepting: () => boolean;
  listenKeys: ListenKeys;
  /** How long an area A request waits for the core before it is answered -1007. */
  engineTimeoutMs: number;
  /** WebSocket families, in matching order (W2 before W1, docs/spot-api.md "Paths and aliases"). */
  upgradeRoutes: readonly UpgradeRoute[];
  /** `BOURSE_SANDBOX` (docs/operating.md "Merchant payments settings"): docs/merchant-payments.md "The simulator and the sandbox API" accepts merchant tokens. */
  sandbox: boolean;
  /** The server's own `http://<HOST>:<PORT>`: known only once it listens, hence a function. */
  publicBaseUrl: () => string;
  /** Where B35 keeps uploads and O32/O33 read them (store/documents.ts); without it B35 stores nothing. */
  documents?: DocumentStore;
  /** docs/webhooks.md "Verifying the signature": the webhook public key B36–B38 show. */
  webhookPublicKey?: string;
  /** A node of a PostgreSQL deployment (docs/deployment.md): forwarding of writes and its /health. */
  cluster?: ClusterApp;
  /** Whose request it is (BOURSE_TRUST_PROXY); the TCP peer when absent. */
  clientAddresses?: ClientAddresses;
}

export interface ClusterApp extends Omit<ClusterEdge, 'unavailable'>, ClusterNodes {
  /** docs/deployment.md "Seeing it": the /health answer and its status (503 when lagging). */
  health(): { httpStatus: number; body: Record<string, unknown> };
}

/** The HTTP server: area A, area B and operator routes from the registry, health and metrics. */
export function buildApp(deps: AppDeps): { app: FastifyInstance; auth: Authenticator } {
  // New connections are served fairly under load: see request-pacer.ts.
  const pacer = new RequestPacer();
  const unmatched = deps.metrics.routeAnswers(UNMATCHED_ROUTE);
  const app: FastifyInstance = Fastify({
    serverFactory: (handler, options) => {
      const server = createServer((request, response) => pacer.admit(() => handler(request, response)));
      server.on('connection', () => pacer.onConnection());
      // What Fastify sets on a server it makes itself (fastify/lib/server.js), from its defaults.
      const { keepAliveTimeout, requestTimeout, connectionTimeout, maxRequestsPerSocket } = options as Record<string, number>;
      server.keepAliveTimeout = keepAliveTimeout;
      server.requestTimeout = requestTimeout;
      server.setTimeout(connectionTimeout);
      if (maxRequestsPerSocket > 0) server.maxRequestsPerSocket = maxRequestsPerSocket;
      return server;
    },
    loggerInstance: deps.logger,
    // The demo market maker's requests (an exempt key) log at debug, not info: they would drown the log.
    childLoggerFactory: (logger, bindings, options, rawRequest) => {
      const child = logger.child(bindings, options);
      const apiKey = (rawRequest as { headers?: Record<string, unknown> }).headers?.['x-bh-apikey'];
      if (typeof apiKey === 'string' && deps.limiter.isExempt(apiKey)) child.info = child.debug.bind(child);
      return child;
    },
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: true },
    // A path that is not percent-encoded UTF-8, or a path parameter beyond the router's 100
    // characters, is refused before routing: in the area's format too, not Fastify's own body.
    frameworkErrors: (error, request, reply) => answerUnrouted(request, reply, UNROUTABLE[error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'longSegment' : 'badEncoding']),
    return503OnClosing: false,
    // Requests Node's HTTP parser refuses (bytes that are not allowed in a target, contradicting
    // lengths) still get a `{code, msg}` body.
    clientErrorHandler: (error, socket) => {
      if (!socket.writable || (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
        socket.destroy();
        return;
      }
      const body = JSON.stringify(new BourseError('ILLEGAL_CHARS', ['request', 'a well-formed HTTP/1.1 request']).toBody());
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  });
  countAnswersByRoute(app, deps.metrics);
  // Every body stays the raw text it arrived as: signatures are over those bytes (docs/spot-api.md "Signing").
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  const auth = new Authenticator(deps.exchange, deps.secretBox, deps.limiter);
  const addresses = deps.clientAddresses ?? new ClientAddresses(undefined);
  // Every rule that counts or checks by address reads `request.ip`: the client's, behind a trusted load balancer too.
  if (deps.clientAddresses !== undefined) {
    app.addHook('onRequest', async (request) => {
      Object.defineProperty(request, 'ip', { value: addresses.of(request.raw), configurable: true });
    });
  }
  /** 503 -1016: stopping, or no leader reachable; area B answers it in its envelope (docs/merchant-payments.md "Error codes"). */
  const unavailable = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const stopping = new BourseError('SERVICE_UNAVAILABLE');
    if (isMerchantPath(request.url)) return sendEnvelopeError(reply, toPaymentError(stopping), {}, request.log);
    return sendJson(reply, 503, {}, stopping.toBody());
  };
  // Callback hooks, not async ones: an async hook costs every request a promise and a microtask turn.
  app.addHook('onRequest', (request, reply, done) => {
    if (!deps.accepting() && !request.url.startsWith('/health') && !request.url.startsWith('/metrics')) {
      unavailable(request, reply);
      return;
    }
    done();
  });
  if (deps.cluster !== undefined) registerForwarding(app, { ...deps.cluster, unavailable });
  // While draining, replies close their connection: a kept-alive socket would hold app.close()
  // until its keep-alive timeout.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!deps.accepting()) reply.header('Connection', 'close');
    done(null, payload);
  });
  app.server.on('connection', (socket) => {
    deps.metrics.connections.inc();
    socket.once('close', () => deps.metrics.connections.dec());
  });

  const endpoints = areaAEndpoints(deps.limiter.config, deps.listenKeys);
  registerSpotRoutes(app, endpoints, deps.exchange, auth, deps.engineTimeoutMs);
  const merchantEndpoints = areaBEndpoints();
  registerMerchantRoutes(app, merchantEndpoints, {
    exchange: deps.exchange,
    limiter: deps.limiter,
    secretBox: deps.secretBox,
    adminToken: deps.adminToken,
    sandbox: deps.sandbox,
    publicBaseUrl: deps.publicBaseUrl,
    documents: deps.documents,
    webhookPublicKey: deps.webhookPublicKey,
  });
  const adminEndpoints = operatorEndpoints({
    exchange: deps.exchange,
    auth,
    secretBox: deps.secretBox,
    documents: deps.documents,
    webhookPublicKey: deps.webhookPublicKey,
    cluster: deps.cluster,
    selfUrl: deps.publicBaseUrl,
  });
  const spotDocument = spotOpenApiDocument(endpoints);
  const merchantDocument = merchantOpenApiDocument(merchantEndpoints);
  const operatorDocument = operatorOpenApiDocument(adminEndpoints);
  const openApi = JSON.stringify(apiDocument(spotDocument, merchantDocument, operatorDocument));
  const merchantOpenApi = JSON.stringify(merchantDocument);
  const operatorOpenApi = JSON.stringify(operatorDocument);
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(openApi));
  registerDocsPage(app);
  registerWebPages(app);
  app.get(MERCHANT_OPENAPI_PATH, async (_request, reply) => reply.type('application/json; charset=utf-8').send(merchantOpenApi));
  app.get(OPERATOR_OPENAPI_PATH, async (_request, reply) => reply.type('application/json; charset=utf-8').send(operatorOpenApi));
  registerSandboxPages(app, { exchange: deps.exchange, sandbox: deps.sandbox });
  registerOperatorRoutes(app, adminEndpoints, deps.adminToken);
  const cluster = deps.cluster;
  if (cluster === undefined) {
    app.get('/health', async (_request, reply) => sendJson(reply, 200, {}, { status: 'ok' }));
  } else {
    app.get('/health', async (_request, reply) => {
      const { httpStatus, body } = cluster.health();
      return sendJson(reply, httpStatus, {}, body);
    });
  }
  app.get('/metrics', async (_request, reply) =>
    reply.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics()),
  );
  attachUpgradeRouter(
    app.server,
    deps.upgradeRoutes,
    (ip) => {
      const ban = deps.limiter.banStatus(ip);
      return ban === undefined
        ? undefined
        : { error: new BourseError('IP_BANNED', [ban.bannedUntil]), headers: { 'Retry-After': String(ban.retryAfterSec) } };
    },
    (request) => addresses.of(request),
    deps.logger.child({ component: 'websocket' }),
  );
  app.setNotFoundHandler((request, reply) => answerUnrouted(request, reply, undefined));
  app.setErrorHandler((error, request, reply) =>
    isMerchantPath(request.url) ? sendEnvelopeError(reply, error, {}, request.log) : sendError(reply, error, {}, request.log),
  );
  /**
   * A request no route takes: 404 for an unknown path or method, or 400 for a path the router
   * cannot read (`unroutable`). Each area answers in its own format: area B's prefixes in its envelope,
   * everything else as area A.
   */
  function answerUnrouted(request: FastifyRequest, reply: FastifyReply, unroutable: Unroutable | undefined): FastifyReply {
    let answered: FastifyReply;
    if (isMerchantPath(request.url)) {
      answered =
        unroutable === undefined
          ? sendMerchantNotFound(request, reply)
          : sendEnvelopeError(reply, new PaymentError('PARAM_IS_INVALID', unroutable.detail), {}, request.log);
    } else {
      const error = unroutable === undefined ? new BourseError('UNKNOWN_PATH') : new BourseError('ILLEGAL_CHARS', ['path', unroutable.range]);
      answered = sendError(reply, error, {}, request.log);
    }
    unmatched.count(request.method, reply.statusCode);
    return answered;
  }
  return { app, auth };
}

interface Unroutable {
  /** Area A's legal range of the path. */
  range: string;
  /** Area B's `detail`. */
  detail: string;
}

/** Paths the router refuses (`frameworkErrors`), as each area words them. */
const UNROUTABLE = {
  badEncoding: { range: 'percent-encoded UTF-8', detail: 'path is not percent-encoded UTF-8' },
  longSegment: { range: 'segments of at most 100 characters', detail: 'path has a segment over 100 characters' },
} as const satisfies Record<string, Unroutable>;

/**
 * Counts every answer of every route by its template (`/openapi/v1/order`, `/admin/v1/users/:userId/balances`),
 * never the path sent, so the labels stay bounded. Each route gets its own hook holding its
 * counts, so a request costs no lookup of its route (docs/running.md "Observability").
 */
function countAnswersByRoute(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onRoute', (route) => {
    const answers = metrics.routeAnswers(route.url);
    const count: onResponseHookHandler = (request, reply, done) => {
      answers.count(request.method, reply.statusCode);
      done();
    };
    route.onResponse = route.onResponse === undefined ? [count] : [route.onResponse, count].flat();
  });
}
