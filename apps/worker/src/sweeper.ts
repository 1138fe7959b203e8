import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { Metrics } from '@app/metrics';
import {
  FairShare,
  jobId,
  JobName,
  JobPayloads,
  JobProducer,
  QUEUE_CONNECTION,
  REDIS,
  RedisClient,
  recoveredOf,
  SweepRegistry,
  SweepSource,
  watchFailovers,
} from '@app/queues';

/**
 * Postgres holds every piece of pending work; BullMQ only wakes workers. This plain process
 * timer (not a BullMQ repeatable, which would vanish with Redis) re-enqueues whatever is due:
 * at start, every MAINTENANCE_INTERVAL_MS, when Redis comes back, and when a Redis Cluster's
 * primary is replaced (a failover, perhaps without all its writes). Job ids carry the time
 * slot, so several workers enqueue each item once per slot; processors claim rows, so a
 * duplicate run does nothing.
 */
/** A failover shows as several slot refreshes, on both clients: one sweep after they settle. */
const FAILOVER_SETTLE_MS = 500;

@Injectable()
export class Sweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Sweeper.name);
  private timer?: NodeJS.Timeout;
  private readonly fast: NodeJS.Timeout[] = [];
  private running = false;
  private readonly onReady = () => void this.tick();
  /** A Redis Cluster's primary was replaced: what it had not copied to its replica is gone, fair-share lines maybe too. */
  private linesSuspect = false;
  private again = false;
  private unwatch: (() => void)[] = [];
  private failoverTimer?: NodeJS.Timeout;
  /** Once per burst of slot refreshes (a failover is seen by both clients, several times). */
  private readonly onFailover = () => {
    this.linesSuspect = true;
    this.failoverTimer ??= setTimeout(() => {
      this.failoverTimer = undefined;
      void this.tick();
    }, FAILOVER_SETTLE_MS).unref();
  };

  constructor(
    private readonly producer: JobProducer,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly sources: SweepRegistry,
    @Inject(REDIS) private readonly redis: RedisClient,
    @Inject(QUEUE_CONNECTION) private readonly queues: RedisClient | null,
    private readonly metrics: Metrics,
    private readonly share: FairShare,
  ) {}

  onApplicationBootstrap(): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.config.maintenanceIntervalMs);
    this.timer.unref();
    // Sources that must be looked at more often than a tick (a dead process's leases): each on its own timer.
    for (const source of this.sources.all().filter((s) => this.ownTimer(s))) {
      let busy = false;
      const timer = setInterval(() => {
        if (busy) return;
        busy = true;
        void this.sweep(source, Math.floor(this.clock.nowMs() / source.everyMs!), 'f').finally(() => (busy = false));
      }, source.everyMs);
      timer.unref();
      this.fast.push(timer);
    }
    this.redis.on('ready', this.onReady);
    this.unwatch = [watchFailovers(this.redis, this.onFailover), watchFailovers(this.queues, this.onFailover)];
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    for (const timer of this.fast) clearInterval(timer);
    this.redis.off('ready', this.onReady);
    for (const stop of this.unwatch) stop();
    if (this.failoverTimer) clearTimeout(this.failoverTimer);
  }

  async tick(): Promise<void> {
    if (this.running) {
      // A failover seen while a sweep runs gets a sweep of its own once this one ends.
      this.again ||= this.linesSuspect;
      return;
    }
    this.running = true;
    const slot = Math.floor(this.clock.nowMs() / this.config.maintenanceIntervalMs);
    try {
      // Redis lost the jobs waiting their agent's or host's turn: their rows, marked in line, are due again.
      const suspect = this.linesSuspect;
      this.linesSuspect = false; // a failover seen from here on is swept again
      try {
        if (suspect || (await this.share.linesLost())) {
          for (const release of this.sources.linesLost()) await release();
          await this.share.linesKept();
        }
      } catch (err) {
        this.linesSuspect ||= suspect;
        throw err;
      }
      await this.enqueue('auth-messages.prune', { requestedAt: this.clock.now().toISOString() }, slot);
      // The ledger sits below the queues: its invariant history's prune is enqueued here, like the auth lib's.
      await this.enqueue('invariant-checks.prune', { requestedAt: this.clock.now().toISOString() }, slot);
      // Each domain registers what it needs swept (SweepRegistry); one failing source does not stop the others.
      for (const source of this.sources.all()) if (!this.ownTimer(source)) await this.sweep(source, slot, 's');
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'sweep incomplete; will retry next tick');
    } finally {
      this.running = false;
      if (this.again) {
        this.again = false;
        void this.tick();
      }
    }
  }

  /**
   * Enqueues what one source finds due; counts as recovered only the work its job really lost (the
   * source's options: periodic work never, work within its job's own grace not). A failing source is
   * logged and does not stop the others.
   */
  private async sweep(source: SweepSource, slot: number, prefix: 's' | 'f'): Promise<void> {
    try {
      const due = await source.due();
      const recovered = recoveredOf(source, due, this.clock.nowMs());
      if (recovered) this.metrics.sweeperRecovered.inc({ job: source.job }, recovered);
      for (const work of due) await this.enqueue(source.job, work.data, slot, work.id, prefix);
    } catch (err) {
      this.logger.warn({ job: source.job, err: (err as Error).message }, 'sweep source failed; will retry next tick');
    }
  }

  private ownTimer(source: SweepSource): boolean {
    return source.everyMs !== undefined && source.everyMs < this.config.maintenanceIntervalMs;
  }

  private enqueue<N extends JobName>(
    name: N,
    data: JobPayloads[N],
    slot: number,
    id?: string,
    prefix: 's' | 'f' = 's',
  ): Promise<void> {
    return this.producer.enqueue(name, data, { jobId: jobId(name, ...(id ? [id] : []), `${prefix}${slot}`) });
  }
}
