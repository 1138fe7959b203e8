import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { AppConfig } from '@app/config';
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
  private readonly logger = new Logger(OutboxRelay.name);
  private client: Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  private pending: string[] = [];
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly jobs: JobProducer,
  ) {}

  onApplicationBootstrap(): void {
    void this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    await this.flush();
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.config.databaseUrl, application_name: 'agora-outbox-relay' });
    client.on('notification', (msg) => {
      if (msg.channel === OUTBOX_CHANNEL && msg.payload) this.gather(msg.payload);
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.client = client;
    } catch (err) {
      this.lost(client, err as Error);
    }
  }

  /** The connection failed or ended: reconnect in a second (once), unless shutting down. */
  private lost(client: Client, err?: Error): void {
    if (this.stopped || this.retry || (this.client !== null && this.client !== client)) return;
    this.client = null;
    this.logger.warn(
      { err: err?.message },
      'outbox relay connection lost; reconnecting (the sweeper covers missed events)',
    );
    client.end().catch(() => undefined);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, 1_000);
    this.retry.unref();
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
