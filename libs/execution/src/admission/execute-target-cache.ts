import { Injectable } from '@nestjs/common';
import { ExecuteTarget, ExecuteTargetReader } from '@app/agents';
import { Queryable } from '@app/database';

const MAX_CACHED = 10_000;

/**
 * The targets of execute requests kept in memory with the agent's config_version. A request
 * served from memory reads that one number in the round trip it makes anyway (with
 * "authorization used?") and reads the target again if it moved: what a request sees is as fresh
 * as reading it, from any process. What reads them from Postgres is `ExecuteTargetReader` (agents).
 */
@Injectable()
export class ExecuteTargetCache {
  private readonly cache = new Map<string, ExecuteTarget>();

  constructor(private readonly reader: ExecuteTargetReader) {}

  /** The target as last read here, if any (to be confirmed with `version`). */
  remembered(agentId: string, capabilityId: string): ExecuteTarget | undefined {
    return this.cache.get(key(agentId, capabilityId));
  }

  version(sql: Queryable, agentId: string): Promise<{ version: string; score: number } | null> {
    return this.reader.version(sql, agentId);
  }

  /** Inside a transaction: aborts it unless the agent is still at `version` (a remembered target confirmed by the write it guards). */
  unchanged(sql: Queryable, agentId: string, version: string): Promise<unknown> {
    return this.reader.unchanged(sql, agentId, version);
  }

  /**
   * The remembered target if the agent's version is still `current`'s (its score brought up to date:
   * the charge picks its transaction's shape by it); otherwise read again.
   */
  async confirm(
    remembered: ExecuteTarget,
    current: { version: string; score: number } | null,
    agentId: string,
    capabilityId: string,
  ): Promise<ExecuteTarget> {
    if (current === null || current.version !== remembered.version) return this.read(agentId, capabilityId);
    remembered.agent.reputationScore = current.score;
    return remembered;
  }

  /** Reads the target (AGENT_NOT_FOUND unless active, CAPABILITY_NOT_FOUND) and remembers it. */
  async read(agentId: string, capabilityId: string): Promise<ExecuteTarget> {
    const k = key(agentId, capabilityId);
    try {
      const target = await this.reader.read(agentId, capabilityId);
      if (this.cache.size >= MAX_CACHED && !this.cache.has(k)) this.cache.clear();
      this.cache.set(k, target);
      return target;
    } catch (err) {
      this.cache.delete(k);
      throw err;
    }
  }
}

function key(agentId: string, capabilityId: string): string {
  return `${agentId}\n${capabilityId}`;
}
