import { SystemClock } from '@app/common';
import { AgentCaller, AgentCallResult } from '../../../agent-caller';
import { ExecutionEntity } from '../../../entities/execution.entity';
import { RunAgent } from './run-agent.usecase';

/** Whether a failed run reached the agent decides its reputation penalty (RecordFailedRun). */
describe('RunAgent: failures that reached the agent', () => {
  const execution = {
    id: 'req_1',
    capabilityId: 'translate',
    input: {},
    pricingModel: 'per-request',
    unitPrice: 10n,
    authorizedAgentFee: 10n,
  } as unknown as ExecutionEntity;
  const target = { agentId: 'a', endpoint: 'https://agent.test/x', outputSchema: null };
  const runner = (answer: AgentCallResult) =>
    new RunAgent({ call: async () => answer } as unknown as AgentCaller, new SystemClock());

  it('a target that is gone never reached the agent', async () => {
    expect(await runner({ ok: true, output: {}, timeMs: 1, usage: {} }).execute(execution, null)).toMatchObject({
      ok: false,
      failure: { reachedAgent: false },
    });
  });

  it('an address the guard refused never reached the agent', async () => {
    const run = await runner({
      ok: false,
      status: 'failed',
      error: 'agent unreachable: blocked',
      timeMs: 0,
      reachedAgent: false,
    }).execute(execution, target);
    expect(run).toMatchObject({ ok: false, failure: { reachedAgent: false } });
  });

  it.each<[string, AgentCallResult]>([
    ['an error answer', { ok: false, status: 'failed', error: 'agent answered 500', timeMs: 3 }],
    ['a timeout', { ok: false, status: 'timeout', error: 'agent did not answer', timeMs: 1000 }],
    ['output that cannot be stored', { ok: true, output: { t: 'a\u0000b' }, timeMs: 2, usage: {} }],
  ])('%s reached the agent', async (_, answer) => {
    expect(await runner(answer).execute(execution, target)).toMatchObject({
      ok: false,
      failure: { reachedAgent: true },
    });
  });
});
