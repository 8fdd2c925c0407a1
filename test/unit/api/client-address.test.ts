import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ClientAddresses } from '../../../src/api/client-address.js';
import { ConfigError, loadConfig } from '../../../src/config.js';

function request(peer: string, forwardedFor?: string | string[]): IncomingMessage {
  return { socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } } as unknown as IncomingMessage;
}

const behind = (trust: string): ClientAddresses => new ClientAddresses(loadConfig({ BOURSE_TRUST_PROXY: trust }).trustProxy);

describe('the client address behind a load balancer (BOURSE_TRUST_PROXY)', () => {
  it('when no proxy is trusted, then the TCP peer is the client whatever X-Forwarded-For says', () => {
    const addresses = new ClientAddresses(loadConfig({}).trustProxy);
    expect(addresses.of(request('::ffff:198.51.100.7', '203.0.113.1'))).toBe('198.51.100.7');
  });

  it('when the peer is a trusted proxy, then the client is the last untrusted address of X-Forwarded-For', () => {
    const addresses = behind('10.0.0.5, 10.1.0.0/16');
    expect(addresses.of(request('10.0.0.5', '203.0.113.1'))).toBe('203.0.113.1');
    // A client may send its own header: only what the trusted hops appended counts.
    expect(addresses.of(request('10.0.0.5', '198.51.100.99, 203.0.113.1'))).toBe('203.0.113.1');
    expect(addresses.of(request('10.0.0.5', ['198.51.100.99', '203.0.113.1, 10.1.2.3']))).toBe('203.0.113.1');
    expect(addresses.of(request('::ffff:10.0.0.5', '::ffff:203.0.113.1'))).toBe('203.0.113.1');
    expect(addresses.of(request('10.0.0.5', '2001:DB8:0:0::1'))).toBe('2001:db8::1');
  });

  it('when the peer is not trusted, or the header is absent or malformed, then the peer (or the last good hop) is the client', () => {
    const addresses = behind('10.0.0.5');
    expect(addresses.of(request('198.51.100.7', '203.0.113.1'))).toBe('198.51.100.7');
    expect(addresses.of(request('10.0.0.5'))).toBe('10.0.0.5');
    expect(addresses.of(request('10.0.0.5', 'not-an-address'))).toBe('10.0.0.5');
    expect(addresses.of(request('10.0.0.5', '203.0.113.1, bogus, 10.0.0.5'))).toBe('10.0.0.5');
  });

  it('when BOURSE_TRUST_PROXY is not a list of addresses or blocks, then the start is refused', () => {
    for (const bad of ['10.0.0.5,', 'lb.internal', '10.0.0.0/33', '10.0.0.0/8/1', '2001:db8::/129', '10.0.0.0/x']) {
      expect(() => loadConfig({ BOURSE_TRUST_PROXY: bad }), bad).toThrow(ConfigError);
    }
    expect(loadConfig({ BOURSE_TRUST_PROXY: '2001:db8::/32' }).trustProxy?.check('2001:db8::1', 'ipv6')).toBe(true);
  });
});
