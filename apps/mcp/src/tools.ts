import { AgoraClient, AgoraError, ExecuteResult } from '@agora/sdk';

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  run(args: Record<string, unknown>): Promise<unknown>;
}

const str = (description: string) => ({ type: 'string', description });
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required, additionalProperties: false });

/**
 * The tools an LLM agent gets: discovery, a budget check, paid execution within the caps, reads of
 * executions, chains and disputes. Nothing returns or accepts the wallet's key. The payment headers
 * of the calls it paid stay in this process (they are the payer's proof for outputs and disputes).
 */
export class AgoraTools {
  /** requestId or transactionId -> the header that paid it. */
  private readonly proofs = new Map<string, { name: string; value: string }>();

  constructor(private readonly client: AgoraClient) {}

  static(): ToolDefinition[] {
    const c = this.client;
    return [
      {
        name: 'discover',
        description: 'Find agents on the agora marketplace by capability id, maximum price (USDC) and minimum reputation.',
        inputSchema: object({
          capability: str('capability id, e.g. "translate"'),
          maxPrice: str('USDC, e.g. "0.05"'),
          minReputation: { type: 'number' },
          limit: { type: 'integer', minimum: 1, maximum: 100 },
        }),
        run: (a) => c.discovery.discover(a as never),
      },
      {
        name: 'recommend',
        description: 'Agents ranked for a task described in words.',
        inputSchema: object({ query: str('the task, in words'), limit: { type: 'integer', minimum: 1, maximum: 50 } }, ['query']),
        run: (a) => c.discovery.recommend(String(a.query), a.limit as number | undefined),
      },
      {
        name: 'budget_check',
        description: 'What a call would cost before paying: the price, sub-agent costs and the budget a chain would need.',
        inputSchema: object(
          { targetAgentId: str('agent id'), capabilityId: str('capability id'), input: { type: 'object' }, estimatedDepth: { type: 'integer', minimum: 1, maximum: 6 } },
          ['targetAgentId', 'capabilityId', 'input'],
        ),
        run: (a) => c.discovery.budgetCheck(a as never),
      },
      {
        name: 'execute',
        description:
          "Run an agent's capability and pay its price in USDC from the configured wallet, within the per-call and per-session caps (a call above them is refused before anything is signed). Answers the output and what was spent.",
        inputSchema: object(
          {
            targetAgentId: str('agent id'),
            capabilityId: str('capability id'),
            input: { type: 'object', description: "matches the capability's inputSchema" },
            async: { type: 'boolean', description: 'run in the background and wait for it' },
          },
          ['targetAgentId', 'capabilityId', 'input'],
        ),
        run: (a) => this.execute(String(a.targetAgentId), String(a.capabilityId), a.input as Record<string, unknown>, Boolean(a.async)),
      },
      {
        name: 'get_execution',
        description: 'An execution by requestId: its status, and its output when this server paid for it.',
        inputSchema: object({ requestId: str('req_...') }, ['requestId']),
        run: (a) => c.getExecution(String(a.requestId), this.proofs.get(String(a.requestId))),
      },
      {
        name: 'get_chain',
        description: "An execution chain's status and trace tree.",
        inputSchema: object({ chainId: str('chain id') }, ['chainId']),
        run: (a) => c.discovery.chain(String(a.chainId)),
      },
      {
        name: 'chain_cost',
        description: "An execution chain's cost breakdown by agent.",
        inputSchema: object({ chainId: str('chain id') }, ['chainId']),
        run: (a) => c.discovery.chainCost(String(a.chainId)),
      },
      {
        name: 'file_dispute',
        description: 'Dispute a charge this wallet paid (within the filing window), with a reason.',
        inputSchema: object({ transactionId: str('tx_...'), reason: str('what went wrong'), evidence: str('optional details') }, ['transactionId', 'reason']),
        run: (a) =>
          c.disputes.file({
            transactionId: String(a.transactionId),
            reason: String(a.reason),
            evidence: a.evidence as string | undefined,
            payment: this.proofs.get(String(a.transactionId)),
          }),
      },
      {
        name: 'get_dispute',
        description: 'A dispute: status, responses and resolution.',
        inputSchema: object({ disputeId: str('dsp_...') }, ['disputeId']),
        run: (a) => c.disputes.get(String(a.disputeId)),
      },
      {
        name: 'spending',
        description: 'What this server has spent so far and what is left of its session cap (USDC).',
        inputSchema: object({}),
        run: async () => c.spending,
      },
    ];
  }

  /** One tool per pinned capability, its input schema the capability's own. */
  async pinned(pins: { agentId: string; capabilityId?: string }[]): Promise<ToolDefinition[]> {
    const tools: ToolDefinition[] = [];
    for (const pin of pins) {
      const agent = await this.client.getAgent(pin.agentId);
      for (const cap of agent.capabilities.filter((k) => !pin.capabilityId || k.id === pin.capabilityId)) {
        const price = cap.pricing.maxPrice ? `up to ${cap.pricing.maxPrice}` : cap.pricing.basePrice;
        tools.push({
          name: `${cap.id}_${agent.id.slice(0, 8)}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64),
          description: `${agent.name}: ${cap.description} (${cap.pricing.model}, ${price} USDC plus the platform fee, paid from the configured wallet)`,
          inputSchema: cap.inputSchema ?? { type: 'object' },
          run: (input) => this.execute(agent.id, cap.id, input, false),
        });
      }
    }
    return tools;
  }

  private async execute(targetAgentId: string, capabilityId: string, input: Record<string, unknown>, async: boolean): Promise<unknown> {
    const result: ExecuteResult = await this.client.execute({ targetAgentId, capabilityId, input, async });
    if (result.payment) {
      this.proofs.set(result.requestId, result.payment);
      if (result.transactionId) this.proofs.set(result.transactionId, result.payment);
    }
    const { payment: _proof, ...shown } = result;
    return { ...shown, spent: { thisCall: result.paid ?? '0.000000', ...this.client.spending } };
  }
}

/** A tool failure as the model should see it: the code, the message and the details, nothing internal. */
export function describeError(err: unknown): string {
  if (err instanceof AgoraError) return `${err.code}: ${err.message}${Object.keys(err.details).length ? ` ${JSON.stringify(err.details)}` : ''}`;
  return `error: ${(err as Error)?.message ?? String(err)}`;
}
