import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '@app/auth';
import { ReputationModule } from '@app/reputation';
import { ExecuteTargetReaderModule } from '@app/agents';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { PaymentFundings, PaymentsModule } from '@app/payments';
import { SweepRegistry } from '@app/queues';
import { CallbackOutputs, WebhooksModule } from '@app/webhooks';
import { ExecuteTargetCache } from './admission/execute-target-cache';
import { RateLimiter } from './admission/rate-limiter';
import { InFlightRuns } from './admission/in-flight-runs';
import { KeylessReplays } from './admission/keyless-replays';
import { AgentCaller } from './agent-caller';
import { ExecutionEntity } from './entities/execution.entity';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity';
import { ExecutionsRepository } from './executions.repository';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { ExecutionPayloadsRepository } from './execution-payloads.repository';
import { ExecutionLeasesRepository } from './execution-leases.repository';
import { FundingSource } from './funding-source';
import { AdmitExecution } from './usecases/paid/admit-execution/admit-execution.usecase';
import { ChargeExecution } from './usecases/run/charge-execution/charge-execution.usecase';
import { ExecutionReceipt } from './usecases/run/charge-execution/execution-receipt';
import { ReceiptSalts } from './receipt-salts';
import { CollectExecutionEvidence } from './usecases/shared/collect-execution-evidence/collect-execution-evidence.usecase';
import { EvidenceKeys } from './usecases/shared/collect-execution-evidence/evidence-keys';
import { MarkExecutionRefunded } from './usecases/shared/mark-execution-refunded/mark-execution-refunded.usecase';
import { PruneIdempotencyKeys } from './usecases/shared/prune-idempotency-keys/prune-idempotency-keys.usecase';
import { PruneExecutionPayloads } from './usecases/shared/prune-execution-payloads/prune-execution-payloads.usecase';
import { MeasurePayloadStorage } from './usecases/shared/measure-payload-storage/measure-payload-storage.usecase';
import { EnforcePayloadCap } from './usecases/shared/enforce-payload-cap/enforce-payload-cap.usecase';
import { CountRejectedExecute } from './usecases/shared/count-rejected-execute/count-rejected-execute.usecase';
import { Execute } from './usecases/paid/execute/execute.usecase';
import { FinishSettlement } from './usecases/paid/finish-settlement/finish-settlement.usecase';
import { GetExecution } from './usecases/paid/get-execution/get-execution.usecase';
import { GetPaymentStatus } from './usecases/paid/get-payment-status/get-payment-status.usecase';
import { RecordFailedRun } from './usecases/run/record-failed-run/record-failed-run.usecase';
import { RetryExecution } from './usecases/paid/retry-execution/retry-execution.usecase';
import { RunAgent } from './usecases/run/run-agent/run-agent.usecase';
import { RunPendingExecution } from './usecases/paid/run-pending-execution/run-pending-execution.usecase';

const USE_CASES = [
  AdmitExecution,
  RunAgent,
  RecordFailedRun,
  ChargeExecution,
  ExecutionReceipt,
  Execute,
  RunPendingExecution,
  RetryExecution,
  GetExecution,
  GetPaymentStatus,
  FinishSettlement,
  CountRejectedExecute,
  CollectExecutionEvidence,
  MarkExecutionRefunded,
  PruneIdempotencyKeys,
  PruneExecutionPayloads,
  MeasurePayloadStorage,
  EnforcePayloadCap,
];

/**
 * Paid execution: use cases over one repository, a funding seam, and the admission helpers. A run
 * in a chain asks chains through ChainPort, which ChainsModule (libs/chains, above) binds.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([ExecutionEntity, IdempotencyKeyEntity]),
    AuthModule,
    ExecuteTargetReaderModule,
    PaymentsModule,
    WebhooksModule,
    ReputationModule,
  ],
  providers: [
    ...USE_CASES,
    ExecutionsRepository,
    IdempotencyKeysRepository,
    ExecutionPayloadsRepository,
    ExecutionLeasesRepository,
    FundingSource,
    AgentCaller,
    RateLimiter,
    InFlightRuns,
    KeylessReplays,
    ExecuteTargetCache,
    EvidenceKeys,
    ReceiptSalts,
  ],
  exports: [...USE_CASES, EvidenceKeys, ReceiptSalts, ExecutionsRepository, ExecuteTargetCache, RateLimiter],
})
export class ExecutionModule implements OnModuleInit {
  constructor(
    private readonly sweeps: SweepRegistry,
    private readonly repo: ExecutionsRepository,
    private readonly payments: PaymentFundings,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly payloads: ExecutionPayloadsRepository,
    private readonly callbackOutputs: CallbackOutputs,
  ) {}

  /** What the worker's sweeper collects for this domain. */
  onModuleInit(): void {
    // Unclaimed async executions once they are a sweep interval old (a younger one still has its wake job, unless Redis
    // lost it), and runs whose claim lapsed: a worker renews its claim while it runs (RunPendingExecution), so a dead
    // worker's run is looked at within about 1.5 leases.
    this.sweeps.register(
      'execution.run',
      async () =>
        (await this.repo.dueRuns(this.clock.now(), 200, this.config.maintenanceIntervalMs)).map((executionId) => ({
          id: executionId,
          data: { executionId },
        })),
      { everyMs: this.config.settlementLeaseMs / 2 },
    );
    // Lapsed settlement leases (their process died) are looked at every half lease, so their work ends within about 1.5 leases.
    this.sweeps.register(
      'payment.settle',
      async () => {
        // A failed settlement's next attempt is due by the schedule the sweeper drives: enqueued, not counted as lost.
        const work = new Map((await this.payments.due()).map((p) => [p.id, p.scheduled]));
        for (const id of await this.repo.orphanedSettlements(this.clock.now())) work.set(id, false);
        return [...work].map(([paymentId, scheduled]) => ({ id: paymentId, data: { paymentId }, scheduled }));
      },
      { everyMs: this.config.settlementLeaseMs / 2 },
    );
    this.sweeps.onLinesLost(() => this.repo.releaseLine(this.clock.now()));
    // Every tick (one job per slot): expired idempotency keys go, so the table holds only live ones.
    this.sweeps.register(
      'idempotency-keys.prune',
      async () => [{ id: 'expired', data: { requestedAt: this.clock.now().toISOString() } }],
      { periodic: true },
    );
    // Every tick: payloads past their retention go (uncharged runs' always have one; the job does a bounded share of a backlog).
    this.sweeps.register(
      'execution-payloads.prune',
      async () => [{ id: 'old', data: { requestedAt: this.clock.now().toISOString() } }],
      { periodic: true },
    );
    // A completed execution's callback is built from its stored output when sent.
    this.callbackOutputs.register((executionId) => this.payloads.outputOf(executionId));
  }
}
