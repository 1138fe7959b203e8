import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { Queryable, TransactionRunner } from '@app/database';
import { ExecutionPayloadsRepository, HeldPayload } from '../../../execution-payloads.repository';
import { payloadSha256 } from '../../../uncharged-payload';

/** Executions per transaction: each holds an input (up to BODY_LIMIT_BYTES) and an output (up to EXECUTION_OUTPUT_MAX_BYTES) in memory. */
const BATCH = 20;
/** Executions per job at most: a backlog (retention just turned on) is worked off over several sweeps, never in one long job. */
const PER_RUN = 2_000;

type Hold = (sql: Queryable, cutoff: Date, limit: number) => Promise<HeldPayload[]>;

/**
 * The worker's `execution-payloads.prune` (enqueued by the sweeper every tick): deletes the input
 * and output of runs that moved no money (failed, timed out, settlement expired) created longer
 * than UNCHARGED_PAYLOAD_RETENTION_HOURS ago, and, while EXECUTION_PAYLOAD_RETENTION_DAYS is set,
 * of every execution created longer ago than that, once it no longer changes. The row (status,
 * money, settlement) stays, with the SHA-256 of the canonical JSON of each payload, which dispute
 * evidence states. Batches of BATCH rows, each in its own transaction, at most PER_RUN rows a job.
 */
@Injectable()
export class PruneExecutionPayloads {
  constructor(
    private readonly payloads: ExecutionPayloadsRepository,
    private readonly tx: TransactionRunner,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ pruned: number }> {
    const hours = this.config.unchargedPayloadRetentionHours;
    let pruned = await this.prune(hours * 3_600_000, (sql, c, n) => this.payloads.holdOldUncharged(sql, c, n));
    const days = this.config.executionPayloadRetentionDays;
    if (days > 0)
      pruned += await this.prune(days * 86_400_000, (sql, c, n) => this.payloads.holdOldPayloads(sql, c, n));
    return { pruned };
  }

  private async prune(ageMs: number, hold: Hold): Promise<number> {
    let pruned = 0;
    while (pruned < PER_RUN) {
      const now = this.clock.now();
      const cutoff = new Date(now.getTime() - ageMs);
      const n = await this.tx.run(async (m) => {
        const held = await hold(m, cutoff, BATCH);
        const hashed = held.map((r) => ({
          id: r.id,
          inputSha256: r.input === null ? null : payloadSha256(r.input),
          outputSha256: r.output === null ? null : payloadSha256(r.output),
        }));
        await this.payloads.markPruned(m, hashed, now);
        return held.length;
      });
      pruned += n;
      if (n < BATCH) break;
    }
    return pruned;
  }
}
