/** The paid route a request came by: POST /execute (the body names the target) or the capability's own resource. */
export type ExecuteRoute = 'execute' | 'capability';

/** The path of a route for one capability. */
export function executePath(route: ExecuteRoute, agentId: string, capabilityId: string): string {
  return route === 'execute'
    ? '/api/v1/execute'
    : `/api/v1/agents/${encodeURIComponent(agentId)}/capabilities/${encodeURIComponent(capabilityId)}/execute`;
}
