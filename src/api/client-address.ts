/**
 * Whose request this is, for weights, bans, IP whitelists and socket quotas: the TCP peer, unless
 * the peer is one of the deployment's load balancers (BOURSE_TRUST_PROXY, docs/deployment.md
 * "Behind a load balancer"); then the address it names in X-Forwarded-For. The header is read from
 * its end, as proxies append to it: the first address that is not a trusted proxy is the client.
 */

import type { IncomingMessage } from 'node:http';
import { isIP, type BlockList } from 'node:net';
import { banAddress } from '../exchange/ip-ban-module.js';
import { normalizePeerAddress } from './auth/ip-whitelist.js';

/** Most X-Forwarded-For entries looked at: a chain of proxies is a few long, a longer header is a client's invention. */
const MAX_HOPS = 16;

export class ClientAddresses {
  constructor(private readonly trustedProxies: BlockList | undefined) {}

  /** The client's address of `request` (IPv4-mapped IPv6 written as IPv4). */
  of(request: IncomingMessage): string {
    let address = normalizePeerAddress(request.socket.remoteAddress ?? '');
    const trusted = this.trustedProxies;
    if (trusted === undefined || !isTrusted(trusted, address)) return address;
    const header = request.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
    for (let i = hops.length - 1, seen = 0; i >= 0 && seen < MAX_HOPS; i--, seen++) {
      // One spelling per address (2001:DB8::1 is 2001:db8::1), as a ban records it.
      const hop = banAddress(hops[i].trim());
      // A malformed entry ends the walk: what stands before it cannot be trusted either.
      if (hop === undefined) break;
      address = hop;
      if (!isTrusted(trusted, hop)) break;
    }
    return address;
  }
}

function isTrusted(list: BlockList, address: string): boolean {
  const version = isIP(address);
  return version !== 0 && list.check(address, version === 4 ? 'ipv4' : 'ipv6');
}
