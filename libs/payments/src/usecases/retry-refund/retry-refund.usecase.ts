import { Injectable } from '@nestjs/common';
import { AppException } from '@app/common';
import { RefundEntity } from '../../entities/refund.entity';
import { RefundsService } from '../../refunds.service';
import { RefundsRepository } from '../../repositories/refunds.repository';

/**
 * An admin's re-drive (`POST /admin/refunds/:id/retry`): a failed refund pending again at once, or
 * a held one (below the dust floor, not carried yet) sent alone on request; then woken.
 * INVALID_STATE for any other state; NOT_FOUND when there is none.
 */
@Injectable()
export class RetryRefund {
  constructor(
    private readonly repo: RefundsRepository,
    private readonly refunds: RefundsService,
  ) {}

  async execute(id: string): Promise<RefundEntity> {
    if (!(await this.repo.redrive(id))) {
      const current = await this.refunds.get(id);
      throw new AppException(
        'INVALID_STATE',
        `Only a failed or held refund can be sent now (status ${current.status})`,
        { status: current.status },
      );
    }
    await this.refunds.enqueue(id);
    return this.refunds.get(id);
  }
}
