import { Injectable } from '@nestjs/common';
import { Usdc } from '@app/common';
import { GetDisputeDebt } from '@app/payments';
import { DisputeEntity, DisputeView } from './entities/dispute.entity';

/**
 * A dispute with its refund's progress: of what the resolution gives back to the payer, the part
 * refunded so far (at resolution, and from the agent's repayments since) and the part the agent
 * still owes it (its debt for earnings it had withdrawn; 0 once an admin advanced it).
 */
@Injectable()
export class DisputeViews {
  constructor(private readonly disputeDebt: GetDisputeDebt) {}

  async of(d: DisputeEntity): Promise<DisputeView> {
    if (!d.resolution) return Object.assign(d, { refundedAmount: 0n, outstandingAmount: 0n });
    const total = Usdc.parse(d.resolution.refundAmount, 'refundAmount').micros;
    const debt = await this.disputeDebt.execute(d.id);
    const outstanding = debt && debt.creditorWallet !== null ? debt.amount - debt.refunded : 0n;
    return Object.assign(d, { refundedAmount: total - outstanding, outstandingAmount: outstanding });
  }
}
