import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RegistrationFeeStep } from '@app/agents';
import { AuthModule } from '@app/auth';
import { LedgerModule } from '@app/ledger';
import { OutboxModule } from '@app/outbox';
import { SweepRegistry } from '@app/queues';
import { Clock } from '@app/common';
import { EscrowHoldEntity } from './entities/escrow-hold.entity';
import { PaymentEntity } from './entities/payment.entity';
import { TransactionEntity } from './entities/transaction.entity';
import { WithdrawalEntity } from './entities/withdrawal.entity';
import { RefundEntity } from './entities/refund.entity';
import { RefundsService } from './refunds.service';
import { HoldReleaseSchedule } from './hold-release-schedule';
import { OnchainModule } from '@app/onchain';
import { bindSettlementHash, PaymentsRepository } from './payments.repository';
import { AuthorizePayment } from './usecases/authorize-payment/authorize-payment.usecase';
import { SettlePayment } from './usecases/settle-payment/settle-payment.usecase';
import { AdmitPayment } from './usecases/admit-payment/admit-payment.usecase';
import { RecordCharge } from './usecases/record-charge/record-charge.usecase';
import { PaymentFundings } from './funding/payment-fundings';
import { NonceGuard } from '@app/x402';
import { X402RegistrationFee } from './registration-fee.x402';
import { PaymentsTestClock } from './test-clock';
import { WithdrawalsService } from './withdrawals.service';
import { AgentDebtEntity } from './entities/agent-debt.entity';
import { AgentDebtsRepository } from './debts/agent-debts.repository';
import { AgentCredit } from './debts/agent-credit';
import { WithdrawalReserve } from './withdrawal-reserve';
import { ReceiptSigner, ResourceListings, VerifyReceipt, X402Service } from '@app/x402';
import { EscrowRelease } from './escrow-release';
import { EscrowHoldsRepository } from './repositories/escrow-holds.repository';
import { RefundsRepository } from './repositories/refunds.repository';
import { TransactionsRepository } from './repositories/transactions.repository';
import { WithdrawalsRepository } from './repositories/withdrawals.repository';
import { PAYMENTS_USECASES } from './usecases';
import { RecoverRegistrationPayment } from './usecases/recover-registration-payment/recover-registration-payment.usecase';

/** Sending money on a chain, with the one write it needs on this side: a settlement's hash on its payments. */
const ONCHAIN = OnchainModule.register({ bindSettlementHash });

@Module({
  imports: [
    TypeOrmModule.forFeature([
      PaymentEntity,
      TransactionEntity,
      EscrowHoldEntity,
      WithdrawalEntity,
      RefundEntity,
      AgentDebtEntity,
    ]),
    AuthModule,
    LedgerModule,
    OutboxModule,
    ONCHAIN,
  ],
  providers: [
    NonceGuard,
    X402Service,
    ResourceListings,
    ReceiptSigner,
    VerifyReceipt,
    PaymentsRepository,
    AuthorizePayment,
    SettlePayment,
    AdmitPayment,
    RecordCharge,
    PaymentFundings,
    HoldReleaseSchedule,
    WithdrawalsService,
    RefundsService,
    AgentDebtsRepository,
    AgentCredit,
    WithdrawalReserve,
    EscrowHoldsRepository,
    RefundsRepository,
    TransactionsRepository,
    WithdrawalsRepository,
    EscrowRelease,
    ...PAYMENTS_USECASES,
    PaymentsTestClock,
    X402RegistrationFee,
    { provide: RegistrationFeeStep, useExisting: X402RegistrationFee },
  ],
  exports: [
    ONCHAIN,
    NonceGuard,
    X402Service,
    ResourceListings,
    ReceiptSigner,
    VerifyReceipt,
    PaymentsRepository,
    AuthorizePayment,
    SettlePayment,
    AdmitPayment,
    RecordCharge,
    PaymentFundings,
    HoldReleaseSchedule,
    WithdrawalsService,
    RefundsService,
    AgentCredit,
    WithdrawalReserve,
    ...PAYMENTS_USECASES,
    PaymentsTestClock,
    RegistrationFeeStep,
  ],
})
export class PaymentsModule implements OnModuleInit {
  constructor(
    private readonly sweeps: SweepRegistry,
    private readonly holds: EscrowHoldsRepository,
    private readonly clock: Clock,
    private readonly withdrawals: WithdrawalsService,
    private readonly refunds: RefundsService,
    private readonly registrations: RecoverRegistrationPayment,
  ) {}

  /** What the worker's sweeper collects for this domain: due escrow releases, payouts that need the worker, and registration fees to recover (OnchainModule sweeps its chain transactions). */
  onModuleInit(): void {
    this.sweeps.register('escrow.release', async () =>
      (await this.holds.due(this.clock.now(), 500)).map((h) => ({ id: h.id, data: { holdId: h.id } })),
    );
    this.sweeps.register('withdrawal.process', async () =>
      (await this.withdrawals.dueForProcessing()).map((id) => ({ id, data: { withdrawalId: id } })),
    );
    this.sweeps.register('refund.process', async () =>
      (await this.refunds.dueForProcessing()).map((id) => ({ id, data: { refundId: id } })),
    );
    this.sweeps.register('registration.recover', async () =>
      (await this.registrations.due()).map((id) => ({ id, data: { paymentId: id } })),
    );
  }
}
