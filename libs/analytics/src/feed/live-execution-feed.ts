import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppException } from '@app/common';
import { AppConfig } from '@app/config';
import { PgListener } from '@app/database';
import { OUTBOX_CHANNEL } from '@app/outbox';
import { ExecutionFeedRepository, FeedExecution } from './execution-feed.repository';

/** How long notifications gather into one read of the executions they report. */
const GATHER_MS = 25;

export type FeedSubscriber = (execution: FeedExecution) => void;

/**
 * The live feed of executions as they end, for any number of watchers at one cost: a process
 * LISTENs on the outbox's channel (every event's id, at its commit) only while someone watches,
 * reads the executions of the events gathered in GATHER_MS in one query, and hands each to every
 * watcher. Nothing is added to the execute path: the outbox trigger notifies whether or not anyone
 * listens. At most FEED_MAX_SUBSCRIBERS watchers per process.
 */
@Injectable()
export class LiveExecutionFeed implements OnApplicationShutdown {
  private readonly logger = new Logger(LiveExecutionFeed.name);
  private readonly subscribers = new Set<FeedSubscriber>();
  private listener: PgListener | null = null;
  private pending: string[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly repo: ExecutionFeedRepository,
  ) {}

  /** Adds a watcher; answers how to remove it. Full: SERVICE_UNAVAILABLE. */
  subscribe(subscriber: FeedSubscriber): () => void {
    if (this.subscribers.size >= this.config.feedMaxSubscribers)
      throw new AppException('SERVICE_UNAVAILABLE', 'The live feed has as many watchers as it takes; try again later');
    this.subscribers.add(subscriber);
    if (!this.listener) {
      this.listener = new PgListener({
        url: this.config.databaseUrl,
        channel: OUTBOX_CHANNEL,
        name: 'agora-live-feed',
        onPayload: (eventId) => this.gather(eventId),
        whileDown: 'executions that end meanwhile are not in the feed',
      });
      this.listener.start();
    }
    return () => this.subscribers.delete(subscriber);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.listener?.stop();
  }

  private gather(eventId: string): void {
    if (this.subscribers.size === 0) return;
    this.pending.push(eventId);
    this.timer ??= setTimeout(() => void this.flush(), GATHER_MS);
  }

  private async flush(): Promise<void> {
    this.timer = null;
    const ids = this.pending.splice(0);
    const rows = await this.repo.byEvents(ids).catch((err: Error) => {
      this.logger.warn(
        { err: err.message, events: ids.length },
        'live feed: executions not read; left out of the feed',
      );
      return [] as FeedExecution[];
    });
    for (const row of rows) for (const subscriber of this.subscribers) subscriber(row);
  }
}
