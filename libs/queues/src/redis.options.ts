import Redis, { Cluster, ClusterOptions, RedisOptions } from 'ioredis';
import { AppConfig } from '@app/config';

/** A Redis connection: one node (`REDIS_URL`), or a Redis Cluster (`REDIS_CLUSTER_NODES`). */
export type RedisClient = Redis | Cluster;

/** ioredis options from a redis:// URL, as BullMQ workers need them (no per-request retry cap). */
export function redisConnectionOptions(url: string): RedisOptions {
  const u = new URL(url);
  const db = u.pathname && u.pathname !== '/' ? Number(u.pathname.slice(1)) : 0;
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 6379,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: Number.isInteger(db) ? db : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
  };
}

/**
 * How long a cluster client rides through a primary failing over (its replica promoted after the
 * cluster's node timeout): while the dead primary still owns its slots, a command to them is sent
 * again every `retryMs` (the slot map refreshed), at most `redirections` times. A round may spend
 * two (a MOVED, then the closed connection), so the budget is about half to all of their product.
 */
const RIDE_THROUGH = {
  /** A request waits 5-10 s at most, then fails (nothing charged: admission refuses it). */
  commands: { retryMs: 200, redirections: 50 },
  /** BullMQ expects its commands to go through: about 1-2 minutes, past the default 15 s node timeout. */
  queues: { retryMs: 500, redirections: 240 },
} as const;

/**
 * A cluster client from seed URLs (credentials and TLS from the first). The commands client has no
 * offline queue: while the cluster is unreachable its commands fail at once, as one node's do
 * after two retries, instead of waiting for it to come back. With TLS the seed names are kept
 * unresolved (as ioredis advises for TLS clusters that announce host names), so certificates are checked
 * against those names.
 */
export function redisClusterClient(nodes: string[], role: keyof typeof RIDE_THROUGH): Cluster {
  const seeds = nodes.map((n) => redisConnectionOptions(n));
  const { username, password, tls } = seeds[0];
  const { retryMs, redirections } = RIDE_THROUGH[role];
  const options: ClusterOptions = {
    redisOptions: { username, password, tls, maxRetriesPerRequest: role === 'queues' ? null : 2 },
    enableReadyCheck: true,
    enableOfflineQueue: role === 'queues',
    retryDelayOnClusterDown: retryMs,
    retryDelayOnFailover: retryMs,
    retryDelayOnTryAgain: retryMs,
    maxRedirections: redirections,
    slotsRefreshTimeout: 2_000,
    // The slot map follows a failover even without traffic (readiness, watchFailovers read it).
    slotsRefreshInterval: 2_000,
    clusterRetryStrategy: (times) => Math.min(100 * times, 2_000),
    ...(tls ? { dnsLookup: (address, lookup) => lookup(null, address) } : {}),
  };
  return new Cluster(
    seeds.map((s) => ({ host: s.host, port: s.port })),
    options,
  );
}

/** The client of everything but the queues: a request waits through at most two retries. */
export function redisCommandsClient(config: AppConfig): RedisClient {
  if (config.redisClusterNodes) return redisClusterClient(config.redisClusterNodes, 'commands');
  return new Redis({ ...redisConnectionOptions(config.redisUrl), maxRetriesPerRequest: 2, lazyConnect: false });
}

/**
 * Resolves once `client` is ready, or after `ms` (a Redis that is down does not hold a process's
 * start; its commands fail until it is up).
 */
export function readyWithin(client: RedisClient, ms: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    client.once('ready', done);
  });
}

/**
 * BullMQ's prefix for `queue`. On a cluster every key of one queue must be in one slot (its scripts
 * take several at once), so the prefix is a hash tag of its own per queue (`{agora:executions}`):
 * each queue sits on one primary, and the queues spread over the primaries. On one node the prefix
 * stays `agora`, as the jobs already there are kept under it.
 */
export function queuePrefixOf(config: AppConfig, queue: string): string {
  return config.redisClusterNodes ? `{${config.queuePrefix}:${queue}}` : config.queuePrefix;
}

/**
 * The prefix of the keys that one admission script takes together (the client's and the agent's
 * rate-limit windows, a payment's nonce claim, an idempotency key's run claim). On a cluster they
 * must share a slot, so the prefix is a hash tag (`{agora}`): they all sit on one primary.
 */
export function admissionKeyPrefix(config: AppConfig): string {
  return config.redisClusterNodes ? `{${config.queuePrefix}}` : config.queuePrefix;
}
