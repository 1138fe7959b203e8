import { Injectable } from '@nestjs/common';
import { ExecuteTargetReader } from '@app/agents';
import { ChainsRepository } from '@app/chains';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { ExecutionOutcome } from '../../execution.types';
import { ExecutionsRepository } from '../../executions.repository';
import { FundingSource } from '../../funding/x402-funding';
import { runClaimUntil } from '../../execution-factory';
import { ChargeExecution } from '../charge-execution/charge-execution.usecase';
import { EndUnrunChain } from '../end-unrun-chain/end-unrun-chain.usecase';
import { RecordFailedRun } from '../record-failed-run/record-failed-run.usecase';
import { RunAgent } from '../run-agent/run-agent.usecase';

/**
 * Runs a stored pending execution: the worker's `execution.run` (async executions, and any whose
 * claim ran out because the process holding it died), and a sync retry. Claims the row unless the
 * caller already holds it, calls the agent, then records the failure or charges the success.
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
    private readonly chains: ChainsRepository,
    private readonly endUnrun: EndUnrunChain,
  ) {}

  async execute(id: string, opts: { claimed?: boolean } = {}): Promise<ExecutionOutcome> {
    if (!opts.claimed) {
      const now = this.clock.now();
      if (!(await this.repo.claimRun(id, runClaimUntil(now.getTime(), this.config.executionTimeoutMs), now))) {
        return { execution: (await this.repo.findById(id))!, settlement: null };
      }
    }
    const execution = (await this.repo.findById(id))!;
    // A chain root whose chain was never funded (its process died before): nothing runs, all of it is refunded.
    if (execution.chainId && (await this.chains.find(execution.chainId))?.status === 'pending') {
      await this.endUnrun.execute(execution);
      return { execution: (await this.repo.findById(id))!, settlement: null };
    }
    const [target, funding] = await Promise.all([this.agents.stored(execution.agentId, execution.capabilityId), this.funding.forExecution(execution)]);
    const runnable =
      target && target.capability && target.agent.status === 'active'
        ? { agentId: target.agent.id, endpoint: target.agent.endpoints.execution, outputSchema: target.capability.outputSchema }
        : null;
    const run = await this.runAgent.execute(execution, runnable);
    if (!run.ok) return { execution: await this.recordFailure.execute(execution, run.failure, { funding }), settlement: null };
    return this.charge.execute({ state: 'pending', execution, funding, completion: run.completion, reputation: target!.agent.reputationScore });
  }
}
