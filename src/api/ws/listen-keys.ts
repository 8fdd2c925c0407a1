import { randomBytes } from 'node:crypto';
import type { CommitInfo } from '../../exchange/sequencer.js';
import type { ListenKeyReads, OpenListenKeyResult } from '../../exchange/listen-key-module.js';

/**
 * This node's view of the listenKeys of docs/spot-api.md "User data streams". They are state of
 * the core (src/exchange/listen-key-module.ts), journaled like every change, so every node of a
 * deployment holds the same set and a restart keeps them; A26–A28 change them through commands.
 * Here: the draw of a new name (the core takes no randomness), lookups at this node's clock, and
 * the ends of the listenKeys this node's sockets use, told from committed batches (a close, an
 * eviction, a revoked API key) and from a sweep on this node's clock (expiry).
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
  /** The core this node serves; its `listenKeys` are read at each use (a rollback replaces the modules). */
  core: { readonly listenKeys: ListenKeyReads };
  /** Milliseconds since the epoch. */
  clock: () => number;
  /** How often the listenKeys in use are checked for expiry, so their sockets close without waiting for a lookup (default 1000). */
  sweepIntervalMs?: number;
  /** Source of randomness; a CSPRNG unless a test pins it. */
  randomBytes?: (size: number) => Buffer;
}

interface Watched {
  binding: ListenKeyBinding;
  /** The expiry last read from the core: a listenKey pruned there before this node's clock passed it ends then. */
  expiresAt: number;
}

const LISTEN_KEY_LENGTH = 64;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Bytes at or above this would bias the alphabet (256 = 4 × 62 + 8): drawn again. */
const UNBIASED_BYTE_LIMIT = 248;
/** Neither a collision among 62^64 names nor a short draw is expected even once; the bound keeps the loop finite. */
const MAX_DRAWS = 8;

export class ListenKeys {
  /** The listenKeys this node found live (sockets use them), until their end is told: at most the core's. */
  private readonly watched = new Map<string, Watched>();
  private readonly listeners = new Set<ListenKeyEndListener>();
  private readonly core: ListenKeysOptions['core'];
  private readonly clock: () => number;
  private readonly random: (size: number) => Buffer;
  private timer: NodeJS.Timeout | undefined;

  constructor(options: ListenKeysOptions) {
    const sweepIntervalMs = options.sweepIntervalMs ?? 1000;
    if (!Number.isSafeInteger(sweepIntervalMs) || sweepIntervalMs < 1) throw new RangeError(`sweepIntervalMs must be ≥ 1: ${sweepIntervalMs}`);
    this.core = options.core;
    this.clock = options.clock;
    this.random = options.randomBytes ?? randomBytes;
    this.timer = setInterval(() => this.sweep(), sweepIntervalMs);
    // Expiry is also checked on every lookup: the sweep must not keep the process alive.
    this.timer.unref();
  }

  /** A26's new name: 64 unbiased characters of [A-Za-z0-9] from the CSPRNG, not one the core holds. */
  draw(): string {
    for (let attempt = 0; attempt < MAX_DRAWS; attempt++) {
      const listenKey = this.randomName();
      if (listenKey !== undefined && this.core.listenKeys.entry(listenKey) === undefined) return listenKey;
    }
    throw new Error('listenKey draws keep failing: the random source is broken');
  }

  /** The listenKey's binding while it is live at this node's clock; one found dead has its end told here. */
  find(listenKey: string): ListenKeyBinding | undefined {
    const entry = this.core.listenKeys.entry(listenKey);
    if (entry === undefined) return undefined;
    if (!this.core.listenKeys.isLive(entry, this.clock())) {
      this.end(listenKey, this.reasonOf(entry.expiresAt));
      return undefined;
    }
    const known = this.watched.get(listenKey);
    if (known !== undefined) {
      known.expiresAt = entry.expiresAt;
      return known.binding;
    }
    const binding: ListenKeyBinding = { listenKey, accountId: entry.accountId, apiKey: entry.apiKey };
    this.watched.set(listenKey, { binding, expiresAt: entry.expiresAt });
    return binding;
  }

  /** Calls `listener` (which must not throw) once when a listenKey found live dies; answers the unsubscribe. */
  onEnd(listener: ListenKeyEndListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells the ends a committed batch made: A28 closes, evictions by an 11th, revoked API keys. */
  onCommit(info: CommitInfo): void {
    for (let i = 0; i < info.commands.length; i++) {
      const command = info.commands[i].command;
      if (command.type === 'closeListenKey') {
        this.end(command.listenKey, 'closed');
      } else if (command.type === 'openListenKey') {
        const evicted = (info.results[i] as OpenListenKeyResult | undefined)?.evicted;
        if (evicted !== undefined) this.end(evicted, 'closed');
      } else if (command.type === 'revokeApiKey') {
        const revoked = [...this.watched.values()].filter((w) => w.binding.apiKey === command.apiKey);
        for (const w of revoked) this.end(w.binding.listenKey, 'closed');
      }
    }
  }

  /** Tells the end of every listenKey in use that is no longer live at this node's clock. */
  sweep(): void {
    const now = this.clock();
    const reads = this.core.listenKeys;
    for (const [listenKey, watched] of [...this.watched]) {
      const entry = reads.entry(listenKey);
      if (entry === undefined) {
        // Pruned by a command stamped past its expiry (that node's clock may run ahead of this one's).
        if (watched.expiresAt <= now) this.end(listenKey, 'expired');
      } else if (reads.isLive(entry, now)) {
        watched.expiresAt = entry.expiresAt;
      } else {
        this.end(listenKey, this.reasonOf(entry.expiresAt, now));
      }
    }
  }

  /** Stops the sweep timer (lookups still end expired listenKeys). */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A dead entry whose validity has not run out died with its API key. */
  private reasonOf(expiresAt: number, now = this.clock()): ListenKeyEnd {
    return expiresAt <= now ? 'expired' : 'closed';
  }

  private end(listenKey: string, reason: ListenKeyEnd): void {
    const watched = this.watched.get(listenKey);
    if (watched === undefined) return;
    this.watched.delete(listenKey);
    for (const listener of this.listeners) listener(watched.binding, reason);
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
