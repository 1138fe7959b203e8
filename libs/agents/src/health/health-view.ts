export type HealthStatus = 'up' | 'down' | 'unknown';

/** The health shown on an agent: status, uptimes (0..1, null before any probe), the last probe. */
export interface AgentHealthView {
  status: HealthStatus;
  uptime24h: number | null;
  uptime7d: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  checkedAt: string | null;
}

export const UNKNOWN_HEALTH: AgentHealthView = {
  status: 'unknown',
  uptime24h: null,
  uptime7d: null,
  lastLatencyMs: null,
  lastError: null,
  checkedAt: null,
};

/** One hour of an agent's probes: how many, how many answered (up), their mean latency (ms). */
export interface HealthHour {
  hour: string;
  probes: number;
  ups: number;
  avgLatencyMs: number | null;
}
