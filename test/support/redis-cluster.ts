import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import Redis, { Cluster } from 'ioredis';
import { redisClusterClient } from '@app/queues';
import { freePort } from './ports';
import { RunningProcess, waitFor } from './processes';

/** A Redis Cluster of the test's own: `primaries` primaries, each with one replica, on loopback ports. */
export interface TestRedisCluster {
  /** `redis://127.0.0.1:<port>` of every node: the value of REDIS_CLUSTER_NODES. */
  urls: string[];
  /** A cluster client (the caller disconnects it). */
  client(): Cluster;
  /** Those of `keys` that exist (each read from its slot's primary). */
  existing(keys: string[]): Promise<string[]>;
  /** The port of the primary that serves `key`'s slot now. */
  primaryOf(key: string): Promise<number>;
  /** kill -9 of every node, keeping their files: the cluster is gone. */
  stopAll(): Promise<void>;
  /** Every node started again, empty (nothing was saved), in the cluster's last shape; resolves once it is whole. */
  restartAll(): Promise<void>;
  /** kill -9 of the node on `port`; resolves once a replica has taken over its slots and the cluster is whole: after how long (ms). */
  killPrimary(port: number): Promise<number>;

  stop(): Promise<void>;
}

const NODE_TIMEOUT_MS = 1_000;
const bin = (tool: string) => (tool === 'redis-server' ? process.env.REDIS_SERVER_BIN : undefined) ?? tool;

interface Node {
  port: number;
  dir: string;
  args: string[];
  proc: RunningProcess;
}

/** Starts (or starts again, with its files: its nodes.conf keeps the cluster's shape) the node's redis-server. */
async function spawnNode(node: Omit<Node, 'proc'>): Promise<RunningProcess> {
  const log = join(node.dir, 'redis.log');
  rmSync(log, { force: true });
  // No pipes: a node forks to send its data to a replica, and a fork holding a pipe would outlive the node.
  const child = spawn(bin('redis-server'), node.args, { stdio: 'ignore' });
  const output = () => {
    try {
      return readFileSync(log, 'utf8');
    } catch {
      return '';
    }
  };
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  await waitFor(async () => {
    if (child.exitCode !== null)
      throw new Error(`redis-server on ${node.port} exited (${child.exitCode}):\n${output()}`);
    return /ready to accept connections/i.test(output());
  }, `redis-server on ${node.port}`);
  return { child, output, exited };
}

async function startNode(root: string): Promise<Node> {
  const port = await freePort();
  const busPort = await freePort();
  const dir = join(root, String(port));
  mkdirSync(dir);
  const args = [
    ['--port', port],
    ['--bind', '127.0.0.1'],
    ['--cluster-enabled', 'yes'],
    ['--cluster-port', busPort],
    ['--cluster-config-file', join(dir, 'nodes.conf')],
    ['--cluster-node-timeout', NODE_TIMEOUT_MS],
    // A replica may always take over, however long it was cut off (nothing here is old enough to matter).
    ['--cluster-replica-validity-factor', 0],
    ['--repl-diskless-sync-delay', 0],
    ['--save', ''],
    ['--appendonly', 'no'],
    ['--dir', dir],
    ['--logfile', join(dir, 'redis.log')],
  ].flatMap(([k, v]) => [String(k), String(v)]);
  const node = { port, dir, args };
  return { ...node, proc: await spawnNode(node) };
}

type SlotRange = [from: number, to: number, primary: [host: string, port: number]];

/** One command to one node, on a connection of its own that gives up at once if the node is gone. */
async function onNode<T>(port: number, send: (r: Redis) => Promise<unknown>): Promise<T> {
  const r = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await r.connect();
    return (await send(r)) as T;
  } finally {
    r.disconnect();
  }
}
const cluster = <T>(port: number, ...args: string[]) => onNode<T>(port, (r) => r.call('CLUSTER', ...args));
const info = (port: number, section: string) => cluster<string>(port, section);
const replication = (port: number) => onNode<string>(port, (r) => r.info('replication'));
const slots = (port: number) => cluster<SlotRange[]>(port, 'SLOTS');

/** Every node's slot map agrees that all 16,384 slots are served (`cluster_state:ok`). */
async function whole(ports: number[]): Promise<boolean> {
  const states = await Promise.all(ports.map((p) => info(p, 'INFO').catch(() => '')));
  return states.every((s) => /cluster_state:ok/.test(s) && /cluster_slots_ok:16384/.test(s));
}

/**
 * Starts 2 x `primaries` redis-server processes with cluster mode on (loopback, fresh temporary
 * directories, nothing kept on disk), joins them with `redis-cli --cluster create` (one replica per
 * primary), and waits until every node sees the whole cluster and every replica is in sync.
 */
export async function startRedisCluster(primaries = 3): Promise<TestRedisCluster> {
  const root = mkdtempSync(join(tmpdir(), 'agora-redis-cluster-'));
  const nodes: Node[] = [];
  const live = () => nodes.filter((n) => n.proc.child.exitCode === null && n.proc.child.signalCode === null);
  const stop = async () => {
    for (const n of live()) n.proc.child.kill('SIGKILL');
    await Promise.all(nodes.map((n) => n.proc.exited));
    rmSync(root, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < primaries * 2; i++) nodes.push(await startNode(root));
    const create = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed:\n${create.stdout}\n${create.stderr}`);
    const ports = nodes.map((n) => n.port);
    await waitFor(() => whole(ports), 'a whole Redis Cluster', 30_000);
    await waitFor(
      async () => {
        const views = await Promise.all(ports.map((p) => info(p, 'NODES')));
        const flags = views.map((v) =>
          v
            .trim()
            .split('\n')
            .map((line) => line.split(' ')[2].split(',')),
        );
        const synced = await Promise.all(ports.map((p) => replication(p)));
        return (
          flags.every((f) => f.filter((n) => n.includes('slave')).length === primaries) &&
          flags.flat(2).every((flag) => !/fail|handshake|noaddr/.test(flag)) &&
          synced.filter((r) => /role:slave/.test(r) && /master_link_status:up/.test(r)).length === primaries
        );
      },
      'every replica known to every node, and in sync',
      30_000,
    );
  } catch (err) {
    await stop();
    throw err;
  }
  const urls = nodes.map((n) => `redis://127.0.0.1:${n.port}`);
  const client = () => new Cluster(nodes.map((n) => ({ host: '127.0.0.1', port: n.port })));
  const handle: TestRedisCluster = {
    urls,
    client,
    async existing(keys) {
      const c = client();
      try {
        const found = await Promise.all(keys.map((k) => c.exists(k)));
        return keys.filter((_, i) => found[i] === 1);
      } finally {
        c.disconnect();
      }
    },
    async primaryOf(key) {
      const at = live()[0].port;
      const slot = await cluster<number>(at, 'KEYSLOT', key);
      return (await slots(at)).find(([from, to]) => slot >= from && slot <= to)![2][1];
    },
    async stopAll() {
      for (const n of live()) n.proc.child.kill('SIGKILL');
      await Promise.all(nodes.map((n) => n.proc.exited));
    },
    async restartAll() {
      for (const n of nodes) n.proc = await spawnNode(n);
      await waitFor(() => whole(nodes.map((n) => n.port)), 'the restarted Redis Cluster whole', 30_000);
    },
    async killPrimary(port) {
      const node = nodes.find((n) => n.port === port)!;
      const t0 = Date.now();
      node.proc.child.kill('SIGKILL');
      await node.proc.exited;
      const rest = live().map((n) => n.port);
      const moved = async () => {
        const maps = await Promise.all(rest.map((p) => slots(p).catch(() => null)));
        return maps.every((m) => m !== null && m.every(([, , primary]) => primary[1] !== port));
      };
      await waitFor(
        async () => (await moved()) && whole(rest),
        `a replica serving the slots of the primary on ${port}`,
        30_000,
      );
      return Date.now() - t0;
    },
    stop,
  };
  return handle;
}

/** What `killQueuePrimary` saw and did. */
export interface Failover {
  /** The port of the primary killed. */
  port: number;
  /** The queue's jobs waiting (waiting, delayed, prioritized) on it just before the kill. */
  waiting: number;
  /** How long until a replica served its slots (ms). */
  ms: number;
}

/**
 * Kills the primary serving BullMQ queue `queue` of deployment `prefix` (its `{prefix:queue}` slot)
 * once `due()` says so and at least `minWaiting` of the queue's jobs wait there, read through
 * BullMQ on the cluster: the kill falls while work sits on the node.
 */
export async function killQueuePrimary(
  cluster: TestRedisCluster,
  o: { prefix: string; queue: string; due: () => boolean; minWaiting: number },
): Promise<Failover> {
  const tag = `{${o.prefix}:${o.queue}}`;
  const port = await cluster.primaryOf(tag);
  const connection = redisClusterClient(cluster.urls, 'queues');
  const q = new Queue(o.queue, { connection, prefix: tag });
  let waiting: number;
  try {
    const count = async () => {
      const c = await q.getJobCounts('waiting', 'delayed', 'prioritized');
      return c.waiting + c.delayed + c.prioritized;
    };
    waiting = await waitFor(
      async () => (o.due() ? ((n) => n >= o.minWaiting && n)(await count()) : false),
      `${o.minWaiting} jobs waiting on ${tag}`,
      60_000,
    );
  } finally {
    await q.close();
    connection.disconnect();
  }
  return { port, waiting, ms: await cluster.killPrimary(port) };
}
