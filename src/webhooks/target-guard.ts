import { BlockList, isIP } from 'node:net';

/**
 * IPv4 ranges a webhook is never sent to in production: IANA's IPv4 special-purpose registry
 * (RFC 6890 and its updates) where it says "not globally reachable", plus multicast and the
 * deprecated 6to4 relay anycast, where no receiver lives either.
 */
const BLOCKED_V4: readonly (readonly [network: string, prefix: number])[] = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 included
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // shared address space of carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services included
  ['172.16.0.0', 12], // private (RFC 1918)
  ['192.0.0.0', 24], // IETF protocol assignments (its two anycast addresses serve no webhooks)
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // 6to4 relay anycast, deprecated (RFC 7526)
  ['192.168.0.0', 16], // private (RFC 1918)
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, 255.255.255.255 broadcast included
];

/** IPv6 ranges likewise, from IANA's IPv6 special-purpose registry, plus multicast. */
const BLOCKED_V6: readonly (readonly [network: string, prefix: number])[] = [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use IPv4/IPv6 translation (RFC 8215)
  ['100::', 64], // discard-only
  ['100:0:0:1::', 64], // dummy prefix
  // IETF protocol assignments, Teredo and benchmarking included; the few parts IANA calls globally
  // reachable are anycast services and identifiers (PCP, TURN, AMT, AS112, ORCHIDv2), never a receiver.
  ['2001::', 23],
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: the packet goes on to the IPv4 address inside, which may be a private one
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment-routing SIDs
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
];

/**
 * IPv6 prefixes whose last 32 bits are an IPv4 address the packet goes on to: the well-known
 * NAT64 prefix (RFC 6052) and the deprecated IPv4-compatible form (`::a.b.c.d`). Each blocked IPv4
 * range is blocked inside them too, so `64:ff9b::7f00:1` does not reach 127.0.0.1 through a NAT64
 * gateway, while `64:ff9b::808:808` (a DNS64 answer for a public host) still works. The
 * IPv4-mapped form (`::ffff:a.b.c.d`) needs no entry: `BlockList` checks it as the IPv4 address.
 */
const IPV4_CARRIERS = ['64:ff9b::', '::'];

const BLOCKED = new BlockList();
for (const [network, prefix] of BLOCKED_V4) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
  for (const carrier of IPV4_CARRIERS) BLOCKED.addSubnet(`${carrier}${network}`, 96 + prefix, 'ipv6');
}
for (const [network, prefix] of BLOCKED_V6) BLOCKED.addSubnet(network, prefix, 'ipv6');

/**
 * docs/webhooks.md "Registering" with `BOURSE_SANDBOX=0`: a target whose address is in one of the
 * ranges above is not sent to, so that a merchant's URL cannot reach into the operator's own
 * network. Anything that is not an IP address is blocked too.
 */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  // A zone (`fe80::1%eth0`) names the interface, not the address.
  if (family === 6) return BLOCKED.check(address.split('%', 1)[0], 'ipv6');
  return true;
}
