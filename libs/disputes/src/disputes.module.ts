import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@app/auth';
import { Clock } from '@app/common';
import { ExecutionModule } from '@app/execution';
import { PaymentsModule } from '@app/payments';
import { SweepRegistry } from '@app/queues';
import { ReputationModule } from '@app/reputation';
import { DisputeTimeouts } from './dispute-timeouts';
import { DisputeViews } from './dispute-views';
import { DisputesRepository } from './disputes.repository';
import { DisputeEntity } from './entities/dispute.entity';
import { AdvanceTestClock } from './usecases/advance-test-clock/advance-test-clock.usecase';
import { ConfirmDispute } from './usecases/confirm-dispute/confirm-dispute.usecase';
import { FileDispute } from './usecases/file-dispute/file-dispute.usecase';
import { PayerProofCheck } from './usecases/file-dispute/payer-proof';
import { GetDispute } from './usecases/get-dispute/get-dispute.usecase';
import { GetEvidenceKey } from './usecases/get-evidence-key/get-evidence-key.usecase';
import { ListAgentDisputes } from './usecases/list-agent-disputes/list-agent-disputes.usecase';
import { ListPayerDisputes } from './usecases/list-payer-disputes/list-payer-disputes.usecase';
import { ListOpenDisputes } from './usecases/list-open-disputes/list-open-disputes.usecase';
import { ResolveDispute } from './usecases/resolve-dispute/resolve-dispute.usecase';
import { ResolveOverdueDispute } from './usecases/resolve-overdue-dispute/resolve-overdue-dispute.usecase';
import { RespondToDispute } from './usecases/respond-to-dispute/respond-to-dispute.usecase';

const USE_CASES = [
  FileDispute,
  ConfirmDispute,
  RespondToDispute,
  ResolveDispute,
  ResolveOverdueDispute,
  GetDispute,
  GetEvidenceKey,
  ListAgentDisputes,
  ListPayerDisputes,
  ListOpenDisputes,
  AdvanceTestClock,
];

/** Disputes: file, respond, resolve (by the platform or the response deadline), read. The money moves through payments' use cases (FreezeDisputedEarnings, SettleDisputedEarnings); what each outcome refunds is dispute-refund.rule.ts. */
@Module({
  imports: [TypeOrmModule.forFeature([DisputeEntity]), AuthModule, PaymentsModule, ExecutionModule, ReputationModule],
  providers: [...USE_CASES, DisputesRepository, DisputeTimeouts, DisputeViews, PayerProofCheck],
  exports: USE_CASES,
})
export class DisputesModule implements OnModuleInit {
  constructor(
    private readonly sweeps: SweepRegistry,
    private readonly timeouts: DisputeTimeouts,
    private readonly clock: Clock,
  ) {}

  /**
   * What the worker's sweeper collects for this domain: pending disputes past their response deadline;
   * every tick, the charges whose filing window has closed, counted in their payers' spend (CountMaturedSpend).
   */
  onModuleInit(): void {
    this.sweeps.register('dispute.timeout', async () =>
      (await this.timeouts.due()).map((id) => ({ id, data: { disputeId: id } })),
    );
    this.sweeps.register(
      'payer-spend.mature',
      async () => [{ id: 'matured', data: { requestedAt: this.clock.now().toISOString() } }],
      { periodic: true },
    );
  }
}
