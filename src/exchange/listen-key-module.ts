import { BourseError, reject } from '../core/errors.js';
import type { CloseListenKeyCommand, Command, CommandType, KeepaliveListenKeyCommand, OpenListenKeyCommand } from '../core/types.js';
import type { PostingContext } from '../ledger/ledger.js';
import type { CoreModule } from './core-module.js';

/** One listenKey as the core holds it. */
export interface ListenKeyEntry {
  listenKey: string;
  accountId: number;
  /** The API key that issued it: its permissions give W1's `T` and `W`; revoking it ends the listenKey. */
  apiKey: string;
  /** Stamp of its open or last keepalive plus the TTL then in force (ms since the epoch); dead from this instant on. */
  expiresAt: number;
  /** Seq of the command that opened it: an account's lowest is the one an 11th evicts. */
  openedSeq: number;
}

/** Entries in touch order (last opened or kept alive last): the order pruning looks at them. */
export interface ListenKeysImage {
  entries: ListenKeyEntry[];
}

/** What A26 answers once committed; `evicted` is the account's oldest listenKey when this one made 11. */
export interface OpenListenKeyResult {
  listenKey: string;
  evicted?: string;
}

/** The listenKey module's port: the catalogue's API keys (a listenKey dies with the key that issued it). */
export interface IssuingKeys {
  apiKey(apiKey: string): { readonly accountId: number; readonly revoked: boolean } | undefined;
}

/** The listenKey module's port: the trading config the spot module holds, whose `listenKeyTtlMs` gives the validity. */
export interface ListenKeyValidity {
  readonly rateLimits: { readonly listenKeyTtlMs: number };
}

/** What a node's edge reads of the listenKeys (lookups never change the state: every node must keep the same). */
export interface ListenKeyReads {
  /** The entry of `listenKey` while the core holds it, live or dead and not yet pruned. */
  entry(listenKey: string): Readonly<ListenKeyEntry> | undefined;
  /** Whether the entry is live at `at` (ms): its validity has not run out and its API key is not revoked. */
  isLive(entry: Readonly<ListenKeyEntry>, at: number): boolean;
}

const LISTEN_KEY_COMMANDS = ['openListenKey', 'keepaliveListenKey', 'closeListenKey'] as const satisfies readonly CommandType[];
type ListenKeyCommand = OpenListenKeyCommand | KeepaliveListenKeyCommand | CloseListenKeyCommand;

const LISTEN_KEY = /^[A-Za-z0-9]{64}$/;
/**
 * Dead entries removed at the front of the touch order per accepted command: more than the one
 * entry a command can add, so dead ones never pile up faster than they go.
 */
const PRUNE_PER_COMMAND = 4;

/**
 * The listenKeys of docs/spot-api.md "User data streams" as journaled state, so that every node of
 * a deployment (and every restart) holds the same set. A listenKey is live from its open until
 * `expiresAt` (stamp + `listenKeyTtlMs`, moved by each keepalive), a close, its eviction by the
 * account's 11th, or the revocation of its API key. Death by time or revocation is read, never
 * written, when it happens: dead entries are pruned by later accepted commands of this module, a
 * bounded number each, so a replay prunes exactly what the original run pruned. At most
 * `MAX_PER_ACCOUNT` entries per account, live or dead, so memory is bounded by the accounts.
 */
export class ListenKeyModule implements CoreModule<ListenKeysImage>, ListenKeyReads {
  static readonly MAX_PER_ACCOUNT = 10;
  readonly name = 'listenKeys';
  readonly commandTypes = LISTEN_KEY_COMMANDS;
  /** By listenKey, in touch order. */
  private readonly entries = new Map<string, ListenKeyEntry>();
  /** Each account's listenKeys in open order (oldest first). */
  private readonly byAccount = new Map<number, string[]>();

  constructor(
    private readonly keys: IssuingKeys,
    private readonly validity: ListenKeyValidity,
  ) {}

  apply(command: Command, ctx: PostingContext): unknown {
    const cmd = command as ListenKeyCommand;
    switch (cmd.type) {
      case 'openListenKey':
        return this.open(cmd, ctx);
      case 'keepaliveListenKey':
        return this.keepalive(cmd, ctx);
      case 'closeListenKey':
        return this.close(cmd, ctx);
    }
  }

  /** Entries held, live or dead and not yet pruned. */
  get size(): number {
    return this.entries.size;
  }

  entry(listenKey: string): Readonly<ListenKeyEntry> | undefined {
    return this.entries.get(listenKey);
  }

  isLive(entry: Readonly<ListenKeyEntry>, at: number): boolean {
    return entry.expiresAt > at && this.keys.apiKey(entry.apiKey)?.revoked === false;
  }

  private open(cmd: OpenListenKeyCommand, ctx: PostingContext): OpenListenKeyResult {
    if (!LISTEN_KEY.test(cmd.listenKey)) reject('INVALID_PARAM_VALUE', ['listenKey']);
    const key = this.keys.apiKey(cmd.apiKey);
    // Revoked between the request's authentication and this stamp.
    if (key === undefined || key.revoked || key.accountId !== cmd.accountId) reject('INVALID_API_KEY');
    // The edge draws from 62^64 names and checks what it sees; two equal draws at once are refused, not merged.
    if (this.entries.has(cmd.listenKey)) throw new BourseError('INTERNAL');
    const expiresAt = this.expiry(ctx.ts);
    this.prune(ctx.ts);
    // Only live ones count towards the 10: the account's dead ones go first (`remove` replaces the index, not this array).
    for (const listenKey of this.byAccount.get(cmd.accountId) ?? []) {
      if (!this.isLive(this.entries.get(listenKey) as ListenKeyEntry, ctx.ts)) this.remove(listenKey);
    }
    const live = this.byAccount.get(cmd.accountId) ?? [];
    const evicted = live.length >= ListenKeyModule.MAX_PER_ACCOUNT ? live[0] : undefined;
    if (evicted !== undefined) this.remove(evicted);
    this.entries.set(cmd.listenKey, { listenKey: cmd.listenKey, accountId: cmd.accountId, apiKey: cmd.apiKey, expiresAt, openedSeq: ctx.seq });
    this.index(cmd.accountId).push(cmd.listenKey);
    return evicted === undefined ? { listenKey: cmd.listenKey } : { listenKey: cmd.listenKey, evicted };
  }

  private keepalive(cmd: KeepaliveListenKeyCommand, ctx: PostingContext): { listenKey: string; expiresAt: number } {
    const entry = this.owned(cmd, ctx.ts);
    entry.expiresAt = this.expiry(ctx.ts);
    // To the back of the touch order: the front holds the entries that die first.
    this.entries.delete(entry.listenKey);
    this.entries.set(entry.listenKey, entry);
    this.prune(ctx.ts);
    return { listenKey: entry.listenKey, expiresAt: entry.expiresAt };
  }

  private close(cmd: CloseListenKeyCommand, ctx: PostingContext): { listenKey: string } {
    const entry = this.owned(cmd, ctx.ts);
    this.remove(entry.listenKey);
    this.prune(ctx.ts);
    return { listenKey: entry.listenKey };
  }

  /** The live listenKey of the command's account; -1125 for an unknown, dead or another account's one. */
  private owned(cmd: KeepaliveListenKeyCommand | CloseListenKeyCommand, ts: number): ListenKeyEntry {
    const entry = this.entries.get(cmd.listenKey);
    if (entry === undefined || entry.accountId !== cmd.accountId || !this.isLive(entry, ts)) throw new BourseError('INVALID_LISTEN_KEY');
    return entry;
  }

  private expiry(ts: number): number {
    const ttlMs = this.validity.rateLimits.listenKeyTtlMs;
    if (!Number.isSafeInteger(ttlMs) || ttlMs < 1) throw new RangeError(`listenKey TTL must be ≥ 1 ms: ${ttlMs}`);
    return ts + ttlMs;
  }

  /** Removes dead entries at the front of the touch order, at most PRUNE_PER_COMMAND, up to the first live one. */
  private prune(ts: number): void {
    let pruned = 0;
    for (const entry of this.entries.values()) {
      if (pruned === PRUNE_PER_COMMAND || this.isLive(entry, ts)) return;
      this.remove(entry.listenKey);
      pruned++;
    }
  }

  private remove(listenKey: string): void {
    const entry = this.entries.get(listenKey);
    if (entry === undefined) return;
    this.entries.delete(listenKey);
    const owned = this.byAccount.get(entry.accountId) ?? [];
    const rest = owned.filter((key) => key !== listenKey);
    if (rest.length === 0) this.byAccount.delete(entry.accountId);
    else this.byAccount.set(entry.accountId, rest);
  }

  private index(accountId: number): string[] {
    let owned = this.byAccount.get(accountId);
    if (owned === undefined) {
      owned = [];
      this.byAccount.set(accountId, owned);
    }
    return owned;
  }

  image(): ListenKeysImage {
    return { entries: [...this.entries.values()].map((entry) => ({ ...entry })) };
  }

  restore(image: ListenKeysImage): void {
    for (const entry of image.entries) {
      if (!LISTEN_KEY.test(entry.listenKey) || this.entries.has(entry.listenKey)) throw new Error(`snapshot listenKey entry is malformed or repeated: ${entry.listenKey.slice(0, 4)}…`);
      this.entries.set(entry.listenKey, { ...entry });
    }
    const byOpen = [...this.entries.values()].sort((a, b) => a.openedSeq - b.openedSeq);
    for (const entry of byOpen) this.index(entry.accountId).push(entry.listenKey);
    for (const [accountId, owned] of this.byAccount) {
      if (owned.length > ListenKeyModule.MAX_PER_ACCOUNT) throw new Error(`snapshot holds ${owned.length} listenKeys of account ${accountId}`);
    }
  }
}
