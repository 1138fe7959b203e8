import { Inject, Injectable, Logger } from '@nestjs/common';
import { Job } from 'bullmq';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { Metrics } from '@app/metrics';
import { JobName } from './jobs';
import { JobProducer } from './job.producer';
import { REDIS } from './redis.module';
import { RedisClient } from './redis.options';

/** Held while a capped job runs; given back when it ends. */
export interface CapPass {
  leave(): Promise<void>;
}

/**
 * How a job that holds an outside party's time (a run on an agent, a delivery to a host) takes its
 * turn. The use case calls it once it has claimed its row, with the row's key (`agent:<id>`,
 * `host:<host:port>`).
 */
export interface CapGate {
  /**
   * A pass when fewer than the cap of `key`'s jobs are going, or when it is this job's turn. Else
   * null: `park(wakeAt)` has run (the use case gives its row back, marked in line until about then),
   * and the job waits in BullMQ's delayed set, woken when a pass comes free with it at the head of
   * the line (it takes the pass when it runs), or at `wakeAt`.
   * `holdMs`: how long a pass lasts if its worker dies without giving it back (the row's claim).
   */
  enter(key: string, o: { holdMs: number; park: (wakeAt: Date) => Promise<void> }): Promise<CapPass | null>;
  /** The job ends without running (its row was done or claimed elsewhere): it leaves the line, and its pass if it held one (a stalled job run again). */
  skip(key: string, holdMs: number): Promise<void>;
}

/** A job waits at most this many holds before it looks again by itself (it is normally woken sooner). */
const MAX_HOLDS_WAITED = 10;

/**
 * One key's passes (`:run`, job id -> when the pass runs out) and its line (`:line`, job id -> when
 * it joined), in one step, on Redis's clock: passes that ran out go (a worker killed mid-job leaks
 * its pass for at most the hold); `release` drops the caller's pass and place. `acquire`: the caller
 * takes a pass if it holds one (a stalled job run again) or one is free, and leaves the line.
 * `park`: it joins the line's end (keeping its place if it is in it). Then as many jobs at the head
 * of the line as passes are free are answered, to be woken: each takes a pass when it runs (a pass
 * is never set aside for a job that is not running: a woken job may wait behind other work).
 * Answers [1 runs | 0 waits, jobs ahead of it in line, ...job ids to wake].
 */
const TURN_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local token, limit, hold, mode, lineTtl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if mode == 'release' then
  redis.call('ZREM', KEYS[1], token)
  redis.call('ZREM', KEYS[2], token)
end
local free = limit - redis.call('ZCARD', KEYS[1])
local state = 0
if mode == 'acquire' and (redis.call('ZSCORE', KEYS[1], token) or free > 0) then
  if not redis.call('ZSCORE', KEYS[1], token) then free = free - 1 end
  redis.call('ZADD', KEYS[1], now + hold, token)
  redis.call('ZREM', KEYS[2], token)
  state = 1
elseif mode == 'park' then
  redis.call('ZADD', KEYS[2], 'NX', now, token)
end
local woken = {}
if free > 0 then woken = redis.call('ZRANGE', KEYS[2], 0, free - 1) end
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], hold) end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], lineTtl) end
local ahead = redis.call('ZRANK', KEYS[2], token) or redis.call('ZCARD', KEYS[2])
local out = { state, ahead }
for i = 1, #woken do out[#out + 1] = woken[i] end
return out
`;

type Mode = 'acquire' | 'park' | 'release';
interface TurnRedis {
  agoraCapTurn(
    run: string,
    line: string,
    token: string,
    limit: number,
    holdMs: number,
    mode: Mode,
    lineTtlMs: number,
  ): Promise<[number, number, ...string[]]>;
}

/**
 * Fair shares of the worker (issue 29): at most `limit` jobs of one key (an agent, a destination
 * host) go at once across every worker process; the others wait in line, delayed in BullMQ (not
 * failed: no attempt is spent), and are woken in the order they came as passes come free.
 * If Redis does not answer the cap's step, the job runs uncapped (fail open: a job exists only in
 * Redis, so the cap can never be what holds work back; the row's claim still runs it once).
 */
@Injectable()
export class FairShare {
  private readonly logger = new Logger(FairShare.name);
  private readonly redis: RedisClient & TurnRedis;

  constructor(
    @Inject(REDIS) redis: RedisClient,
    private readonly producer: JobProducer,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly clock: Clock,
  ) {
    redis.defineCommand('agoraCapTurn', { numberOfKeys: 2, lua: TURN_SCRIPT });
    this.redis = redis as RedisClient & TurnRedis;
  }

  /** The gate of one BullMQ job (what its processor got: the job and its lock token); none when `limit` is 0 or there is no job. */
  gate(run: { job?: Job; token?: string }, scope: string, limit: number): CapGate | undefined {
    const job = run.job;
    if (!job || limit <= 0) return undefined;
    const turn = (key: string, mode: Mode, holdMs: number) => this.turn({ job, scope, key, limit, holdMs, mode });
    const release = (key: string, holdMs: number) =>
      turn(key, 'release', holdMs).then(
        () => undefined,
        (err: Error) =>
          this.logger.warn(
            { queue: job.queueName, key, err: err.message },
            'could not give a pass back; it runs out by itself',
          ),
      );
    return {
      enter: async (key, { holdMs, park }) => {
        let first: { runs: boolean; ahead: number };
        try {
          first = await turn(key, 'acquire', holdMs);
        } catch (err) {
          this.logger.warn(
            { queue: job.queueName, key, err: (err as Error).message },
            'the cap did not answer; the job runs uncapped',
          );
          return { leave: async () => undefined };
        }
        if (first.runs) return { leave: () => release(key, holdMs) };
        // The later its place, the longer before it looks again by itself (a backlog costs a few wake-ups, not one per job per second).
        const wakeAt = this.clock.nowMs() + holdMs * Math.min(MAX_HOLDS_WAITED, 1 + Math.floor(first.ahead / limit));
        await park(new Date(wakeAt));
        // Delayed before it joins the line, so that a wake-up meanwhile (itself too, if a pass came free) finds it there.
        await job.moveToDelayed(wakeAt, run.token);
        this.metrics.jobsCapped.inc({ queue: job.queueName, scope });
        try {
          await turn(key, 'park', holdMs);
        } catch (err) {
          this.logger.warn(
            { queue: job.queueName, key, err: (err as Error).message },
            'could not join the line; the job looks again when its delay ends',
          );
        }
        return null;
      },
      skip: (key, holdMs) => release(key, holdMs),
    };
  }

  /**
   * Whether Redis has lost the lines (a restart without persistence, the keys deleted): a key every
   * deployment keeps (`linesKept`) is missing. Then the rows marked in line have no job any more;
   * the sweeper makes them due (`SweepRegistry.onLinesLost`), then calls `linesKept`. True at the
   * first start too: releasing marks is harmless (a duplicate job runs nothing).
   */
  async linesLost(): Promise<boolean> {
    return (await this.redis.exists(this.linesKey())) === 0;
  }

  async linesKept(): Promise<void> {
    await this.redis.set(this.linesKey(), String(this.clock.nowMs()));
  }

  private linesKey(): string {
    return `${this.config.queuePrefix}:cap:lines`;
  }

  private async turn(t: {
    job: Job;
    scope: string;
    key: string;
    limit: number;
    holdMs: number;
    mode: Mode;
  }): Promise<{ runs: boolean; ahead: number }> {
    const base = `${this.config.queuePrefix}:cap:{${t.job.queueName}:${t.scope}:${t.key}}`;
    const lineTtl = t.holdMs * (MAX_HOLDS_WAITED + 2);
    const [state, ahead, ...woken] = await this.redis.agoraCapTurn(
      `${base}:run`,
      `${base}:line`,
      String(t.job.id),
      t.limit,
      t.holdMs,
      t.mode,
      lineTtl,
    );
    if (woken.length) await this.wake(t.job.name as JobName, woken, `${base}:line`);
    return { runs: state === 1, ahead };
  }

  /**
   * Jobs at the head of a line with passes free: out of the delayed set now (one not there is
   * already awake). One that no longer exists leaves the line, so it does not stand at the head.
   */
  private async wake(name: JobName, ids: string[], line: string): Promise<void> {
    const queue = this.producer.queueFor(name);
    await Promise.all(
      ids.map(async (id) => {
        try {
          const job = await queue.getJob(id);
          if (!job) await this.redis.zrem(line, id);
          else await job.promote();
        } catch {
          /* not delayed any more: awake already */
        }
      }),
    );
  }
}
