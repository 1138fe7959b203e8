import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from '@app/database';
import { freePort } from './ports';
import { waitFor } from './processes';

/** A primary and its streaming replica of the test's own, on loopback ports, migrated. */
export interface PgPair {
  /** `postgres://postgres@127.0.0.1:<port>/agora` of each. */
  primaryUrl: string;
  replicaUrl: string;
  /** Stops the replica's replay (it keeps answering, further and further behind), and resumes it. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  /** Stops the replica (immediate shutdown): its readers lose their connections. */
  stopReplica(): void;
  stop(): Promise<void>;
}

function binDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions.length) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql (or set PG_BIN)');
  return join(root, versions[0], 'bin');
}

/** Runs a PostgreSQL tool as the `postgres` OS user when we are root (the server refuses to run as root). */
function pgTool(tool: string, args: string[]): void {
  const bin = join(binDir(), tool);
  const asRoot = process.getuid?.() === 0;
  const r = asRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', bin, ...args], { encoding: 'utf8' })
    : spawnSync(bin, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
}

const query = async <T>(url: string, sql: string): Promise<T[]> => {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows as T[];
  } finally {
    await c.end();
  }
};

/**
 * initdb a primary (wal_level replica, trust on loopback, fsync off), migrate a database `agora` on
 * it, pg_basebackup a streaming replica from it (`-R`: it follows the primary), and start both on
 * free loopback ports with their sockets in a fresh temporary directory.
 */
export async function startPgPair(): Promise<PgPair> {
  const dir = mkdtempSync(join(tmpdir(), 'agora-pg-'));
  if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const [pPort, rPort] = [await freePort(), await freePort()];
  const opts = (port: number) =>
    `-c port=${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off ` +
    `-c full_page_writes=off -c max_connections=60 -c shared_buffers=32MB -c wal_level=replica -c max_wal_senders=4`;
  const primary = join(dir, 'primary');
  const replica = join(dir, 'replica');
  const started: string[] = [];
  const stop = async () => {
    for (const d of started.reverse())
      spawnSync('runuser', ['-u', 'postgres', '--', join(binDir(), 'pg_ctl'), '-D', d, '-m', 'immediate', 'stop']);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    pgTool('initdb', ['-D', primary, '-U', 'postgres', '--auth=trust', '--no-sync']);
    pgTool('pg_ctl', ['-D', primary, '-o', opts(pPort), '-l', join(dir, 'primary.log'), '-w', 'start']);
    started.push(primary);
    const admin = `postgres://postgres@127.0.0.1:${pPort}/postgres`;
    await query(admin, 'CREATE DATABASE agora');
    const primaryUrl = `postgres://postgres@127.0.0.1:${pPort}/agora`;
    const ds = new DataSource(buildDataSourceOptions({ url: primaryUrl, poolSize: 1 }));
    await ds.initialize();
    await ds.runMigrations({ transaction: 'each' });
    await ds.destroy();
    pgTool('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(pPort),
      '-U',
      'postgres',
      '-D',
      replica,
      '-R',
      '-X',
      'stream',
      // An immediate checkpoint: by default the backup waits for a spread one (minutes).
      '-c',
      'fast',
    ]);
    pgTool('pg_ctl', ['-D', replica, '-o', opts(rPort), '-l', join(dir, 'replica.log'), '-w', 'start']);
    started.push(replica);
    const replicaUrl = `postgres://postgres@127.0.0.1:${rPort}/agora`;
    const caughtUp = async () => {
      const [{ lsn }] = await query<{ lsn: string }>(primaryUrl, 'SELECT pg_current_wal_lsn()::text AS lsn');
      await waitFor(
        async () =>
          (await query<{ ok: boolean }>(replicaUrl, `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS ok`))[0].ok,
        'the replica to catch up',
      );
    };
    await caughtUp();
    return {
      primaryUrl,
      replicaUrl,
      pauseReplay: async () => void (await query(replicaUrl, 'SELECT pg_wal_replay_pause()')),
      resumeReplay: async () => void (await query(replicaUrl, 'SELECT pg_wal_replay_resume()')),
      caughtUp,
      stopReplica: () => {
        pgTool('pg_ctl', ['-D', replica, '-m', 'immediate', 'stop']);
        started.pop();
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
