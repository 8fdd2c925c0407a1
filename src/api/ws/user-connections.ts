import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { AccountSet } from '../../ledger/ledger.js';
import type { ListenKeyBinding } from './listen-keys.js';
import { removeFrom, setOf } from './set-index.js';

/** One user socket, from its accepted handshake until its TCP socket closes. */
export interface UserConnection {
  readonly binding: ListenKeyBinding;
  readonly ip: string;
  /** The client's port: with `ip`, the address a log line names. */
  readonly port: number | undefined;
  readonly socket: Duplex;
  readonly openedAt: number;
  /** Resolves once the TCP socket has closed. */
  readonly gone: Promise<void>;
  /** Set once the handshake completed. */
  ws: WebSocket | undefined;
  /** Set when the socket must close before its handshake completed. */
  closeReason: string | undefined;
}

/**
 * The user stream's open and opening sockets, by listenKey and by account. A connection is on the
 * books from before its handshake (events committed from then on are its own) until its TCP socket
 * closes, whether or not the handshake completed, or until the server drops it (a slow reader past
 * its grace), whichever comes first.
 */
export class UserConnections {
  private readonly all = new Set<UserConnection>();
  private readonly byListenKey = new Map<string, Set<UserConnection>>();
  private readonly byAccount = new Map<number, Set<UserConnection>>();
  private readonly ofSocket = new WeakMap<WebSocket, UserConnection>();
  /** The accounts with a connection: the core records order and balance events for these alone. */
  readonly accounts: AccountSet = this.byAccount;

  /** `onForget` runs once per connection, when it leaves the books. */
  constructor(private readonly onForget: (connection: UserConnection) => void) {}

  /** Open and opening connections. */
  get size(): number {
    return this.all.size;
  }

  /** Puts a connection on the books until its TCP socket closes. */
  add(binding: ListenKeyBinding, ip: string, port: number | undefined, socket: Duplex, openedAt: number): UserConnection {
    let release!: () => void;
    const gone = new Promise<void>((resolve) => {
      release = resolve;
    });
    const connection: UserConnection = { binding, ip, port, socket, openedAt, gone, ws: undefined, closeReason: undefined };
    this.all.add(connection);
    setOf(this.byListenKey, binding.listenKey).add(connection);
    setOf(this.byAccount, binding.accountId).add(connection);
    socket.once('close', () => {
      this.forget(connection);
      release();
    });
    return connection;
  }

  /** Records the connection's WebSocket once its handshake completed. */
  attach(connection: UserConnection, ws: WebSocket): void {
    connection.ws = ws;
    this.ofSocket.set(ws, connection);
  }

  /** The connection of a WebSocket, while it is on the books or after. */
  of(ws: WebSocket): UserConnection | undefined {
    return this.ofSocket.get(ws);
  }

  /** Takes a connection off the books (once; later calls do nothing). */
  forget(connection: UserConnection): void {
    if (!this.all.delete(connection)) return;
    removeFrom(this.byListenKey, connection.binding.listenKey, connection);
    removeFrom(this.byAccount, connection.binding.accountId, connection);
    this.onForget(connection);
  }

  /** Connections open on a listenKey. */
  countOf(listenKey: string): number {
    return this.byListenKey.get(listenKey)?.size ?? 0;
  }

  ofListenKey(listenKey: string): Iterable<UserConnection> {
    return this.byListenKey.get(listenKey) ?? [];
  }

  ofAccount(accountId: number): Iterable<UserConnection> {
    return this.byAccount.get(accountId) ?? [];
  }

  /** True when the account has a connection. */
  watches(accountId: number): boolean {
    return this.byAccount.has(accountId);
  }

  /** True when no account has a connection. */
  get isEmpty(): boolean {
    return this.byAccount.size === 0;
  }

  [Symbol.iterator](): Iterator<UserConnection> {
    return this.all.values();
  }
}
