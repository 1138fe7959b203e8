import ipaddr from 'ipaddr.js';

/**
 * Classifies an IP address for outbound calls. Only globally routable unicast passes.
 * IPv4 embedded in IPv6 (mapped, compatible, NAT64, 6to4) is unwrapped and judged as IPv4,
 * so `[::ffff:7f00:1]` is loopback, whatever its spelling.
 */
export function blockedAddressReason(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return 'unparseable address';
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const embedded = embeddedIpv4(v6);
    if (embedded) return blockedAddressReason(embedded.toString());
  }
  const range = parsed.range();
  return range === 'unicast' ? null : range;
}

function embeddedIpv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const range = v6.range();
  const bytes = v6.toByteArray();
  if (range === 'ipv4Mapped') return v6.toIPv4Address();
  if (range === 'rfc6052' || range === 'rfc6145') return new ipaddr.IPv4(bytes.slice(12, 16));
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  // IPv4-compatible (::a.b.c.d, deprecated) parses as 'reserved'; judge its tail too.
  if (bytes.slice(0, 12).every((b) => b === 0) && !(bytes[15] <= 1 && bytes.slice(12, 15).every((b) => b === 0))) {
    return new ipaddr.IPv4(bytes.slice(12, 16));
  }
  return null;
}

const BLOCKED_NAMES = [/^localhost$/i, /\.localhost$/i, /^metadata\.google\.internal$/i, /\.internal$/i, /^metadata$/i];

export function blockedHostnameReason(hostname: string): string | null {
  const host = hostname.replace(/\.$/, '');
  return BLOCKED_NAMES.some((re) => re.test(host)) ? 'reserved hostname' : null;
}
