import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { PayerSpendRepository } from '../../payer-spend.repository';

/** Charges counted per statement: short transactions. */
const BATCH = 1_000;
/** Statements per run: one job's work is bounded; a backlog takes several ticks. */
const MAX_BATCHES = 20;
/**
 * How long past its filing window a charge waits before it counts: a filing checked against one
 * process's clock just before the window closed has committed by then (the sweep runs on another).
 */
export const SPEND_MATURITY_GRACE_S = 3_600;

/**
 * The worker's `payer-spend.mature` (enqueued by the sweeper every tick; run by the local test clock
 * too): a charge's agent fee joins its payer's settled spend (`payer_spend`, what makes a payer
 * funded) only once it can no longer be disputed (DISPUTE_FILING_WINDOW_S and a grace after it
 * completed) and no dispute of it is pending; a disputed one counts what the agent kept (all of it
 * for agent_wins, half for split, nothing for client_wins). So money a payer can still take back
 * never buys it standing (issue 52).
 */
@Injectable()
export class CountMaturedSpend {
  constructor(
    private readonly repo: PayerSpendRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ counted: number }> {
    const cutoff = new Date(this.clock.nowMs() - (this.config.disputeFilingWindowS + SPEND_MATURITY_GRACE_S) * 1000);
    let counted = 0;
    for (let i = 0; i < MAX_BATCHES; i++) {
      const n = await this.repo.countMatured(cutoff, BATCH);
      counted += n;
      if (n < BATCH) break;
    }
    return { counted };
  }
}
