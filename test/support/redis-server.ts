import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { waitFor } from './processes';

export interface PrivateRedis {
  /** A client of this server only. */
  redis: Redis;
  /** `redis://127.0.0.1:<port>` when started with a TCP port (for an api or worker to use). */
  url: string | null;
  stop(): Promise<void>;
}

/**
 * A throwaway redis-server of the test's own, for what must not be done to the shared one
 * (TEST_REDIS_URL), which test files in other jest workers use at the same time: SCRIPT FLUSH,
 * FLUSHALL, a restart. It listens on a Unix socket in a fresh temporary directory and on no TCP
 * port (`--port 0`), so it can collide with nothing, and it keeps nothing on disk. With `tcpPort`
 * it also listens on 127.0.0.1:<tcpPort>, for a process under test to use (and lose when it stops).
 */
export async function startPrivateRedis(opts: { tcpPort?: number } = {}): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'agora-redis-'));
  const socket = join(dir, 'redis.sock');
  const tcp = opts.tcpPort ? ['--port', String(opts.tcpPort), '--bind', '127.0.0.1'] : ['--port', '0'];
  const args = [
    ...tcp,
    '--unixsocket',
    socket,
    '--unixsocketperm',
    '700',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
  ];
  const child = spawn(process.env.REDIS_SERVER_BIN ?? 'redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let spawnError: Error | undefined;
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  child.once('error', (err) => (spawnError = err));
  const exited = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('error', () => resolve()); // never started
  });
  const redis = new Redis({ path: socket, lazyConnect: true });
  const stop = async () => {
    redis.disconnect();
    if (child.exitCode === null && child.signalCode === null && !spawnError) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => {
      if (spawnError)
        throw new Error(`cannot run redis-server (install it, or set REDIS_SERVER_BIN): ${spawnError.message}`);
      if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}:\n${out}`);
      return /ready to accept connections/i.test(out); // 7.0: "...ready to accept connections at <socket>"
    }, 'private redis-server');
    await redis.connect();
  } catch (err) {
    await stop();
    throw err;
  }
  return { redis, url: opts.tcpPort ? `redis://127.0.0.1:${opts.tcpPort}` : null, stop };
}
