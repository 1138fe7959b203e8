import { Injectable } from '@nestjs/common';
import { ExecuteTargetReader } from '@app/agents';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { HoldLease, LeaseHeartbeat } from '@app/database';
import { CapGate, CapPass } from '@app/queues';
import { ChainPort } from '../../../chain-port';
import { ExecutionOutcome } from '../../../execution.types';
import { ExecutionsRepository } from '../../../executions.repository';
import { ExecutionLeasesRepository } from '../../../execution-leases.repository';
import { FundingSource } from '../../../funding-source';
import { runClaimUntil } from '../../../execution-rows';
import { ChargeExecution } from '../../run/charge-execution/charge-execution.usecase';
import { RecordFailedRun } from '../../run/record-failed-run/record-failed-run.usecase';
import { RunAgent } from '../../run/run-agent/run-agent.usecase';

/** `deferred`: the run waits its agent's turn; nothing ran, the row is unclaimed and its job delayed. */
export type PendingRunOutcome = ExecutionOutcome & { deferred?: boolean };

/**
 * Runs a stored pending execution: the worker's `execution.run` (async executions, and any whose
 * claim ran out because the process holding it died), and a sync retry. Claims the row unless the
 * caller already holds it, takes its agent's turn through the worker's `gate` (at most
 * WORKER_AGENT_CONCURRENCY runs of one agent at once; otherwise the run waits, `deferred`), calls
 * the agent, then records the failure or charges the success.
 */
@Injectable()
export class RunPendingExecution {
  constructor(
    private readonly repo: ExecutionsRepository,
    private readonly agents: ExecuteTargetReader,
    private readonly funding: FundingSource,
    private readonly runAgent: RunAgent,
    private readonly recordFailure: RecordFailedRun,
    private readonly charge: ChargeExecution,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly chains: ChainPort,
    private readonly heartbeat: LeaseHeartbeat,
    private readonly leases: ExecutionLeasesRepository,
  ) {}

  execute(id: string, opts: { claimed?: boolean; gate?: CapGate } = {}): Promise<PendingRunOutcome> {
    return this.heartbeat.holding((hold) => this.claimAndRun(id, opts, hold));
  }

  private async claimAndRun(
    id: string,
    opts: { claimed?: boolean; gate?: CapGate },
    hold: HoldLease,
  ): Promise<PendingRunOutcome> {
    let pass: CapPass | undefined;
    if (!opts.claimed) {
      const now = this.clock.now();
      // The claim is a short lease renewed while this process runs it: a dead worker's run is due again one
      // lease later (SETTLEMENT_LEASE_MS), not a whole run's time. The agent's turn is held as long as a run may take.
      const until = new Date(now.getTime() + this.config.settlementLeaseMs);
      const holdMs = runClaimUntil(now.getTime(), this.config).getTime() - now.getTime();
      const agentId = await this.repo.claimRun(id, until, now);
      if (!agentId) {
        const execution = (await this.repo.findById(id))!;
        // A duplicate job, or one whose run ended meanwhile: a turn left to it goes on.
        if (opts.gate && execution) await opts.gate.skip(agentKey(execution.agentId), holdMs);
        return { execution, settlement: null };
      }
      if (opts.gate) {
        // Marked in line a sweep past its wake-up: the sweeper enqueues it again only if its job was lost.
        const park = (wakeAt: Date) =>
          this.repo.parkRun(id, until, new Date(wakeAt.getTime() + this.config.maintenanceIntervalMs));
        const entered = await opts.gate.enter(agentKey(agentId), { holdMs, park });
        if (!entered) return { execution: (await this.repo.findById(id))!, settlement: null, deferred: true };
        pass = entered;
      }
      hold(until, (from, to) => this.leases.renewRunClaim(id, from, to));
    }
    try {
      return await this.run(id);
    } finally {
      await pass?.leave();
    }
  }

  private async run(id: string): Promise<ExecutionOutcome> {
    const execution = (await this.repo.findById(id))!;
    // A chain root whose chain was never funded (its process died before): nothing runs, all of it is refunded.
    if (execution.chainId && (await this.chains.endUnfunded(execution)))
      return { execution: (await this.repo.findById(id))!, settlement: null };
    const [target, funding] = await Promise.all([
      this.agents.stored(execution.agentId, execution.capabilityId),
      this.funding.forExecution(execution),
    ]);
    const runnable =
      target && target.capability && target.agent.status === 'active'
        ? {
            agentId: target.agent.id,
            endpoint: target.agent.endpoints.execution,
            outputSchema: target.capability.outputSchema,
          }
        : null;
    const run = await this.runAgent.execute(execution, runnable);
    if (!run.ok)
      return { execution: await this.recordFailure.execute(execution, run.failure, { funding }), settlement: null };
    return this.charge.execute({
      state: 'pending',
      execution,
      funding,
      completion: run.completion,
      reputation: target!.agent.reputationScore,
    });
  }
}

/** The cap's key of an agent's runs. */
function agentKey(agentId: string): string {
  return `agent:${agentId}`;
}
