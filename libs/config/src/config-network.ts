/* The settings that name places: the public address, proxies, databases, hosts to bind. */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppConfig } from './app-config';
import { isLoopbackHost, Reader } from './config-reader';

/** A database name `ops migrate` can create (apps/ops ensure-database): quoted as is in CREATE DATABASE. */
const DATABASE_NAME = /^[A-Za-z0-9_-]{1,63}$/;

/**
 * PUBLIC_BASE_URL, without a trailing slash: every x402 offer's `resource` and every link the api answers start
 * with it, so it is an origin with at most a path (no credentials, query or fragment). In production it must be
 * set and https (the 402 advertises it to the world), or, with PUBLIC_BASE_URL_LOOPBACK=true, an address on this
 * machine (a trial of the compose file, a test): never a plain-http public host.
 */
export function readPublicBaseUrl(r: Reader, c: AppConfig): void {
  const production = c.nodeEnv === 'production';
  c.publicBaseUrlLoopback = r.bool('PUBLIC_BASE_URL_LOOPBACK', false);
  const set = r.raw('PUBLIC_BASE_URL') !== undefined;
  const value = r.url('PUBLIC_BASE_URL', `http://localhost:${c.port}`, ['http:', 'https:']) ?? '';
  c.publicBaseUrl = value.replace(/\/+$/, '');
  const expected = 'the https:// address clients reach the api at (docs/deploy.md, "TLS in front")';
  if (production && !set) {
    r.problems.push(`PUBLIC_BASE_URL is required when NODE_ENV=production: ${expected}`);
    return;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return; // r.url named it
  }
  if (url.username || url.password || url.search || url.hash) {
    r.problems.push(`PUBLIC_BASE_URL must be an origin with at most a path, no credentials, query or fragment`);
    return;
  }
  const loopback = isLoopbackHost(url.hostname.replace(/^\[|\]$/g, ''));
  if (c.publicBaseUrlLoopback && !loopback) {
    r.problems.push(
      `PUBLIC_BASE_URL_LOOPBACK is for a base URL on this machine (localhost, 127.0.0.1, [::1]); PUBLIC_BASE_URL is ${url.host}`,
    );
  } else if (production && !c.publicBaseUrlLoopback && (url.protocol !== 'https:' || loopback)) {
    r.problems.push(
      `PUBLIC_BASE_URL must be ${expected} when NODE_ENV=production (got "${value}"; ` +
        'an address on this machine only with PUBLIC_BASE_URL_LOOPBACK=true)',
    );
  }
}

/** TRUST_PROXY, normalized: a comma list of Express's names (loopback, linklocal, uniquelocal), addresses and CIDR ranges. */
export function trustProxyList(r: Reader): string {
  const items = (r.str('TRUST_PROXY', 'loopback') ?? '').split(',').map((s) => s.trim());
  const valid = (s: string) => ['loopback', 'linklocal', 'uniquelocal'].includes(s) || isIpOrCidr(s);
  const bad = items.filter((s) => !valid(s));
  if (bad.length > 0)
    r.problems.push(
      `TRUST_PROXY must be a comma list of loopback, linklocal, uniquelocal, IP addresses or CIDR ranges (got "${bad.join(',')}")`,
    );
  // Express's proxy-addr refuses a /0 range at start: it would let every caller name its own IP.
  const everyone = items.filter((s) => valid(s) && /\/0+$/.test(s));
  if (everyone.length > 0)
    r.problems.push(
      `TRUST_PROXY ranges need a prefix of 1 to 32 (IPv4) or 128 (IPv6) bits: ${everyone.join(',')} would trust ` +
        "every caller to name its own IP (list the proxies' addresses)",
    );
  return items.join(',');
}

/** An address or a CIDR range (a /0 range is found apart: TRUST_PROXY names it). */
function isIpOrCidr(s: string): boolean {
  const [address, bits, ...rest] = s.split('/');
  const v6 = address.includes(':');
  if (rest.length > 0 || !(v6 ? ipaddr.IPv6.isValid(address) : ipaddr.IPv4.isValidFourPartDecimal(address)))
    return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (v6 ? 128 : 32));
}

/** DATABASE_URL and DATABASE_READ_URL (already checked as postgres URLs): a host, and a name ops can create. */
export function checkDatabaseUrls(r: Reader, c: AppConfig): void {
  for (const [name, value] of [
    ['DATABASE_URL', c.databaseUrl],
    ['DATABASE_READ_URL', c.databaseReadUrl],
  ] as const) {
    if (value === null) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue; // r.url named it
    }
    const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
    // A socket directory may stand for the host: postgres:///agora?host=/var/run/postgresql.
    const host = url.hostname || url.searchParams.get('host');
    if (!host || !DATABASE_NAME.test(database))
      r.problems.push(
        `${name} must name a host and a database of 1-63 letters, digits, _ or - (postgres://host/agora)`,
      );
  }
}

/** METRICS_HOST: an address to bind (IPv4, IPv6 or a host name), checked before the worker tries to listen on it. */
export function checkMetricsHost(r: Reader, host: string): void {
  const hostname = /^[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*$/;
  if (isIP(host) === 0 && !hostname.test(host))
    r.problems.push(`METRICS_HOST must be an IP address or a host name to bind (got "${host}")`);
}

/** `REDIS_CLUSTER_NODES`: comma-separated seed URLs, database 0 only (a cluster has no other). */
export function redisClusterNodes(r: Reader): string[] | null {
  const raw = r.str('REDIS_CLUSTER_NODES');
  if (raw === undefined || raw.trim() === '') return null;
  const nodes = raw.split(',').map((s) => s.trim());
  for (const node of nodes) {
    let u: URL;
    try {
      u = new URL(node);
    } catch {
      r.problems.push('REDIS_CLUSTER_NODES must be comma-separated redis:// URLs');
      return null;
    }
    if (!['redis:', 'rediss:'].includes(u.protocol) || !u.hostname || (u.pathname !== '' && u.pathname !== '/'))
      r.problems.push('REDIS_CLUSTER_NODES must be redis:// or rediss:// URLs with a host and no database');
  }
  return nodes;
}
