import { Injectable } from '@nestjs/common';
import { RESOLVED_BY_TIMEOUT } from '../../dispute.rules';
import { ResolveDispute } from '../resolve-dispute/resolve-dispute.usecase';

/**
 * The worker's `dispute.timeout` (delayed job at respondBy, or the sweeper's): a dispute still
 * pending when its response window closed resolves `client_wins`. One answered in time, or
 * resolved already, is left alone, so a duplicate job does nothing; so is an unverified one (proved
 * only by a payment header rebuildable from chain data): it waits for an admin or the payer's
 * signature. Answers whether it resolved.
 */
@Injectable()
export class ResolveOverdueDispute {
  constructor(private readonly resolve: ResolveDispute) {}

  async execute(disputeId: string): Promise<boolean> {
    const resolved = await this.resolve.execute({
      disputeId,
      outcome: 'client_wins',
      note: 'The agent did not respond within the response window',
      resolvedBy: RESOLVED_BY_TIMEOUT,
      onlyIfOverdue: true,
    });
    return resolved !== null;
  }
}
