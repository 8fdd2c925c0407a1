/**
 * The client's address on a write a follower forwards (docs/deployment.md "Writes through any
 * node"): the leader counts weights and bans under it, so it must not be a header any client could
 * send. It is signed with a key derived from the deployment's secret-sealing key, which every node
 * holds and no client does, and bound to the request's method, target and a time.
 */

import { createHmac, timingSafeEqual } from 'node:crypto';

export const FORWARDED_CLIENT_HEADER = 'x-bourse-forwarded-client';
/** How old a signature may be (clock differences between nodes included). */
const MAX_AGE_MS = 60_000;

export class ForwardedClient {
  private readonly key: Buffer;

  constructor(secretKey: Buffer) {
    // A key of its own: a forwarding signature can never be mistaken for anything sealed with the secret key.
    this.key = createHmac('sha256', secretKey).update('bourse forwarded client v1').digest();
  }

  /** The header's value: `<address> <time ms> <signature>`. */
  sign(address: string, method: string, target: string, nowMs: number): string {
    return `${address} ${nowMs} ${this.mac(address, method, target, nowMs)}`;
  }

  /** The client's address if `header` is a fresh signature of this request by a node of the deployment. */
  verify(header: string, method: string, target: string, nowMs: number): string | undefined {
    const parts = header.split(' ');
    if (parts.length !== 3) return undefined;
    const [address, time, mac] = parts;
    const timeMs = Number(time);
    if (!Number.isSafeInteger(timeMs) || Math.abs(nowMs - timeMs) > MAX_AGE_MS) return undefined;
    const expected = Buffer.from(this.mac(address, method, target, timeMs));
    const given = Buffer.from(mac);
    return given.length === expected.length && timingSafeEqual(given, expected) ? address : undefined;
  }

  private mac(address: string, method: string, target: string, timeMs: number): string {
    return createHmac('sha256', this.key).update(`${address}\n${timeMs}\n${method}\n${target}`).digest('base64url');
  }
}
