import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RegistrationFeeStep } from '@app/agents';
import { AuthModule } from '@app/auth';
import { LedgerModule } from '@app/ledger';
import { OutboxModule } from '@app/outbox';
import { JOB_WAIT_GRACE_MS, SweepRegistry } from '@app/queues';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { EscrowHoldEntity } from './entities/escrow-hold.entity';
import { PaymentEntity } from './entities/payment.entity';
import { TransactionEntity } from './entities/transaction.entity';
import { WithdrawalEntity } from './entities/withdrawal.entity';
import { RefundEntity } from './entities/refund.entity';
import { RefundsService } from './refunds.service';
import { PayoutSender } from './payout-sender';
import { ChainBudgetPostings } from './chain-budget-postings';
import { HoldReleaseSchedule, RELEASE_BUCKET_MS } from './hold-release-schedule';
import { OnchainModule } from '@app/onchain';
import { bindSettlementHash, PaymentsRepository } from './payments.repository';
import { AuthorizePayment } from './usecases/authorize-payment/authorize-payment.usecase';
import { RegistrationPaymentsRepository } from './registration-payments.repository';
import { SettlePayment } from './usecases/settle-payment/settle-payment.usecase';
import { AdmitPayment } from './usecases/admit-payment/admit-payment.usecase';
import { RecordCharge } from './usecases/record-charge/record-charge.usecase';
import { PaymentFundings } from './funding/payment-fundings';
import { X402RegistrationFee } from './registration-fee.x402';
import { PaymentsTestClock } from './test-clock';
import { WithdrawalsService } from './withdrawals.service';
import { AgentDebtEntity } from './entities/agent-debt.entity';
import { AgentDebtsRepository } from './debts/agent-debts.repository';
import { AgentCredit } from './debts/agent-credit';
import { WithdrawalReserve } from './withdrawal-reserve';
import { X402Module } from '@app/x402';
import { EscrowRelease } from './escrow-release';
import { EscrowHoldsRepository } from './repositories/escrow-holds.repository';
import { PayoutsRepository } from './repositories/payouts.repository';
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
    X402Module,
    ONCHAIN,
  ],
  providers: [
    PaymentsRepository,
    RegistrationPaymentsRepository,
    AuthorizePayment,
    SettlePayment,
    AdmitPayment,
    RecordCharge,
    PaymentFundings,
    HoldReleaseSchedule,
    WithdrawalsService,
    RefundsService,
    PayoutSender,
    PayoutsRepository,
    ChainBudgetPostings,
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
    PaymentsRepository,
    AuthorizePayment,
    SettlePayment,
    AdmitPayment,
    RecordCharge,
    PaymentFundings,
    HoldReleaseSchedule,
    WithdrawalsService,
    RefundsService,
    ChainBudgetPostings,
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
    private readonly config: AppConfig,
  ) {}

  /** What the worker's sweeper collects for this domain: due escrow releases, payouts that need the worker, and registration fees to recover (OnchainModule sweeps its chain transactions). */
  onModuleInit(): void {
    // A hold is released by its bucket's delayed job, up to a bucket after it is due: lost only past that and a queue wait.
    this.sweeps.register(
      'escrow.release',
      async () =>
        (await this.holds.due(this.clock.now(), 500)).map((h) => ({
          id: h.id,
          data: { holdId: h.id },
          dueAt: h.releaseAt,
        })),
      { graceMs: RELEASE_BUCKET_MS + JOB_WAIT_GRACE_MS },
    );
    // Payouts are enqueued when written: one still pending past a queue wait lost its job. Lapsed claims (a dead
    // process's; a live one renews its claim) are looked at every half claim, so they finish within about 1.5 claims.
    this.sweeps.register(
      'withdrawal.process',
      async () =>
        (await this.withdrawals.dueSince()).map(({ id, dueAt }) => ({ id, data: { withdrawalId: id }, dueAt })),
      { graceMs: JOB_WAIT_GRACE_MS, everyMs: this.config.payoutClaimMs / 2 },
    );
    this.sweeps.register(
      'refund.process',
      async () => (await this.refunds.dueSince()).map(({ id, dueAt }) => ({ id, data: { refundId: id }, dueAt })),
      { graceMs: JOB_WAIT_GRACE_MS, everyMs: this.config.payoutClaimMs / 2 },
    );
    // Lapsed settlement leases (a dead process) are looked at every half lease.
    this.sweeps.register(
      'registration.recover',
      async () =>
        (await this.registrations.due()).map(({ id, scheduled }) => ({ id, data: { paymentId: id }, scheduled })),
      { everyMs: this.config.settlementLeaseMs / 2 },
    );
  }
}
