import { INestApplicationContext } from '@nestjs/common';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { AppConfig } from '@app/config';
import { CountMaturedSpend, SPEND_MATURITY_GRACE_S } from '@app/reputation';

/**
 * The dispute filing window (and the grace) passes for the charges `payers` made so far, and the
 * worker's sweep (CountMaturedSpend) runs: what the agents kept of them joins their payers' settled
 * spend, as it would a week later (issue 52: a payer is funded only by spend it can no longer dispute).
 * Only these payers' charges move into the past. `api`: the e2e harness or a medium domain.
 */
export async function matureSpend(
  api: { app: INestApplicationContext; config: AppConfig },
  payers: Wallet[],
): Promise<{ counted: number }> {
  await api.app
    .get(DataSource)
    .query(
      `UPDATE transactions SET completed_at = completed_at - make_interval(secs => $2) WHERE payer_wallet = ANY($1)`,
      [payers.map((p) => p.address.toLowerCase()), api.config.disputeFilingWindowS + SPEND_MATURITY_GRACE_S + 1],
    );
  return api.app.get(CountMaturedSpend).execute();
}
