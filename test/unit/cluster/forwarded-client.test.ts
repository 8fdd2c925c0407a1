import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ForwardedClient } from '../../../src/cluster/forwarded-client.js';

const key = randomBytes(32);
const signer = new ForwardedClient(key);
const NOW = 1_800_000_000_000;

describe("a follower's signature of the client address on a forwarded write", () => {
  it('when the leader checks a fresh signature of the same request, then it reads the address', () => {
    const header = signer.sign('203.0.113.9', 'POST', '/openapi/v1/order?x=1', NOW);
    expect(new ForwardedClient(key).verify(header, 'POST', '/openapi/v1/order?x=1', NOW + 5_000)).toBe('203.0.113.9');
    expect(signer.verify(signer.sign('2001:db8::7', 'DELETE', '/v2/a', NOW), 'DELETE', '/v2/a', NOW)).toBe('2001:db8::7');
  });

  it('when anything signed differs, or the signature is old, then the address is not believed', () => {
    const header = signer.sign('203.0.113.9', 'POST', '/openapi/v1/order', NOW);
    expect(signer.verify(header, 'PUT', '/openapi/v1/order', NOW)).toBeUndefined();
    expect(signer.verify(header, 'POST', '/openapi/v1/order?', NOW)).toBeUndefined();
    expect(signer.verify(header.replace('203.0.113.9', '203.0.113.8'), 'POST', '/openapi/v1/order', NOW)).toBeUndefined();
    expect(signer.verify(header, 'POST', '/openapi/v1/order', NOW + 61_000)).toBeUndefined();
    expect(new ForwardedClient(randomBytes(32)).verify(header, 'POST', '/openapi/v1/order', NOW)).toBeUndefined();
    expect(signer.verify('203.0.113.9', 'POST', '/openapi/v1/order', NOW)).toBeUndefined();
    expect(signer.verify(`${header}x`, 'POST', '/openapi/v1/order', NOW)).toBeUndefined();
  });
});
