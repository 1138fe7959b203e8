import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { addressKey, AppException } from '@app/common';
import { AppConfig } from '@app/config';
import { PgListener } from '@app/database';
import { OUTBOX_CHANNEL } from '@app/outbox';
import { ExecutionFeedRepository, FeedExecution } from './execution-feed.repository';

/** How long notifications gather into one read of the executions they report. */
const GATHER_MS = 25;

/** A watcher: `next` gets each execution (the same object for every watcher), `close` ends its stream. */
export interface FeedWatcher {
  /** The caller's address: each takes at most FEED_MAX_PER_IP places. */
  ip: string;
  next(execution: FeedExecution): void;
  close(): void;
}

/**
 * The live feed of executions as they end, for any number of watchers at one cost: a process
 * LISTENs on the outbox's channel (every event's id, at its commit) from its first watcher on,
 * reads the executions of the events gathered in GATHER_MS in one query, and hands each (one
 * object, for the watchers to share what they make of it) to every watcher, in order. Nothing is
 * added to the execute path: the outbox trigger notifies whether or not anyone listens. At most
 * FEED_MAX_SUBSCRIBERS watchers per process and FEED_MAX_PER_IP per address; at shutdown every
 * stream is ended first, so open streams do not hold the server's close.
 */
@Injectable()
export class LiveExecutionFeed implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(LiveExecutionFeed.name);
  private readonly watchers = new Set<FeedWatcher>();
  private readonly perIp = new Map<string, number>();
  private listener: PgListener | null = null;
  private pending: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Batches are read one after another, so watchers get executions in the order they ended. */
  private reading: Promise<void> = Promise.resolve();

  constructor(
    private readonly config: AppConfig,
    private readonly repo: ExecutionFeedRepository,
  ) {}

  /** Adds a watcher; answers how to remove it. Full, for everyone or for its address: SERVICE_UNAVAILABLE. */
  subscribe(watcher: FeedWatcher): () => void {
    if (this.watchers.size >= this.config.feedMaxSubscribers)
      throw new AppException('SERVICE_UNAVAILABLE', 'The live feed has as many watchers as it takes; try again later');
    // IPv6 by its /64 (addressKey): one host is not 2^64 addresses.
    const ip = addressKey(watcher.ip);
    const mine = this.perIp.get(ip) ?? 0;
    if (mine >= this.config.feedMaxPerIp)
      throw new AppException('RATE_LIMITED', 'Too many live feed streams from this address; close one first', {
        limit: this.config.feedMaxPerIp,
      });
    this.watchers.add(watcher);
    this.perIp.set(ip, mine + 1);
    this.listen();
    let removed = false;
    return () => {
      if (removed || !this.watchers.delete(watcher)) return;
      removed = true;
      const left = (this.perIp.get(ip) ?? 1) - 1;
      if (left > 0) this.perIp.set(ip, left);
      else this.perIp.delete(ip);
    };
  }

  beforeApplicationShutdown(): void {
    for (const w of [...this.watchers]) w.close();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.listener?.stop();
  }

  private listen(): void {
    this.listener ??= new PgListener({
      url: this.config.databaseUrl,
      channel: OUTBOX_CHANNEL,
      name: 'agora-live-feed',
      onPayload: (eventId) => this.gather(eventId),
      whileDown: 'executions that end meanwhile are not in the feed',
    });
    this.listener.start();
  }

  private gather(eventId: string): void {
    if (this.watchers.size === 0) return;
    this.pending.push(eventId);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      const ids = this.pending.splice(0);
      this.reading = this.reading.then(() => this.deliver(ids));
    }, GATHER_MS);
  }

  private async deliver(ids: string[]): Promise<void> {
    const rows = await this.repo.byEvents(ids).catch((err: Error) => {
      this.logger.warn(
        { err: err.message, events: ids.length },
        'live feed: executions not read; left out of the feed',
      );
      return [] as FeedExecution[];
    });
    for (const row of rows) for (const w of this.watchers) w.next(row);
  }
}
