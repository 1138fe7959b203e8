import { Inject, Injectable, Logger } from '@nestjs/common';
import { Job } from 'bullmq';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { Metrics } from '@app/metrics';
import { TURN_SCRIPT, TurnMode, TurnRedis } from './fair-share.turn';
import { JobName } from './jobs';
import { JobProducer } from './job.producer';
import { REDIS } from './redis.module';
import { RedisClient } from './redis.options';

/** Held while a capped job runs; given back when it ends. */
export interface CapPass {
  leave(): Promise<void>;
}

/**
 * One level of a job's turn: at most `limit` jobs of `key` go at once (`scope` names the kind of
 * key: `agent`, `host`, `owner`, `payer`, `pool`).
 */
export interface Lane {
  scope: string;
  key: string;
  limit: number;
}

/**
 * How a job that holds an outside party's time (a run on an agent, a delivery to a host) takes its
 * turn. The use case calls it once it has claimed its row, with the row's key (`agent:<id>`,
 * `host:<host:port>`); the worker may add further levels (its owner, its payer: `FairShare.gate`).
 */
export interface CapGate {
  /**
   * A pass when, at every level, fewer than the level's cap of its jobs are going, or it is this
   * job's turn. Else null: `park(wakeAt)` has run (the use case gives its row back, marked in line
   * until about then), and the job waits in BullMQ's delayed set in the line of the first level
   * that is full, woken when a pass comes free there with it at the head of the line (it takes the
   * pass when it runs), or at `wakeAt`. The passes of the levels before stay its own while it waits.
   * `holdMs`: how long a pass lasts if its worker dies without giving it back (the row's claim).
   */
  enter(key: string, o: { holdMs: number; park: (wakeAt: Date) => Promise<void> }): Promise<CapPass | null>;
  /** The job ends without running (its row was done or claimed elsewhere): it leaves the lines, and its passes if it held some (a stalled job run again). */
  skip(key: string, holdMs: number): Promise<void>;
}

/** A job waits at most this many holds before it looks again by itself (it is normally woken sooner). */
const MAX_HOLDS_WAITED = 10;

/**
 * Fair shares of the worker (issues 29, 52): a job takes its turn at each of its levels in order:
 * its row's key (an agent, a destination host), then the levels the processor adds (the agent's
 * owner, the run's payer, the pool of parties with no paid record): at most `limit` jobs of one
 * key go at once across every worker process. A job that finds a level full waits in that level's
 * line, delayed in BullMQ (not failed: no attempt is spent), keeping the passes of the levels
 * before (so one owner's jobs hold at most its share of the levels after, waiting or running), and
 * is woken in the order they came as passes come free. Levels are always taken in the same order,
 * so no two jobs wait on each other.
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

  /**
   * The gate of one BullMQ job (what its processor got: the job and its lock token); none when `limit` is 0 or there is no job.
   * `lanes`: the levels after the row's key (asked at each turn; a level whose limit is 0 is left out).
   */
  gate(
    run: { job?: Job; token?: string },
    scope: string,
    limit: number,
    lanes?: () => Promise<Lane[]>,
  ): CapGate | undefined {
    const job = run.job;
    if (!job || limit <= 0) return undefined;
    const levels = async (key: string): Promise<Lane[]> => [{ scope, key, limit }, ...(await this.lanes(job, lanes))];
    const turn = (lane: Lane, mode: TurnMode, holdMs: number) => this.turn(job, lane, mode, holdMs);
    const release = (held: Lane[], holdMs: number) =>
      Promise.all(
        held.map((lane) =>
          turn(lane, 'release', holdMs).catch((err: Error) =>
            this.logger.warn(
              { queue: job.queueName, key: lane.key, err: err.message },
              'could not give a pass back; it runs out by itself',
            ),
          ),
        ),
      ).then(() => undefined);
    return {
      enter: async (key, { holdMs, park }) => {
        const all = await levels(key);
        const held: Lane[] = [];
        for (const [i, lane] of all.entries()) {
          let step: { runs: boolean; ahead: number };
          try {
            step = await turn(lane, 'acquire', holdMs);
          } catch (err) {
            this.logger.warn(
              { queue: job.queueName, key: lane.key, err: (err as Error).message },
              'the cap did not answer; the job runs uncapped',
            );
            return { leave: () => release(held, holdMs) };
          }
          if (step.runs) {
            held.push(lane);
            continue;
          }
          await this.wait(run, { lane, ahead: step.ahead, holdMs, park, held, after: all.slice(i + 1) });
          return null;
        }
        return { leave: () => release(held, holdMs) };
      },
      skip: async (key, holdMs) => release(await levels(key), holdMs),
    };
  }

  /**
   * The job waits in `lane`'s line. The later its place, the longer before it looks again by itself
   * (a backlog costs a few wake-ups, not one per job per second). The passes it holds are renewed
   * to outlast its wait; it leaves the lines after (it may have waited in one before).
   */
  private async wait(
    run: { job?: Job; token?: string },
    w: {
      lane: Lane;
      ahead: number;
      holdMs: number;
      park: (wakeAt: Date) => Promise<void>;
      held: Lane[];
      after: Lane[];
    },
  ): Promise<void> {
    const job = run.job!;
    const now = this.clock.nowMs();
    const wakeAt = now + w.holdMs * Math.min(MAX_HOLDS_WAITED, 1 + Math.floor(w.ahead / w.lane.limit));
    await w.park(new Date(wakeAt));
    // Delayed before it joins the line, so that a wake-up meanwhile (itself too, if a pass came free) finds it there.
    await job.moveToDelayed(wakeAt, run.token);
    this.metrics.jobsCapped.inc({ queue: job.queueName, scope: w.lane.scope });
    try {
      await Promise.all([
        this.turn(job, w.lane, 'park', w.holdMs),
        ...w.held.map((lane) => this.turn(job, lane, 'acquire', wakeAt - now + w.holdMs, w.holdMs)),
        ...w.after.map((lane) => this.turn(job, lane, 'release', w.holdMs)),
      ]);
    } catch (err) {
      this.logger.warn(
        { queue: job.queueName, key: w.lane.key, err: (err as Error).message },
        'could not join the line; the job looks again when its delay ends',
      );
    }
  }

  /** The levels the processor adds; none if it cannot tell them (the job is capped by its row's key alone). */
  private async lanes(job: Job, lanes?: () => Promise<Lane[]>): Promise<Lane[]> {
    if (!lanes) return [];
    try {
      return (await lanes()).filter((lane) => lane.limit > 0);
    } catch (err) {
      this.logger.warn(
        { queue: job.queueName, err: (err as Error).message },
        'could not tell the job owner and payer; it is capped by its key alone',
      );
      return [];
    }
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

  /** One step at one level; `lineHoldMs`: the hold its line is kept by (the pass's own hold unless renewed for a wait). */
  private async turn(
    job: Job,
    lane: Lane,
    mode: TurnMode,
    holdMs: number,
    lineHoldMs = holdMs,
  ): Promise<{ runs: boolean; ahead: number }> {
    const base = `${this.config.queuePrefix}:cap:{${job.queueName}:${lane.scope}:${lane.key}}`;
    const [state, ahead, ...woken] = await this.redis.agoraCapTurn(
      `${base}:run`,
      `${base}:line`,
      String(job.id),
      lane.limit,
      holdMs,
      mode,
      lineHoldMs * (MAX_HOLDS_WAITED + 2),
    );
    if (woken.length) await this.wake(job.name as JobName, woken, `${base}:line`);
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
