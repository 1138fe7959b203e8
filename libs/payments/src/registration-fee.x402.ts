import { Injectable } from '@nestjs/common';
import { FaultInjector } from '@app/common';
import { EntityManager } from 'typeorm';
import { RegistrationFeeCharge, RegistrationFeeContext, RegistrationFeeStep } from '@app/agents';
import { SettlementFailed } from '@app/onchain';
import { Accounts, LedgerService } from '@app/ledger';
import { REGISTRATION_FEE } from './fees';
import { X402Service } from '@app/x402';
import { PaymentsRepository } from './payments.repository';
import { AuthorizePayment } from './usecases/authorize-payment/authorize-payment.usecase';
import { SETTLEMENT_PENDING, SettlePayment } from './usecases/settle-payment/settle-payment.usecase';
import { PaymentEntity } from './entities/payment.entity';
import { CommitOutcomeUnknown, isTransientDatabaseError } from '@app/database';

interface X402RegistrationCharge extends RegistrationFeeCharge {
  paymentId: string;
}

/**
 * A settlement whose outcome this request cannot know: sent and undecided (its hash), or Postgres lost
 * (`null`: a COMMIT lost or a connection gone). `undefined` for any other failure (nothing moved, or a refusal).
 */
function unknownOutcome(err: unknown): string | null | undefined {
  if (err instanceof SettlementFailed)
    return err.reason === SETTLEMENT_PENDING ? ((err.details?.txHash as string | undefined) ?? null) : undefined;
  return err instanceof CommitOutcomeUnknown || isTransientDatabaseError(err) ? null : undefined;
}

/**
 * Registration costs 0.10 USDC, paid with x402 by the wallet being registered (the payment is
 * the proof that the caller holds that wallet). Verified and settled before the agent is
 * created; recorded in the ledger in the transaction that creates it.
 */
@Injectable()
export class X402RegistrationFee extends RegistrationFeeStep {
  constructor(
    private readonly authorizePayment: AuthorizePayment,
    private readonly settle: SettlePayment,
    private readonly payments: PaymentsRepository,
    private readonly ledger: LedgerService,
    private readonly faults: FaultInjector,
  ) {
    super();
  }

  async authorize(ctx: RegistrationFeeContext): Promise<X402RegistrationCharge> {
    const reserved = await this.authorizePayment.execute(
      ctx.payment,
      { amount: REGISTRATION_FEE, resource: ctx.resource, description: 'agora agent registration fee' },
      { purpose: 'registration', expectedPayer: ctx.wallet },
    );
    let settled: PaymentEntity;
    try {
      // Tests: Postgres is lost here, the fee reserved and not yet settled.
      await this.faults.reach('registration.after-reserve');
      settled = await this.settle.execute(reserved.id);
    } catch (err) {
      // Written, and its settlement not known here: never "send again" (it may have moved). Where to read it instead.
      const txHash = unknownOutcome(err);
      if (txHash === undefined) throw err;
      return {
        paymentId: reserved.id,
        receipt: null,
        pending: { payer: reserved.payer, nonce: reserved.nonce, txHash },
      };
    }
    // Tests: Postgres is lost here, the fee settled and recorded, its agent not yet created.
    await this.faults.reach('registration.after-settle');
    return { paymentId: settled.id, receipt: X402Service.receipt(settled, settled.txHash ?? '') };
  }

  async capture(manager: EntityManager, charge: RegistrationFeeCharge | null, agentId: string): Promise<void> {
    const { paymentId } = charge as X402RegistrationCharge;
    await this.ledger.post(manager, {
      code: 'registration.fee',
      refId: paymentId,
      legs: [
        { account: Accounts.worldChain(), amount: -REGISTRATION_FEE },
        { account: Accounts.platformRevenue(), amount: REGISTRATION_FEE },
      ],
      metadata: { agentId },
    });
    // Refused if the worker refunded the fee meanwhile (this request stalled past the settlement lease): the agent is not created.
    if (!(await this.payments.bindUnbound(manager, paymentId, agentId))) {
      throw new SettlementFailed(
        'The registration took too long and its fee is being refunded; pay again to register',
        { paymentId },
      );
    }
  }
}
