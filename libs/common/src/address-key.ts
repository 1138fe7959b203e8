import { isIP } from 'node:net';

/**
 * The key a per-address limit counts a caller under: an IPv4 address as it is; an IPv6 address by its
 * /64 prefix (`2001:db8:1:2::/64`), since one subscriber or one cloud host is routinely given a whole /64
 * (2^64 addresses: keyed one by one, a /64 would be 2^64 windows); an IPv4-mapped IPv6 address
 * (`::ffff:1.2.3.4`, what a dual-stack socket reports for an IPv4 client) as the IPv4 it carries.
 * Anything else (no address, a proxy's unparsable value) is kept as given.
 */
export function addressKey(ip: string | undefined | null): string {
  if (!ip) return 'unknown';
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(bare) === 4) return bare;
  if (isIP(bare) !== 6) return ip;
  const groups = ipv6Groups(bare);
  // ::ffff:a.b.c.d (IPv4-mapped): the IPv4 it carries.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 as two groups). */
function ipv6Groups(ip: string): number[] {
  let text = ip.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const parse = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  if (tail === null) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}
