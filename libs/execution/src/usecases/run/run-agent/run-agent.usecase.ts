import { Injectable } from '@nestjs/common';
import { Clock, storableText, unstorablePath } from '@app/common';
import { AgentCaller, ChainCallContext } from '../../../agent-caller';
import { ExecutionEntity } from '../../../entities/execution.entity';
import { RunCompletion, RunFailure } from '../../../executions.repository';
import { meterAgentFee } from '@app/catalog';

export type RunResult = { ok: true; completion: RunCompletion } | { ok: false; failure: RunFailure };

/** Where and how to call: null when the agent or the capability is no longer available. */
export interface RunTarget {
  agentId: string;
  endpoint: string;
  outputSchema: Record<string, unknown> | null;
}

/**
 * The runner: calls the agent (signed by the platform, through the guarded client, with the
 * execution timeout), meters its fee, and answers a result that can always be stored: output
 * Postgres cannot hold (NUL, unpaired surrogates) is a failed run, and an error text is cleaned,
 * so every run reaches a terminal state and nothing is charged for output that cannot be kept.
 */
@Injectable()
export class RunAgent {
  constructor(
    private readonly caller: AgentCaller,
    private readonly clock: Clock,
  ) {}

  async execute(execution: ExecutionEntity, target: RunTarget | null, chain?: ChainCallContext): Promise<RunResult> {
    if (!target) return this.failed('failed', 'agent or capability is no longer available', 0, false);
    const called = await this.caller.call(
      target.endpoint,
      {
        agentId: target.agentId,
        requestId: execution.id,
        capabilityId: execution.capabilityId,
        input: execution.input,
      },
      target.outputSchema,
      chain,
    );
    if (!called.ok)
      return this.failed(
        called.status,
        called.error,
        called.timeMs,
        called.reachedAgent ?? true,
        called.refused === true,
        called.platformLimit === true,
      );
    const badAt = unstorablePath(called.output);
    if (badAt !== null)
      return this.failed(
        'failed',
        `agent output contains text that cannot be stored (NUL or an unpaired surrogate) at ${badAt}`,
        called.timeMs,
      );
    const fee = meterAgentFee(execution, { tokens: called.usage.tokens, cost: called.cost, timeMs: called.timeMs });
    if (!fee.ok) return this.failed('failed', fee.error, called.timeMs);
    return {
      ok: true,
      completion: {
        output: called.output,
        executionTimeMs: called.timeMs,
        completedAt: this.clock.now(),
        agentFee: fee.agentFee,
        usageTokens: fee.tokens,
      },
    };
  }

  private failed(
    status: 'failed' | 'timeout',
    error: string,
    timeMs: number,
    reachedAgent = true,
    refused = false,
    platformLimit = false,
  ): RunResult {
    return {
      ok: false,
      failure: {
        status,
        error: storableText(error),
        timeMs,
        completedAt: this.clock.now(),
        reachedAgent,
        ...(refused ? { refused } : {}),
        ...(platformLimit ? { platformLimit } : {}),
      },
    };
  }
}
