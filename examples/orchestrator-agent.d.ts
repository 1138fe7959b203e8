import { IncomingHttpHeaders } from 'node:http';

export interface OrchestratorCall {
  headers: IncomingHttpHeaders;
  json: { requestId: string; capabilityId: string; input: Record<string, unknown>; chain?: { chainId: string; depth: number; remainingBudget: string; token: string } };
}

export interface RunningOrchestrator {
  url: string;
  state: { calls: OrchestratorCall[] };
  stop(): Promise<void>;
}

export function startOrchestratorAgent(opts: { port?: number; host?: string; platformUrl: string }): Promise<RunningOrchestrator>;
