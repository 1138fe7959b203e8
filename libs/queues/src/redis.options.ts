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
 * A cluster client from seed URLs. While a primary fails over (its replica is promoted after the
 * cluster's node timeout), commands get CLUSTERDOWN or a closed connection: ioredis refreshes the
 * slot map and sends them again, up to `maxRedirections` times `retryDelayOnClusterDown` (about 10 s
 * here), instead of failing them at once.
 */
export function redisClusterClient(nodes: string[], maxRetriesPerRequest: number | null): Cluster {
  const seeds = nodes.map((n) => redisConnectionOptions(n));
  const { username, password, tls } = seeds[0];
  const options: ClusterOptions = {
    redisOptions: { username, password, tls, maxRetriesPerRequest, enableReadyCheck: true },
    enableReadyCheck: true,
    retryDelayOnClusterDown: 200,
    retryDelayOnFailover: 200,
    retryDelayOnTryAgain: 200,
    maxRedirections: 50,
    slotsRefreshTimeout: 2_000,
    clusterRetryStrategy: (times) => Math.min(100 * times, 2_000),
  };
  return new Cluster(
    seeds.map((s) => ({ host: s.host, port: s.port })),
    options,
  );
}

/** The client of everything but the queues: a request waits through at most two retries. */
export function redisCommandsClient(config: AppConfig): RedisClient {
  if (config.redisClusterNodes) return redisClusterClient(config.redisClusterNodes, 2);
  return new Redis({ ...redisConnectionOptions(config.redisUrl), maxRetriesPerRequest: 2, lazyConnect: false });
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
