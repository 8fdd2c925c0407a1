import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { BourseError } from '../../core/errors.js';

/**
 * How a route turns a handshake down: answered with `error` (HTTP, area A's `{code, msg}`), or
 * dropped without an answer when `error` is undefined (the server is shutting down); either way
 * logged once with `reason`.
 */
export type RefuseUpgrade = (error: BourseError | undefined, reason: string, headers?: Record<string, string>) => void;

/** One WebSocket family (W1 user streams, W2 market streams) as the upgrade router sees it. */
export interface UpgradeRoute {
  /** True when this route serves the request's path (query string removed). */
  matches(path: string): boolean;
  /** Completes the handshake, or refuses it through `refuse`; `ip` is the normalised peer address. */
  handle(request: IncomingMessage, socket: Duplex, head: Buffer, ip: string, refuse: RefuseUpgrade): void;
}

/** The two levels refusals are logged at; a pino logger fits. */
export interface UpgradeLogger {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
}

/** The two levels a stream logs its sockets at; a pino logger fits. */
export interface StreamLogger {
  debug(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
}

/** Refuses a handshake with an HTTP answer carrying area A's `{code, msg}`. */
export function refuseUpgrade(socket: Duplex, error: BourseError, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(error.toBody());
  const reason = error.http === 418 ? "I'm a teapot" : error.http === 429 ? 'Too Many Requests' : error.http === 404 ? 'Not Found' : 'Bad Request';
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${error.http} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
  );
}

/** Path segments longer than this are cut in logs: the W1 listenKey (64 characters) is a bearer secret. */
const MAX_LOGGED_SEGMENT = 16;
const SHOWN_SECRET_CHARS = 4;
/** The path is the client's text: a bound on what a refusal may write to the log. */
const MAX_LOGGED_PATH = 200;

/** The request path for a log line: no query, long segments (a listenKey) cut to their first characters. */
export function loggablePath(url: string): string {
  const path = url.split('?', 1)[0];
  const shown = path
    .split('/')
    .map((segment) => (segment.length > MAX_LOGGED_SEGMENT ? `${segment.slice(0, SHOWN_SECRET_CHARS)}…` : segment))
    .join('/');
  return shown.length > MAX_LOGGED_PATH ? `${shown.slice(0, MAX_LOGGED_PATH)}…` : shown;
}

/**
 * `wss.handleUpgrade`, with a malformed handshake (method, `Upgrade`, `Sec-WebSocket-Key` or
 * `-Version`) refused through `refuse`, so it is logged and answered in area A's format rather than
 * by ws's plain-text page. ws reports those synchronously, within `handleUpgrade`.
 */
export function completeUpgrade(
  wss: WebSocketServer,
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  refuse: RefuseUpgrade,
  onOpen: (ws: WebSocket) => void,
): void {
  const onClientError = (error: Error, errorSocket: Duplex): void => {
    if (errorSocket !== socket) return;
    // docs/spot-api.md "Paths and aliases": a method the path does not serve is 404 -1000.
    const answer = request.method === 'GET' ? new BourseError('ILLEGAL_CHARS', ['handshake', 'a WebSocket handshake (RFC 6455)']) : new BourseError('UNKNOWN_PATH');
    refuse(answer, `malformed handshake: ${error.message}`);
  };
  wss.on('wsClientError', onClientError);
  try {
    wss.handleUpgrade(request, socket, head, onOpen);
  } finally {
    wss.off('wsClientError', onClientError);
  }
}

/**
 * Routes HTTP upgrades to the first matching route, in the given order (docs/spot-api.md "Paths and aliases": the market
 * path `/openapi/ws/quote/v1` is matched before the user path `/openapi/ws/<listenKey>`).
 * `gate` runs first (the IP ban check of docs/spot-api.md "Rate limits"); unknown paths get 404 -1000. Every refusal is logged
 * with its reason: bans and limits at warn, the rest at info.
 */
export function attachUpgradeRouter(
  server: Server,
  routes: readonly UpgradeRoute[],
  gate: (ip: string) => { error: BourseError; headers: Record<string, string> } | undefined,
  /** The client's address (the TCP peer, or behind a trusted load balancer the one it names). */
  clientIp: (request: IncomingMessage) => string,
  logger?: UpgradeLogger,
): void {
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const ip = clientIp(request);
    let refused = false;
    const refuse: RefuseUpgrade = (error, reason, headers) => {
      // One answer and one log line per handshake, whoever refuses it.
      if (refused) return;
      refused = true;
      if (logger !== undefined) {
        const fields = { ip, path: loggablePath(request.url ?? ''), status: error?.http, code: error?.code, reason };
        if (error !== undefined && (error.http === 418 || error.http === 429)) logger.warn(fields, 'websocket upgrade refused');
        else logger.info(fields, 'websocket upgrade refused');
      }
      if (error === undefined) socket.destroy();
      else refuseUpgrade(socket, error, headers);
    };
    const banned = gate(ip);
    if (banned !== undefined) {
      refuse(banned.error, 'IP banned', banned.headers);
      return;
    }
    const path = (request.url ?? '').split('?')[0];
    const route = routes.find((r) => r.matches(path));
    if (route === undefined) {
      refuse(new BourseError('UNKNOWN_PATH'), 'no WebSocket stream at this path');
      return;
    }
    route.handle(request, socket, head, ip, refuse);
  });
}
