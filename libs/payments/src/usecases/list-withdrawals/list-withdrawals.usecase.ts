import { Injectable } from '@nestjs/common';
import { Page } from '@app/common';
import { WithdrawalEntity } from '../../entities/withdrawal.entity';
import { WithdrawalsRepository, WithdrawalSummary } from '../../repositories/withdrawals.repository';

/** `GET /payments/withdrawals/:agentId`: a page of the agent's withdrawals, newest first, with its totals. */
@Injectable()
export class ListWithdrawals {
  constructor(private readonly repo: WithdrawalsRepository) {}

  async execute(agentId: string, page: Page): Promise<{ withdrawals: WithdrawalEntity[]; summary: WithdrawalSummary }> {
    const withdrawals = await this.repo.list(agentId, page);
    return { withdrawals, summary: await this.repo.summary(agentId) };
  }
}
