import { promises as dns } from 'node:dns';
import type { Resolver } from './outbound-url.policy';

export interface DnsResolverOptions {
  /** The longest a resolution may take, all tries included. */
  timeoutMs: number;
  /** Name servers (`host:port`); the system's (resolv.conf) when absent. */
  servers?: string[];
}

/**
 * A Resolver on c-ares (dns.promises.Resolver): its queries run on its own sockets, not on the libuv
 * thread pool that dns.lookup (getaddrinfo) shares with the file system and crypto, so names that
 * users chose and a resolver that never answers cannot starve the process. A and AAAA are asked
 * together (either answer is enough); the whole resolution is cut at `timeoutMs`. It reads no
 * /etc/hosts, so `localhost` and `*.localhost` answer loopback here (RFC 6761); the SSRF guard
 * refuses them unless private addresses are allowed.
 */
export function dnsResolver(opts: DnsResolverOptions): Resolver {
  const tries = 2;
  const resolver = new dns.Resolver({ timeout: Math.max(1, Math.floor(opts.timeoutMs / tries)), tries });
  if (opts.servers) resolver.setServers(opts.servers);
  return async (host) => {
    const name = host.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) return ['127.0.0.1', '::1'];
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`resolving ${name} timed out`)), opts.timeoutMs);
    });
    try {
      const [v4, v6] = await Promise.race([
        Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]),
        deadline,
      ]);
      const addresses = [
        ...(v4.status === 'fulfilled' ? v4.value : []),
        ...(v6.status === 'fulfilled' ? v6.value : []),
      ];
      if (addresses.length === 0) throw v4.status === 'rejected' ? v4.reason : new Error(`no address for ${name}`);
      return addresses;
    } finally {
      clearTimeout(timer);
    }
  };
}
