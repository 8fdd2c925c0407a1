import { WebSocket } from 'ws';
import type { BacklogWatch } from './backlog-watch.js';
import { textOf } from './client-text.js';
import { clientPingNumber, pongText } from './heartbeat.js';
import type { StreamLogger } from './upgrade-router.js';
import type { UserConnection, UserConnections } from './user-connections.js';

export const NORMAL_CLOSURE = 1000;
export const GOING_AWAY = 1001;

export interface UserSocketContext {
  connections: UserConnections;
  /** Every frame goes through it: it bounds what the client has not read. */
  backlog: BacklogWatch;
  clock: () => number;
  logger: StreamLogger;
}

/** Closes a connection with `code` and `reason`: at once when open, as soon as its handshake completes when still opening (1000). */
export function endConnection(connection: UserConnection, code: number, reason: string): void {
  if (connection.ws === undefined) connection.closeReason = reason;
  else if (connection.ws.readyState === WebSocket.OPEN) connection.ws.close(code, reason);
}

/**
 * Serves one user socket whose handshake just completed (docs/websocket.md "User data stream"
 * "Heartbeat"): a client text containing `ping` gets `{"pong":…}`, any other text is ignored (W1
 * clients only ping). A socket whose listenKey died while it opened is closed now.
 */
export function serveUserSocket(connection: UserConnection, ws: WebSocket, ctx: UserSocketContext): void {
  ctx.connections.attach(connection, ws);
  ctx.backlog.watch(ws);
  // Errors (a frame over the limit, a reset) end in 'close' on the socket; nothing else to do.
  ws.on('error', () => ws.terminate());
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    const text = textOf(data);
    if (text.includes('ping')) ctx.backlog.send(ws, pongText(clientPingNumber(parsedOrUndefined(text)) ?? ctx.clock()));
  });
  ctx.logger.debug({ accountId: connection.binding.accountId, ip: connection.ip }, 'user stream opened');
  if (connection.closeReason !== undefined) ws.close(NORMAL_CLOSURE, connection.closeReason);
}

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON (a bare "ping"): answered with the server's time.
    return undefined;
  }
}
