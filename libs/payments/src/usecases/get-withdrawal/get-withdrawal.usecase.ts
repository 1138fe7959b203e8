import { Injectable } from '@nestjs/common';
import { NotFoundException } from '@app/common';
import { WithdrawalEntity } from '../../entities/withdrawal.entity';
import { WithdrawalsRepository } from '../../repositories/withdrawals.repository';

/** `GET /payments/withdrawal/:id`: one withdrawal (WITHDRAWAL_NOT_FOUND when there is none). */
@Injectable()
export class GetWithdrawal {
  constructor(private readonly repo: WithdrawalsRepository) {}

  async execute(id: string): Promise<WithdrawalEntity> {
    const w = await this.repo.findById(id);
    if (!w) throw new NotFoundException('WITHDRAWAL_NOT_FOUND', 'Withdrawal', id);
    return w;
  }
}
