/** What a probe asks: the agent's own `endpoints.health`, or (without one) its execution endpoint. */
export type ProbeTarget = { url: string; method: 'GET'; strict: true } | { url: string; method: 'HEAD'; strict: false };

/**
 * The URL and method of an agent's probe. An explicit `endpoints.health` gets a GET and the strict
 * rule; without one, a HEAD of the execution endpoint, which is POST-only and signature-checked, so
 * it is judged only on whether the host answered (see probeUp).
 */
export function probeTarget(endpoints: { execution: string; health?: string | null }): ProbeTarget {
  return endpoints.health
    ? { url: endpoints.health, method: 'GET', strict: true }
    : { url: endpoints.execution, method: 'HEAD', strict: false };
}

/**
 * Whether a probe's HTTP status means the agent is up. Strict (its health URL): 2xx, or 429 (the host
 * answers and is rate limiting: a crowd of other agents' probes on a shared host must not get it
 * hidden). The HEAD fallback: any answer below 500 (a 404/405/401 from a POST-only, signed endpoint
 * still shows a live host). 5xx and no answer at all (connection error, timeout) are down.
 */
export function probeUp(target: Pick<ProbeTarget, 'strict'>, status: number): boolean {
  if (status === 429) return true;
  if (target.strict) return status >= 200 && status < 300;
  return status >= 100 && status < 500;
}
