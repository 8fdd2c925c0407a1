/**
 * Bans as journaled state, seen from one node's limiter: a ban a strike starts is refused here at
 * once and handed to `onBan`; the journal's bans (`followBans`) are refused too, whichever node
 * started them; a failed `onBan` is sent again later.
 */
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_RATE_LIMITS, followBans, RateLimiter, type Ban, type RateLimiterOptions } from '../../../../src/api/auth/rate-limiter.js';
import { emptyDerivedRows, type Command, type StampedCommand } from '../../../../src/core/types.js';
import { BAN_MEMORY_MS, IpBanModule } from '../../../../src/exchange/ip-ban-module.js';
import type { CommitInfo } from '../../../../src/exchange/sequencer.js';

// A UTC midnight.
const T0 = 1_699_920_000_000;
const BASE_MS = DEFAULT_RATE_LIMITS.banBaseMs;

class FakeClock {
  constructor(public nowMs: number) {}
  readonly read = (): number => this.nowMs;
}

/** The ban module driven as the sequencer drives it: each batch stamped with the clock's time. */
class Journal {
  readonly bans = new IpBanModule();
  private seq = 0;

  constructor(private readonly clock: FakeClock) {}

  commit(...commands: Command[]): CommitInfo {
    const ts = this.clock.nowMs;
    const rows = emptyDerivedRows();
    const stamped: StampedCommand[] = [];
    const results: unknown[] = [];
    for (const command of commands) {
      this.seq++;
      results.push(this.bans.apply(command, { seq: this.seq, ts, rows, recordRows: true, recordFlows: true, touched: new Map() }));
      stamped.push({ seq: this.seq, ts, command });
    }
    return { size: stamped.length, commitMs: 0, commands: stamped, rows, results };
  }
}

/** A promise the test settles: what `onBan` answers. */
class Pending {
  readonly calls: Ban[] = [];
  private settle: { resolve: () => void; reject: (error: Error) => void }[] = [];

  readonly onBan = (ban: Ban): Promise<unknown> => {
    this.calls.push(ban);
    return new Promise<void>((resolve, reject) => this.settle.push({ resolve, reject }));
  };

  /** Settles the oldest call in flight. */
  async answer(outcome: 'ok' | Error): Promise<void> {
    const next = this.settle.shift();
    if (next === undefined) throw new Error('no onBan call in flight');
    if (outcome === 'ok') next.resolve();
    else next.reject(outcome);
    // The limiter's handlers run on the settled promise.
    await Promise.resolve();
    await Promise.resolve();
  }
}

function node(options: RateLimiterOptions = {}, overrides: Partial<typeof DEFAULT_RATE_LIMITS> = {}): { limiter: RateLimiter; clock: FakeClock } {
  const clock = new FakeClock(T0);
  return { limiter: new RateLimiter({ ...DEFAULT_RATE_LIMITS, banStrikes: 2, ...overrides }, clock.read, options), clock };
}

/** Two strikes, 1 ms apart (banStrikes 2 here): the second starts a ban. */
function earnBan(limiter: RateLimiter, clock: FakeClock, ip: string): void {
  limiter.strike(ip);
  clock.nowMs += 1;
  limiter.strike(ip);
}

describe('RateLimiter onBan', () => {
  it('when a strike starts a ban, then onBan gets it once and the address is refused before it is journaled', () => {
    const pending = new Pending();
    const { limiter, clock } = node({ onBan: pending.onBan });
    earnBan(limiter, clock, '203.0.113.7');
    expect(pending.calls).toEqual([{ ip: '203.0.113.7', bannedUntil: T0 + 1 + BASE_MS, banCount: 1 }]);
    expect(limiter.banStatus('203.0.113.7')).toEqual({ bannedUntil: T0 + 1 + BASE_MS, retryAfterSec: 120 });
    expect(limiter.listBans()).toEqual([{ ip: '203.0.113.7', bannedUntil: T0 + 1 + BASE_MS, banCount: 1 }]);
    limiter.strike('203.0.113.7');
    expect(pending.calls).toHaveLength(1);
  });

  it('when the struck name is no address, then its ban stays on this node and is not journaled', () => {
    const pending = new Pending();
    const { limiter, clock } = node({ onBan: pending.onBan });
    earnBan(limiter, clock, 'ip');
    expect(limiter.banStatus('ip')).toBeDefined();
    expect(pending.calls).toEqual([]);
  });

  it('when onBan fails, then it is told, the address stays refused here, and the ban is sent again on a strike 1 s later, not sooner', async () => {
    const pending = new Pending();
    const failures: Ban[] = [];
    const { limiter, clock } = node({ onBan: pending.onBan, onBanFailed: (ban) => failures.push(ban) });
    earnBan(limiter, clock, '203.0.113.7');
    const ban = { ip: '203.0.113.7', bannedUntil: T0 + 1 + BASE_MS, banCount: 1 };
    await pending.answer(new Error('no leader'));
    expect(failures).toEqual([ban]);
    expect(limiter.banStatus('203.0.113.7')).toBeDefined();
    // Strikes of other addresses, one each (two would ban them).
    clock.nowMs += 999;
    limiter.strike('198.51.100.1');
    expect(pending.calls).toEqual([ban]);
    clock.nowMs += 1;
    limiter.strike('198.51.100.2');
    expect(pending.calls).toEqual([ban, ban]);
    await pending.answer('ok');
    clock.nowMs += 5000;
    limiter.strike('198.51.100.3');
    expect(pending.calls).toHaveLength(2);
  });

  it('when the banned address knocks after a failed onBan, then the ban is sent again, one at a time and at most once a second', async () => {
    const pending = new Pending();
    const { limiter, clock } = node({ onBan: pending.onBan });
    earnBan(limiter, clock, '203.0.113.7');
    await pending.answer(new Error('disk full'));
    limiter.banStatus('203.0.113.7');
    expect(pending.calls).toHaveLength(1);
    clock.nowMs += 1000;
    for (let knock = 0; knock < 50; knock++) expect(limiter.banStatus('203.0.113.7')).toBeDefined();
    expect(pending.calls).toHaveLength(2);
    await pending.answer(new Error('disk full'));
    clock.nowMs += 1000;
    limiter.banStatus('203.0.113.7');
    expect(pending.calls).toHaveLength(3);
  });

  it('when onBan throws instead of rejecting, then the strike still answers the ban and the failure is told', () => {
    const failures: Ban[] = [];
    const { limiter, clock } = node({
      onBan: () => {
        throw new Error('not wired yet');
      },
      onBanFailed: (ban) => failures.push(ban),
    });
    limiter.strike('203.0.113.7');
    clock.nowMs += 1;
    expect(limiter.strike('203.0.113.7')).toEqual({ bannedUntil: T0 + 1 + BASE_MS, retryAfterSec: 120 });
    return vi.waitUntil(() => failures.length === 1);
  });

  it('when a failed ban has ended, then it is not sent again', async () => {
    const pending = new Pending();
    const { limiter, clock } = node({ onBan: pending.onBan });
    earnBan(limiter, clock, '203.0.113.7');
    await pending.answer(new Error('no leader'));
    clock.nowMs = T0 + 1 + BASE_MS;
    limiter.strike('198.51.100.1');
    expect(pending.calls).toHaveLength(1);
  });
});

describe('followBans', () => {
  it('when the node starts, then the recovered bans are refused and listed', () => {
    const { limiter, clock } = node();
    const journal = new Journal(clock);
    journal.commit({ type: 'ipBanned', ip: '203.0.113.7', bannedUntil: T0 + 600_000, banCount: 3 });
    followBans(limiter, () => journal.bans);
    expect(limiter.banStatus('203.0.113.7')).toEqual({ bannedUntil: T0 + 600_000, retryAfterSec: 600 });
    expect(limiter.listBans()).toEqual([{ ip: '203.0.113.7', bannedUntil: T0 + 600_000, banCount: 3 }]);
  });

  it('when another node’s ban is committed, then this node refuses the address; when its lift is committed, it serves it again', () => {
    const { limiter, clock } = node();
    const journal = new Journal(clock);
    const follow = followBans(limiter, () => journal.bans);
    follow.onCommit(journal.commit({ type: 'ipBanned', ip: '2001:db8::7', bannedUntil: T0 + 120_000, banCount: 1 }));
    expect(limiter.banStatus('2001:db8::7')?.bannedUntil).toBe(T0 + 120_000);
    follow.onCommit(journal.commit({ type: 'ipBanLifted', ip: '2001:db8::7' }));
    expect(limiter.banStatus('2001:db8::7')).toBeUndefined();
    expect(limiter.listBans()).toEqual([]);
  });

  it('when a lift is committed, then a ban this node started and has not journaled yet ends too, and its count is forgotten', () => {
    const pending = new Pending();
    const { limiter, clock } = node({ onBan: pending.onBan });
    const journal = new Journal(clock);
    const follow = followBans(limiter, () => journal.bans);
    earnBan(limiter, clock, '203.0.113.7');
    follow.onCommit(journal.commit({ type: 'ipBanLifted', ip: '203.0.113.7' }));
    expect(limiter.banStatus('203.0.113.7')).toBeUndefined();
    clock.nowMs += 1;
    earnBan(limiter, clock, '203.0.113.7');
    expect(pending.calls.map((ban) => ban.banCount)).toEqual([1, 1]);
  });

  it('when bans are listed, then the journaled ones and this node’s own not yet journaled are both there, the later end and higher count of each', () => {
    const { limiter, clock } = node({ onBan: () => new Promise(() => undefined) });
    const journal = new Journal(clock);
    const follow = followBans(limiter, () => journal.bans);
    earnBan(limiter, clock, '203.0.113.7');
    follow.onCommit(journal.commit({ type: 'ipBanned', ip: '198.51.100.1', bannedUntil: T0 + 60_000, banCount: 2 }));
    follow.onCommit(journal.commit({ type: 'ipBanned', ip: '203.0.113.7', bannedUntil: T0 + 60_000, banCount: 4 }));
    expect(limiter.listBans()).toEqual([
      { ip: '198.51.100.1', bannedUntil: T0 + 60_000, banCount: 2 },
      { ip: '203.0.113.7', bannedUntil: T0 + 1 + BASE_MS, banCount: 4 },
    ]);
  });

  it('when a journaled ban from another node has ended, then the next ban earned here counts after it and lasts longer', () => {
    const pending = new Pending();
    const { limiter, clock } = node({ onBan: pending.onBan });
    const journal = new Journal(clock);
    const follow = followBans(limiter, () => journal.bans);
    follow.onCommit(journal.commit({ type: 'ipBanned', ip: '203.0.113.7', bannedUntil: T0 + 1000, banCount: 3 }));
    clock.nowMs = T0 + 1000;
    earnBan(limiter, clock, '203.0.113.7');
    expect(pending.calls).toEqual([{ ip: '203.0.113.7', bannedUntil: T0 + 1001 + 8 * BASE_MS, banCount: 4 }]);
  });

  it('when this node holds a count it should have forgotten, then a journaled ban does not lengthen by it', () => {
    const pending = new Pending();
    const { limiter, clock } = node({ onBan: pending.onBan });
    const journal = new Journal(clock);
    const follow = followBans(limiter, () => journal.bans);
    follow.onCommit(journal.commit({ type: 'ipBanned', ip: '203.0.113.7', bannedUntil: T0 + 1000, banCount: 5 }));
    // Forgotten, and the once-a-minute sweep has not run yet.
    clock.nowMs = T0 + 1000 + BAN_MEMORY_MS;
    follow.onCommit(journal.commit({ type: 'ipBanned', ip: '203.0.113.7', bannedUntil: clock.nowMs + 1000, banCount: 1 }));
    expect(limiter.listBans()).toEqual([{ ip: '203.0.113.7', bannedUntil: clock.nowMs + 1000, banCount: 1 }]);
  });

  it('when a ban this node failed to journal is covered by a journaled one, then it is not sent again', async () => {
    const pending = new Pending();
    const { limiter, clock } = node({ onBan: pending.onBan });
    const journal = new Journal(clock);
    const follow = followBans(limiter, () => journal.bans);
    earnBan(limiter, clock, '203.0.113.7');
    await pending.answer(new Error('no leader'));
    follow.onCommit(journal.commit({ type: 'ipBanned', ip: '203.0.113.7', bannedUntil: T0 + 1 + BASE_MS, banCount: 1 }));
    clock.nowMs += 2000;
    limiter.banStatus('203.0.113.7');
    expect(pending.calls).toHaveLength(1);
  });

  it('when a batch bans and then lifts an address, then it ends up free; lifts and then bans, then banned', () => {
    const { limiter, clock } = node();
    const journal = new Journal(clock);
    const follow = followBans(limiter, () => journal.bans);
    const ban: Command = { type: 'ipBanned', ip: '203.0.113.7', bannedUntil: T0 + 60_000, banCount: 1 };
    const lift: Command = { type: 'ipBanLifted', ip: '203.0.113.7' };
    follow.onCommit(journal.commit(ban, lift));
    expect(limiter.banStatus('203.0.113.7')).toBeUndefined();
    follow.onCommit(journal.commit(lift, ban));
    expect(limiter.banStatus('203.0.113.7')?.bannedUntil).toBe(T0 + 60_000);
  });
});
