import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { BourseError } from '../../core/errors.js';
import type { CommitInfo } from '../../exchange/sequencer.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import { BacklogWatch, BACKLOG_CHECK_INTERVAL_MS, SLOW_READER_CLOSE_GRACE_MS } from './backlog-watch.js';
import { MarketFanout, type MarketSource } from './market-fanout.js';
import { V1_PROTOCOL, V2_PROTOCOL, type MarketProtocol } from './market-protocols.js';
import { startServerPings } from './heartbeat.js';
import { MAX_BUFFERED_BYTES, serveMarketSocket } from './market-socket.js';
import { WriteRound } from './market-write-round.js';
import { IpSocketQuota, refuseOverQuota } from './socket-quotas.js';
import { completeUpgrade, type StreamLogger, type UpgradeRoute } from './upgrade-router.js';

/** W2 paths (docs/spot-api.md "Paths and aliases"); each also serves any path below it (the Java SDK appends its request). */
export const MARKET_STREAM_PATHS = ['/openapi/quote/ws/v1', '/openapi/ws/quote/v1', '/ws/quote/v1'] as const;
/** The v2 path (docs/websocket.md "v2 market stream", the BHEX Python SDK's `BrokerWssV2`); paths below it too. */
export const MARKET_STREAM_V2_PATHS = ['/openapi/quote/ws/v2'] as const;
/** Open market sockets per client IP, v1 and v2 together (docs/spot-api.md "Rate limits"). */
export const MAX_MARKET_SOCKETS_PER_IP = 50;
const IDLE_MS = 300_000;
/** v2's server `{"ping":<ms>}` texts, as on the user data stream. */
const V2_PING_INTERVAL_MS = 30_000;
/** Throttle periods of docs/websocket.md "Market stream": bookTicker ≤ every 100 ms, depth ≤ every 300 ms, kline, realtimes and index ≤ 1/s. */
const BOOK_TICKER_MS = 100;
const DEPTH_MS = 300;
const STATS_MS = 1000;
/**
 * Trades committed within this window go out together, one frame per symbol: at a few hundred
 * commits a second, a frame per commit to each of 1,000 subscribers was most of the server's work.
 * bench/ws, 1,000 subscribers: orders at 22% of the rate without them (a frame per commit), 46%
 * with 10 ms (trade p99 to receipt 42 ms), 59% with 20 ms (p99 53 ms, past the 50 ms bound).
 */
const TRADE_MS = 10;
/** A request names at most 200 pairs; this is ample for one and keeps a hostile frame small. */
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;
/** How long a closing server waits for a client's close handshake before dropping the socket. */
const CLOSE_GRACE_MS = 1000;

export interface MarketStreamDeps {
  exchange: MarketSource;
  limiter: Pick<RateLimiter, 'strike'>;
  clock: () => number;
  logger: StreamLogger;
}

export interface MarketStreamOptions {
  /** Default 300 000 (docs/websocket.md "Market stream"); tests shorten it. */
  idleMs?: number;
  /** Interval of v2's server pings; default 30 s. */
  v2PingIntervalMs?: number;
  /** Bytes a socket's client may leave unread (docs/websocket.md "Limits"); default MAX_BUFFERED_BYTES (4 MiB). */
  maxBufferedBytes?: number;
  /** How often every socket's backlog is checked; default 1 s. */
  backlogCheckIntervalMs?: number;
  /** A slow reader's time to take its close frame before it is dropped; default 2 s. */
  slowReaderCloseGraceMs?: number;
  /** How long committed trades may wait to go out together; default TRADE_MS. */
  tradeWindowMs?: number;
}

export interface MarketStreams extends UpgradeRoute {
  /** Call after each commit, once the market read models have taken its trades. */
  onCommit(info: Pick<CommitInfo, 'rows'>): void;
  /** Stops the throttle timers and closes every market socket (1001). */
  close(): Promise<void>;
  /** Closes every open market socket (1001) and keeps serving: a leader that stepped down (docs/deployment.md). */
  disconnectAll(): Promise<void>;
}

function closeSocket(ws: WebSocket): Promise<void> {
  return new Promise((resolve) => {
    if (ws.readyState === ws.CLOSED) {
      resolve();
      return;
    }
    const drop = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
    drop.unref();
    ws.once('close', () => {
      clearTimeout(drop);
      resolve();
    });
    ws.close(1001, 'server shutting down');
  });
}

/** The path's protocol, if it is a market stream's. */
function protocolOf(path: string): MarketProtocol | undefined {
  const under = (bases: readonly string[]): boolean => bases.some((base) => path === base || path.startsWith(`${base}/`));
  if (under(MARKET_STREAM_PATHS)) return V1_PROTOCOL;
  if (under(MARKET_STREAM_V2_PATHS)) return V2_PROTOCOL;
  return undefined;
}

/** A market socket's client and protocol. */
interface Peer {
  ip: string;
  port: number | undefined;
  protocol: MarketProtocol;
}

/**
 * The public market streams W2, v1 and v2 (docs/websocket.md "Market stream", "v2 market stream"),
 * as one upgrade route: one fan-out, one backlog bound, one count of sockets per IP.
 */
export function createMarketStreams(deps: MarketStreamDeps, options: MarketStreamOptions = {}): MarketStreams {
  const fanout = new MarketFanout(deps.exchange, deps.clock);
  const wss = new WebSocketServer({ noServer: true, clientTracking: false, maxPayload: MAX_CLIENT_MESSAGE_BYTES });
  /** Open sockets and their clients. */
  const sockets = new Map<WebSocket, Peer>();
  const perIp = new IpSocketQuota(MAX_MARKET_SOCKETS_PER_IP);
  const backlog = new BacklogWatch({
    maxBufferedBytes: options.maxBufferedBytes ?? MAX_BUFFERED_BYTES,
    checkIntervalMs: options.backlogCheckIntervalMs ?? BACKLOG_CHECK_INTERVAL_MS,
    closeGraceMs: options.slowReaderCloseGraceMs ?? SLOW_READER_CLOSE_GRACE_MS,
    onCutOff: (ws, unread) => {
      const peer = sockets.get(ws);
      deps.logger.warn({ ip: peer?.ip, port: peer?.port, stream: peer?.protocol.version, ...unread }, 'market socket too slow to follow; cut off');
    },
  });
  const writeRound = new WriteRound();
  const context = {
    fanout,
    lookup: (symbol: string) => deps.exchange.core.spot.symbols.get(symbol),
    clock: deps.clock,
    idleMs: options.idleMs ?? IDLE_MS,
    logger: deps.logger,
    backlog,
    writeRound,
  };
  const stopV2Pings = startServerPings(options.v2PingIntervalMs ?? V2_PING_INTERVAL_MS, deps.clock, (ping) => {
    for (const [ws, peer] of sockets) if (peer.protocol.heartbeat === 'server-ping') backlog.send(ws, ping);
  });
  let closing: Promise<void> | undefined;
  let tradeTimer: NodeJS.Timeout | undefined;
  const flushTrades = (): void => {
    clearTimeout(tradeTimer);
    tradeTimer = undefined;
    fanout.flushTrades();
  };
  /**
   * A throttled flush as one write round. If it sent frames, the trades waiting for their window go
   * out in the same round, after them: a socket on depth and trade takes both in one write, where it
   * took one for the depth and another for the trades a few ms later.
   */
  const throttledRound = (flush: () => boolean) => () =>
    writeRound.run(() => {
      if (flush()) flushTrades();
    });
  const timers = [
    setInterval(throttledRound(() => fanout.flushBookTickers()), BOOK_TICKER_MS),
    setInterval(throttledRound(() => fanout.flushDepths()), DEPTH_MS),
    setInterval(throttledRound(() => fanout.flushStats()), STATS_MS),
  ];
  for (const timer of timers) timer.unref();

  const accept = (ws: WebSocket, socket: Duplex, peer: Peer): void => {
    const { ip, port } = peer;
    sockets.set(ws, peer);
    // The handshake completes synchronously, so the count is exact for the next one.
    perIp.add(ip);
    deps.logger.debug({ ip, port, stream: peer.protocol.version }, 'market socket opened');
    serveMarketSocket(ws, socket, context, peer.protocol, () => {
      deps.logger.debug({ ip, port }, 'market socket closed');
      sockets.delete(ws);
      perIp.remove(ip);
    });
  };

  return {
    matches(path) {
      return protocolOf(path) !== undefined;
    },
    handle(request, socket, head, ip, refuse) {
      const protocol = protocolOf((request.url ?? '').split('?')[0]);
      if (protocol === undefined) throw new Error(`market stream handed a path it does not serve: ${request.url}`);
      if (closing !== undefined) {
        refuse(undefined, 'server shutting down');
        return;
      }
      if (perIp.isFull(ip)) {
        const error = new BourseError('TOO_MANY_REQUESTS', [MAX_MARKET_SOCKETS_PER_IP, 'IP'], '(open market streams)');
        refuseOverQuota(refuse, deps.limiter, ip, error, `${MAX_MARKET_SOCKETS_PER_IP} market streams per IP already open`);
        return;
      }
      completeUpgrade(wss, request, socket, head, refuse, (ws) => accept(ws, socket, { ip, port: request.socket.remotePort, protocol }));
    },
    onCommit(info) {
      if (info.rows.trades.length === 0 || !fanout.queueTrades(info.rows.trades) || tradeTimer !== undefined) return;
      tradeTimer = setTimeout(() => writeRound.run(flushTrades), options.tradeWindowMs ?? TRADE_MS);
      tradeTimer.unref();
    },
    async disconnectAll() {
      await Promise.all([...sockets.keys()].map(closeSocket));
    },
    close() {
      closing ??= (async () => {
        for (const timer of timers) clearInterval(timer);
        stopV2Pings();
        clearTimeout(tradeTimer);
        backlog.stop();
        await Promise.all([...sockets.keys()].map(closeSocket));
        await new Promise<void>((resolve) => wss.close(() => resolve()));
      })();
      return closing;
    },
  };
}
