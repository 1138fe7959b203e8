import { IncomingHttpHeaders } from 'node:http';

export interface OrchestratorCall {
  headers: IncomingHttpHeaders;
  json: {
    agentId: string;
    requestId: string;
    capabilityId: string;
    input: Record<string, unknown>;
    chain?: { chainId: string; depth: number; remainingBudget: string; token: string };
  };
}

export interface RunningOrchestrator {
  url: string;
  state: { calls: OrchestratorCall[] };
  /** Accept the platform's calls to this agent id too. */
  serve(agentId: string): void;
  stop(): Promise<void>;
}

export function startOrchestratorAgent(opts: {
  port?: number;
  host?: string;
  platformUrl: string;
  agentIds?: string[];
}): Promise<RunningOrchestrator>;
