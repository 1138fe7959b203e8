import { IncomingHttpHeaders } from 'node:http';

export interface AgentCall {
  headers: IncomingHttpHeaders;
  body: string;
  json: { requestId: string; capabilityId: string; input: Record<string, unknown> };
}

export interface RunningAgent {
  url: string;
  state: { defaultMode: string; calls: AgentCall[] };
  stop(): Promise<void>;
}

export function startTranslatorAgent(opts?: {
  port?: number;
  host?: string;
  platformUrl?: string | null;
  defaultMode?: string;
  /** Record every call in state.calls (default true; off for benchmarks). */ keepCalls?: boolean;
}): Promise<RunningAgent>;
