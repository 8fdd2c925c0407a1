import { describe, expect, it } from 'vitest';
import { isBlockedAddress } from '../../../src/webhooks/target-guard.js';

describe('isBlockedAddress (docs/webhooks.md "Registering" targets refused with BOURSE_SANDBOX=0)', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback /8'],
    ['10.1.2.3', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12, first'],
    ['172.31.255.254', 'private 172.16/12, last'],
    ['192.168.0.10', 'private 192.168/16'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['0.0.0.0', 'unspecified'],
    ['::1', 'IPv6 loopback'],
    ['0:0:0:0:0:0:0:1', 'IPv6 loopback, long form'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['febf:ffff::1', 'IPv6 link-local, top of fe80::/10'],
    ['fc00::1', 'unique-local fc00::/7'],
    ['fd12:3456::1', 'unique-local fd'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback in hex words (as URL writes it)'],
    ['::ffff:a00:1', 'IPv4-mapped private in hex words'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['not-an-ip', 'not an address'],
  ])('when the address is %s (%s), then it is blocked', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    ['8.8.8.8'],
    ['172.15.255.255'],
    ['172.32.0.1'],
    ['192.169.0.1'],
    ['169.255.0.1'],
    ['11.0.0.1'],
    ['2001:4860:4860::8888'],
    ['fec0::1'],
    ['::ffff:8.8.8.8'],
    ['::ffff:808:808'],
    ['2606:4700::6810:85e5'],
  ])('when the address is public (%s), then it is allowed', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});
