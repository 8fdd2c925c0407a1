import { describe, expect, it } from 'vitest';
import type { Command } from '../../../src/core/types.js';
import { BAN_MEMORY_MS, banAddress, type IpBan } from '../../../src/exchange/ip-ban-module.js';
import { restoreSnapshot, serializeCore, stateHash } from '../../../src/exchange/snapshot.js';
import { CoreHarness, replay, T0 } from '../../support/core-harness.js';

const banned = (ip: string, bannedUntil: number, banCount = 1): Command => ({ type: 'ipBanned', ip, bannedUntil, banCount });
const lifted = (ip: string): Command => ({ type: 'ipBanLifted', ip });

/** Stamps the next command exactly at `time`. */
function at(h: CoreHarness, time: number): CoreHarness {
  h.now = time;
  return h;
}

/** The entries in the module's scan order. */
const held = (h: CoreHarness): IpBan[] => [...h.core.bans.entries()].map((ban) => ({ ...ban }));

describe('IP bans as state of the core', () => {
  it('when a ban is journaled, then the core holds it as sent and answers it', () => {
    const h = new CoreHarness();
    expect(at(h, T0).ok(banned('203.0.113.7', T0 + 120_000))).toEqual({ ip: '203.0.113.7', bannedUntil: T0 + 120_000, banCount: 1 });
    expect(h.core.bans.entry('203.0.113.7')).toEqual({ ip: '203.0.113.7', bannedUntil: T0 + 120_000, banCount: 1 });
  });

  it('when two bans of one address come in either order, then the entry is the later end and the higher count', () => {
    const first = banned('2001:db8::7', T0 + 600_000, 2);
    const second = banned('2001:db8::7', T0 + 240_000, 3);
    const forwards = new CoreHarness();
    const backwards = new CoreHarness();
    forwards.ok(first);
    forwards.ok(second);
    backwards.ok(second);
    expect(backwards.ok(first)).toEqual({ ip: '2001:db8::7', bannedUntil: T0 + 600_000, banCount: 3 });
    expect(held(forwards)).toEqual([{ ip: '2001:db8::7', bannedUntil: T0 + 600_000, banCount: 3 }]);
    expect(stateHash(backwards.core)).toBe(stateHash(forwards.core));
  });

  it('when the same ban comes twice (a retried submission), then the second changes nothing', () => {
    const h = new CoreHarness();
    h.ok(banned('198.51.100.1', T0 + 120_000, 2));
    const before = held(h);
    h.ok(banned('198.51.100.1', T0 + 120_000, 2));
    expect(held(h)).toEqual(before);
  });

  it.each([
    ['::ffff:127.0.0.1', 'ip'],
    ['2001:DB8::1', 'ip'],
    ['0:0:0:0:0:0:0:1', 'ip'],
    ['not-an-ip', 'ip'],
    ['', 'ip'],
  ])('when the address %j is not in the spelling the limiter keys bans by, then -1130 names %s and nothing changes', (ip, member) => {
    const h = new CoreHarness();
    h.ok(banned('10.0.0.1', T0 + 1000));
    const before = stateHash(h.core);
    expect(h.refuse(banned(ip, T0 + 120_000)).toBody()).toEqual({ code: -1130, msg: `Data sent for paramter '${member}' is not valid.` });
    expect(h.refuse(lifted(ip)).toBody()).toEqual({ code: -1130, msg: `Data sent for paramter '${member}' is not valid.` });
    expect(stateHash(h.core)).toBe(before);
  });

  it.each([
    ['bannedUntil 0', banned('10.0.0.1', 0), 'bannedUntil'],
    ['bannedUntil 1.5', banned('10.0.0.1', 1.5), 'bannedUntil'],
    ['bannedUntil beyond 2^53', banned('10.0.0.1', 2 ** 53), 'bannedUntil'],
    ['a ban already forgotten at its stamp', banned('10.0.0.1', T0 - BAN_MEMORY_MS), 'bannedUntil'],
    ['banCount 0', banned('10.0.0.1', T0 + 1000, 0), 'banCount'],
    ['banCount 1.5', banned('10.0.0.1', T0 + 1000, 1.5), 'banCount'],
  ])('when %s is journaled, then it is refused (-1130 naming the member)', (_case, command, member) => {
    const h = new CoreHarness();
    at(h, T0);
    expect(h.refuse(command).toBody()).toEqual({ code: -1130, msg: `Data sent for paramter '${member}' is not valid.` });
    expect(h.core.bans.size).toBe(0);
  });

  it('when a ban ended 24 h before a command of the module minus 1 ms, then it is kept; at exactly 24 h it is dropped', () => {
    const end = T0 + 120_000;
    const kept = new CoreHarness();
    at(kept, T0).ok(banned('10.0.0.1', end, 3));
    at(kept, end + BAN_MEMORY_MS - 1).ok(banned('10.0.0.2', end + BAN_MEMORY_MS + 60_000));
    expect(kept.core.bans.entry('10.0.0.1')).toEqual({ ip: '10.0.0.1', bannedUntil: end, banCount: 3 });

    const dropped = new CoreHarness();
    at(dropped, T0).ok(banned('10.0.0.1', end, 3));
    at(dropped, end + BAN_MEMORY_MS).ok(lifted('10.0.0.2'));
    expect(dropped.core.bans.entry('10.0.0.1')).toBeUndefined();
    expect(dropped.core.bans.size).toBe(0);
  });

  it('when a forgotten entry is still held, then a new ban of the address starts from its own count, not the old one', () => {
    const h = new CoreHarness();
    // Four long bans in front take the command's four looks: the forgotten entry is met by the merge itself.
    at(h, T0);
    for (let n = 1; n <= 4; n++) h.ok(banned(`10.0.1.${n}`, T0 + 10 * BAN_MEMORY_MS));
    h.ok(banned('10.0.0.1', T0 + 1000, 5));
    const later = T0 + 1000 + BAN_MEMORY_MS;
    expect(at(h, later).ok(banned('10.0.0.1', later + 120_000, 1))).toEqual({ ip: '10.0.0.1', bannedUntil: later + 120_000, banCount: 1 });
    expect(held(h).map((ban) => ban.ip)).toEqual(['10.0.1.1', '10.0.1.2', '10.0.1.3', '10.0.1.4', '10.0.0.1']);
  });

  it('when many entries are forgotten, then each command drops at most 4 of them, and a ban still remembered goes to the back of the scan', () => {
    const h = new CoreHarness();
    at(h, T0).ok(banned('10.0.0.100', T0 + 10 * BAN_MEMORY_MS));
    for (let n = 1; n <= 10; n++) h.ok(banned(`10.0.0.${n}`, T0 + 1000));
    const later = T0 + 1000 + BAN_MEMORY_MS;
    // The scan order after the bans' own looks (each rotated the entries it met, all remembered then).
    const order = held(h).map((ban) => ban.ip);
    const forgottenLooked = order.slice(0, 4).filter((ip) => ip !== '10.0.0.100');
    at(h, later).ok(lifted('192.0.2.1'));
    expect(h.core.bans.size).toBe(11 - forgottenLooked.length);
    for (const ip of forgottenLooked) expect(h.core.bans.entry(ip)).toBeUndefined();
    h.ok(lifted('192.0.2.1'));
    h.ok(lifted('192.0.2.1'));
    expect(held(h).map((ban) => ban.ip)).toEqual(['10.0.0.100']);
  });

  it('when a ban is lifted, then it ends and its count is forgotten; the answer says whether one was in force', () => {
    const h = new CoreHarness();
    at(h, T0).ok(banned('10.0.0.1', T0 + 120_000, 4));
    expect(at(h, T0 + 1000).ok(lifted('10.0.0.1'))).toEqual({ ip: '10.0.0.1', lifted: true });
    expect(h.core.bans.entry('10.0.0.1')).toBeUndefined();
    expect(h.ok(lifted('10.0.0.1'))).toEqual({ ip: '10.0.0.1', lifted: false });
    h.ok(banned('10.0.0.2', T0 + 5000, 2));
    // Ended, still remembered: nothing was in force, but the count goes.
    expect(at(h, T0 + 5000).ok(lifted('10.0.0.2'))).toEqual({ ip: '10.0.0.2', lifted: false });
    expect(h.core.bans.size).toBe(0);
    expect(h.ok(banned('10.0.0.1', T0 + 240_000, 1))).toEqual({ ip: '10.0.0.1', bannedUntil: T0 + 240_000, banCount: 1 });
  });

  it('when the journal is replayed or a snapshot restored, then the bans, their scan order and the state hash are the same, and both go on alike', () => {
    const h = new CoreHarness();
    at(h, T0).ok(banned('10.0.0.100', T0 + 10 * BAN_MEMORY_MS, 7));
    for (let n = 1; n <= 9; n++) h.ok(banned(`10.0.0.${n}`, T0 + n * 1000, n));
    h.ok(banned('::1', T0 + 50_000, 2));
    h.ok(lifted('10.0.0.5'));
    at(h, T0 + 3000 + BAN_MEMORY_MS).ok(banned('10.0.0.20', T0 + 3000 + BAN_MEMORY_MS + 120_000));
    const replayed = replay(h.accepted);
    const restored = restoreSnapshot(serializeCore(h.core));
    expect(restored.current).toBe(true);
    for (const core of [replayed, restored.core]) {
      expect([...core.bans.entries()]).toEqual(held(h));
      expect(stateHash(core)).toBe(stateHash(h.core));
    }
    // Pruning goes on from the same scan order: one more day forgets every ban but the long one, alike on all three.
    const next = [h, new CoreHarness(replayed), new CoreHarness(restored.core)];
    const day = T0 + 4 * BAN_MEMORY_MS;
    for (const harness of next) for (let n = 0; n < 4; n++) at(harness, day + n).ok(lifted('192.0.2.1'));
    expect(held(next[0]).map((ban) => ban.ip)).toEqual(['10.0.0.100']);
    expect(next.map((harness) => stateHash(harness.core))).toEqual([stateHash(h.core), stateHash(h.core), stateHash(h.core)]);
  });

  it('when a snapshot is of version 5, from before bans were state, then it loads with none', () => {
    const h = new CoreHarness();
    h.ok(banned('10.0.0.1', T0 + 120_000));
    h.ok(lifted('10.0.0.1'));
    const v5 = JSON.parse(serializeCore(h.core)) as { version: number; modules: Record<string, unknown> };
    delete v5.modules.ipBans;
    const restored = restoreSnapshot(JSON.stringify({ ...v5, version: 5 }));
    expect(restored.current).toBe(false);
    expect(restored.core.bans.size).toBe(0);
    expect(stateHash(restored.core)).toBe(stateHash(h.core));
  });

  it('when a snapshot holds an address in another spelling, then it is refused rather than trusted', () => {
    const h = new CoreHarness();
    h.ok(banned('::1', T0 + 120_000));
    const image = JSON.parse(serializeCore(h.core)) as { modules: { ipBans: { entries: IpBan[] } } };
    image.modules.ipBans.entries[0].ip = '0:0:0:0:0:0:0:1';
    expect(() => restoreSnapshot(JSON.stringify(image))).toThrow('snapshot IP ban entry is malformed or repeated');
  });
});

describe('banAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:CB00:7107', '203.0.113.7'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['2001:DB8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['fe80::1%eth0', 'fe80::1%eth0'],
  ])('when the address is written %s, then a ban keeps it as %s', (text, ip) => {
    expect(banAddress(text)).toBe(ip);
  });

  it.each(['', 'not-an-ip', '300.1.2.3', '127.0.0.1/8', '127.0.0.1 ', '01.2.3.4'])('when the text %j is no address, then there is none', (text) => {
    expect(banAddress(text)).toBeUndefined();
  });
});
