import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { Metrics } from '@app/metrics';
import { FairShare, jobId, JobName, JobPayloads, JobProducer, REDIS, RedisClient, SweepRegistry } from '@app/queues';

/**
 * Postgres holds every piece of pending work; BullMQ only wakes workers. This plain process
 * timer (not a BullMQ repeatable, which would vanish with Redis) re-enqueues whatever is due:
 * at start, every MAINTENANCE_INTERVAL_MS, when Redis comes back, and when a Redis Cluster loses a
 * node (a primary failed over, perhaps without all its writes). Job ids carry the time
 * slot, so several workers enqueue each item once per slot; processors claim rows, so a
 * duplicate run does nothing.
 */
@Injectable()
export class Sweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Sweeper.name);
  private timer?: NodeJS.Timeout;
  private running = false;
  private readonly onReady = () => void this.tick();
  /** A cluster's node left (a primary failed over): what it had not copied to its replica is gone, fair-share lines too maybe. */
  private linesSuspect = false;
  private readonly onNodeLost = () => {
    this.linesSuspect = true;
    void this.tick();
  };

  constructor(
    private readonly producer: JobProducer,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly sources: SweepRegistry,
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly metrics: Metrics,
    private readonly share: FairShare,
  ) {}

  onApplicationBootstrap(): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.config.maintenanceIntervalMs);
    this.timer.unref();
    this.redis.on('ready', this.onReady);
    this.redis.on('-node', this.onNodeLost);
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.redis.off('ready', this.onReady);
    this.redis.off('-node', this.onNodeLost);
  }

  async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const slot = Math.floor(this.clock.nowMs() / this.config.maintenanceIntervalMs);
    try {
      // Redis lost the jobs waiting their agent's or host's turn: their rows, marked in line, are due again.
      if (this.linesSuspect || (await this.share.linesLost())) {
        for (const release of this.sources.linesLost()) await release();
        await this.share.linesKept();
        this.linesSuspect = false;
      }
      await this.enqueue('auth-messages.prune', { requestedAt: this.clock.now().toISOString() }, slot);
      // The ledger sits below the queues: its invariant history's prune is enqueued here, like the auth lib's.
      await this.enqueue('invariant-checks.prune', { requestedAt: this.clock.now().toISOString() }, slot);
      // Each domain registers what it needs swept (SweepRegistry); one failing source does not stop the others.
      for (const source of this.sources.all()) {
        try {
          const due = await source.due();
          // Prunes run every tick by design; anything else found here was due without its job having run.
          if (due.length && !source.job.endsWith('.prune'))
            this.metrics.sweeperRecovered.inc({ job: source.job }, due.length);
          for (const work of due) await this.enqueue(source.job, work.data, slot, work.id);
        } catch (err) {
          this.logger.warn(
            { job: source.job, err: (err as Error).message },
            'sweep source failed; will retry next tick',
          );
        }
      }
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'sweep incomplete; will retry next tick');
    } finally {
      this.running = false;
    }
  }

  private enqueue<N extends JobName>(name: N, data: JobPayloads[N], slot: number, ...ids: string[]): Promise<void> {
    return this.producer.enqueue(name, data, { jobId: jobId(name, ...ids, `s${slot}`) });
  }
}
