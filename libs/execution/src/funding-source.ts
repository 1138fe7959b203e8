import { Injectable } from '@nestjs/common';
import { PaymentFundings } from '@app/payments';
import { ChainPort } from './chain-port';

/**
 * What pays for an execution: the one choice execution makes about money. A run in a chain is
 * paid by the chain's budget (ChainFunding, libs/chains, through ChainPort), any other by its x402 payment
 * (X402Funding, libs/payments); both are a `Funding`, which the runner and the charger use.
 */
@Injectable()
export class FundingSource {
  constructor(
    private readonly payments: PaymentFundings,
    private readonly chains: ChainPort,
  ) {}

  /** What pays for a stored execution: its chain's reservation when it runs in a chain, else its x402 payment. */
  forExecution(e: { id: string; chainId: string | null; paymentId: string | null }) {
    return e.chainId ? this.chains.forNode(e.chainId, e.id) : this.payments.stored(e.paymentId!);
  }

  /** The worker settles a payment no execution was written for (nothing to charge); answers its status. */
  settleUncharged(paymentId: string): Promise<string> {
    return this.payments.settle(paymentId);
  }

  /** The x402 payment `paymentId` (NOT_FOUND if none). */
  stored(paymentId: string) {
    return this.payments.stored(paymentId);
  }
}
