import { Injectable, Module } from '@nestjs/common';
import { AppException } from '@app/common';
import { Queryable, TransactionRunner } from '@app/database';
import { AgentEntity } from './entities/agent.entity';
import { AgentCapabilityEntity } from './entities/agent-capability.entity';

/** What executing needs of the agent and the capability. */
export type ExecutableAgent = Pick<
  AgentEntity,
  'id' | 'name' | 'status' | 'endpoints' | 'reputationScore' | 'chainSettings'
> & {
  /** The agent's own tags (metadata.tags), for its x402 listings. */
  tags?: string[];
};

/** The agent and capability of a selected row. */
export function targetOf(row: TargetRow & { capabilityId: string }): Pick<ExecuteTarget, 'agent' | 'capability'> {
  return {
    agent: {
      id: row.id,
      name: row.name,
      status: row.status,
      endpoints: row.endpoints,
      reputationScore: row.reputationScore,
      chainSettings: row.chainSettings,
      tags: agentTags(row.tags),
    },
    capability: {
      capabilityId: row.capabilityId,
      name: row.capabilityName,
      inputSchema: row.inputSchema,
      outputSchema: row.outputSchema,
      pricingModel: row.pricingModel,
      basePrice: BigInt(row.basePrice),
      maxPrice: row.maxPrice === null ? null : BigInt(row.maxPrice),
    },
  };
}

/** An agent's own tags: metadata.tags when it is a list, its strings only (at most 20). */
export function agentTags(tags: unknown): string[] {
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string').slice(0, 20) : [];
}
export type ExecutableCapability = Pick<
  AgentCapabilityEntity,
  'capabilityId' | 'name' | 'inputSchema' | 'outputSchema' | 'pricingModel' | 'basePrice' | 'maxPrice'
>;

export interface ExecuteTarget {
  agent: ExecutableAgent;
  capability: ExecutableCapability;
  /** agents.config_version when this was read. */
  version: string;
}

/** An agent and one capability as a statement selects them (the columns named as here). */
export interface TargetRow {
  id: string;
  name: string;
  status: AgentEntity['status'];
  endpoints: AgentEntity['endpoints'];
  reputationScore: number;
  chainSettings: AgentEntity['chainSettings'];
  tags: unknown;
  version: string;
  capabilityId: string | null;
  capabilityName: string;
  inputSchema: Record<string, unknown> | null;
  outputSchema: Record<string, unknown> | null;
  pricingModel: AgentCapabilityEntity['pricingModel'];
  basePrice: string;
  maxPrice: string | null;
}

/**
 * The agents table as the execution domain sees it: the target of an execute request (one
 * statement, no ORM on the hot path), its config_version (bumped by triggers whenever anything
 * read here changes: migration AgentConfigVersion), and the one write executing makes to an
 * agent, its execution counter.
 */
@Injectable()
export class ExecuteTargetReader {
  constructor(private readonly tx: TransactionRunner) {}

  /** The target (AGENT_NOT_FOUND unless active, CAPABILITY_NOT_FOUND). */
  async read(agentId: string, capabilityId: string): Promise<ExecuteTarget> {
    const [row] = await this.tx.query<TargetRow>(
      `SELECT a.id, a.name, a.status, a.endpoints, a.reputation_score AS "reputationScore", a.chain_settings AS "chainSettings", a.metadata->'tags' AS tags, a.config_version AS "version", c.capability_id AS "capabilityId",
              c.name AS "capabilityName", c.input_schema AS "inputSchema", c.output_schema AS "outputSchema", c.pricing_model AS "pricingModel",
              c.base_price AS "basePrice", c.max_price AS "maxPrice"
         FROM agents a LEFT JOIN agent_capabilities c ON c.agent_id = a.id AND c.capability_id = $2
        WHERE a.id = $1`,
      [agentId, capabilityId],
    );
    if (!row || row.status !== 'active')
      throw new AppException('AGENT_NOT_FOUND', `Agent ${agentId} not found or not active`, { agentId });
    if (!row.capabilityId)
      throw new AppException('CAPABILITY_NOT_FOUND', `Capability ${capabilityId} is not offered by agent ${agentId}`, {
        agentId,
        capabilityId,
      });
    return { ...targetOf({ ...row, capabilityId: row.capabilityId }), version: row.version };
  }

  /**
   * The agent's config_version and score now (null: no such agent), on `sql` (e.g. a batch shared with
   * other reads). The score moves with every outcome without moving the version: a remembered target
   * takes it from here.
   */
  async version(sql: Queryable, agentId: string): Promise<{ version: string; score: number } | null> {
    const [row] = (await sql.query(
      `SELECT config_version AS "version", reputation_score AS score FROM agents WHERE id = $1`,
      [agentId],
    )) as { version: string; score: number }[];
    return row ?? null;
  }

  /** Inside a transaction: aborts it (AG001, 'target version') unless the agent's config_version is still `version`. */
  unchanged(sql: Queryable, agentId: string, version: string): Promise<unknown> {
    return sql.query(`SELECT claimed(count(*), 'target version') FROM agents WHERE id = $1 AND config_version = $2`, [
      agentId,
      version,
    ]);
  }

  /** The target of a stored execution, whatever its state now (null: gone). */
  async stored(
    agentId: string,
    capabilityId: string,
  ): Promise<{ agent: ExecutableAgent; capability: ExecutableCapability | null } | null> {
    try {
      return await this.read(agentId, capabilityId);
    } catch (err) {
      if (!(err instanceof AppException)) throw err;
      const [row] = await this.tx.query<
        Pick<TargetRow, 'id' | 'name' | 'status' | 'endpoints' | 'reputationScore' | 'chainSettings'>
      >(
        `SELECT id, name, status, endpoints, reputation_score AS "reputationScore", chain_settings AS "chainSettings" FROM agents WHERE id = $1`,
        [agentId],
      );
      return row ? { agent: row, capability: null } : null;
    }
  }

  /** Names of agents by id (for read models that show them: a chain's tree and costs). */
  async names(ids: string[]): Promise<Map<string, string>> {
    const rows = ids.length
      ? await this.tx.query<{ id: string; name: string }>(`SELECT id, name FROM agents WHERE id = ANY($1::uuid[])`, [
          [...new Set(ids)],
        ])
      : [];
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}

/** The agents table as executing reads it (no registration, no discovery). */
@Module({ providers: [ExecuteTargetReader], exports: [ExecuteTargetReader] })
export class ExecuteTargetReaderModule {}
