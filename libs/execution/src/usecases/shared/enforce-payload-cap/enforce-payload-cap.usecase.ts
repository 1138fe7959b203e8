import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { TransactionRunner } from '@app/database';
import { ExecutionPayloadsRepository, PayloadScope } from '../../../execution-payloads.repository';
import { payloadSha256 } from '../../../uncharged-payload';

/** Executions per transaction (each holds up to BODY_LIMIT_BYTES + EXECUTION_OUTPUT_MAX_BYTES in memory), and per scope and call. */
const BATCH = 20;
const PER_RUN = 2_000;
/** A charged execution's output stays this long after its run, whatever the cap: its payer reads it meanwhile. */
export const CHARGED_GRACE_MS = 3_600_000;

/**
 * PAYLOAD_STORAGE_CAP_BYTES: what one agent's executions, or one payer's, may hold in payloads (as
 * stored). Beyond it the oldest go, as the retention prune does (the row, its money and the SHA-256
 * of each payload stay): uncharged runs first, then charged ones ended more than CHARGED_GRACE_MS
 * ago; the newest charged ones and runs in flight are kept. Run by the worker after its storage
 * measure, when the measure shows an agent or a payer over the cap.
 */
@Injectable()
export class EnforcePayloadCap {
  constructor(
    private readonly payloads: ExecutionPayloadsRepository,
    private readonly tx: TransactionRunner,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async execute(scopes: PayloadScope[] = ['agent', 'payer']): Promise<{ pruned: number }> {
    const cap = this.config.payloadStorageCapBytes;
    if (cap === 0) return { pruned: 0 };
    let pruned = 0;
    for (const scope of scopes) {
      for (let done = 0; done < PER_RUN;) {
        const now = this.clock.now();
        const n = await this.tx.run(async (m) => {
          const held = await this.payloads.holdOverCap(
            m,
            scope,
            cap,
            new Date(now.getTime() - CHARGED_GRACE_MS),
            BATCH,
          );
          const hashed = held.map((r) => ({
            id: r.id,
            inputSha256: r.input === null ? null : payloadSha256(r.input),
            outputSha256: r.output === null ? null : payloadSha256(r.output),
          }));
          await this.payloads.markPruned(m, hashed, now);
          return held.length;
        });
        done += n;
        pruned += n;
        if (n < BATCH) break;
      }
    }
    return { pruned };
  }
}
