/** Redis key under which a running worker reports itself (the worker has no HTTP server). */
export function workerHeartbeatKey(prefix: string): string {
  return `${prefix}:worker:heartbeat`;
}

export interface WorkerHeartbeat {
  pid: number;
  at: string;
  queues: Record<string, boolean>;
}
