import type { BourseError } from '../../core/errors.js';
import type { RateLimiter } from '../auth/rate-limiter.js';
import type { RefuseUpgrade } from './upgrade-router.js';

/**
 * Open sockets per client IP of one stream (docs/websocket.md "Limits": the user stream and the
 * market stream, v1 and v2 together, each have their own). A socket counts from `add` to `remove`.
 */
export class IpSocketQuota {
  private readonly openByIp = new Map<string, number>();

  constructor(readonly maxPerIp: number) {
    if (!Number.isSafeInteger(maxPerIp) || maxPerIp < 1) throw new RangeError(`maxPerIp must be a positive count: ${maxPerIp}`);
  }

  /** True when `ip` has its maximum open: one more must be refused. */
  isFull(ip: string): boolean {
    return (this.openByIp.get(ip) ?? 0) >= this.maxPerIp;
  }

  add(ip: string): void {
    this.openByIp.set(ip, (this.openByIp.get(ip) ?? 0) + 1);
  }

  /** Takes off one socket `add` counted (exactly once per socket). */
  remove(ip: string): void {
    const open = this.openByIp.get(ip);
    if (open === undefined) throw new Error(`IpSocketQuota.remove: no socket of ${ip} is counted`);
    if (open > 1) this.openByIp.set(ip, open - 1);
    else this.openByIp.delete(ip);
  }
}

/** Refuses a handshake over a socket quota (per IP or per listenKey): a strike against the IP, then 429 with `Retry-After`. */
export function refuseOverQuota(refuse: RefuseUpgrade, limiter: Pick<RateLimiter, 'strike'>, ip: string, error: BourseError, reason: string): void {
  limiter.strike(ip);
  refuse(error, reason, { 'Retry-After': '1' });
}
