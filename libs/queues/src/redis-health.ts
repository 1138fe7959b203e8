import { Cluster } from 'ioredis';
import { RedisClient } from './redis.options';

/** The primaries that own slots in the client's slot map, as `host:port` (none on one node or before it has one). */
export function slotOwners(client: RedisClient): Set<string> {
  if (!(client instanceof Cluster)) return new Set();
  return new Set(client.slots.map((nodes) => nodes?.[0]).filter((key): key is string => !!key));
}

/**
 * Whether Redis can serve every key now. One node: PING. A cluster: the client is ready, every
 * primary that owns slots has a live connection and answers PING, and the cluster says its state
 * is ok (a primary marked failed and not yet replaced makes it `fail`). A lone PING would reach
 * any node.
 */
export async function pingRedis(client: RedisClient): Promise<'PONG'> {
  if (!(client instanceof Cluster)) {
    if ((await client.ping()) !== 'PONG') throw new Error('unexpected PING reply');
    return 'PONG';
  }
  if (client.status !== 'ready') throw new Error(`the Redis Cluster client is ${client.status}`);
  const primaries = client.nodes('master');
  const connected = new Set(primaries.map((n) => `${n.options.host}:${n.options.port}`));
  const owners = slotOwners(client);
  if (owners.size === 0 || [...owners].some((key) => !connected.has(key))) {
    client.refreshSlotsCache(); // for the next look: its replica may have taken over
    throw new Error('a Redis Cluster primary that owns slots is not connected');
  }
  const replies = await Promise.all(primaries.map((n) => n.ping()));
  if (replies.some((r) => r !== 'PONG')) throw new Error('unexpected PING reply');
  const info = (await primaries[0].call('CLUSTER', 'INFO')) as string;
  if (!/cluster_state:ok/.test(info)) throw new Error('the Redis Cluster is not ok');
  return 'PONG';
}

/**
 * Calls `onFailover` when a slot refresh shows that a primary which owned slots owns none any more:
 * its replica took over, perhaps without the writes it had not copied yet. Nothing on one node.
 * Answers the function that stops watching.
 */
export function watchFailovers(client: RedisClient | null, onFailover: () => void): () => void {
  if (!(client instanceof Cluster)) return () => undefined;
  let owners = slotOwners(client);
  const onRefresh = () => {
    const now = slotOwners(client);
    if (now.size > 0 && [...owners].some((key) => !now.has(key))) onFailover();
    if (now.size > 0) owners = now;
  };
  client.on('refresh', onRefresh);
  return () => client.off('refresh', onRefresh);
}

/** Errors that say Redis is unreachable or failing over (as opposed to a wrong command or script). */
export function isRedisUnavailable(err: unknown): boolean {
  const e = err as { name?: string; message?: string; code?: string };
  if (e?.name === 'MaxRetriesPerRequestError' || e?.name === 'ClusterAllFailedError') return true;
  return /max retries per request|Connection is closed|Cluster isn't ready|Too many Cluster redirections|CLUSTERDOWN|TRYAGAIN|LOADING|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|Stream isn't writeable|offline queue|Command timed out/.test(
    `${e?.message ?? ''} ${e?.code ?? ''}`,
  );
}
