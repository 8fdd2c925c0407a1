import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { formatUnits } from '../../core/decimal.js';
import { BourseError } from '../../core/errors.js';
import type { BalanceEvent, CoreEvent, OrderEvent } from '../../core/types.js';
import type { ApiKeyRecord } from '../../exchange/catalogue-module.js';
import { isOpenStatus } from '../../exchange/live-order.js';
import type { CommitInfo } from '../../exchange/sequencer.js';
import type { AccountSet } from '../../ledger/ledger.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import type { ListenKeyBinding, ListenKeys } from './listen-keys.js';
import { BacklogWatch, BACKLOG_CHECK_INTERVAL_MS, SLOW_READER_CLOSE_GRACE_MS } from './backlog-watch.js';
import { completeUpgrade, type RefuseUpgrade, type UpgradeRoute } from './upgrade-router.js';

/**
 * W1, the user data stream (docs/websocket.md "User data stream"): `/openapi/ws/<listenKey>` pushes, after each committed
 * engine step that touched the listenKey's account, one JSON array of that step's
 * `executionReport`s, `ticketInfo`s and `outboundAccountInfo`.
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

/** The two levels W1 logs at; a pino logger fits. */
export interface StreamLogger {
  debug(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
}

export interface UserStreamDeps {
  listenKeys: ListenKeys;
  /** Key permissions give `outboundAccountInfo`'s `T` and `W`. */
  exchange: {
    readonly core: {
      readonly catalogue: { readonly apiKeys: ReadonlyMap<string, ApiKeyRecord> };
      /** Set to the accounts this stream watches: the core records events for them alone. */
      streamedAccounts: AccountSet | undefined;
    };
  };
  /** A refused socket (over a limit) is a strike against the IP. */
  limiter: Pick<RateLimiter, 'strike'>;
  clock: () => number;
  logger: StreamLogger;
  limits?: Partial<UserStreamLimits>;
}

export interface UserStreams extends UpgradeRoute {
  /** Pushes the batch's events to the sockets of their accounts; ends the listenKeys of revoked keys. */
  onCommit(info: CommitInfo): void;
  /** Open and opening sockets. */
  readonly socketCount: number;
  /** Refuses new sockets, closes the open ones (1001) and resolves when they are gone. */
  close(): Promise<void>;
}

interface Connection {
  readonly binding: ListenKeyBinding;
  readonly ip: string;
  /** The client's port: with `ip`, the address a log line names. */
  readonly port: number | undefined;
  readonly socket: Duplex;
  readonly openedAt: number;
  readonly gone: Promise<void>;
  /** Takes the connection off the books (once; later calls do nothing). */
  readonly forget: () => void;
  ws: WebSocket | undefined;
  /** Set when the socket must close before its handshake completed. */
  closeReason: string | undefined;
}

const PATH = /^\/openapi\/ws\/([^/]+)\/?$/;
const NORMAL_CLOSURE = 1000;
const GOING_AWAY = 1001;
const END_REASONS = { expired: 'listenKey expired', closed: 'listenKey closed' } as const;

/** W1 as an upgrade route plus the commit hook that feeds it. */
export function createUserStreams(deps: UserStreamDeps): UserStreams {
  const limits: UserStreamLimits = { ...DEFAULT_USER_STREAM_LIMITS, ...deps.limits };
  const { listenKeys, clock, logger } = deps;
  const wss = new WebSocketServer({ noServer: true, clientTracking: false, maxPayload: limits.maxClientFrameBytes, perMessageDeflate: false });
  const byListenKey = new Map<string, Set<Connection>>();
  const byAccount = new Map<number, Set<Connection>>();
  // The core records order and balance events only for the accounts watched here: no one else reads them.
  deps.exchange.core.streamedAccounts = byAccount;
  const socketsPerIp = new Map<string, number>();
  const connections = new Set<Connection>();
  const connectionOf = new WeakMap<WebSocket, Connection>();
  const backlog = new BacklogWatch({
    maxBufferedBytes: limits.maxBufferedBytes,
    checkIntervalMs: limits.backlogCheckIntervalMs,
    closeGraceMs: limits.slowReaderCloseGraceMs,
    onCutOff: (ws, backlog) => {
      const connection = connectionOf.get(ws);
      logger.warn({ accountId: connection?.binding.accountId, ip: connection?.ip, port: connection?.port, ...backlog }, 'user stream reader too slow; cut off');
    },
    // Off the books before the drop: the socket's close event comes a loop turn after its peer sees the end.
    onDrop: (ws) => connectionOf.get(ws)?.forget(),
  });
  let closing: Promise<void> | undefined;

  const stopListening = listenKeys.onEnd((binding, reason) => {
    const sockets = byListenKey.get(binding.listenKey);
    if (sockets === undefined) return;
    for (const connection of sockets) end(connection, NORMAL_CLOSURE, END_REASONS[reason]);
  });
  const heartbeat = setInterval(() => beat(), limits.pingIntervalMs);
  heartbeat.unref();

  function end(connection: Connection, code: number, reason: string): void {
    if (connection.ws === undefined) connection.closeReason = reason;
    else if (connection.ws.readyState === WebSocket.OPEN) connection.ws.close(code, reason);
  }

  function beat(): void {
    const now = clock();
    const ping = JSON.stringify({ ping: now });
    for (const connection of connections) {
      if (now - connection.openedAt >= limits.lifetimeMs) end(connection, NORMAL_CLOSURE, 'connection lifetime reached');
      else send(connection, ping);
    }
  }

  function send(connection: Connection, text: string): void {
    if (connection.ws !== undefined) backlog.send(connection.ws, text);
  }

  function refuseOverLimit(refuse: RefuseUpgrade, ip: string, limit: number, per: string): void {
    deps.limiter.strike(ip);
    refuse(new BourseError('TOO_MANY_REQUESTS', [limit, per]), `${limit} user streams per ${per} already open`, { 'Retry-After': '1' });
  }

  function register(binding: ListenKeyBinding, ip: string, port: number | undefined, socket: Duplex): Connection {
    let release!: () => void;
    const gone = new Promise<void>((resolve) => {
      release = resolve;
    });
    const forget = (): void => {
      if (!connections.delete(connection)) return;
      removeFrom(byListenKey, binding.listenKey, connection);
      removeFrom(byAccount, binding.accountId, connection);
      const left = (socketsPerIp.get(ip) ?? 1) - 1;
      if (left > 0) socketsPerIp.set(ip, left);
      else socketsPerIp.delete(ip);
      logger.debug({ accountId: binding.accountId, ip }, 'user stream closed');
    };
    const connection: Connection = { binding, ip, port, socket, openedAt: clock(), gone, forget, ws: undefined, closeReason: undefined };
    connections.add(connection);
    addTo(byListenKey, binding.listenKey, connection);
    addTo(byAccount, binding.accountId, connection);
    socketsPerIp.set(ip, (socketsPerIp.get(ip) ?? 0) + 1);
    // A connection ends when its TCP socket closes, whether or not the handshake completed, or
    // earlier when the server drops it (a slow reader past its grace).
    socket.once('close', () => {
      forget();
      release();
    });
    return connection;
  }

  function attach(connection: Connection, ws: WebSocket): void {
    connection.ws = ws;
    connectionOf.set(ws, connection);
    backlog.watch(ws);
    // Errors (a frame over the limit, a reset) end in 'close' on the socket; nothing else to do.
    ws.on('error', () => ws.terminate());
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = textOf(data);
      if (text.includes('ping')) send(connection, JSON.stringify({ pong: pongValue(text) ?? clock() }));
    });
    logger.debug({ accountId: connection.binding.accountId, ip: connection.ip }, 'user stream opened');
    if (connection.closeReason !== undefined) ws.close(NORMAL_CLOSURE, connection.closeReason);
  }

  function handle(request: IncomingMessage, socket: Duplex, head: Buffer, ip: string, refuse: RefuseUpgrade): void {
    if (closing !== undefined) {
      refuse(undefined, 'server shutting down');
      return;
    }
    const match = PATH.exec((request.url ?? '').split('?')[0]);
    const binding = match === null ? undefined : listenKeys.find(match[1]);
    if (binding === undefined) {
      refuse(new BourseError('INVALID_LISTEN_KEY'), 'listenKey unknown or expired');
      return;
    }
    if ((socketsPerIp.get(ip) ?? 0) >= limits.socketsPerIp) {
      refuseOverLimit(refuse, ip, limits.socketsPerIp, 'IP');
      return;
    }
    if ((byListenKey.get(binding.listenKey)?.size ?? 0) >= limits.socketsPerListenKey) {
      refuseOverLimit(refuse, ip, limits.socketsPerListenKey, 'listenKey');
      return;
    }
    // Registered before the handshake: events committed from now on are this socket's.
    const connection = register(binding, ip, request.socket.remotePort, socket);
    completeUpgrade(wss, request, socket, head, refuse, (ws) => attach(connection, ws));
  }

  function onCommit(info: CommitInfo): void {
    const events = info.rows.events;
    let start = 0;
    while (start < events.length && byAccount.size > 0) {
      const seq = events[start].seq;
      let stop = start + 1;
      while (stop < events.length && events[stop].seq === seq) stop++;
      pushStep(events, start, stop);
      start = stop;
    }
    for (const stamped of info.commands) {
      if (stamped.command.type === 'revokeApiKey') listenKeys.revokeApiKey(stamped.command.apiKey);
    }
  }

  /** One engine step: each watched account gets one array, reports first, then tickets, then balances. */
  function pushStep(events: readonly CoreEvent[], start: number, stop: number): void {
    const steps = new Map<number, AccountStep>();
    for (let i = start; i < stop; i++) {
      const event = events[i];
      if (!byAccount.has(event.accountId)) continue;
      let step = steps.get(event.accountId);
      if (step === undefined) {
        step = { reports: [], tickets: [], balance: undefined };
        steps.set(event.accountId, step);
      }
      if (event.kind === 'balance') {
        step.balance = event;
      } else {
        step.reports.push(executionReport(event));
        if (event.fill !== undefined) step.tickets.push(ticketInfo(event));
      }
    }
    for (const [accountId, step] of steps) {
      // T and W depend on the key behind each listenKey: one text per distinct pair.
      const texts = new Map<string, string>();
      for (const connection of byAccount.get(accountId) ?? []) {
        const key = deps.exchange.core.catalogue.apiKeys.get(connection.binding.apiKey);
        const canTrade = key?.permissions.includes('TRADE') ?? false;
        const canWithdraw = key?.permissions.includes('WITHDRAW') ?? false;
        const variant = `${canTrade}:${canWithdraw}`;
        let text = texts.get(variant);
        if (text === undefined) {
          const frame: object[] = [...step.reports, ...step.tickets];
          if (step.balance !== undefined) frame.push(outboundAccountInfo(step.balance, canTrade, canWithdraw));
          text = JSON.stringify(frame);
          texts.set(variant, text);
        }
        send(connection, text);
      }
    }
  }

  async function close(): Promise<void> {
    closing ??= (async () => {
      clearInterval(heartbeat);
      backlog.stop();
      stopListening();
      const open = [...connections];
      for (const connection of open) {
        if (connection.ws === undefined) connection.socket.destroy();
        else end(connection, GOING_AWAY, 'server shutting down');
      }
      // A client that never answers the close frame is cut off after the grace period.
      const grace = setTimeout(() => {
        for (const connection of open) connection.ws?.terminate();
      }, limits.closeGraceMs);
      await Promise.all(open.map((connection) => connection.gone));
      clearTimeout(grace);
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
  };
}

interface AccountStep {
  reports: ExecutionReport[];
  tickets: TicketInfo[];
  balance: BalanceEvent | undefined;
}

export interface ExecutionReport {
  e: 'executionReport';
  E: string;
  s: string;
  c: string;
  S: string;
  o: string;
  f: string;
  q: string;
  p: string;
  X: string;
  i: string;
  M: string;
  l: string;
  z: string;
  L: string;
  n: string;
  N: string;
  u: true;
  w: boolean;
  m: boolean;
  O: string;
  Z: string;
}

export interface TicketInfo {
  e: 'ticketInfo';
  E: string;
  s: string;
  q: string;
  t: string;
  p: string;
  T: string;
  o: string;
  c: string;
  O: string;
  a: string;
  m: boolean;
  S: string;
}

export interface OutboundAccountInfo {
  e: 'outboundAccountInfo';
  E: string;
  T: boolean;
  W: boolean;
  D: true;
  B: { a: string; f: string; l: string }[];
}

/** docs/websocket.md "User data stream" `executionReport`: the order after the event, and the fill when the event is one. */
export function executionReport(event: OrderEvent): ExecutionReport {
  const { order, fill } = event;
  return {
    e: 'executionReport',
    E: String(event.time),
    s: order.symbol,
    c: order.clientOrderId,
    S: order.side,
    o: order.type,
    f: order.timeInForce,
    q: order.origQty,
    p: order.price,
    X: order.status,
    i: String(order.orderId),
    M: fill === undefined ? '0' : String(fill.matchOrderId),
    l: fill?.qty ?? '0',
    z: order.executedQty,
    L: fill?.price ?? '0',
    n: fill?.commission ?? '0',
    N: fill?.commissionAsset ?? '',
    u: true,
    w: isOpenStatus(order.status),
    m: fill?.isMaker ?? false,
    O: String(order.time),
    Z: order.cummulativeQuoteQty,
  };
}

/** docs/websocket.md "User data stream" `ticketInfo` of a fill event, from the side of the order it belongs to. */
export function ticketInfo(event: OrderEvent): TicketInfo {
  const { order, fill } = event;
  if (fill === undefined) throw new Error(`order event ${order.orderId} at seq ${event.seq} is not a fill`);
  return {
    e: 'ticketInfo',
    E: String(event.time),
    s: order.symbol,
    q: fill.qty,
    t: String(event.time),
    p: fill.price,
    T: String(fill.tradeId),
    o: String(order.orderId),
    c: order.clientOrderId,
    O: String(fill.matchOrderId),
    a: String(event.accountId),
    m: fill.isMaker,
    S: order.side,
  };
}

/** docs/websocket.md "User data stream" `outboundAccountInfo`: the changed assets; `T`/`W` as A19's canTrade/canWithdraw for the listenKey's key. */
export function outboundAccountInfo(event: BalanceEvent, canTrade: boolean, canWithdraw: boolean): OutboundAccountInfo {
  return {
    e: 'outboundAccountInfo',
    E: String(event.time),
    T: canTrade,
    W: canWithdraw,
    D: true,
    B: event.balances.map((b) => ({ a: b.asset, f: formatUnits(b.free, b.precision), l: formatUnits(b.locked, b.precision) })),
  };
}

/** The client's number in `{"ping":<number>}`; undefined for any other text. */
function pongValue(text: string): number | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && 'ping' in parsed && typeof parsed.ping === 'number' && Number.isFinite(parsed.ping)) {
      return parsed.ping;
    }
  } catch {
    // Not JSON (a bare "ping"): answered with the server's time.
  }
  return undefined;
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

function addTo<K>(index: Map<K, Set<Connection>>, key: K, connection: Connection): void {
  let set = index.get(key);
  if (set === undefined) {
    set = new Set();
    index.set(key, set);
  }
  set.add(connection);
}

function removeFrom<K>(index: Map<K, Set<Connection>>, key: K, connection: Connection): void {
  const set = index.get(key);
  if (set === undefined) return;
  set.delete(connection);
  if (set.size === 0) index.delete(key);
}
