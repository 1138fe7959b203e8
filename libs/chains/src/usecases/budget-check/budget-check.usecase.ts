import { Injectable } from '@nestjs/common';
import { VARIABLE_PRICING_MODELS } from '@app/agents';
import { AppException, formatMicros } from '@app/common';
import { Fees } from '@app/payments';
import { ExecuteTargetCache } from '@app/execution';
import { validateValue } from '@app/json-schema';

const MAX_BUDGET = 1_000_000_000n;
const CONTINGENCY_PERCENT = 20n;

export interface BudgetCheckRequest {
  agentId: string;
  capabilityId: string;
  input: Record<string, unknown>;
  estimatedDepth: number;
  includeSubAgentCosts: boolean;
}

export interface BudgetEstimate {
  estimatedTotal: bigint;
  breakdown: { directCost: bigint; platformFees: bigint; estimatedSubAgentCosts: bigint; contingency: bigint };
  capability: { id: string; name: string; basePrice: bigint };
  warnings: string[];
  recommendedBudget: bigint;
}

/**
 * `POST /chains/budget-check` (free): what a chain at this agent may cost. directCost = platform
 * fee + the capability's price (its cap, for variable pricing); platformFees = platform fee +
 * the platform's cut of that price; each level below the first is estimated at one more call of
 * the same cost (estimatedSubAgentCosts = (estimatedDepth - 1) x directCost, when asked for); a
 * 20% contingency on top; recommendedBudget 50% above the estimate. The input is checked against
 * the capability's inputSchema like an execute (INPUT_SCHEMA_MISMATCH).
 */
@Injectable()
export class BudgetCheck {
  constructor(private readonly targets: ExecuteTargetCache) {}

  async execute(req: BudgetCheckRequest): Promise<BudgetEstimate> {
    const { agent, capability } = await this.targets.read(req.agentId, req.capabilityId);
    const errors = validateValue(agent.id, capability.inputSchema, req.input);
    if (errors.length)
      throw new AppException('INPUT_SCHEMA_MISMATCH', 'input does not match the capability inputSchema', { errors });
    const variable = VARIABLE_PRICING_MODELS.includes(capability.pricingModel);
    const price = variable ? (capability.maxPrice ?? capability.basePrice) : capability.basePrice;
    const directCost = Fees.platform + price;
    const levels = BigInt(Math.max(0, req.estimatedDepth - 1));
    const estimatedSubAgentCosts = req.includeSubAgentCosts ? levels * directCost : 0n;
    const contingency = ((directCost + estimatedSubAgentCosts) * CONTINGENCY_PERCENT) / 100n;
    const estimatedTotal = directCost + estimatedSubAgentCosts + contingency;
    const recommendedBudget = (estimatedTotal * 3n) / 2n;
    const warnings: string[] = [];
    if (variable)
      warnings.push(`${capability.pricingModel} pricing: estimated at the cap of ${formatMicros(price)} USDC per call`);
    if (!agent.chainSettings.chain_enabled)
      warnings.push('this agent has chaining disabled: it cannot open or join a chain');
    if (req.estimatedDepth > agent.chainSettings.chain_max_depth)
      warnings.push(
        `estimatedDepth ${req.estimatedDepth} exceeds this agent's chain_max_depth of ${agent.chainSettings.chain_max_depth}`,
      );
    if (levels > 0n && !req.includeSubAgentCosts)
      warnings.push('sub-agent costs are left out: the budget may run short below the first level');
    if (recommendedBudget > MAX_BUDGET) warnings.push('the recommended budget exceeds the chain maximum of 1000.00');
    return {
      estimatedTotal,
      breakdown: {
        directCost,
        platformFees: Fees.platform + Fees.split(price).cut,
        estimatedSubAgentCosts,
        contingency,
      },
      capability: { id: capability.capabilityId, name: capability.name, basePrice: capability.basePrice },
      warnings,
      recommendedBudget,
    };
  }
}
