import { Injectable } from '@nestjs/common';
import { NotFoundException, Page } from '@app/common';
import { TransactionEntity } from '../../entities/transaction.entity';
import { TransactionsRepository } from '../../repositories/transactions.repository';

/** `GET /payments/history/:agentId`: a page of the agent's charged transactions, newest first. */
@Injectable()
export class GetEarningsHistory {
  constructor(private readonly transactions: TransactionsRepository) {}

  async execute(agentId: string, page: Page): Promise<TransactionEntity[]> {
    if (!(await this.transactions.agentExists(agentId)))
      throw new NotFoundException('AGENT_NOT_FOUND', 'Agent', agentId);
    return this.transactions.history(agentId, page);
  }
}
