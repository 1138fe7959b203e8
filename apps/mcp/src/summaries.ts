import { z } from 'zod/v4';
import { outputs } from './schemas';

type Out<K extends keyof typeof outputs> = z.input<(typeof outputs)[K]>;

/** Longest output quoted in a text summary; structuredContent always carries all of it. */
const MAX_QUOTED = 4_000;

function quote(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length <= MAX_QUOTED
    ? text
    : `${text.slice(0, MAX_QUOTED)}... (truncated: structuredContent has all of it)`;
}

const price = (p: { basePrice: string; maxPrice?: string; currency: string }) =>
  `${p.maxPrice ? `up to ${p.maxPrice}` : p.basePrice} ${p.currency}`;

function execution(e: Out<'execution'>, paid = ''): string {
  return [
    `${e.status} ${e.requestId}`,
    paid && `: ${paid}`,
    e.transactionId ? `; transaction ${e.transactionId}` : '',
    e.message ? `; ${e.message}` : '',
    e.output !== undefined ? `. Output: ${quote(e.output)}` : '',
  ].join('');
}

/**
 * The short text each tool's result is shown with: its gist in a line or a few, beside the full
 * result in structuredContent (for clients that show only text, the output of a run is quoted
 * as compact JSON).
 */
export const summaries = {
  discover: (r: Out<'discover'>) =>
    [
      `${r.agents.length} of ${r.total}${r.totalExact ? '' : '+'} agents`,
      ...r.agents.map(
        (a) =>
          `- ${a.name} (${a.id}), reputation ${a.reputation_score}: ${a.capabilities.map((k) => `${k.id} ${price(k.pricing)}`).join(', ')}`,
      ),
    ].join('\n'),
  recommend: (r: Out<'recommend'>) =>
    [
      `${r.recommendations.length} agents for "${r.query}"`,
      ...r.recommendations.map(
        (x) => `- ${x.agent.name} (${x.agent.id}), relevance ${x.relevance}: ${x.matchedCapabilities.join(', ')}`,
      ),
    ].join('\n'),
  budgetCheck: (r: Out<'budgetCheck'>) =>
    `${r.capability.id} (${r.capability.name}): about ${r.estimatedTotal} USDC (direct ${r.breakdown.directCost}); recommended budget ${r.recommendedBudget}` +
    (r.warnings.length ? `; warnings: ${r.warnings.join('; ')}` : ''),
  execute: (r: Out<'execute'>) =>
    execution(r, `paid ${r.paid ?? '0.000000'} USDC; session spent ${r.spent.spent}, ${r.spent.remaining} left`),
  execution: (r: Out<'execution'>) => execution(r),
  chain: (r: Out<'chain'>) =>
    `chain ${r.chainId} ${r.status}: ${r.nodeCount} calls, depth ${r.maxDepthReached} of ${r.maxDepth}; cost ${r.totalCost} of a ${r.budget} USDC budget, ${r.remainingBudget} left; ${r.totalExecutionTimeMs} ms`,
  chainCost: (r: Out<'chainCost'>) =>
    [
      `chain ${r.chainId}: ${r.totalCost} USDC (agents ${r.breakdown.agentFees}, platform fees ${r.breakdown.platformFees}, platform cut ${r.breakdown.platformCuts})`,
      ...r.byAgent.map((a) => `- ${a.agentName ?? a.agentId}: ${a.totalCost} over ${a.executionCount} calls`),
    ].join('\n'),
  fileDispute: (r: Out<'fileDispute'>) =>
    `dispute ${r.disputeId} filed for ${r.transactionId}: pending; the agent may respond until ${r.respondBy}`,
  dispute: (r: Out<'dispute'>) =>
    `dispute ${r.id} ${r.status} (${r.transactionId}): "${r.reason}"` +
    (r.agentResponse ? `; the agent answered "${r.agentResponse}"` : '') +
    (r.resolution
      ? `; resolved ${r.resolution.outcome}, ${r.resolution.refundAmount} USDC back to the payer`
      : `; respond by ${r.respondBy}`),
  spending: (r: Out<'spending'>) => `spent ${r.spent} USDC; ${r.remaining} left of the session cap`,
};
