import { Injectable } from '@nestjs/common';
import { AgentCapabilityEntity, AgentEntity } from '@app/agents';
import { AppException } from '@app/common';
import { Queryable, TransactionRunner } from '@app/database';

/** What executing needs of the agent and the capability. */
export type ExecutableAgent = Pick<AgentEntity, 'id' | 'name' | 'status' | 'endpoints' | 'reputationScore'>;
export type ExecutableCapability = Pick<AgentCapabilityEntity, 'capabilityId' | 'name' | 'inputSchema' | 'outputSchema' | 'pricingModel' | 'basePrice' | 'maxPrice'>;

export interface ExecuteTarget {
  agent: ExecutableAgent;
  capability: ExecutableCapability;
  /** agents.config_version when this was read. */
  version: string;
}

const MAX_CACHED = 10_000;

/**
 * The agent and capability an execute request names. Read in one statement (the hot path skips
 * the ORM) and kept in memory with the agent's config_version, which triggers bump whenever
 * anything read here changes (migration AgentConfigVersion). A request served from memory reads
 * that one number in the round trip it makes anyway (with "authorization used?") and reads the
 * target again if it moved: what a request sees is as fresh as reading it, from any process.
 */
@Injectable()
export class ExecuteTargets {
  private readonly cache = new Map<string, ExecuteTarget>();

  constructor(private readonly tx: TransactionRunner) {}

  /** The target as last read here, if any (to be confirmed with `version`). */
  remembered(agentId: string, capabilityId: string): ExecuteTarget | undefined {
    return this.cache.get(key(agentId, capabilityId));
  }

  /** The agent's config_version now (null: no such agent). */
  async version(sql: Queryable, agentId: string): Promise<string | null> {
    const [row] = (await sql.query(`SELECT config_version AS "version" FROM agents WHERE id = $1`, [agentId])) as { version: string }[];
    return row?.version ?? null;
  }

  /** The remembered target if the agent's version is still `current`; otherwise read again. */
  async confirm(remembered: ExecuteTarget, current: string | null, agentId: string, capabilityId: string): Promise<ExecuteTarget> {
    return current !== null && current === remembered.version ? remembered : this.read(agentId, capabilityId);
  }

  /** Reads the target (AGENT_NOT_FOUND unless active, CAPABILITY_NOT_FOUND) and remembers it. */
  async read(agentId: string, capabilityId: string): Promise<ExecuteTarget> {
    const k = key(agentId, capabilityId);
    const [row] = await this.tx.query<{
      id: string;
      name: string;
      status: AgentEntity['status'];
      endpoints: AgentEntity['endpoints'];
      reputationScore: number;
      version: string;
      capabilityId: string | null;
      capabilityName: string;
      inputSchema: Record<string, unknown> | null;
      outputSchema: Record<string, unknown> | null;
      pricingModel: AgentCapabilityEntity['pricingModel'];
      basePrice: string;
      maxPrice: string | null;
    }>(
      `SELECT a.id, a.name, a.status, a.endpoints, a.reputation_score AS "reputationScore", a.config_version AS "version", c.capability_id AS "capabilityId",
              c.name AS "capabilityName", c.input_schema AS "inputSchema", c.output_schema AS "outputSchema", c.pricing_model AS "pricingModel",
              c.base_price AS "basePrice", c.max_price AS "maxPrice"
         FROM agents a LEFT JOIN agent_capabilities c ON c.agent_id = a.id AND c.capability_id = $2
        WHERE a.id = $1`,
      [agentId, capabilityId],
    );
    if (!row || row.status !== 'active') {
      this.cache.delete(k);
      throw new AppException('AGENT_NOT_FOUND', `Agent ${agentId} not found or not active`, { agentId });
    }
    if (!row.capabilityId) {
      this.cache.delete(k);
      throw new AppException('CAPABILITY_NOT_FOUND', `Capability ${capabilityId} is not offered by agent ${agentId}`, { agentId, capabilityId });
    }
    const target: ExecuteTarget = {
      agent: { id: row.id, name: row.name, status: row.status, endpoints: row.endpoints, reputationScore: row.reputationScore },
      capability: {
        capabilityId: row.capabilityId,
        name: row.capabilityName,
        inputSchema: row.inputSchema,
        outputSchema: row.outputSchema,
        pricingModel: row.pricingModel,
        basePrice: BigInt(row.basePrice),
        maxPrice: row.maxPrice === null ? null : BigInt(row.maxPrice),
      },
      version: row.version,
    };
    if (this.cache.size >= MAX_CACHED && !this.cache.has(k)) this.cache.clear();
    this.cache.set(k, target);
    return target;
  }
}

function key(agentId: string, capabilityId: string): string {
  return `${agentId}\n${capabilityId}`;
}
