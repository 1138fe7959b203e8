import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { jobId, JobProducer } from '@app/queues';

/**
 * A plain process timer (not a BullMQ repeatable, which would vanish with Redis) that
 * enqueues periodic work. Job ids are per time slot, so several workers enqueue it once.
 */
@Injectable()
export class MaintenanceScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MaintenanceScheduler.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly producer: JobProducer,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.config.maintenanceIntervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async tick(): Promise<void> {
    const slot = Math.floor(this.clock.nowMs() / this.config.maintenanceIntervalMs);
    try {
      await this.producer.enqueue(
        'auth-messages.prune',
        { requestedAt: this.clock.now().toISOString() },
        { jobId: jobId('auth-messages.prune', slot) },
      );
    } catch (err) {
      this.logger.warn({ err }, 'could not enqueue maintenance; will retry next tick');
    }
  }
}
