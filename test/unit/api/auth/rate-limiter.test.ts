import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS, RateLimiter, type RateLimitConfig } from '../../../../src/api/auth/rate-limiter.js';

const MINUTE = 60_000;
const DAY = 86_400_000;
// A UTC midnight, so minute, second and day windows all start here.
const T0 = 1_699_920_000_000;

class FakeClock {
  constructor(public nowMs: number) {}
  readonly read = (): number => this.nowMs;
}

function limiterAt(startMs: number, overrides: Partial<RateLimitConfig> = {}): { limiter: RateLimiter; clock: FakeClock } {
  const clock = new FakeClock(startMs);
  return { limiter: new RateLimiter({ ...DEFAULT_RATE_LIMITS, ...overrides }, clock.read), clock };
}

/** Strikes `count` times, 1 ms apart, returning the last strike's answer. */
function strikeTimes(limiter: RateLimiter, clock: FakeClock, ip: string, count: number): ReturnType<RateLimiter['strike']> {
  let last: ReturnType<RateLimiter['strike']>;
  for (let i = 0; i < count; i++) {
    last = limiter.strike(ip);
    clock.nowMs += 1;
  }
  return last;
}

describe('RateLimiter.chargeWeight', () => {
  it('when weight reaches the limit exactly, then it passes; one more is refused and adds nothing', () => {
    const { limiter } = limiterAt(T0, { requestWeightPerMinute: 10 });
    expect(limiter.chargeWeight('ip:1.2.3.4', 5)).toEqual({ ok: true, used: 5 });
    expect(limiter.chargeWeight('ip:1.2.3.4', 5)).toEqual({ ok: true, used: 10 });
    expect(limiter.chargeWeight('ip:1.2.3.4', 1)).toEqual({ ok: false, used: 10, limit: 10, retryAfterSec: 60 });
    expect(limiter.usedWeight('ip:1.2.3.4')).toBe(10);
  });

  it('when a heavy request does not fit but a light one does, then only the heavy one is refused', () => {
    const { limiter } = limiterAt(T0, { requestWeightPerMinute: 10 });
    limiter.chargeWeight('key:k', 8);
    expect(limiter.chargeWeight('key:k', 5).ok).toBe(false);
    expect(limiter.chargeWeight('key:k', 2)).toEqual({ ok: true, used: 10 });
  });

  it('when the last millisecond of a minute passes, then the next minute starts at zero', () => {
    const { limiter, clock } = limiterAt(T0 + MINUTE - 1, { requestWeightPerMinute: 3 });
    limiter.chargeWeight('ip:a', 3);
    expect(limiter.chargeWeight('ip:a', 1)).toEqual({ ok: false, used: 3, limit: 3, retryAfterSec: 1 });
    clock.nowMs = T0 + MINUTE;
    expect(limiter.usedWeight('ip:a')).toBe(0);
    expect(limiter.chargeWeight('ip:a', 1)).toEqual({ ok: true, used: 1 });
  });

  it('when refused 1.5 s before the minute ends, then Retry-After is 2 whole seconds', () => {
    const { limiter } = limiterAt(T0 + MINUTE - 1500, { requestWeightPerMinute: 0 });
    expect(limiter.chargeWeight('ip:a', 1)).toEqual({ ok: false, used: 0, limit: 0, retryAfterSec: 2 });
  });

  it('when counters differ, then they are counted apart', () => {
    const { limiter } = limiterAt(T0, { requestWeightPerMinute: 1 });
    expect(limiter.chargeWeight('ip:a', 1).ok).toBe(true);
    expect(limiter.chargeWeight('key:a', 1).ok).toBe(true);
    expect(limiter.chargeWeight('ip:a', 1).ok).toBe(false);
  });

  it('when the operator raises the limit, then the next request uses the new value', () => {
    const { limiter } = limiterAt(T0, { requestWeightPerMinute: 1 });
    limiter.chargeWeight('ip:a', 1);
    expect(limiter.chargeWeight('ip:a', 1).ok).toBe(false);
    limiter.config.requestWeightPerMinute = 2;
    expect(limiter.chargeWeight('ip:a', 1)).toEqual({ ok: true, used: 2 });
  });

  it('when the weight is not a count, then it is a programming error', () => {
    const { limiter } = limiterAt(T0);
    expect(() => limiter.chargeWeight('ip:a', -1)).toThrow(RangeError);
    expect(() => limiter.chargeWeight('ip:a', 1.5)).toThrow(RangeError);
  });
});

describe('RateLimiter.chargeOrder', () => {
  it('when the 21st order comes in the same second, then it is refused on SECOND and not counted', () => {
    const { limiter, clock } = limiterAt(T0 + 400);
    for (let i = 1; i <= 20; i++) expect(limiter.chargeOrder('k')).toEqual({ ok: true, countSecond: i, countDay: i });
    clock.nowMs = T0 + 999;
    expect(limiter.chargeOrder('k')).toEqual({
      ok: false,
      countSecond: 20,
      countDay: 20,
      exceeded: 'SECOND',
      limit: 20,
      retryAfterSec: 1,
    });
    clock.nowMs = T0 + 1000;
    expect(limiter.chargeOrder('k')).toEqual({ ok: true, countSecond: 1, countDay: 21 });
  });

  it('when the day is full, then DAY is reported with the seconds to UTC midnight, and midnight resets it', () => {
    const { limiter, clock } = limiterAt(T0 + DAY - 10_500, { ordersPerDay: 2 });
    limiter.chargeOrder('k');
    clock.nowMs += 1000;
    limiter.chargeOrder('k');
    clock.nowMs += 1000;
    expect(limiter.chargeOrder('k')).toEqual({
      ok: false,
      countSecond: 0,
      countDay: 2,
      exceeded: 'DAY',
      limit: 2,
      retryAfterSec: 9,
    });
    clock.nowMs = T0 + DAY;
    expect(limiter.chargeOrder('k')).toEqual({ ok: true, countSecond: 1, countDay: 1 });
  });

  it('when both windows are full, then DAY is reported, the longer wait', () => {
    const { limiter } = limiterAt(T0, { ordersPerDay: 1, ordersPerSecond: 1 });
    limiter.chargeOrder('k');
    const refusal = limiter.chargeOrder('k');
    expect(refusal.ok === false && refusal.exceeded).toBe('DAY');
  });

  it('when keys differ, then their orders are counted apart', () => {
    const { limiter } = limiterAt(T0, { ordersPerSecond: 1 });
    expect(limiter.chargeOrder('a').ok).toBe(true);
    expect(limiter.chargeOrder('b').ok).toBe(true);
    expect(limiter.chargeOrder('a').ok).toBe(false);
  });
});

describe('RateLimiter bans', () => {
  it('when the 20th strike falls within 60 s, then the IP is banned for 2 minutes', () => {
    const { limiter, clock } = limiterAt(T0);
    expect(strikeTimes(limiter, clock, '1.2.3.4', 19)).toBeUndefined();
    expect(limiter.banStatus('1.2.3.4')).toBeUndefined();
    clock.nowMs = T0 + 59_999;
    expect(limiter.strike('1.2.3.4')).toEqual({ bannedUntil: T0 + 59_999 + 120_000, retryAfterSec: 120 });
    expect(limiter.banStatus('1.2.3.4')).toEqual({ bannedUntil: T0 + 179_999, retryAfterSec: 120 });
    expect(limiter.banStatus('1.2.3.5')).toBeUndefined();
  });

  it('when the first strike is 60 s old, then it no longer counts', () => {
    const { limiter, clock } = limiterAt(T0);
    strikeTimes(limiter, clock, 'ip', 19);
    clock.nowMs = T0 + 60_000;
    expect(limiter.strike('ip')).toBeUndefined();
    expect(limiter.strike('ip')).toEqual({ bannedUntil: T0 + 60_000 + 120_000, retryAfterSec: 120 });
  });

  it('when the ban ends, then the IP is free again, and at its last millisecond it is not', () => {
    const { limiter, clock } = limiterAt(T0);
    const ban = strikeTimes(limiter, clock, 'ip', 20);
    if (ban === undefined) throw new Error('expected a ban');
    clock.nowMs = ban.bannedUntil - 1;
    expect(limiter.banStatus('ip')).toEqual({ bannedUntil: ban.bannedUntil, retryAfterSec: 1 });
    clock.nowMs = ban.bannedUntil;
    expect(limiter.banStatus('ip')).toBeUndefined();
  });

  it('when bans follow each other, then they last 2, 4, 8 … minutes and 3 days from the 13th', () => {
    const { limiter, clock } = limiterAt(T0);
    const durations: number[] = [];
    for (let n = 1; n <= 14; n++) {
      const start = clock.nowMs + 19;
      const ban = strikeTimes(limiter, clock, 'ip', 20);
      if (ban === undefined) throw new Error(`expected ban ${n}`);
      durations.push(ban.bannedUntil - start);
      clock.nowMs = ban.bannedUntil + 1000;
    }
    const minutes = durations.slice(0, 12).map((ms) => ms / MINUTE);
    expect(minutes).toEqual([2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]);
    expect(durations.slice(12)).toEqual([259_200_000, 259_200_000]);
  });

  it('when 24 h pass after a ban ends without a new one, then the next ban is the first again', () => {
    const { limiter, clock } = limiterAt(T0);
    const first = strikeTimes(limiter, clock, 'ip', 20);
    if (first === undefined) throw new Error('expected a ban');
    const secondStart = first.bannedUntil + DAY - 100;
    clock.nowMs = secondStart;
    const second = strikeTimes(limiter, clock, 'ip', 20);
    if (second === undefined) throw new Error('expected a ban');
    expect(second.bannedUntil - (secondStart + 19)).toBe(4 * MINUTE);
    // The strikes straddle the 24 h mark: the 20th, 9 ms after it, starts a first ban.
    const thirdStart = second.bannedUntil + DAY - 10;
    clock.nowMs = thirdStart;
    const third = strikeTimes(limiter, clock, 'ip', 20);
    if (third === undefined) throw new Error('expected a ban');
    expect(third.bannedUntil - (thirdStart + 19)).toBe(2 * MINUTE);
    expect(limiter.listBans()).toEqual([{ ip: 'ip', bannedUntil: third.bannedUntil, banCount: 1 }]);
  });

  it('when banned, then further strikes neither extend the ban nor count', () => {
    const { limiter, clock } = limiterAt(T0);
    const ban = strikeTimes(limiter, clock, 'ip', 20);
    expect(strikeTimes(limiter, clock, 'ip', 30)).toEqual({ bannedUntil: ban?.bannedUntil, retryAfterSec: 120 });
    expect(limiter.listBans()).toEqual([{ ip: 'ip', bannedUntil: ban?.bannedUntil, banCount: 1 }]);
  });

  it('when bans are listed, then only those in force appear, by IP', () => {
    const { limiter, clock } = limiterAt(T0);
    strikeTimes(limiter, clock, '10.0.0.2', 20);
    strikeTimes(limiter, clock, '10.0.0.1', 20);
    strikeTimes(limiter, clock, '10.0.0.3', 5);
    expect(limiter.listBans()).toEqual([
      { ip: '10.0.0.1', bannedUntil: T0 + 39 + 120_000, banCount: 1 },
      { ip: '10.0.0.2', bannedUntil: T0 + 19 + 120_000, banCount: 1 },
    ]);
    clock.nowMs = T0 + 19 + 120_000;
    expect(limiter.listBans().map((ban) => ban.ip)).toEqual(['10.0.0.1']);
  });

  it('when a ban is lifted, then the IP is free and its next ban is the first again', () => {
    const { limiter, clock } = limiterAt(T0);
    strikeTimes(limiter, clock, 'ip', 20);
    clock.nowMs += 200_000;
    strikeTimes(limiter, clock, 'ip', 20);
    expect(limiter.listBans()[0].banCount).toBe(2);
    expect(limiter.liftBan('ip')).toBe(true);
    expect(limiter.banStatus('ip')).toBeUndefined();
    expect(limiter.liftBan('ip')).toBe(false);
    const next = strikeTimes(limiter, clock, 'ip', 20);
    expect(limiter.listBans()).toEqual([{ ip: 'ip', bannedUntil: next?.bannedUntil, banCount: 1 }]);
    expect(next?.retryAfterSec).toBe(120);
  });

  it('when the operator lowers banStrikes, then the next strike uses the new threshold', () => {
    const { limiter, clock } = limiterAt(T0);
    strikeTimes(limiter, clock, 'ip', 5);
    limiter.config.banStrikes = 6;
    expect(limiter.strike('ip')).toEqual({ bannedUntil: T0 + 5 + 120_000, retryAfterSec: 120 });
  });
});

describe('RateLimiter memory', () => {
  it('when windows roll, then counters of past windows and forgotten IPs are dropped', () => {
    const { limiter, clock } = limiterAt(T0);
    limiter.chargeWeight('ip:a', 1);
    limiter.chargeOrder('k');
    strikeTimes(limiter, clock, 'ip', 3);
    const internals = limiter as unknown as { weights: Map<string, unknown>; orders: Map<string, unknown>; ips: Map<string, unknown> };
    expect([internals.weights.size, internals.orders.size, internals.ips.size]).toEqual([1, 1, 1]);
    clock.nowMs = T0 + MINUTE + 10;
    limiter.usedWeight('ip:b');
    expect([internals.weights.size, internals.orders.size, internals.ips.size]).toEqual([0, 1, 0]);
    clock.nowMs = T0 + DAY;
    limiter.usedWeight('ip:b');
    expect(internals.orders.size).toBe(0);
  });

  it('when an IP was banned, then it is remembered until 24 h after the ban ends', () => {
    const { limiter, clock } = limiterAt(T0);
    const ban = strikeTimes(limiter, clock, 'ip', 20);
    const internals = limiter as unknown as { ips: Map<string, unknown> };
    clock.nowMs = (ban?.bannedUntil ?? 0) + DAY - 1;
    limiter.usedWeight('x');
    expect(internals.ips.size).toBe(1);
    clock.nowMs += MINUTE;
    limiter.usedWeight('x');
    expect(internals.ips.size).toBe(0);
  });
});
