import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FaultInjector } from '@app/common';
import { RegistrationFeeStep } from '@app/agents';
import { AuthModule } from '@app/auth';
import { AppConfig } from '@app/config';
import { LedgerModule } from '@app/ledger';
import { OutboxModule } from '@app/outbox';
import { SweepRegistry } from '@app/queues';
import { ChainNonceEntity, ChainTxEntity } from './chain/chain-tx.entity';
import { ChainTxRecovery } from './chain/chain-tx-recovery';
import { EscrowHoldEntity } from './entities/escrow-hold.entity';
import { PaymentEntity } from './entities/payment.entity';
import { TransactionEntity } from './entities/transaction.entity';
import { WithdrawalEntity } from './entities/withdrawal.entity';
import { RefundEntity } from './entities/refund.entity';
import { PayoutSender } from './payout.sender';
import { RefundsService } from './refunds.service';
import { EscrowService } from './escrow.service';
import { PaymentsService } from './payments.service';
import { PaymentSettlement } from './payment-settlement.service';
import { NonceGuard } from '@app/x402';
import { X402RegistrationFee } from './registration-fee.x402';
import { createSettlementAdapter } from './settlement/create-settlement-adapter';
import { PaymentsTestClock } from './test-clock';
import { SettlementAdapter } from './settlement/settlement.adapter';
import { WithdrawalsService } from './withdrawals.service';
import { AgentDebtEntity } from './entities/agent-debt.entity';
import { AgentDebtsRepository } from './debts/agent-debts.repository';
import { AgentCredit } from './debts/agent-credit';
import { WithdrawalReserve } from './withdrawal-reserve';
import { X402Service } from '@app/x402';
import { EscrowRelease } from './escrow-release';
import { EscrowHoldsRepository } from './repositories/escrow-holds.repository';
import { RefundsRepository } from './repositories/refunds.repository';
import { RegistrationPaymentsRepository } from './repositories/registration-payments.repository';
import { TransactionsRepository } from './repositories/transactions.repository';
import { WithdrawalsRepository } from './repositories/withdrawals.repository';
import { PAYMENTS_USECASES } from './usecases';
import { RecoverRegistrationPayment } from './usecases/recover-registration-payment/recover-registration-payment.usecase';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      PaymentEntity,
      TransactionEntity,
      EscrowHoldEntity,
      WithdrawalEntity,
      RefundEntity,
      AgentDebtEntity,
      ChainTxEntity,
      ChainNonceEntity,
    ]),
    AuthModule,
    LedgerModule,
    OutboxModule,
  ],
  providers: [
    NonceGuard,
    X402Service,
    { provide: SettlementAdapter, inject: [AppConfig, DataSource, FaultInjector], useFactory: createSettlementAdapter },
    ChainTxRecovery,
    PaymentsService,
    PaymentSettlement,
    EscrowService,
    PayoutSender,
    WithdrawalsService,
    RefundsService,
    AgentDebtsRepository,
    AgentCredit,
    WithdrawalReserve,
    EscrowHoldsRepository,
    RefundsRepository,
    RegistrationPaymentsRepository,
    TransactionsRepository,
    WithdrawalsRepository,
    EscrowRelease,
    ...PAYMENTS_USECASES,
    PaymentsTestClock,
    X402RegistrationFee,
    { provide: RegistrationFeeStep, useExisting: X402RegistrationFee },
  ],
  exports: [
    ChainTxRecovery,
    NonceGuard,
    X402Service,
    SettlementAdapter,
    PaymentsService,
    PaymentSettlement,
    EscrowService,
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
    private readonly escrow: EscrowService,
    private readonly withdrawals: WithdrawalsService,
    private readonly refunds: RefundsService,
    private readonly chainTxs: ChainTxRecovery,
    private readonly registrations: RecoverRegistrationPayment,
  ) {}

  /** What the worker's sweeper collects for this domain: due escrow releases, payouts that need the worker, registration fees to recover, and chain transactions to decide. */
  onModuleInit(): void {
    this.sweeps.register('escrow.release', async () =>
      (await this.escrow.dueReleases()).map((h) => ({ id: h.id, data: { holdId: h.id } })),
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
    this.sweeps.register('chain.resend', async () =>
      (await this.chainTxs.due()).map((id) => ({ id, data: { txId: id } })),
    );
  }
}
