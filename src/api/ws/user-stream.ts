import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { BourseError } from '../../core/errors.js';
import type { Permission } from '../../core/types.js';
import type { CommitInfo } from '../../exchange/sequencer.js';
import type { AccountSet } from '../../ledger/ledger.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import { BacklogWatch, BACKLOG_CHECK_INTERVAL_MS, SLOW_READER_CLOSE_GRACE_MS } from './backlog-watch.js';
import type { ListenKeyBinding, ListenKeys } from './listen-keys.js';
import { IpSocketQuota, refuseOverQuota } from './socket-quotas.js';
import { completeUpgrade, type RefuseUpgrade, type StreamLogger, type UpgradeRoute } from './upgrade-router.js';
import { UserConnections, type UserConnection } from './user-connections.js';
import { UserFanout } from './user-fanout.js';
import { startUserHeartbeat } from './user-heartbeat.js';
import { endConnection, GOING_AWAY, NORMAL_CLOSURE, serveUserSocket } from './user-socket.js';

/**
 * W1, the user data stream (docs/websocket.md "User data stream"): `/openapi/ws/<listenKey>` pushes,
 * after each committed engine step that touched the listenKey's account, one JSON array of that
 * step's `executionReport`s, `ticketInfo`s and `outboundAccountInfo`. It submits no command: it
 * reads committed batches and key permissions, and names the accounts it watches (which events the
 * core records, not state). Its listenKeys are the core's (journaled: the same on every node, kept
 * across a restart), read through this node's `ListenKeys`; A26–A28 change them through commands.
 */

export interface UserStreamLimits {
  /** docs/spot-api.md "Rate limits": user sockets per client IP. */
  socketsPerIp: number;
  /** docs/spot-api.md "Rate limits": sockets per listenKey. */
  socketsPerListenKey: number;
  /** Interval of the server's `{"ping":<ms>}` texts. */
  pingIntervalMs: number;
  /** A socket closes this long after it opened (`connection lifetime reached`); checked at each ping. */
  lifetimeMs: number;
  /** A client reading slower than its events arrive is cut off once this much is sent and not yet read (docs/websocket.md "Limits"). */
  maxBufferedBytes: number;
  /** How often every socket's backlog is checked against `maxBufferedBytes` (besides at each send). */
  backlogCheckIntervalMs: number;
  /** A reader cut off for its backlog has this long to take the close frame before it is dropped. */
  slowReaderCloseGraceMs: number;
  /** Largest client frame; W1 clients only send pings. */
  maxClientFrameBytes: number;
  /** On shutdown, how long a client may take to answer the close frame. */
  closeGraceMs: number;
}

export const DEFAULT_USER_STREAM_LIMITS: Readonly<UserStreamLimits> = {
  socketsPerIp: 50,
  socketsPerListenKey: 10,
  pingIntervalMs: 30_000,
  lifetimeMs: 86_400_000,
  maxBufferedBytes: 4 * 1024 * 1024,
  backlogCheckIntervalMs: BACKLOG_CHECK_INTERVAL_MS,
  slowReaderCloseGraceMs: SLOW_READER_CLOSE_GRACE_MS,
  maxClientFrameBytes: 4096,
  closeGraceMs: 1000,
};

export interface UserStreamDeps {
  listenKeys: ListenKeys;
  exchange: {
    readonly core: {
      /** Key permissions give `outboundAccountInfo`'s `T` and `W`; read through the core at each push (a rollback replaces the catalogue). */
      readonly catalogue: { readonly apiKeys: ReadonlyMap<string, { readonly permissions: readonly Permission[] }> };
      /** Set to the accounts this stream watches: the core records events for them alone (output only, no state depends on it). */
      streamedAccounts: AccountSet | undefined;
    };
  };
  /** A refused socket (over a limit) is a strike against the IP. */
  limiter: Pick<RateLimiter, 'strike'>;
  clock: () => number;
  logger: StreamLogger;
  limits?: Partial<UserStreamLimits>;
  /**
   * On a follower of a deployment: reads the journal to its end. A listenKey made through another
   * node a moment ago may not be applied here yet: an unknown one is looked up again after it.
   */
  catchUp?: () => Promise<void>;
}

export interface UserStreams extends UpgradeRoute {
  /** Pushes the batch's events to the sockets of their accounts, then closes those of the listenKeys the batch ended. */
  onCommit(info: CommitInfo): void;
  /** Open and opening sockets. */
  readonly socketCount: number;
  /** Refuses new sockets, closes the open ones (1001) and resolves when they are gone. */
  close(): Promise<void>;
  /** Closes the open sockets (1001) and keeps serving: a leader that stepped down (docs/deployment.md); clients reconnect to any node. */
  disconnectAll(): Promise<void>;
}

const PATH = /^\/openapi\/ws\/([^/]+)\/?$/;
const END_REASONS = { expired: 'listenKey expired', closed: 'listenKey closed' } as const;

/** W1 as an upgrade route plus the commit hook that feeds it. */
export function createUserStreams(deps: UserStreamDeps): UserStreams {
  const limits: UserStreamLimits = { ...DEFAULT_USER_STREAM_LIMITS, ...deps.limits };
  const { listenKeys, clock, logger } = deps;
  const wss = new WebSocketServer({ noServer: true, clientTracking: false, maxPayload: limits.maxClientFrameBytes, perMessageDeflate: false });
  const perIp = new IpSocketQuota(limits.socketsPerIp);
  const connections = new UserConnections((connection) => {
    perIp.remove(connection.ip);
    logger.debug({ accountId: connection.binding.accountId, ip: connection.ip }, 'user stream closed');
  });
  // The core records order and balance events only for the accounts watched here: no one else reads them.
  deps.exchange.core.streamedAccounts = connections.accounts;
  const backlog = new BacklogWatch({
    maxBufferedBytes: limits.maxBufferedBytes,
    checkIntervalMs: limits.backlogCheckIntervalMs,
    closeGraceMs: limits.slowReaderCloseGraceMs,
    onCutOff: (ws, unread) => {
      const connection = connections.of(ws);
      logger.warn({ accountId: connection?.binding.accountId, ip: connection?.ip, port: connection?.port, ...unread }, 'user stream reader too slow; cut off');
    },
    // Off the books before the drop: the socket's close event comes a loop turn after its peer sees the end.
    onDrop: (ws) => {
      const connection = connections.of(ws);
      if (connection !== undefined) connections.forget(connection);
    },
  });
  const send = (connection: UserConnection, text: string): void => {
    if (connection.ws !== undefined) backlog.send(connection.ws, text);
  };
  const socketContext = { connections, backlog, clock, logger };
  const fanout = new UserFanout(connections, (apiKey) => deps.exchange.core.catalogue.apiKeys.get(apiKey)?.permissions, send);
  const stopHeartbeat = startUserHeartbeat(connections, limits, clock, send);
  const stopListening = listenKeys.onEnd((binding, reason) => {
    for (const connection of connections.ofListenKey(binding.listenKey)) endConnection(connection, NORMAL_CLOSURE, END_REASONS[reason]);
  });
  let closing: Promise<void> | undefined;

  function handle(request: IncomingMessage, socket: Duplex, head: Buffer, ip: string, refuse: RefuseUpgrade): void {
    const match = PATH.exec((request.url ?? '').split('?')[0]);
    const listenKey = match?.[1];
    const binding = listenKey === undefined ? undefined : listenKeys.find(listenKey);
    const catchUp = deps.catchUp;
    if (binding === undefined && listenKey !== undefined && catchUp !== undefined) {
      const lookAgain = (): void => admit(request, socket, head, ip, refuse, listenKeys.find(listenKey));
      catchUp().then(lookAgain, lookAgain);
      return;
    }
    admit(request, socket, head, ip, refuse, binding);
  }

  function admit(request: IncomingMessage, socket: Duplex, head: Buffer, ip: string, refuse: RefuseUpgrade, binding: ListenKeyBinding | undefined): void {
    if (closing !== undefined) {
      refuse(undefined, 'server shutting down');
      return;
    }
    if (binding === undefined) {
      refuse(new BourseError('INVALID_LISTEN_KEY'), 'listenKey unknown or expired');
      return;
    }
    const overLimit = (limit: number, per: string): void =>
      refuseOverQuota(refuse, deps.limiter, ip, new BourseError('TOO_MANY_REQUESTS', [limit, per]), `${limit} user streams per ${per} already open`);
    if (perIp.isFull(ip)) {
      overLimit(limits.socketsPerIp, 'IP');
      return;
    }
    if (connections.countOf(binding.listenKey) >= limits.socketsPerListenKey) {
      overLimit(limits.socketsPerListenKey, 'listenKey');
      return;
    }
    // On the books before the handshake: events committed from now on are this socket's.
    perIp.add(ip);
    const connection = connections.add(binding, ip, request.socket.remotePort, socket, clock());
    completeUpgrade(wss, request, socket, head, refuse, (ws) => serveUserSocket(connection, ws, socketContext));
  }

  function onCommit(info: CommitInfo): void {
    fanout.push(info.rows.events);
    // After the push, so a socket gets the events of the batch that ends its listenKey.
    listenKeys.onCommit(info);
  }

  /** Closes the open and opening sockets (1001) and resolves when they are gone. */
  async function endAll(): Promise<void> {
    const open = [...connections];
    for (const connection of open) {
      if (connection.ws === undefined) connection.socket.destroy();
      else endConnection(connection, GOING_AWAY, 'server shutting down');
    }
    // A client that never answers the close frame is cut off after the grace period.
    const grace = setTimeout(() => {
      for (const connection of open) connection.ws?.terminate();
    }, limits.closeGraceMs);
    await Promise.all(open.map((connection) => connection.gone));
    clearTimeout(grace);
  }

  async function close(): Promise<void> {
    closing ??= (async () => {
      stopHeartbeat();
      backlog.stop();
      stopListening();
      await endAll();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    })();
    return closing;
  }

  return {
    matches: (path) => PATH.test(path),
    handle,
    onCommit,
    get socketCount() {
      return connections.size;
    },
    close,
    disconnectAll: endAll,
  };
}
