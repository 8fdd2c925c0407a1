import { isIP } from 'node:net';

/**
 * docs/webhooks.md "Registering" with `BOURSE_SANDBOX=0`: targets that resolve to loopback, private, link-local or
 * unique-local addresses (or the unspecified one) are not sent to, so that a merchant's URL
 * cannot reach into the operator's own network.
 */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blockedV4(address);
  if (family !== 6) return true;
  const words = expandV6(address.toLowerCase());
  // IPv4-mapped (::ffff:a.b.c.d, also written ::ffff:7f00:1) and IPv4-compatible (::a.b.c.d) reach the IPv4 address.
  if (words.slice(0, 5).every((w) => w === 0) && (words[5] === 0xffff || (words[5] === 0 && words[6] !== 0))) {
    return blockedV4(`${words[6] >> 8}.${words[6] & 0xff}.${words[7] >> 8}.${words[7] & 0xff}`);
  }
  if (words.every((w) => w === 0)) return true; // ::
  if (words.slice(0, 7).every((w) => w === 0) && words[7] === 1) return true; // ::1
  if ((words[0] & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((words[0] & 0xfe00) === 0xfc00) return true; // fc00::/7 unique-local
  return false;
}

function blockedV4(address: string): boolean {
  const [a, b] = address.split('.').map(Number);
  return (
    a === 0 || // this network, incl. 0.0.0.0
    a === 127 || // loopback
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) || // private (RFC 1918)
    (a === 169 && b === 254) // link-local
  );
}

/** Eight 16-bit words of an IPv6 address in any valid notation (an embedded IPv4 tail included). */
function expandV6(address: string): number[] {
  let text = address.split('%')[0];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4 !== null) {
    const [a, b, c, d] = v4[1].split('.').map(Number);
    text = `${text.slice(0, -v4[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((w) => parseInt(w, 16));
}
