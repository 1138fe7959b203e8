import { AgoraClient, AgoraError, AgoraSession, ExecuteResult } from '@agora/sdk';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';
import { inputs, listedAs, outputs, toListedSchema } from './schemas';
import { summaries } from './summaries';

export type ToolResult = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** Checks the arguments before `run`; null for a pinned capability, whose input agora checks. */
  input: z.ZodObject | null;
  /** What McpServer lists the arguments with (a pinned capability's own schema): see listedAs. */
  listed: z.ZodObject;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  /** `conversation`: the MCP session the call came in (one per server instance: createMcpServer). */
  run(args: Record<string, unknown>, conversation: string): Promise<ToolResult>;
  /** The short text a result is shown with beside its structuredContent. */
  summarize(result: ToolResult): string;
}

/** Reads of agora's records: no change anywhere, the same answer for the same state. */
const READ: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
/** Spends USDC that no call gives back and runs a third party's agent. */
const PAYS: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};
/** Opens a case on agora: moves no money from the wallet, undoes nothing; one per charge (a second is refused). */
const FILES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** A tool whose `run` takes what its input schema parses and answers what its output schema accepts. */
function tool<I extends z.ZodObject, O extends z.ZodObject>(d: {
  name: string;
  title: string;
  description: string;
  annotations: ToolAnnotations;
  input: I;
  output: O;
  run: (args: z.output<I>, conversation: string) => Promise<z.input<O>>;
  summarize: (result: z.input<O>) => string;
}): ToolDefinition {
  return {
    ...d,
    listed: listedAs(toListedSchema(d.input)),
    run: d.run as ToolDefinition['run'],
    summarize: d.summarize as ToolDefinition['summarize'],
  };
}

/**
 * The tools an LLM agent gets: discovery, a budget check, paid execution within the caps, reads of
 * executions, chains and disputes. Nothing returns or accepts the wallet's key. The payment headers
 * of the calls it paid stay in this process (they are the payer's proof for outputs and disputes).
 */
export class AgoraTools {
  /** requestId or transactionId -> the header that paid it. */
  private readonly proofs = new Map<string, { name: string; value: string }>();

  /** With AGORA_MCP_SESSION_BUDGET: a conversation's chain session, which its sync paid calls spend. */
  private readonly sessions = new Map<string, AgoraSession>();

  constructor(
    private readonly client: AgoraClient,
    /** Pay once per conversation (USDC prepaid for its later calls); null: every call pays its own. */
    private readonly sessionBudget: string | null = null,
  ) {}

  /** The conversation ended: its session's chain closed, what is left refunded. */
  async endConversation(conversation: string): Promise<void> {
    const session = this.sessions.get(conversation);
    this.sessions.delete(conversation);
    if (session) await session.close().catch(() => undefined); // a chain left open closes on its own at its token's expiry
  }

  static(): ToolDefinition[] {
    const c = this.client;
    return [
      tool({
        name: 'discover',
        title: 'Find agents',
        description:
          'Find agents on the agora marketplace by capability id, maximum price (USDC) and minimum reputation.',
        annotations: READ,
        input: inputs.discover,
        output: outputs.discover,
        run: (a) => c.discovery.discover(a),
        summarize: summaries.discover,
      }),
      tool({
        name: 'recommend',
        title: 'Recommend agents for a task',
        description: 'Agents ranked for a task described in words.',
        annotations: READ,
        input: inputs.recommend,
        output: outputs.recommend,
        run: (a) => c.discovery.recommend(a.query, a.limit),
        summarize: summaries.recommend,
      }),
      tool({
        name: 'budget_check',
        title: 'Price a call',
        description:
          'What a call would cost before paying: the price, sub-agent costs and the budget a chain would need.',
        annotations: READ,
        input: inputs.budgetCheck,
        output: outputs.budgetCheck,
        run: (a) => c.discovery.budgetCheck(a),
        summarize: summaries.budgetCheck,
      }),
      tool({
        name: 'execute',
        title: 'Run and pay an agent',
        description:
          "Run an agent's capability and pay its price in USDC from the configured wallet, within the per-call and per-session caps (a call above them is refused before anything is signed). Answers the output and what was spent.",
        annotations: PAYS,
        input: inputs.execute,
        output: outputs.execute,
        run: (a, conversation) =>
          this.execute(conversation, a.targetAgentId, a.capabilityId, a.input, a.async ?? false, a.idempotencyKey),
        summarize: summaries.execute,
      }),
      tool({
        name: 'get_execution',
        title: 'Read an execution',
        description: "An execution by requestId: its status, and its output when this server's wallet paid for it.",
        annotations: READ,
        input: inputs.getExecution,
        output: outputs.execution,
        run: (a) => c.getExecution(a.requestId, this.proofs.get(a.requestId)),
        summarize: summaries.execution,
      }),
      tool({
        name: 'get_chain',
        title: 'Read an execution chain',
        description:
          "An execution chain's status and trace tree (its request ids when this server's wallet paid for it).",
        annotations: READ,
        input: inputs.chain,
        output: outputs.chain,
        run: (a) => c.discovery.chain(a.chainId, { asPayer: c.address !== null }),
        summarize: summaries.chain,
      }),
      tool({
        name: 'chain_cost',
        title: "A chain's costs",
        description: "An execution chain's cost breakdown by agent.",
        annotations: READ,
        input: inputs.chain,
        output: outputs.chainCost,
        run: (a) => c.discovery.chainCost(a.chainId),
        summarize: summaries.chainCost,
      }),
      tool({
        name: 'file_dispute',
        title: 'Dispute a charge',
        description: 'Dispute a charge this wallet paid (within the filing window), with a reason.',
        annotations: FILES,
        input: inputs.fileDispute,
        output: outputs.fileDispute,
        run: (a) => c.disputes.file({ ...a, payment: this.proofs.get(a.transactionId) }),
        summarize: summaries.fileDispute,
      }),
      tool({
        name: 'get_dispute',
        title: 'Read a dispute',
        description: 'A dispute: status, responses and resolution.',
        annotations: READ,
        input: inputs.getDispute,
        output: outputs.dispute,
        run: (a) => c.disputes.get(a.disputeId),
        summarize: summaries.dispute,
      }),
      tool({
        name: 'spending',
        title: 'What this server spent',
        description: 'What this server has spent so far and what is left of its session cap (USDC).',
        annotations: READ,
        input: inputs.none,
        output: outputs.spending,
        run: async () => c.spending,
        summarize: summaries.spending,
      }),
    ];
  }

  /** One tool per pinned capability, its input schema the capability's own (agora checks the input against it). */
  async pinned(pins: Pin[]): Promise<ToolDefinition[]> {
    return (await pinnedCapabilities(this.client, pins)).map((p) => ({
      name: p.name,
      title: p.title,
      description: `${p.about} (${p.price}, paid from the configured wallet)`,
      input: null,
      listed: p.listed,
      output: outputs.execute,
      annotations: PAYS,
      run: (input, conversation) => this.execute(conversation, p.agentId, p.capabilityId, input, false),
      summarize: summaries.execute as ToolDefinition['summarize'],
    }));
  }

  private async execute(
    conversation: string,
    targetAgentId: string,
    capabilityId: string,
    input: Record<string, unknown>,
    async: boolean,
    idempotencyKey?: string,
  ) {
    // A chain runs its calls synchronously and keeps no key: those calls pay their own way.
    const session = this.sessionBudget && !async && !idempotencyKey ? this.sessionOf(conversation) : null;
    const result: ExecuteResult = session
      ? await session.execute({ targetAgentId, capabilityId, input })
      : await this.client.execute({ targetAgentId, capabilityId, input, async, idempotencyKey });
    if (result.payment) {
      this.proofs.set(result.requestId, result.payment);
      if (result.transactionId) this.proofs.set(result.transactionId, result.payment);
    }
    const { payment: _proof, ...shown } = result;
    // A chain token is a bearer credential over the budget: it stays in this process, never shown to the model.
    const chain = (shown as { chain?: { childToken?: string } }).chain;
    const { childToken: _token, ...chainShown } = chain ?? {};
    return {
      ...shown,
      ...(chain ? { chain: chainShown } : {}),
      spent: {
        thisCall: result.paid ?? '0.000000',
        // A call on the session's token paid nothing now: its cost came out of the budget paid when the session opened.
        fromBudget: session && !result.paid ? result.cost.total : '0.000000',
        ...this.client.spending,
      },
    };
  }

  private sessionOf(conversation: string): AgoraSession {
    let session = this.sessions.get(conversation);
    if (!session) this.sessions.set(conversation, (session = this.client.session({ budget: this.sessionBudget! })));
    return session;
  }
}

/** A capability served as a tool of its own (AGORA_MCP_CAPABILITIES): an agent, and one of its capabilities or all. */
export type Pin = { agentId: string; capabilityId?: string };

/** What a pinned capability's tool says of it, whichever way it is paid: its name, title, description, price and input schema. */
export interface PinnedCapability {
  agentId: string;
  capabilityId: string;
  name: string;
  title: string;
  about: string;
  price: string;
  listed: ReturnType<typeof listedAs>;
}

/** The pinned capabilities, each agent read once. */
export async function pinnedCapabilities(client: AgoraClient, pins: Pin[]): Promise<PinnedCapability[]> {
  const found: PinnedCapability[] = [];
  for (const pin of pins) {
    const agent = await client.getAgent(pin.agentId);
    for (const cap of agent.capabilities.filter((k) => !pin.capabilityId || k.id === pin.capabilityId))
      found.push({
        agentId: agent.id,
        capabilityId: cap.id,
        name: pinnedToolName(agent.id, cap.id),
        title: `${agent.name}: ${cap.name}`,
        about: `${agent.name}: ${cap.description}`,
        price: priceText(cap.pricing),
        listed: listedAs(cap.inputSchema ?? { type: 'object' }),
      });
  }
  return found;
}

/** A pinned capability's tool name: stable, and within MCP's name rules (1-64 of [A-Za-z0-9_-]). */
export function pinnedToolName(agentId: string, capabilityId: string): string {
  return `${capabilityId}_${agentId.slice(0, 8)}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}

/** "per-request, 0.010000 USDC plus the platform fee" (or "up to" a variable price's most). */
export function priceText(p: { model: string; basePrice: string; maxPrice?: string }): string {
  return `${p.model}, ${p.maxPrice ? `up to ${p.maxPrice}` : p.basePrice} USDC plus the platform fee`;
}

/** A tool failure as the model should see it: the code, the message and the details, nothing internal. */
export function describeError(err: unknown): string {
  if (err instanceof AgoraError)
    return `${err.code}: ${err.message}${Object.keys(err.details).length ? ` ${JSON.stringify(err.details)}` : ''}`;
  return `error: ${(err as Error)?.message ?? String(err)}`;
}
