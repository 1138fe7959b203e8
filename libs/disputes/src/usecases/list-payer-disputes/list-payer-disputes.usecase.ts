import { Injectable } from '@nestjs/common';
import { PayerRead } from '@app/auth';
import type { PayerReadProof } from '@app/auth';
import { Page } from '@app/common';
import { DisputeEntity, DisputeStatus } from '../../entities/dispute.entity';
import { DisputesRepository } from '../../disputes.repository';

/**
 * `GET /payers/:wallet/disputes`: the disputes a paying wallet filed, newest first, with the total
 * for the filter; for that wallet only (PayerRead: its console session or its signature).
 */
@Injectable()
export class ListPayerDisputes {
  constructor(
    private readonly auth: PayerRead,
    private readonly repo: DisputesRepository,
  ) {}

  async execute(
    wallet: string,
    status: DisputeStatus | undefined,
    page: Page,
    proof: PayerReadProof,
  ): Promise<{ disputes: DisputeEntity[]; total: number }> {
    await this.auth.verify(wallet, proof);
    return this.repo.listBy({ clientWallet: wallet }, status, page);
  }
}
