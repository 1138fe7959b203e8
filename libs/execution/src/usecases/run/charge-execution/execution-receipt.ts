import { Injectable } from '@nestjs/common';
import type { SignedReceipt } from '@x402/extensions/offer-receipt';
import { AppConfig } from '@app/config';
import type { Funding } from '@app/payments';
import { NOTHING_DELIVERED, ReceiptSigner, receiptHash } from '@app/x402';
import type { ExecutionEntity } from '../../../entities/execution.entity';
import { executePath } from '../../../execution-factory';

/**
 * The signed receipt of an execution paid with x402 (`offer-receipt`), issued by the charge and
 * kept with it: the payment (network, payer, settlement transaction, amount), the route's URL,
 * and what was delivered (the request id, the fee split, the input's and output's hashes).
 */
@Injectable()
export class ExecutionReceipt {
  constructor(
    private readonly signer: ReceiptSigner,
    private readonly config: AppConfig,
  ) {}

  /**
   * Null when a chain's budget pays (no x402 payment to account for). `settlementPending`: the
   * receipt of an answer whose settlement is not confirmed yet, which states the payment and the
   * transaction sent and nothing delivered or charged (the output stays withheld: not even its hash).
   */
  async issue(e: ExecutionEntity, funding: Funding, settlementPending = false): Promise<SignedReceipt | null> {
    const paid = funding.paymentFacts();
    if (!paid) return null;
    return this.signer.receipt({
      network: paid.network,
      resourceUrl: `${this.config.publicBaseUrl}${executePath(e.route, e.agentId, e.capabilityId)}`,
      payer: paid.payer,
      transaction: paid.transaction,
      requestId: e.id,
      agentId: e.agentId,
      capabilityId: e.capabilityId,
      amount: paid.amount.toString(),
      agentFee: settlementPending ? '0' : e.agentFee.toString(),
      platformFee: settlementPending ? '0' : e.platformFee.toString(),
      inputHash: receiptHash(e.input),
      contentHash: settlementPending ? NOTHING_DELIVERED : receiptHash(e.output),
      settlementPending,
    });
  }
}
