import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import type { Funding } from '@app/payments';
import type { ExecutionEntity } from '../../../entities/execution.entity';
import { executePath } from '@app/catalog';
import { ReceiptSalts } from '../../../receipt-salts';

/**
 * The signed receipt of an execution paid with x402 (`offer-receipt`), issued by the charge and
 * kept with it: what was delivered (the route's URL, the request id, the fee split, the input and
 * output), which the funding signs with the payment it states (network, payer, settlement
 * transaction, amount). Its hashes are keyed with the execution's salt (ReceiptSalts), the payer's alone.
 */
@Injectable()
export class ExecutionReceipt {
  constructor(
    private readonly config: AppConfig,
    private readonly salts: ReceiptSalts,
  ) {}

  /**
   * Null when a chain's budget pays (no x402 payment to account for). `settlementPending`: the
   * receipt of an answer whose settlement is not confirmed yet, which states the payment and the
   * transaction sent and nothing delivered or charged (the output stays withheld: not even its hash).
   */
  issue(e: ExecutionEntity, funding: Funding, settlementPending = false): ReturnType<Funding['signReceipt']> {
    return funding.signReceipt(
      {
        resourceUrl: `${this.config.publicBaseUrl}${executePath(e.route, e.agentId, e.capabilityId)}`,
        requestId: e.id,
        agentId: e.agentId,
        capabilityId: e.capabilityId,
        agentFee: e.agentFee,
        platformFee: e.platformFee,
        input: e.input,
        output: e.output,
        salt: this.salts.of(e.id),
      },
      settlementPending,
    );
  }
}
