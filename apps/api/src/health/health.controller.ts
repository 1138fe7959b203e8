import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import { Clock, sharedWhileRunning } from '@app/common';
import { AppConfig } from '@app/config';
import { InvariantStatusRepository } from '@app/ledger';
import { pingRedis, REDIS, RedisClient, WorkerHeartbeat, workerHeartbeatKey } from '@app/queues';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly config: AppConfig,
    private readonly invariants: InvariantStatusRepository,
    private readonly clock: Clock,
    @Inject(REDIS) private readonly redis: RedisClient,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  private migrations: { at: number; pending: boolean } | null = null;
  /**
   * Probes that arrive while a check of their route runs share it (its answer, 200 or 503): a flood
   * of unauthenticated probes holds at most one pooled connection per route, never the pool that
   * paid requests need. Nothing is cached: the next probe after it ends runs a fresh check.
   */
  private readonly sharedCheck = sharedWhileRunning(() =>
    this.health.check([
      () => this.db.pingCheck('database', { timeout: 2_000 }),
      () => this.redisCheck(),
      () => this.invariantsCheck(),
    ]),
  );
  private readonly sharedReady = sharedWhileRunning(() =>
    this.health.check([
      () => this.db.pingCheck('database', { timeout: 2_000 }),
      () => this.redisCheck(),
      () => this.migrationsCheck(),
      () => this.invariantsCheck(),
    ]),
  );

  @Get()
  @HealthCheck()
  @ApiOperation({
    summary:
      "API readiness: Postgres and Redis reachable, and the worker's last invariant check passed (payouts are paused while it fails)",
  })
  check() {
    return this.sharedCheck();
  }

  @Get('live')
  @ApiOperation({
    summary: 'Liveness: the process answers (no dependency is checked; restart it only when this fails)',
  })
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  @HealthCheck()
  @ApiOperation({
    summary:
      'Readiness: Postgres and Redis reachable, no migration pending, and payouts not paused by a failed invariant check',
  })
  ready() {
    return this.sharedReady();
  }

  @Get('worker')
  @HealthCheck()
  @ApiOperation({ summary: 'Worker liveness, from the heartbeat the worker writes to Redis' })
  worker() {
    return this.health.check([() => this.workerCheck()]);
  }

  /** Pending migrations (read at most every 5 s): an api ahead of its schema is not ready. */
  private async migrationsCheck() {
    const indicator = this.indicators.check('migrations');
    try {
      if (!this.migrations || this.clock.nowMs() - this.migrations.at > 5_000)
        this.migrations = { at: this.clock.nowMs(), pending: await this.dataSource.showMigrations() };
    } catch {
      return indicator.down({ message: 'migrations unreadable' });
    }
    return this.migrations.pending
      ? indicator.down({ message: 'migrations pending: run npm run migrate' })
      : indicator.up();
  }

  private async redisCheck() {
    const indicator = this.indicators.check('redis');
    try {
      // Bounded: with Redis gone a command may wait for the reconnection instead of failing.
      const reply = await Promise.race([
        pingRedis(this.redis),
        new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 1_000).unref()),
      ]);
      // pingRedis rejects anything but a whole, answering Redis.
      return reply === 'timeout' ? indicator.down({ message: 'unreachable' }) : indicator.up();
    } catch {
      return indicator.down({ message: 'unreachable' });
    }
  }

  /** G15: down while the last scheduled check found a money invariant violated (payouts paused). */
  private async invariantsCheck() {
    const indicator = this.indicators.check('invariants');
    const last = await this.invariants.current().catch(() => undefined);
    if (last === undefined) return indicator.down({ message: 'status unreadable' });
    if (last === null) return indicator.up({ checkedAt: null });
    const seen = { checkedAt: last.checkedAt.toISOString(), failed: last.failed };
    // The ids only: the violations name accounts and amounts, which stay in the worker's log.
    return last.ok ? indicator.up(seen) : indicator.down({ ...seen, payouts: 'paused' });
  }

  private async workerCheck() {
    const indicator = this.indicators.check('worker');
    let raw: string | null;
    try {
      raw = await this.redis.get(workerHeartbeatKey(this.config.queuePrefix));
    } catch {
      return indicator.down({ message: 'Redis unreachable' });
    }
    if (!raw) return indicator.down({ message: 'no heartbeat' });
    const beat = JSON.parse(raw) as WorkerHeartbeat;
    const ageMs = this.clock.nowMs() - Date.parse(beat.at);
    const stale = ageMs > this.config.workerHeartbeatMs * 3;
    const stopped = Object.entries(beat.queues)
      .filter(([, running]) => !running)
      .map(([q]) => q);
    if (stale || stopped.length > 0) return indicator.down({ ageMs, stopped });
    return indicator.up({ ageMs, pid: beat.pid, queues: Object.keys(beat.queues) });
  }
}
