import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { PgListener } from '@app/database';
import { OUTBOX_CHANNEL } from '@app/outbox';
import { jobId, JobProducer } from '@app/queues';
import { FANOUT_BATCH } from './event-fanout';

/** How long the relay gathers notifications into one fan-out job. */
export const RELAY_WINDOW_MS = 10;

/**
 * Relays committed outbox events to the queue: a trigger on `outbox_events` sends
 * `NOTIFY agora_outbox, '<evt id>'`, which Postgres delivers only when the writing transaction
 * commits (nothing for a rollback). The notifications of RELAY_WINDOW_MS (at most FANOUT_BATCH)
 * become one `event.fanout` job, with the first event id as job id: under load an execution's
 * event costs a share of one job, not a job of its own. The sweeper re-relays events still unpublished (a notification missed
 * while this connection was down, or a job Redis lost). Runs in the worker.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly listener: PgListener;
  private pending: string[] = [];
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(
    config: AppConfig,
    private readonly jobs: JobProducer,
  ) {
    this.listener = new PgListener({
      url: config.databaseUrl,
      channel: OUTBOX_CHANNEL,
      name: 'agora-outbox-relay',
      onPayload: (eventId) => this.gather(eventId),
      whileDown: 'the sweeper covers missed events',
    });
  }

  onApplicationBootstrap(): void {
    this.listener.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener.stop();
    await this.flush();
  }

  private gather(eventId: string): void {
    this.pending.push(eventId);
    if (this.pending.length >= FANOUT_BATCH) void this.flush();
    else this.flushTimer ??= setTimeout(() => void this.flush(), RELAY_WINDOW_MS);
  }

  /** Queues what was gathered; if Redis is down the events stay unpublished and the sweeper relays them. */
  private async flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    const eventIds = this.pending.splice(0);
    if (eventIds.length)
      await this.jobs.wake('event.fanout', { eventIds }, { jobId: jobId('event.fanout', eventIds[0]) });
  }
}
