import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Worker } from 'bullmq';
import { AppConfig } from '@app/config';
import { REDIS, RedisClient, WorkerHeartbeat, workerHeartbeatKey } from '@app/queues';
import { WorkerHost } from '@nestjs/bullmq';

/**
 * The worker has no HTTP server, so it reports liveness as a Redis key with a TTL; the API's
 * GET /api/v1/health/worker reads it. Each queue's worker must still be running.
 */
@Injectable()
export class HeartbeatService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(HeartbeatService.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(REDIS) private readonly redis: RedisClient,
    private readonly config: AppConfig,
    private readonly discovery: DiscoveryService,
  ) {}

  onApplicationBootstrap(): void {
    void this.beat();
    this.timer = setInterval(() => void this.beat(), this.config.workerHeartbeatMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.redis.del(workerHeartbeatKey(this.config.queuePrefix)).catch(() => undefined);
  }

  private workers(): Worker[] {
    return this.discovery
      .getProviders()
      .map((w) => w.instance as unknown)
      .filter((i): i is WorkerHost => i instanceof WorkerHost)
      .map((host) => host.worker);
  }

  async beat(): Promise<void> {
    const queues = Object.fromEntries(this.workers().map((w) => [w.name, w.isRunning()]));
    const beat: WorkerHeartbeat = { pid: process.pid, at: new Date().toISOString(), queues };
    try {
      await this.redis.set(
        workerHeartbeatKey(this.config.queuePrefix),
        JSON.stringify(beat),
        'PX',
        this.config.workerHeartbeatMs * 3,
      );
    } catch (err) {
      this.logger.warn({ err }, 'heartbeat failed');
    }
  }
}
