import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { CapabilityInput } from './agent.types';
import { AgentEntity } from './entities/agent.entity';
import { AgentCapabilityEntity } from './entities/agent-capability.entity';

/** A suspended agent as the operator lists it. */
export interface SuspendedAgentRow {
  id: string;
  name: string;
  wallet: string;
  reputationScore: number;
  suspendedReason: string | null;
  suspendedBy: 'reputation' | 'admin' | null;
  /** Null: suspended before the time was recorded. */
  suspendedAt: Date | null;
  updatedAt: Date;
}

/** Persistence of agents and their capabilities; all writes take the caller's transaction. */
@Injectable()
export class AgentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findById(id: string, manager: EntityManager = this.dataSource.manager): Promise<AgentEntity | null> {
    const agent = await manager.findOne(AgentEntity, { where: { id } });
    if (!agent) return null;
    agent.capabilities = await manager.find(AgentCapabilityEntity, {
      where: { agentId: id },
      order: { position: 'ASC' },
    });
    return agent;
  }

  /** Row lock for a read-modify-write of one agent. */
  /**
   * Agents by id with their capabilities (in position order), for read models that list them:
   * `capabilities` narrows which are attached (name substring, case-insensitive; base price cap).
   */
  async withCapabilities(
    ids: string[],
    capabilities: { nameLike?: string; maxPrice?: bigint } = {},
  ): Promise<Map<string, { agent: AgentEntity; capabilities: AgentCapabilityEntity[] }>> {
    if (ids.length === 0) return new Map();
    const capQb = this.dataSource
      .getRepository(AgentCapabilityEntity)
      .createQueryBuilder('c')
      .where('c.agent_id IN (:...ids)', { ids })
      .orderBy('c.position', 'ASC');
    if (capabilities.nameLike !== undefined) capQb.andWhere('c.name ILIKE :cap', { cap: capabilities.nameLike });
    if (capabilities.maxPrice !== undefined)
      capQb.andWhere('c.base_price <= :max', { max: capabilities.maxPrice.toString() });
    const [agents, caps] = await Promise.all([
      this.dataSource.getRepository(AgentEntity).createQueryBuilder('a').where('a.id IN (:...ids)', { ids }).getMany(),
      capQb.getMany(),
    ]);
    return new Map(
      agents.map((agent) => [agent.id, { agent, capabilities: caps.filter((c) => c.agentId === agent.id) }]),
    );
  }

  /** Suspended agents, most recently suspended first (ix_agents_suspended), with their total. */
  async listSuspended(page: {
    limit: number;
    offset: number;
  }): Promise<{ agents: SuspendedAgentRow[]; total: number }> {
    const [agents, [{ total }]] = await Promise.all([
      this.dataSource.query(
        `SELECT id, name, wallet, reputation_score AS "reputationScore", suspended_reason AS "suspendedReason",
                suspended_by AS "suspendedBy", suspended_at AS "suspendedAt", updated_at AS "updatedAt"
           FROM agents WHERE status = 'suspended' ORDER BY suspended_at DESC NULLS LAST, id LIMIT $1 OFFSET $2`,
        [page.limit, page.offset],
      ) as Promise<SuspendedAgentRow[]>,
      this.dataSource.query(`SELECT count(*)::int AS total FROM agents WHERE status = 'suspended'`) as Promise<
        { total: number }[]
      >,
    ]);
    return { agents, total };
  }

  async lockById(manager: EntityManager, id: string): Promise<AgentEntity | null> {
    return manager.findOne(AgentEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async walletOf(id: string): Promise<string | null> {
    const row = await this.dataSource.manager.findOne(AgentEntity, {
      where: { id },
      select: { id: true, wallet: true },
    });
    return row?.wallet ?? null;
  }

  async insert(manager: EntityManager, agent: Partial<AgentEntity>, capabilities: CapabilityInput[]): Promise<void> {
    await manager.insert(AgentEntity, agent as QueryDeepPartialEntity<AgentEntity>);
    await this.insertCapabilities(manager, agent.id!, capabilities);
    await this.refreshSearch(manager, agent.id!);
  }

  async update(
    manager: EntityManager,
    id: string,
    changes: Partial<AgentEntity>,
    capabilities?: CapabilityInput[],
  ): Promise<void> {
    await manager.update(AgentEntity, { id }, {
      ...changes,
      updatedAt: () => 'now()',
    } as QueryDeepPartialEntity<AgentEntity>);
    if (capabilities) {
      await manager.delete(AgentCapabilityEntity, { agentId: id });
      await this.insertCapabilities(manager, id, capabilities);
    }
    if (capabilities || changes.name !== undefined || changes.description !== undefined) {
      await this.refreshSearch(manager, id);
    }
  }

  private async insertCapabilities(
    manager: EntityManager,
    agentId: string,
    capabilities: CapabilityInput[],
  ): Promise<void> {
    await manager.insert(
      AgentCapabilityEntity,
      capabilities.map((c, position) => ({
        agentId,
        capabilityId: c.id,
        position,
        name: c.name,
        description: c.description,
        inputSchema: c.inputSchema ?? null,
        outputSchema: c.outputSchema ?? null,
        pricingModel: c.pricing.model,
        basePrice: c.pricing.basePrice,
        maxPrice: c.pricing.maxPrice ?? null,
        currency: c.pricing.currency,
      })) as QueryDeepPartialEntity<AgentCapabilityEntity>[],
    );
  }

  /**
   * Rebuilds the search document: names weigh more (A) than descriptions (B); the plain
   * text feeds trigram similarity for spellings that stemming does not join.
   */
  private async refreshSearch(manager: EntityManager, id: string): Promise<void> {
    await manager.query(
      `UPDATE agents a SET
         search_text = lower(concat_ws(' ', a.name, a.description, c.names, c.descs)),
         search_vector = setweight(to_tsvector('english', concat_ws(' ', a.name, c.names)), 'A')
                      || setweight(to_tsvector('english', concat_ws(' ', a.description, c.descs)), 'B')
       FROM (SELECT string_agg(name, ' ' ORDER BY position) AS names,
                    string_agg(description, ' ' ORDER BY position) AS descs
               FROM agent_capabilities WHERE agent_id = $1) c
       WHERE a.id = $1`,
      [id],
    );
  }
}
