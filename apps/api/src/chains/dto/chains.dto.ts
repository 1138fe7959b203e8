import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsInt, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';
import { BudgetEstimate, ChainCostView, ChainStatusView, ChainTreeNode } from '@app/chains';
import { formatMicros } from '@app/common';
import { IsPlainObject } from '../../http/validators';
import { LIVEMODE } from '../../payments/dto/payments.dto';

export class ChainNodeResponse {
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'req_...',
    description:
      'Only when the reader may read this execution: the paying client, or a chain token of an execution above it (null otherwise)',
  })
  requestId: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'tx_...',
    description: 'The charge (tx_...), once completed; shown to every reader (it reads no output)',
  })
  transactionId: string | null;
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty({ nullable: true, type: String }) agentName: string | null;
  @ApiProperty() capabilityId: string;
  @ApiProperty() depth: number;
  @ApiProperty({
    enum: ['running', 'completed', 'refunded'],
    description: 'refunded: the node failed and its reservation went back to the budget',
  })
  status: string;
  @ApiProperty({ description: 'Charged (platform fee + agent fee); the reservation while running; 0 once refunded' })
  cost: string;
  @ApiProperty({ nullable: true, type: Number }) executionTimeMs: number | null;
  @ApiProperty({ description: 'W3C span id of the call to this agent (its traceparent)' }) spanId: string;
  @ApiProperty() startedAt: string;
  @ApiProperty({ nullable: true, type: String }) completedAt: string | null;
  @ApiProperty({ type: () => [ChainNodeResponse] }) children: ChainNodeResponse[];
}

export class ChainRefundResponse {
  @ApiProperty({ example: 'rfd_...' }) refundId: string;
  @ApiProperty() amount: string;
  @ApiProperty({ description: LIVEMODE }) livemode: boolean;
}

export class ChainStatusResponse {
  @ApiProperty({ format: 'uuid' }) chainId: string;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'tx_...',
    description:
      "The root's charge (tx_...), once completed; shown to every reader, and GET /chains/{rootTransactionId} answers this chain",
  })
  rootTransactionId: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'req_...',
    description: 'Only for the paying client (null otherwise)',
  })
  rootRequestId: string | null;
  @ApiProperty({
    enum: ['pending', 'running', 'completed', 'failed', 'partial'],
    description:
      "As its nodes stand: running while one runs, then completed (all succeeded), partial or failed, also while the chain is held open for the root's caller; pending until its payment is funded",
  })
  status: string;
  @ApiProperty() budget: string;
  @ApiProperty() remainingBudget: string;
  @ApiProperty() totalCost: string;
  @ApiProperty({ description: "Wall clock from the chain's start to its last node's end" })
  totalExecutionTimeMs: number;
  @ApiProperty() maxDepthReached: number;
  @ApiProperty() maxDepth: number;
  @ApiProperty() nodeCount: number;
  @ApiProperty({ description: 'W3C trace id shared by every call in the chain' }) traceId: string;
  @ApiProperty({ type: ChainNodeResponse, nullable: true }) tree: ChainNodeResponse | null;
  @ApiProperty() startedAt: string;
  @ApiProperty({ nullable: true, type: String, description: 'When the chain closed (its unspent budget refunded)' })
  completedAt: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description:
      "When the chain closes if nothing more runs: the expiry of the last token handed to the root's caller, at most the chain's time limit; once closed, when it closed",
  })
  closesAt: string | null;
  @ApiPropertyOptional({
    type: ChainRefundResponse,
    description: 'What the budget had left, refunded to the root wallet when the chain ended',
  })
  refund?: ChainRefundResponse;
}

function toNode(n: ChainTreeNode): ChainNodeResponse {
  return {
    requestId: n.requestId,
    transactionId: n.transactionId,
    agentId: n.agentId,
    agentName: n.agentName,
    capabilityId: n.capabilityId,
    depth: n.depth,
    status: n.status,
    cost: formatMicros(n.cost),
    executionTimeMs: n.executionTimeMs,
    spanId: n.spanId,
    startedAt: n.startedAt.toISOString(),
    completedAt: n.completedAt?.toISOString() ?? null,
    children: n.children.map(toNode),
  };
}

export function toChainStatusResponse(v: ChainStatusView, livemode: boolean): ChainStatusResponse {
  const c = v.chain;
  return {
    chainId: c.id,
    rootTransactionId: v.rootTransactionId,
    rootRequestId: v.rootRequestId,
    status: v.status,
    budget: formatMicros(c.budget),
    remainingBudget: formatMicros(v.remainingBudget),
    totalCost: formatMicros(v.totalCost),
    totalExecutionTimeMs: v.totalExecutionTimeMs,
    maxDepthReached: v.maxDepthReached,
    maxDepth: c.maxDepth,
    nodeCount: v.nodeCount,
    traceId: c.traceId,
    tree: v.tree ? toNode(v.tree) : null,
    startedAt: c.startedAt.toISOString(),
    completedAt: c.completedAt?.toISOString() ?? null,
    closesAt: v.closesAt?.toISOString() ?? null,
    ...(c.refundId && c.refunded !== null
      ? { refund: { refundId: c.refundId, amount: formatMicros(c.refunded), livemode } }
      : {}),
  };
}

export class CostBreakdownResponse {
  @ApiProperty({ description: '0.001 per completed execution' }) platformFees: string;
  @ApiProperty({ description: 'Total paid to agents (before the cut)' }) agentFees: string;
  @ApiProperty({ description: '5% of the agent fees' }) platformCuts: string;
}

export class CostByAgentResponse {
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty({ nullable: true, type: String }) agentName: string | null;
  @ApiProperty() executionCount: number;
  @ApiProperty() totalCost: string;
  @ApiProperty({ description: 'After the platform cut' }) earnings: string;
}

export class CostByDepthResponse {
  @ApiProperty() depth: number;
  @ApiProperty() nodeCount: number;
  @ApiProperty() totalCost: string;
}

export class ChainCostResponse {
  @ApiProperty({ format: 'uuid' }) chainId: string;
  @ApiProperty({ nullable: true, type: String }) rootTransactionId: string | null;
  @ApiProperty({ description: 'platformFees + agentFees; byAgent and byDepth each sum to it' }) totalCost: string;
  @ApiProperty({ type: CostBreakdownResponse }) breakdown: CostBreakdownResponse;
  @ApiProperty({ type: [CostByAgentResponse] }) byAgent: CostByAgentResponse[];
  @ApiProperty({ type: [CostByDepthResponse] }) byDepth: CostByDepthResponse[];
}

export function toChainCostResponse(v: ChainCostView): ChainCostResponse {
  return {
    chainId: v.chainId,
    rootTransactionId: v.rootTransactionId,
    totalCost: formatMicros(v.totalCost),
    breakdown: {
      platformFees: formatMicros(v.breakdown.platformFees),
      agentFees: formatMicros(v.breakdown.agentFees),
      platformCuts: formatMicros(v.breakdown.platformCuts),
    },
    byAgent: v.byAgent.map((a) => ({ ...a, totalCost: formatMicros(a.totalCost), earnings: formatMicros(a.earnings) })),
    byDepth: v.byDepth.map((d) => ({ ...d, totalCost: formatMicros(d.totalCost) })),
  };
}

export class BudgetCheckDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  targetAgentId: string;

  @ApiProperty({ example: 'translate' })
  @IsString()
  @Length(1, 100)
  capabilityId: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsDefined()
  @IsPlainObject()
  input: Record<string, unknown>;

  @ApiPropertyOptional({
    default: 1,
    minimum: 1,
    maximum: 6,
    description: 'Levels of calls expected, the root included',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(6)
  estimatedDepth?: number;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  includeSubAgentCosts?: boolean;
}

export class BudgetBreakdownResponse {
  @ApiProperty({ description: 'Platform fee + agent base price (the cap for variable pricing)' }) directCost: string;
  @ApiProperty({ description: 'Platform fee + platform cut' }) platformFees: string;
  @ApiProperty({ description: '(estimatedDepth - 1) calls of the same cost, when includeSubAgentCosts' })
  estimatedSubAgentCosts: string;
  @ApiProperty({ description: '20% buffer' }) contingency: string;
}

export class BudgetCapabilityResponse {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() basePrice: string;
}

export class BudgetCheckResponse {
  @ApiProperty() estimatedTotal: string;
  @ApiProperty({ type: BudgetBreakdownResponse }) breakdown: BudgetBreakdownResponse;
  @ApiProperty({ type: BudgetCapabilityResponse }) capability: BudgetCapabilityResponse;
  @ApiProperty({ type: [String] }) warnings: string[];
  @ApiProperty({ description: '50% above the estimate' }) recommendedBudget: string;
}

export function toBudgetCheckResponse(e: BudgetEstimate): BudgetCheckResponse {
  const b = e.breakdown;
  return {
    estimatedTotal: formatMicros(e.estimatedTotal),
    breakdown: {
      directCost: formatMicros(b.directCost),
      platformFees: formatMicros(b.platformFees),
      estimatedSubAgentCosts: formatMicros(b.estimatedSubAgentCosts),
      contingency: formatMicros(b.contingency),
    },
    capability: { id: e.capability.id, name: e.capability.name, basePrice: formatMicros(e.capability.basePrice) },
    warnings: e.warnings,
    recommendedBudget: formatMicros(e.recommendedBudget),
  };
}
