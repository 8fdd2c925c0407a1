import { describe, expect, it } from 'vitest';
import { normalizePeerAddress, parseIpWhitelist, type IpMatcher } from '../../../../src/api/auth/ip-whitelist.js';

function matcherOf(entries: string[]): IpMatcher {
  const result = parseIpWhitelist(entries);
  if (!result.ok) throw new Error(`unexpected invalid entry ${result.invalidEntry}`);
  return result.matcher;
}

describe('parseIpWhitelist', () => {
  it('when the list is empty, then any address matches', () => {
    const matcher = matcherOf([]);
    expect(matcher.matches('203.0.113.9')).toBe(true);
    expect(matcher.matches('2001:db8::1')).toBe(true);
  });

  it('when an IPv4 address is listed, then only that address matches, also as an IPv4-mapped peer', () => {
    const matcher = matcherOf(['192.0.2.10']);
    expect(matcher.matches('192.0.2.10')).toBe(true);
    expect(matcher.matches('::ffff:192.0.2.10')).toBe(true);
    expect(matcher.matches('::FFFF:c000:20a')).toBe(true);
    expect(matcher.matches('192.0.2.11')).toBe(false);
  });

  it('when an IPv4 CIDR block is listed, then its edges match and the next address does not', () => {
    const matcher = matcherOf(['10.1.2.0/24']);
    expect(matcher.matches('10.1.2.0')).toBe(true);
    expect(matcher.matches('10.1.2.255')).toBe(true);
    expect(matcher.matches('10.1.3.0')).toBe(false);
  });

  it('when an IPv6 address is listed in a long form, then its short form matches', () => {
    const matcher = matcherOf(['2001:0DB8:0000:0000:0000:0000:0000:0001']);
    expect(matcher.matches('2001:db8::1')).toBe(true);
    expect(matcher.matches('2001:db8::2')).toBe(false);
  });

  it('when an IPv6 CIDR block is listed, then addresses inside match and outside do not', () => {
    const matcher = matcherOf(['2001:db8:abcd::/48']);
    expect(matcher.matches('2001:db8:abcd:ffff::1')).toBe(true);
    expect(matcher.matches('2001:db8:abce::1')).toBe(false);
  });

  it('when an entry is IPv4-mapped IPv6, then the IPv4 peer matches', () => {
    expect(matcherOf(['::ffff:1.2.3.4']).matches('1.2.3.4')).toBe(true);
    expect(matcherOf(['::ffff:10.0.0.0/104']).matches('10.200.0.1')).toBe(true);
    expect(matcherOf(['::ffff:10.0.0.0/104']).matches('11.0.0.1')).toBe(false);
  });

  it('when the peer address is not an address, then it does not match a non-empty list', () => {
    expect(matcherOf(['0.0.0.0/0']).matches('localhost')).toBe(false);
    expect(matcherOf(['0.0.0.0/0']).matches('')).toBe(false);
  });

  it('when an entry is invalid, then it is the one reported', () => {
    const invalid = ['1.2.3', '1.2.3.4/33', '1.2.3.4/', '1.2.3.4/-1', '2001:db8::/129', 'fe80::1%eth0', ' 1.2.3.4', 'example.com', '01.2.3.4'];
    for (const entry of invalid) {
      expect(parseIpWhitelist(['127.0.0.1', entry])).toEqual({ ok: false, invalidEntry: entry });
    }
  });
});

describe('normalizePeerAddress', () => {
  it('when the address is IPv4-mapped, then its IPv4 form is returned', () => {
    expect(normalizePeerAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
  });

  it('when the address is plain IPv4 or IPv6, then it is unchanged', () => {
    expect(normalizePeerAddress('127.0.0.1')).toBe('127.0.0.1');
    expect(normalizePeerAddress('::1')).toBe('::1');
  });
});
