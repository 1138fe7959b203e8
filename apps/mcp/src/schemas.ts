import { z } from 'zod/v4';

/**
 * The tools' arguments and results as zod schemas (zod 4 API, from `zod/v4`, which zod 3.25+ and 4
 * both provide). They follow @agora/sdk's types: `tool()` in tools.ts types each tool's arguments
 * by its input schema and passes them to the SDK call, and requires the SDK's answer to be an input
 * of its output schema, so tsc fails when a schema drifts from the SDK. Results are loose objects:
 * a field agora adds later does not make a valid answer invalid.
 */
const id = (description: string) => z.string().min(1).describe(description);
const usdc = (description: string) => z.string().describe(`${description} (USDC, e.g. "0.010000")`);
const json = z.record(z.string(), z.unknown());

export const inputs = {
  discover: z.strictObject({
    capability: z.string().optional().describe('capability id, e.g. "translate"'),
    maxPrice: z.string().optional().describe('USDC, e.g. "0.05"'),
    minReputation: z.number().optional(),
    minUptime: z.number().min(0).max(1).optional().describe('share of health probes answered over 24 h, 0..1'),
    limit: z.int().min(1).max(100).optional(),
    offset: z.int().min(0).optional(),
  }),
  recommend: z.strictObject({ query: id('the task, in words'), limit: z.int().min(1).max(50).optional() }),
  budgetCheck: z.strictObject({
    targetAgentId: id('agent id'),
    capabilityId: id('capability id'),
    input: json.describe("matches the capability's inputSchema"),
    estimatedDepth: z.int().min(1).max(6).optional().describe('levels of calls expected, the root included'),
  }),
  execute: z.strictObject({
    targetAgentId: id('agent id'),
    capabilityId: id('capability id'),
    input: json.describe("matches the capability's inputSchema"),
    async: z.boolean().optional().describe('run in the background and wait for it'),
    idempotencyKey: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe('the same key on a repeated call (after a timeout, say) answers the first run without paying again'),
  }),
  getExecution: z.strictObject({ requestId: id('req_...') }),
  chain: z.strictObject({ chainId: id('chain id') }),
  fileDispute: z.strictObject({
    transactionId: id('tx_... (an execution result names it)'),
    reason: id('what went wrong'),
    evidence: z.string().optional().describe('optional details'),
  }),
  getDispute: z.strictObject({ disputeId: id('the disputeId file_dispute answered') }),
  none: z.strictObject({}),
};

const pricing = z.looseObject({
  model: z.string(),
  basePrice: usdc('the price'),
  currency: z.string(),
  maxPrice: z.string().optional(),
});
const capability = z.looseObject({ id: z.string(), name: z.string(), pricing });
const spending = z.strictObject({ spent: usdc('signed for so far'), remaining: usdc('left of the session cap') });

const execution = z.looseObject({
  requestId: z.string(),
  status: z.enum(['pending', 'completed', 'failed', 'timeout', 'refunded']),
  transactionId: z.string().nullable().describe('tx_..., once charged (what file_dispute takes)'),
  output: json.optional().describe('only for the payer, once completed'),
  message: z.string().optional(),
  executionTime: z.number().nullable().describe('ms'),
  cost: z.looseObject({ total: z.string(), agentFee: z.string(), platformFee: z.string(), pricingModel: z.string() }),
  settlement: z.looseObject({ status: z.string().nullable(), txHash: z.string().nullable() }),
});

export const outputs = {
  discover: z.looseObject({
    agents: z.array(
      z.looseObject({
        id: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        reputation_score: z.number(),
        status: z.string(),
        capabilities: z.array(capability),
      }),
    ),
    total: z.number(),
    totalExact: z.boolean(),
    limit: z.number(),
    offset: z.number(),
  }),
  recommend: z.looseObject({
    query: z.string(),
    recommendations: z.array(
      z.looseObject({
        agent: z.looseObject({ id: z.string(), name: z.string(), capabilities: z.array(capability) }),
        matchedCapabilities: z.array(z.string()),
        relevance: z.number(),
      }),
    ),
  }),
  budgetCheck: z.looseObject({
    capability: z.looseObject({ id: z.string(), name: z.string(), basePrice: z.string() }),
    estimatedTotal: usdc('what the call and its sub-calls are estimated to cost'),
    recommendedBudget: usdc('50% above the estimate'),
    breakdown: z.looseObject({
      directCost: z.string(),
      platformFees: z.string(),
      estimatedSubAgentCosts: z.string(),
      contingency: z.string(),
    }),
    warnings: z.array(z.string()),
  }),
  execution,
  execute: execution.extend({
    paid: z.string().nullable().describe('USDC this call signed for (null when nothing was paid)'),
    spent: spending.extend({
      thisCall: usdc('paid by this call'),
      fromBudget: usdc("this call's cost taken from the conversation's session budget (paid when it opened)"),
    }),
  }),
  chain: z.looseObject({
    chainId: z.string(),
    status: z.enum(['pending', 'running', 'completed', 'failed', 'partial']),
    budget: z.string(),
    remainingBudget: z.string(),
    totalCost: z.string(),
    nodeCount: z.number(),
    maxDepth: z.number(),
    maxDepthReached: z.number(),
    traceId: z.string(),
    startedAt: z.string(),
    completedAt: z.string().nullable(),
    totalExecutionTimeMs: z.number(),
    tree: json.nullable().describe('the root node: agentId, capabilityId, status, cost, children (the same shape)'),
  }),
  chainCost: z.looseObject({
    chainId: z.string(),
    totalCost: z.string(),
    rootTransactionId: z.string().nullable(),
    breakdown: z.looseObject({ agentFees: z.string(), platformCuts: z.string(), platformFees: z.string() }),
    byAgent: z.array(
      z.looseObject({
        agentId: z.string(),
        agentName: z.string().nullable(),
        totalCost: z.string(),
        executionCount: z.number(),
      }),
    ),
    byDepth: z.array(z.looseObject({ depth: z.number(), nodeCount: z.number(), totalCost: z.string() })),
  }),
  fileDispute: z.looseObject({
    disputeId: z.string(),
    transactionId: z.string(),
    status: z.literal('pending'),
    reason: z.string(),
    respondBy: z.string().describe('the agent answers by then, or the dispute is resolved for the payer'),
    createdAt: z.string(),
  }),
  dispute: z.looseObject({
    id: z.string(),
    transactionId: z.string(),
    agentId: z.string(),
    status: z.enum(['pending', 'responded', 'resolved']),
    reason: z.string(),
    respondBy: z.string(),
    agentResponse: z.string().nullable(),
    resolution: z
      .looseObject({
        outcome: z.enum(['agent_wins', 'client_wins', 'split']),
        refundAmount: z.string(),
        note: z.string().nullable(),
      })
      .nullable(),
    refundedAmount: z.string(),
    createdAt: z.string(),
  }),
  spending,
};

/**
 * The JSON schema an input schema is listed with: what the MCP SDK would derive from it (draft-07,
 * the arguments' side).
 */
export function toListedSchema(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
}

/**
 * A zod object that accepts any object and is listed as exactly `jsonSchema`. McpServer only takes
 * zod schemas, lists them with zod's toJSONSchema (which applies a schema's metadata last) and
 * checks arguments with them before a tool runs. Registering this instead lets a tool list a JSON
 * schema it did not build with zod (a pinned capability's own) and check its arguments itself
 * (so the model reads `VALIDATION_ERROR: ...`, as for every other refusal). The metadata stays in
 * zod's global registry for the life of the process: build each once, not per MCP session.
 */
export function listedAs(jsonSchema: Record<string, unknown>) {
  // What z.looseObject({}) would list and `jsonSchema` may not say, unset (JSON drops undefined).
  const meta: Record<string, unknown> = {
    $schema: undefined,
    properties: undefined,
    additionalProperties: undefined,
    ...jsonSchema,
  };
  try {
    return z.looseObject({}).meta(meta);
  } catch {
    // The registry refuses an `id` (draft-04's $id) that another listed schema has: list it without.
    const { id: _taken, ...rest } = meta;
    return z.looseObject({}).meta(rest);
  }
}
