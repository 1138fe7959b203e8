import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { TransactionRunner } from '@app/database';
import { canonicalJson } from '@app/json-schema';
import { ExecutionPayloadsRepository } from '../../../execution-payloads.repository';

/** Executions per transaction: each holds an input (up to BODY_LIMIT_BYTES) and an output (up to EXECUTION_OUTPUT_MAX_BYTES) in memory. */
const BATCH = 20;
/** Executions per job at most: a backlog (retention just turned on) is worked off over several sweeps, never in one long job. */
const PER_RUN = 2_000;

const sha256 = (value: unknown) => createHash('sha256').update(canonicalJson(value)).digest('hex');

/**
 * The worker's `execution-payloads.prune` (enqueued by the sweeper every tick while
 * EXECUTION_PAYLOAD_RETENTION_DAYS is set): deletes the input and output of executions created
 * longer ago than that, once they no longer change, keeping the row (status, money, settlement)
 * and the SHA-256 of the canonical JSON of each payload, which dispute evidence states. Batches
 * of BATCH rows, each in its own transaction, at most PER_RUN rows a job.
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
    const days = this.config.executionPayloadRetentionDays;
    if (days === 0) return { pruned: 0 };
    let pruned = 0;
    while (pruned < PER_RUN) {
      const now = this.clock.now();
      const cutoff = new Date(now.getTime() - days * 86_400_000);
      const n = await this.tx.run(async (m) => {
        const held = await this.payloads.holdOldPayloads(m, cutoff, BATCH);
        const hashed = held.map((r) => ({
          id: r.id,
          inputSha256: r.input === null ? null : sha256(r.input),
          outputSha256: r.output === null ? null : sha256(r.output),
        }));
        await this.payloads.markPruned(m, hashed, now);
        return held.length;
      });
      pruned += n;
      if (n < BATCH) break;
    }
    return { pruned };
  }
}
