import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ReputationRepository } from './reputation.repository';

/**
 * Whether a payer has money at stake with agora: it has paid at least FUNDED_PAYER_MIN_SPEND_MICRO in
 * settled agent fees to agents not its own (`payer_spend`, kept by `reputation_apply`). A fresh wallet
 * costs nothing; a funded one cost at least that much. Read where a free request would otherwise cost
 * us work or storage (an uncharged run keeps a large input for its retry only for a funded payer).
 */
@Injectable()
export class PayerStanding {
  constructor(
    private readonly repo: ReputationRepository,
    private readonly config: AppConfig,
  ) {}

  async funded(payer: string | null): Promise<boolean> {
    if (!payer) return false;
    return (await this.repo.payerSpend(payer)) >= BigInt(this.config.fundedPayerMinSpendMicro);
  }
}
