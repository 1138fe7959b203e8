import { Injectable } from '@nestjs/common';
import { AgentDebtsRepository, DebtState } from '../../debts/agent-debts.repository';

/** What a dispute's debt says now (null: it left none): owed to the payer, and refunded to it so far. */
@Injectable()
export class GetDisputeDebt {
  constructor(private readonly debts: AgentDebtsRepository) {}

  execute(disputeId: string): Promise<DebtState | null> {
    return this.debts.ofDispute(disputeId);
  }
}
