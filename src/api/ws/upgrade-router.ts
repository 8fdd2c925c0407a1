import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { BourseError } from '../../core/errors.js';

/** One WebSocket family (W1 user streams, W2 market streams) as the upgrade router sees it. */
export interface UpgradeRoute {
  /** True when this route serves the request's path (query string removed). */
  matches(path: string): boolean;
  /** Completes or refuses the handshake; `ip` is the normalised peer address. */
  handle(request: IncomingMessage, socket: Duplex, head: Buffer, ip: string): void;
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

/**
 * Routes HTTP upgrades to the first matching route, in the given order (area A §1.1: the market
 * path `/openapi/ws/quote/v1` is matched before the user path `/openapi/ws/<listenKey>`).
 * `gate` runs first (the IP ban check of §6); unknown paths get 404 -1000.
 */
export function attachUpgradeRouter(
  server: Server,
  routes: readonly UpgradeRoute[],
  gate: (ip: string) => { error: BourseError; headers: Record<string, string> } | undefined,
  normaliseIp: (ip: string) => string,
): void {
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const ip = normaliseIp(request.socket.remoteAddress ?? '');
    const refused = gate(ip);
    if (refused !== undefined) {
      refuseUpgrade(socket, refused.error, refused.headers);
      return;
    }
    const path = (request.url ?? '').split('?')[0];
    const route = routes.find((r) => r.matches(path));
    if (route === undefined) {
      refuseUpgrade(socket, new BourseError('UNKNOWN_PATH'));
      return;
    }
    route.handle(request, socket, head, ip);
  });
}
