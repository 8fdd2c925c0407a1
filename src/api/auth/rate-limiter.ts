import type { CommitInfo } from '../../exchange/sequencer.js';
import type { CommitSubscriber } from '../../exchange/commit-subscribers.js';
import { DEFAULT_RATE_LIMIT_SETTINGS, RATE_LIMIT_KEYS, type RateLimitSettings } from '../../exchange/trading-config.js';

/**
 * Rate limits and IP bans of docs/spot-api.md "Rate limits" (also applied by area B). Windows are fixed
 * (`floor(now / length)`), as on the platform. Counters and bans live in memory and a restart
 * clears them; the settings are the journaled trading config's, which the limiter follows.
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

export interface Ban {
  readonly ip: string;
  readonly bannedUntil: number;
  /** n of "the n-th ban", which sets its length. */
  readonly banCount: number;
}

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const STRIKE_WINDOW_MS = 60_000;
/** A ban count is forgotten this long after the last ban ended. */
const BAN_MEMORY_MS = 86_400_000;
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

interface IpRecord {
  /** Times of the strikes of the last 60 s, oldest first; at most `banStrikes` of them. */
  strikes: number[];
  banCount: number;
  /** End of the latest ban; 0 if never banned. */
  bannedUntil: number;
}

/** Whole seconds until `endMs`, at least 1 (a Retry-After of 0 would invite an instant retry). */
function secondsUntil(endMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((endMs - nowMs) / SECOND_MS));
}

export class RateLimiter {
  private readonly weights = new Map<string, WeightCounter>();
  private readonly orders = new Map<string, OrderCounter>();
  private readonly ips = new Map<string, IpRecord>();
  private readonly exemptKeys = new Set<string>();
  private sweptMinute = Number.NEGATIVE_INFINITY;

  constructor(
    readonly config: RateLimitConfig,
    private readonly clock: () => number,
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
    let record = this.ips.get(ip);
    if (record === undefined) {
      record = { strikes: [], banCount: 0, bannedUntil: 0 };
      this.ips.set(ip, record);
    }
    if (record.bannedUntil > now) return { bannedUntil: record.bannedUntil, retryAfterSec: secondsUntil(record.bannedUntil, now) };
    const threshold = Math.max(1, this.config.banStrikes);
    const strikes = record.strikes.filter((at) => now - at < STRIKE_WINDOW_MS);
    strikes.push(now);
    record.strikes = strikes.slice(-threshold);
    if (record.strikes.length < threshold) return undefined;
    if (record.banCount > 0 && now - record.bannedUntil >= BAN_MEMORY_MS) record.banCount = 0;
    record.banCount += 1;
    const durationMs = Math.min(this.config.banBaseMs * 2 ** Math.min(record.banCount - 1, MAX_DOUBLINGS), this.config.banMaxMs);
    record.bannedUntil = now + durationMs;
    record.strikes = [];
    return { bannedUntil: record.bannedUntil, retryAfterSec: secondsUntil(record.bannedUntil, now) };
  }

  /** The ban on `ip` now in force, if any (answer 418 with `Retry-After: retryAfterSec`). */
  banStatus(ip: string): BanStatus | undefined {
    const now = this.tick();
    const record = this.ips.get(ip);
    if (record === undefined || record.bannedUntil <= now) return undefined;
    return { bannedUntil: record.bannedUntil, retryAfterSec: secondsUntil(record.bannedUntil, now) };
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

  /** Bans in force, by IP. */
  listBans(): Ban[] {
    const now = this.tick();
    const bans: Ban[] = [];
    for (const [ip, record] of this.ips) {
      if (record.bannedUntil > now) bans.push({ ip, bannedUntil: record.bannedUntil, banCount: record.banCount });
    }
    return bans.sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0));
  }

  /** Ends the ban on `ip` and forgets its strikes and ban count; false if no ban was in force. */
  liftBan(ip: string): boolean {
    const active = this.banStatus(ip) !== undefined;
    this.ips.delete(ip);
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
      const remembered = record.banCount > 0 && now - record.bannedUntil < BAN_MEMORY_MS;
      if (!striking && !remembered) this.ips.delete(ip);
    }
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
