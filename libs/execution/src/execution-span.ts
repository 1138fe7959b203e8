import { inSpan, SpanIds } from '@app/tracing';
import { ExecuteCommand, ExecuteResult } from './execution.types';

/**
 * The span of one `POST /execute` (plain, chain root or chained hop): admission, the agent call and
 * the charge are its children. Attributes name the agent, capability, cost and settlement status,
 * never the payment header or a chain token. `parent`: a hop's node in the chain's trace.
 */
export function executionSpan<R extends ExecuteResult>(
  cmd: ExecuteCommand,
  fn: () => Promise<R>,
  parent?: SpanIds,
): Promise<R> {
  const attributes = {
    'agora.agent_id': cmd.agentId,
    'agora.capability_id': cmd.capabilityId,
    'agora.async': Boolean(cmd.async),
  };
  return inSpan(
    'agora.execute',
    attributes,
    async (set) => {
      const result = await fn();
      const e = result.execution;
      set({
        'agora.request_id': e.id,
        'agora.status': e.status,
        'agora.cost': String(e.platformFee + e.agentFee),
        'agora.settlement_status': e.settlementStatus ?? 'none',
        'agora.replayed': result.replayed,
        ...(e.chainId ? { 'agora.chain_id': e.chainId } : {}),
      });
      return result;
    },
    { parent },
  );
}
