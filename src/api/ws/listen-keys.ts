import { randomBytes } from 'node:crypto';
import { removeFrom, setOf } from './set-index.js';

/**
 * The listenKeys of docs/spot-api.md "User data streams": bearer names of one account's user data stream, living in memory
 * only (a restart ends them, as it ends the sockets using them). At most `MAX_PER_ACCOUNT` live per
 * account, so memory is bounded by the number of accounts.
 */

/** Why a listenKey died: its validity ran out, or it was closed (A28, evicted by an 11th, key revoked). */
export type ListenKeyEnd = 'expired' | 'closed';

export interface ListenKeyBinding {
  readonly listenKey: string;
  readonly accountId: number;
  /** The API key that issued it: its permissions give W1's `T` and `W`; revoking it ends the listenKey. */
  readonly apiKey: string;
}

export type ListenKeyEndListener = (binding: ListenKeyBinding, reason: ListenKeyEnd) => void;

export interface ListenKeysOptions {
  /** Validity after issue or keepalive, read at that moment (the operator may change it at run time). */
  ttlMs: () => number;
  /** Milliseconds since the epoch. */
  clock: () => number;
  /** How often expired listenKeys are looked for, so their sockets close without waiting for a lookup (default 1000). */
  sweepIntervalMs?: number;
  /** Source of randomness; a CSPRNG unless a test pins it. */
  randomBytes?: (size: number) => Buffer;
}

interface Entry extends ListenKeyBinding {
  expiresAt: number;
}

const LISTEN_KEY_LENGTH = 64;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Bytes at or above this would bias the alphabet (256 = 4 × 62 + 8): drawn again. */
const UNBIASED_BYTE_LIMIT = 248;
/** Neither a collision among 62^64 names nor a short draw is expected even once; the bound keeps the loop finite. */
const MAX_DRAWS = 8;

export class ListenKeys {
  static readonly MAX_PER_ACCOUNT = 10;

  private readonly entries = new Map<string, Entry>();
  /** Live listenKeys per account, oldest issued first (the one an 11th evicts). */
  private readonly byAccount = new Map<number, Set<string>>();
  private readonly byApiKey = new Map<string, Set<string>>();
  private readonly listeners = new Set<ListenKeyEndListener>();
  private readonly ttlMs: () => number;
  private readonly clock: () => number;
  private readonly random: (size: number) => Buffer;
  private timer: NodeJS.Timeout | undefined;

  constructor(options: ListenKeysOptions) {
    const sweepIntervalMs = options.sweepIntervalMs ?? 1000;
    if (!Number.isSafeInteger(sweepIntervalMs) || sweepIntervalMs < 1) throw new RangeError(`sweepIntervalMs must be ≥ 1: ${sweepIntervalMs}`);
    this.ttlMs = options.ttlMs;
    this.clock = options.clock;
    this.random = options.randomBytes ?? randomBytes;
    this.timer = setInterval(() => this.sweep(), sweepIntervalMs);
    // Expiry is also checked on every lookup: the sweep must not keep the process alive.
    this.timer.unref();
  }

  /** Live listenKeys. */
  get size(): number {
    return this.entries.size;
  }

  /** A26: a new listenKey of `accountId`; the account's oldest dies when it already has the maximum. */
  issue(accountId: number, apiKey: string): string {
    if (!Number.isSafeInteger(accountId) || accountId < 1) throw new RangeError(`accountId must be a positive id: ${accountId}`);
    const expiresAt = this.expiry();
    const listenKey = this.draw();
    const owned = setOf(this.byAccount, accountId);
    if (owned.size >= ListenKeys.MAX_PER_ACCOUNT) {
      const oldest = owned.values().next().value as string;
      this.end(oldest, 'closed');
    }
    const entry: Entry = { listenKey, accountId, apiKey, expiresAt };
    this.entries.set(listenKey, entry);
    setOf(this.byAccount, accountId).add(listenKey);
    setOf(this.byApiKey, apiKey).add(listenKey);
    return listenKey;
  }

  /** The live listenKey's binding; an expired one dies here (its sockets are told) and is not found. */
  find(listenKey: string): ListenKeyBinding | undefined {
    const entry = this.entries.get(listenKey);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.clock()) {
      this.end(listenKey, 'expired');
      return undefined;
    }
    return { listenKey: entry.listenKey, accountId: entry.accountId, apiKey: entry.apiKey };
  }

  /** A27: restarts the validity; false when the listenKey is not live or belongs to another account. */
  keepalive(listenKey: string, accountId: number): boolean {
    if (this.find(listenKey)?.accountId !== accountId) return false;
    const entry = this.entries.get(listenKey) as Entry;
    entry.expiresAt = this.expiry();
    return true;
  }

  /** A28: the listenKey dies; false when it is not live or belongs to another account. */
  close(listenKey: string, accountId: number): boolean {
    if (this.find(listenKey)?.accountId !== accountId) return false;
    this.end(listenKey, 'closed');
    return true;
  }

  /** docs/spot-api.md "User data streams": revoking an API key closes its listenKeys; answers how many died. */
  revokeApiKey(apiKey: string): number {
    const owned = this.byApiKey.get(apiKey);
    if (owned === undefined) return 0;
    const listenKeys = [...owned];
    for (const listenKey of listenKeys) this.end(listenKey, 'closed');
    return listenKeys.length;
  }

  /** Calls `listener` (which must not throw) each time a listenKey dies; answers the unsubscribe. */
  onEnd(listener: ListenKeyEndListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ends every listenKey whose validity has run out. */
  sweep(): void {
    const now = this.clock();
    const expired: string[] = [];
    for (const entry of this.entries.values()) if (entry.expiresAt <= now) expired.push(entry.listenKey);
    for (const listenKey of expired) this.end(listenKey, 'expired');
  }

  /** Stops the sweep timer (lookups still expire listenKeys). */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private expiry(): number {
    const ttlMs = this.ttlMs();
    if (!Number.isSafeInteger(ttlMs) || ttlMs < 1) throw new RangeError(`listenKey TTL must be ≥ 1 ms: ${ttlMs}`);
    return this.clock() + ttlMs;
  }

  private end(listenKey: string, reason: ListenKeyEnd): void {
    const entry = this.entries.get(listenKey);
    if (entry === undefined) return;
    this.entries.delete(listenKey);
    removeFrom(this.byAccount, entry.accountId, listenKey);
    removeFrom(this.byApiKey, entry.apiKey, listenKey);
    const binding: ListenKeyBinding = { listenKey, accountId: entry.accountId, apiKey: entry.apiKey };
    for (const listener of this.listeners) listener(binding, reason);
  }

  private draw(): string {
    for (let attempt = 0; attempt < MAX_DRAWS; attempt++) {
      const listenKey = this.randomName();
      if (listenKey !== undefined && !this.entries.has(listenKey)) return listenKey;
    }
    throw new Error('listenKey draws keep failing: the random source is broken');
  }

  /** 64 unbiased characters from twice as many random bytes; undefined if too few were usable (p ≈ 10^-40). */
  private randomName(): string | undefined {
    let name = '';
    for (const byte of this.random(2 * LISTEN_KEY_LENGTH)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      name += ALPHABET[byte % ALPHABET.length];
      if (name.length === LISTEN_KEY_LENGTH) return name;
    }
    return undefined;
  }
}
