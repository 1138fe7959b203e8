import { Injectable } from '@nestjs/common';
import { NotFoundException, Page } from '@app/common';
import { TransactionEntity } from '../../entities/transaction.entity';
import { TransactionsRepository } from '../../repositories/transactions.repository';

/** Only transactions of this status or capability (both optional). */
export interface HistoryFilter {
  status?: string;
  capabilityId?: string;
}

/** `GET /payments/history/:agentId`: a page of the agent's charged transactions, newest first, filtered. */
@Injectable()
export class GetEarningsHistory {
  constructor(private readonly transactions: TransactionsRepository) {}

  async execute(agentId: string, page: Page & HistoryFilter): Promise<TransactionEntity[]> {
    if (!(await this.transactions.agentExists(agentId)))
      throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', agentId);
    return this.transactions.history(agentId, page);
  }
}
