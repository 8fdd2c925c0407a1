/**
 * A key's IP whitelist (docs/spot-api.md "API keys", docs/operating.md "Users, keys and sub-accounts"): IPv4 and IPv6 addresses and CIDR
 * blocks, matched against the TCP peer address. An empty list admits any address.
 */
import { BlockList, isIP } from 'node:net';

export interface IpMatcher {
  matches(ip: string): boolean;
}

export type IpWhitelistResult = { ok: true; matcher: IpMatcher } | { ok: false; invalidEntry: string };

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;
const PREFIX = /^[0-9]{1,3}$/;

/**
 * The IPv4 form of an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, what a dual-stack socket
 * reports for an IPv4 client), else the address unchanged. Also the key for counters and bans.
 */
export function normalizePeerAddress(ip: string): string {
  const mapped = MAPPED_IPV4.exec(ip);
  return mapped !== null && isIP(mapped[1]) === 4 ? mapped[1] : ip;
}

function family(ip: string): 'ipv4' | 'ipv6' | undefined {
  // Zone ids (`fe80::1%eth0`) name an interface of this host, not a client: refused.
  if (ip.includes('%')) return undefined;
  const version = isIP(ip);
  if (version === 4) return 'ipv4';
  if (version === 6) return 'ipv6';
  return undefined;
}

/** Mapped entries (`::ffff:10.0.0.0/104`) stay IPv6: BlockList matches them against IPv4 peers too. */
function addEntry(list: BlockList, entry: string): boolean {
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const kind = family(address);
  if (kind === undefined) return false;
  if (slash < 0) {
    list.addAddress(address, kind);
    return true;
  }
  const prefixText = entry.slice(slash + 1);
  if (!PREFIX.test(prefixText)) return false;
  const prefix = Number(prefixText);
  if (prefix > (kind === 'ipv4' ? 32 : 128)) return false;
  list.addSubnet(address, prefix, kind);
  return true;
}

/** Validates the entries and builds a matcher; the first invalid entry is reported (-1130 upstream). */
export function parseIpWhitelist(entries: readonly string[]): IpWhitelistResult {
  if (entries.length === 0) return { ok: true, matcher: { matches: () => true } };
  const list = new BlockList();
  for (const entry of entries) {
    if (!addEntry(list, entry)) return { ok: false, invalidEntry: entry };
  }
  return {
    ok: true,
    matcher: {
      matches(ip: string): boolean {
        const peer = normalizePeerAddress(ip);
        const kind = family(peer);
        return kind !== undefined && list.check(peer, kind);
      },
    },
  };
}
