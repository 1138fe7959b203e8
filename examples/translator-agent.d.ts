import { IncomingHttpHeaders } from 'node:http';

export interface AgentCall {
  headers: IncomingHttpHeaders;
  body: string;
  json: { agentId: string; requestId: string; capabilityId: string; input: Record<string, unknown> };
}

export interface RunningAgent {
  url: string;
  state: { defaultMode: string; calls: AgentCall[] };
  /** Accept the platform's calls to this agent id too (needs platformUrl). */
  serve(agentId: string): void;
  stop(): Promise<void>;
}

export function startTranslatorAgent(opts?: {
  port?: number;
  host?: string;
  /** Verify every call against the platform's keys: only calls signed for an agent this server serves pass. */
  platformUrl?: string | null;
  /** The agent ids served from the start (more with serve()). */
  agentIds?: string[];
  defaultMode?: string;
  /** Record every call in state.calls (default true; off for benchmarks). */ keepCalls?: boolean;
}): Promise<RunningAgent>;
