import { describe, expect, it } from 'vitest';
import { BourseError } from '../../../../src/core/errors.js';
import { IpSocketQuota, refuseOverQuota } from '../../../../src/api/ws/socket-quotas.js';

describe('socket quotas (one per-IP count for both streams)', () => {
  it('when an IP has its maximum open, then it is full, other IPs are not, and a close makes room again', () => {
    const quota = new IpSocketQuota(2);
    quota.add('10.0.0.1');
    expect(quota.isFull('10.0.0.1')).toBe(false);
    quota.add('10.0.0.1');
    expect(quota.isFull('10.0.0.1')).toBe(true);
    expect(quota.isFull('10.0.0.2')).toBe(false);
    quota.remove('10.0.0.1');
    expect(quota.isFull('10.0.0.1')).toBe(false);
  });

  it('when a socket is taken off that was never counted, then it is refused as a bookkeeping error', () => {
    const quota = new IpSocketQuota(2);
    quota.add('10.0.0.1');
    quota.remove('10.0.0.1');
    expect(() => quota.remove('10.0.0.1')).toThrow('no socket of 10.0.0.1 is counted');
  });

  it('when the maximum is not a positive count, then the quota is refused', () => {
    expect(() => new IpSocketQuota(0)).toThrow(RangeError);
    expect(() => new IpSocketQuota(1.5)).toThrow(RangeError);
  });

  it('when a handshake is over a quota, then the IP gets a strike before the 429 with Retry-After 1', () => {
    const calls: string[] = [];
    const error = new BourseError('TOO_MANY_REQUESTS', [2, 'IP']);
    refuseOverQuota(
      (refused, reason, headers) => calls.push(`refuse ${refused?.code} ${reason} ${JSON.stringify(headers)}`),
      { strike: (ip) => void calls.push(`strike ${ip}`) },
      '10.0.0.1',
      error,
      '2 user streams per IP already open',
    );
    expect(calls).toEqual(['strike 10.0.0.1', `refuse ${error.code} 2 user streams per IP already open {"Retry-After":"1"}`]);
  });
});
