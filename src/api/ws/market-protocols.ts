import type { SubscriptionRequest } from './market-request.js';
import type { StreamVersion } from './market-topics.js';
import { v2Ack } from './v2-frames.js';

/**
 * What a market socket does differently on each path (docs/websocket.md "Market stream", "v2
 * market stream"); everything else (the fan-out, the limits, the cut-off) is one stream.
 */
export interface MarketProtocol {
  readonly version: StreamVersion;
  /** The answer to an applied `sub` or `cancel`; v1 has none (a sub's snapshot is its answer). */
  ack(request: SubscriptionRequest): string | undefined;
  /** `{"pong":…}` for a client's ping: v1 echoes `{"ping":<number>}`'s number, v2 sends the server time. */
  pong(clientNumber: number | undefined, nowMs: number): number;
  /**
   * v1 closes a socket without client messages for the idle time (1000, `idle`); v2 instead sends
   * `{"ping":<ms>}` texts (the BHEX Python SDK never sends a message after its request).
   */
  readonly heartbeat: 'idle-close' | 'server-ping';
}

export const V1_PROTOCOL: MarketProtocol = {
  version: 'v1',
  ack: () => undefined,
  pong: (clientNumber, nowMs) => clientNumber ?? nowMs,
  heartbeat: 'idle-close',
};

export const V2_PROTOCOL: MarketProtocol = {
  version: 'v2',
  ack: v2Ack,
  pong: (_clientNumber, nowMs) => nowMs,
  heartbeat: 'server-ping',
};
