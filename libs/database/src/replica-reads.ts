import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { AppConfig } from '@app/config';
import { keepConnectionErrorsHandled } from './connection-errors';
import { Queryable, readsOn, rowsOf } from './pool-statements';

/** A sample of the primary's WAL position and when it was taken. */
interface Sample {
  atMs: number;
  lsn: string;
}

/**
 * Public reads (discovery, analytics, reputation, chain reads, the console's read models, the x402
 * discovery API) on the streaming replica of `DATABASE_READ_URL`, while it is fresh enough; the
 * primary otherwise, and always without one. Freshness is measured, not assumed: every
 * `DATABASE_READ_PROBE_MS` the probe takes the primary's WAL position and asks the replica how far
 * it has replayed; the replica is fresh as of the newest sample it has replayed, and serves reads
 * only while that is at most `DATABASE_READ_MAX_LAG_MS` old. A replica error sends the read (and
 * the following ones, until a probe finds it caught up) to the primary. Whatever decides money, and
 * a client's read of what it just wrote, never come here: they read the primary.
 */
@Injectable()
export class ReplicaReads implements OnModuleDestroy {
  private readonly log = new Logger(ReplicaReads.name);
  private readonly replica: Pool | null;
  private samples: Sample[] = [];
  private freshAsOfMs = -Infinity;
  private timer: NodeJS.Timeout | undefined;
  private probing = false;

  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
  ) {
    this.replica = config.databaseReadUrl
      ? new Pool({
          connectionString: config.databaseReadUrl,
          max: config.databasePoolSize,
          application_name: 'agora-replica-reads',
          connectionTimeoutMillis: 2_000,
        })
      : null;
    if (this.replica) {
      keepConnectionErrorsHandled(this.replica);
      // An idle connection lost (the replica stopped, failed over): pg-pool reports it on the pool,
      // and an 'error' with no listener would end the process. The next read goes to the primary.
      this.replica.on('error', (err) => {
        this.freshAsOfMs = -Infinity;
        this.log.warn(`a replica connection was lost: ${err.message}`);
      });
    }
  }

  /** The probe starts with the first routed read: a process that reads nothing here probes nothing. */
  private start(): void {
    if (!this.replica || this.timer) return;
    this.timer = setInterval(() => void this.probe(), this.config.databaseReadProbeMs);
    this.timer.unref();
    void this.probe();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.replica?.end();
  }

  /** Starts measuring the replica now (a read does it too). */
  warmUp(): void {
    this.start();
  }

  /** Whether reads go to the replica now. */
  get onReplica(): boolean {
    return this.replica !== null && performance.now() - this.freshAsOfMs <= this.config.databaseReadMaxLagMs;
  }

  /** The routed reads as a Queryable (for a repository method that takes one). */
  readonly pooled: Queryable = { query: <R>(text: string, params?: unknown[]) => this.query(text, params) as R };

  /** One statement (prepared, fixed SQL text): on the replica while fresh, else the primary. */
  query<T>(text: string, params: unknown[] = []): Promise<T[]> {
    return this.route((pool) => rowsOf<T[]>(pool, text, params));
  }

  /** Statements issued together in one round trip (as TransactionRunner.reads), on one side. */
  reads<P extends readonly Promise<unknown>[]>(
    issue: (sql: Queryable) => P,
  ): Promise<{ [K in keyof P]: Awaited<P[K]> }> {
    return this.route((pool) => readsOn(pool, issue));
  }

  private async route<T>(work: (pool: Pool) => Promise<T>): Promise<T> {
    this.start();
    if (!this.onReplica) return work(this.primary());
    try {
      return await work(this.replica!);
    } catch (err) {
      if (!isConnectionProblem(err)) throw err;
      this.freshAsOfMs = -Infinity;
      this.log.warn(`replica read failed (${(err as Error).message}); reading the primary until it is caught up`);
      return work(this.primary());
    }
  }

  /** Samples the primary's WAL position, and finds the newest sample the replica has replayed. */
  private async probe(): Promise<void> {
    if (this.probing || !this.replica) return;
    this.probing = true;
    try {
      const atMs = performance.now();
      const [{ lsn }] = await rowsOf<{ lsn: string }[]>(this.primary(), 'SELECT pg_current_wal_lsn()::text AS lsn');
      this.samples = [...this.samples.slice(-63), { atMs, lsn }];
      const [r] = await rowsOf<{ recovering: boolean; replayed: string | null }[]>(
        this.replica,
        'SELECT pg_is_in_recovery() AS recovering, pg_last_wal_replay_lsn()::text AS replayed',
      );
      // Not a standby (DATABASE_READ_URL is a primary itself): always as fresh as the sample.
      const replayed = r.recovering ? r.replayed : lsn;
      if (replayed === null) return;
      const newest = [...this.samples].reverse().find((s) => compareLsn(replayed, s.lsn) >= 0);
      if (newest) {
        this.freshAsOfMs = Math.max(this.freshAsOfMs, newest.atMs);
        this.samples = this.samples.filter((s) => s.atMs > newest.atMs);
      }
    } catch (err) {
      this.freshAsOfMs = -Infinity;
      this.log.warn(`replica probe failed: ${(err as Error).message}`);
    } finally {
      this.probing = false;
    }
  }

  private primary(): Pool {
    return (this.dataSource.driver as PostgresDriver).master as Pool;
  }
}

/** Orders two LSNs (`X/Y`, hexadecimal halves). */
export function compareLsn(a: string, b: string): number {
  const [ah, al] = a.split('/').map((x) => BigInt(`0x${x}`));
  const [bh, bl] = b.split('/').map((x) => BigInt(`0x${x}`));
  return ah === bh ? Number(al - bl) : Number(ah - bh);
}

/**
 * An error of the replica, not of the statement (a statement's error would be the same on the
 * primary): no SQLSTATE (a socket or a timeout), connection exceptions (08), an operator or a
 * shutdown (57), or a query cancelled by a conflict with recovery (40001 on a standby).
 */
function isConnectionProblem(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return code.startsWith('08') || code.startsWith('57') || code === '40001';
}
