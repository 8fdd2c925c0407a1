import { startServerPings } from './heartbeat.js';
import type { UserConnection } from './user-connections.js';
import { endConnection, NORMAL_CLOSURE } from './user-socket.js';

export interface UserHeartbeatLimits {
  pingIntervalMs: number;
  lifetimeMs: number;
}

/**
 * The user stream's heartbeat (docs/websocket.md "User data stream" "Heartbeat"): one timer for all
 * sockets; at each beat a socket gets `{"ping":<ms>}`, or, once it has lived its lifetime, closes
 * (1000, `connection lifetime reached`). Answers the stop.
 */
export function startUserHeartbeat(
  connections: Iterable<UserConnection>,
  limits: UserHeartbeatLimits,
  clock: () => number,
  send: (connection: UserConnection, text: string) => void,
): () => void {
  return startServerPings(limits.pingIntervalMs, clock, (ping, nowMs) => {
    for (const connection of connections) {
      if (nowMs - connection.openedAt >= limits.lifetimeMs) endConnection(connection, NORMAL_CLOSURE, 'connection lifetime reached');
      else send(connection, ping);
    }
  });
}
