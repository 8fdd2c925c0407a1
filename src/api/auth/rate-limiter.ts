import type { CommitInfo } from '../../exchange/sequencer.js';
import type { CommitSubscriber } from '../../exchange/commit-subscribers.js';
import { banAddress, banForgotten, type IpBan, type IpBanReads } from '../../exchange/ip-ban-module.js';
import { DEFAULT_RATE_LIMIT_SETTINGS, RATE_LIMIT_KEYS, type RateLimitSettings } from '../../exchange/trading-config.js';

/**
 * Rate limits and IP bans of docs/spot-api.md "Rate limits" (also applied by area B). Windows are fixed
 * (`floor(now / length)`), as on the platform. Counters and strikes live in this node's memory (each
 * node counts what it serves) and a restart clears them. A ban, once a strike starts it, is held here
 * at once and handed to `onBan`, which journals it; the journaled bans of every node come back through
 * `followBans`, so every node of a deployment refuses a banned address and a restart keeps the ban.
 * The settings are the journaled trading config's, which the limiter follows.
 * The clock is injected so tests can walk window edges exactly.
 */

/**
 * The limits the operator sets (docs/operating.md "Trading settings and listings") through the journaled trading config. Read on every call,
 * so a committed change applies to the next request.
 */
export type RateLimitConfig = RateLimitSettings;

export const DEFAULT_RATE_LIMITS: Readonly<RateLimitConfig> = DEFAULT_RATE_LIMIT_SETTINGS;

export type WeightCharge =
  | { readonly ok: true; readonly used: number }
  | { readonly ok: false; readonly used: number; readonly limit: number; readonly retryAfterSec: number };

export type OrderWindow = 'SECOND' | 'DAY';

/** Counts after the charge (or unchanged when refused), for `X-BH-ORDER-COUNT-1S` / `-1D`. */
export type OrderCharge =
  | { readonly ok: true; readonly countSecond: number; readonly countDay: number }
  | {
      readonly ok: false;
      readonly countSecond: number;
      readonly countDay: number;
      readonly exceeded: OrderWindow;
      readonly limit: number;
      readonly retryAfterSec: number;
    };

export interface BanStatus {
  readonly bannedUntil: number;
  readonly retryAfterSec: number;
}

/** A ban as listed (O13) and journaled (`ipBanned`). */
export type Ban = Readonly<IpBan>;

export interface RateLimiterOptions {
  /**
   * Journals a ban a strike started (`ipBanned`, through the leader). The limiter refuses the address
   * at once without waiting; a ban it failed to journal is sent again on a later strike (of any
   * address) or when the banned address knocks, at most once a second and while the ban lasts.
   */
  onBan?: (ban: Ban) => Promise<unknown>;
  /** Told of each failed `onBan`, for the log. */
  onBanFailed?: (ban: Ban, error: unknown) => void;
}

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const STRIKE_WINDOW_MS = 60_000;
/** A failed `onBan` is not sent again sooner than this: the banned address may knock thousands of times a second. */
const BAN_RETRY_MS = 1000;
/** 2^52 × any positive base is far beyond any cap, and keeps the power finite. */
const MAX_DOUBLINGS = 52;

interface WeightCounter {
  minute: number;
  used: number;
}

interface OrderCounter {
  second: number;
  countSecond: number;
  day: number;
  countDay: number;
}

/**
 * What this node knows of an address: its own strikes, and the union of the bans it started and the
 * journaled ones (the later end, the higher count), as the core merges two bans.
 */
interface IpRecord {
  /** Times of the strikes of the last 60 s, oldest first; at most `banStrikes` of them. */
  strikes: number[];
  banCount: number;
  /** End of the latest ban; 0 if never banned. */
  bannedUntil: number;
}

/** A ban `onBan` could not journal: sent again from `retryAt` on, while it is still in force. */
interface FailedBan {
  ban: Ban;
  retryAt: number;
}

/** Whole seconds until `endMs`, at least 1 (a Retry-After of 0 would invite an instant retry). */
function secondsUntil(endMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((endMs - nowMs) / SECOND_MS));
}

/** n of the ban a strike would start now: the count is forgotten 24 h after the last ban ended. */
function nextCount(record: IpRecord, nowMs: number): number {
  return record.banCount === 0 || banForgotten(record.bannedUntil, nowMs) ? 1 : record.banCount + 1;
}

export class RateLimiter {
  private readonly weights = new Map<string, WeightCounter>();
  private readonly orders = new Map<string, OrderCounter>();
  private readonly ips = new Map<string, IpRecord>();
  /** Addresses whose ban `onBan` is sending now: a retry waits for it. */
  private readonly journaling = new Set<string>();
  /** Bans `onBan` failed to journal, by address; at most one per ban in force. */
  private readonly failedBans = new Map<string, FailedBan>();
  private readonly exemptKeys = new Set<string>();
  private sweptMinute = Number.NEGATIVE_INFINITY;

  constructor(
    readonly config: RateLimitConfig,
    private readonly clock: () => number,
    private readonly options: RateLimiterOptions = {},
  ) {}

  /**
   * Charges `weight` to a REQUEST_WEIGHT counter (`key:<apiKey>` or `ip:<ip>`); a refusal adds nothing.
   * `limit` (default `requestWeightPerMinute`) serves counters with a limit of their own (docs/merchant-payments.md "Rate limits").
   */
  chargeWeight(counterKey: string, weight: number, limit: number = this.config.requestWeightPerMinute): WeightCharge {
    if (!Number.isSafeInteger(weight) || weight < 0) throw new RangeError(`weight must be a count: ${weight}`);
    const now = this.tick();
    const minute = Math.floor(now / MINUTE_MS);
    let counter = this.weights.get(counterKey);
    if (counter === undefined || counter.minute !== minute) {
      counter = { minute, used: 0 };
      this.weights.set(counterKey, counter);
    }
    if (counter.used + weight > limit) {
      return { ok: false, used: counter.used, limit, retryAfterSec: secondsUntil((minute + 1) * MINUTE_MS, now) };
    }
    counter.used += weight;
    return { ok: true, used: counter.used };
  }

  /** Weight used this minute on a counter, for `X-BH-USED-WEIGHT-1M` on answers that charged nothing. */
  usedWeight(counterKey: string): number {
    const minute = Math.floor(this.tick() / MINUTE_MS);
    const counter = this.weights.get(counterKey);
    return counter !== undefined && counter.minute === minute ? counter.used : 0;
  }

  /** Counts one new order (A11) against the key's second and UTC-day windows; a refusal adds nothing. */
  chargeOrder(apiKey: string): OrderCharge {
    const now = this.tick();
    const second = Math.floor(now / SECOND_MS);
    const day = Math.floor(now / DAY_MS);
    let counter = this.orders.get(apiKey);
    if (counter === undefined) {
      counter = { second, countSecond: 0, day, countDay: 0 };
      this.orders.set(apiKey, counter);
    }
    if (counter.second !== second) {
      counter.second = second;
      counter.countSecond = 0;
    }
    if (counter.day !== day) {
      counter.day = day;
      counter.countDay = 0;
    }
    const { countSecond, countDay } = counter;
    // The day is checked first: when both are full, it is the window that decides when to retry.
    if (countDay + 1 > this.config.ordersPerDay) {
      const retryAfterSec = secondsUntil((day + 1) * DAY_MS, now);
      return { ok: false, countSecond, countDay, exceeded: 'DAY', limit: this.config.ordersPerDay, retryAfterSec };
    }
    if (countSecond + 1 > this.config.ordersPerSecond) {
      const retryAfterSec = secondsUntil((second + 1) * SECOND_MS, now);
      return { ok: false, countSecond, countDay, exceeded: 'SECOND', limit: this.config.ordersPerSecond, retryAfterSec };
    }
    counter.countSecond += 1;
    counter.countDay += 1;
    return { ok: true, countSecond: counter.countSecond, countDay: counter.countDay };
  }

  /**
   * Records a 429 against `ip`. The strike that makes `banStrikes` within a rolling 60 s starts
   * the n-th ban, `min(banBaseMs × 2^(n−1), banMaxMs)` long, and is returned.
   */
  strike(ip: string): BanStatus | undefined {
    const now = this.tick();
    this.retryFailedBans(now);
    const record = this.record(ip);
    if (record.bannedUntil > now) return { bannedUntil: record.bannedUntil, retryAfterSec: secondsUntil(record.bannedUntil, now) };
    const threshold = Math.max(1, this.config.banStrikes);
    const strikes = record.strikes.filter((at) => now - at < STRIKE_WINDOW_MS);
    strikes.push(now);
    record.strikes = strikes.slice(-threshold);
    if (record.strikes.length < threshold) return undefined;
    // The count is the union's: a ban earned on another node of the deployment lengthens this one too.
    record.banCount = nextCount(record, now);
    const durationMs = Math.min(this.config.banBaseMs * 2 ** Math.min(record.banCount - 1, MAX_DOUBLINGS), this.config.banMaxMs);
    record.bannedUntil = now + durationMs;
    record.strikes = [];
    this.journal({ ip, bannedUntil: record.bannedUntil, banCount: record.banCount });
    return { bannedUntil: record.bannedUntil, retryAfterSec: secondsUntil(record.bannedUntil, now) };
  }

  /** The ban on `ip` now in force, journaled or started here, if any (answer 418 with `Retry-After: retryAfterSec`). */
  banStatus(ip: string): BanStatus | undefined {
    const now = this.tick();
    const record = this.ips.get(ip);
    if (record === undefined || record.bannedUntil <= now) return undefined;
    // The banned address keeps knocking: each knock may send again a ban this node could not journal.
    if (this.failedBans.size > 0) this.retryFailedBan(ip, now);
    return { bannedUntil: record.bannedUntil, retryAfterSec: secondsUntil(record.bannedUntil, now) };
  }

  /** n of the next ban of `ip`: one more than its last one, or 1 when it has none or it ended 24 h ago or more (O29's default). */
  nextBanCount(ip: string): number {
    const record = this.ips.get(ip);
    return record === undefined ? 1 : nextCount(record, this.tick());
  }

  /**
   * Takes a journaled ban (the core's entry after an `ipBanned`, or at start): merged into what this
   * node knows of the address, the later end and the higher count, as the core merges two bans.
   */
  recordBan(ban: Ban): void {
    const record = this.record(ban.ip);
    // A count this node still holds but should have forgotten (the sweep runs once a minute) must not lengthen the next ban.
    if (record.banCount > 0 && banForgotten(record.bannedUntil, this.clock())) record.banCount = 0;
    record.bannedUntil = Math.max(record.bannedUntil, ban.bannedUntil);
    record.banCount = Math.max(record.banCount, ban.banCount);
    const failed = this.failedBans.get(ban.ip);
    // Journaled, by this node's retry or by another node's ban that covers it.
    if (failed !== undefined && ban.bannedUntil >= failed.ban.bannedUntil && ban.banCount >= failed.ban.banCount) this.failedBans.delete(ban.ip);
  }

  /**
   * Exempts an API key (the server's own demo market maker) from weights, order counts and IP
   * bans: a correctly signed request with it is neither charged nor refused for its address, so a
   * user who gets the shared loopback address banned cannot freeze the demo market. In memory only.
   */
  exemptKey(apiKey: string): void {
    this.exemptKeys.add(apiKey);
  }

  isExempt(apiKey: string): boolean {
    return this.exemptKeys.has(apiKey);
  }

  /** Bans in force, journaled or started here and not yet journaled, by IP. */
  listBans(): Ban[] {
    const now = this.tick();
    const bans: Ban[] = [];
    for (const [ip, record] of this.ips) {
      if (record.bannedUntil > now) bans.push({ ip, bannedUntil: record.bannedUntil, banCount: record.banCount });
    }
    return bans.sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0));
  }

  /**
   * Ends the ban on `ip` on this node and forgets its strikes and ban count; false if no ban was in
   * force. The operator's lift (O14) journals `ipBanLifted`, which `followBans` applies here on every node.
   */
  liftBan(ip: string): boolean {
    const record = this.ips.get(ip);
    const active = record !== undefined && record.bannedUntil > this.tick();
    this.ips.delete(ip);
    this.failedBans.delete(ip);
    return active;
  }

  /** Takes new settings (each a count ≥ 1), in place: holders of `config` see them at once. */
  configure(settings: Readonly<RateLimitConfig>): void {
    for (const key of RATE_LIMIT_KEYS) {
      const value = settings[key];
      if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`rate limit ${key} must be a count ≥ 1: ${value}`);
    }
    for (const key of RATE_LIMIT_KEYS) this.config[key] = settings[key];
  }

  private record(ip: string): IpRecord {
    let record = this.ips.get(ip);
    if (record === undefined) {
      record = { strikes: [], banCount: 0, bannedUntil: 0 };
      this.ips.set(ip, record);
    }
    return record;
  }

  /**
   * Hands a ban this node started to `onBan`; one that fails is kept for a later strike to send again.
   * A new ban is sent even while an older one of the address is on its way (the core merges them in
   * any order); a retry waits for the one on its way.
   */
  private journal(ban: Ban, retry = false): void {
    const onBan = this.options.onBan;
    // Only an address can be journaled; the limiter's own tests strike names.
    const ip = banAddress(ban.ip);
    if (onBan === undefined || ip === undefined || (retry && this.journaling.has(ban.ip))) return;
    this.failedBans.delete(ban.ip);
    this.journaling.add(ban.ip);
    const sent = { ...ban, ip };
    let sending: Promise<unknown>;
    try {
      sending = onBan(sent);
    } catch (error) {
      // A hook that throws must not fail the request that struck: it failed to journal, as a rejection does.
      sending = Promise.reject(error);
    }
    sending.then(
      () => this.journaling.delete(ban.ip),
      (error: unknown) => {
        this.journaling.delete(ban.ip);
        // A newer ban of the address (or a lift) while this one was on its way wins.
        const record = this.ips.get(ban.ip);
        if (record === undefined || record.bannedUntil !== ban.bannedUntil) return;
        this.failedBans.set(ban.ip, { ban, retryAt: this.clock() + BAN_RETRY_MS });
        this.options.onBanFailed?.(sent, error);
      },
    );
  }

  /** Sends again, on a strike, every ban `onBan` failed to journal that is still in force and due. */
  private retryFailedBans(now: number): void {
    for (const ip of [...this.failedBans.keys()]) this.retryFailedBan(ip, now);
  }

  private retryFailedBan(ip: string, now: number): void {
    const failed = this.failedBans.get(ip);
    if (failed === undefined || failed.retryAt > now) return;
    if (failed.ban.bannedUntil <= now) this.failedBans.delete(ip);
    else this.journal(failed.ban, true);
  }

  /** Reads the clock and, once per minute, drops counters of past windows and forgotten IPs. */
  private tick(): number {
    const now = this.clock();
    const minute = Math.floor(now / MINUTE_MS);
    if (minute !== this.sweptMinute) {
      this.sweptMinute = minute;
      this.sweep(now, minute);
    }
    return now;
  }

  private sweep(now: number, minute: number): void {
    const day = Math.floor(now / DAY_MS);
    for (const [key, counter] of this.weights) if (counter.minute < minute) this.weights.delete(key);
    for (const [key, counter] of this.orders) if (counter.day < day) this.orders.delete(key);
    for (const [ip, record] of this.ips) {
      const striking = record.strikes.some((at) => now - at < STRIKE_WINDOW_MS);
      const remembered = record.banCount > 0 && !banForgotten(record.bannedUntil, now);
      if (!striking && !remembered) this.ips.delete(ip);
    }
    for (const [ip, failed] of this.failedBans) if (failed.ban.bannedUntil <= now) this.failedBans.delete(ip);
  }
}

/**
 * Keeps `limiter`'s settings equal to the committed trading config (a commit subscriber, fed committed batches in order): copied
 * now, and again after each committed batch that holds a `setTradingConfig`. The hot path keeps
 * reading a plain object; only a config change costs a copy.
 */
export function followTradingConfig(limiter: RateLimiter, committed: () => Readonly<RateLimitConfig>): CommitSubscriber {
  limiter.configure(committed());
  return {
    onCommit(info: CommitInfo): void {
      if (info.commands.some((stamped) => stamped.command.type === 'setTradingConfig')) limiter.configure(committed());
    },
  };
}

/**
 * Keeps `limiter`'s bans equal to the journaled ones (a commit subscriber): every ban the core holds
 * now is taken (at start: the recovered state), then each committed `ipBanned` merges the core's entry
 * for its address and each `ipBanLifted` ends the ban on this node, whichever node started the ban.
 */
export function followBans(limiter: RateLimiter, committed: () => IpBanReads): CommitSubscriber {
  for (const ban of committed().entries()) limiter.recordBan(ban);
  return {
    onCommit(info: CommitInfo): void {
      for (const { command } of info.commands) {
        if (command.type === 'ipBanLifted') {
          limiter.liftBan(command.ip);
        } else if (command.type === 'ipBanned') {
          // The entry after the batch: a lift later in it has removed it, and the lift comes next here.
          const ban = committed().entry(command.ip);
          if (ban !== undefined) limiter.recordBan(ban);
        }
      }
    },
  };
}
