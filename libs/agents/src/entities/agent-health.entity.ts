import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Relation } from 'typeorm';
import { AgentEntity } from './agent.entity';

import type { HealthStatus } from '../health/health-view';

/**
 * The health of one agent as the worker's probes see it (migration AgentHealth): a narrow row of its
 * own, so a probe every few minutes never rewrites the wide, GIN-indexed agents row. `next_probe_at`
 * is the schedule and the claim (a worker moves it forward as it takes the row); `failures` the
 * streak of failed probes; `failing_since` the first of them (discovery hides and the worker
 * deactivates by it); the uptimes are rolled from `agent_health_hourly` after each batch.
 */
@Entity('agent_health')
@Check('ck_agent_health_status', `"status" IN ('up', 'down', 'unknown')`)
@Index('ix_agent_health_due', ['nextProbeAt'])
export class AgentHealthEntity {
  @PrimaryColumn({ name: 'agent_id', type: 'uuid', primaryKeyConstraintName: 'pk_agent_health' })
  agentId: string;

  @Column({ name: 'next_probe_at', type: 'timestamptz', default: () => 'now()' }) nextProbeAt: Date;
  @Column({ type: 'varchar', length: 8, default: 'unknown' }) status: HealthStatus;
  @Column({ type: 'integer', default: 0 }) failures: number;
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true }) failingSince: Date | null;
  @Column({ name: 'checked_at', type: 'timestamptz', nullable: true }) checkedAt: Date | null;
  @Column({ name: 'last_latency_ms', type: 'integer', nullable: true }) lastLatencyMs: number | null;
  @Column({ name: 'last_status_code', type: 'integer', nullable: true }) lastStatusCode: number | null;
  @Column({ name: 'last_error', type: 'varchar', length: 200, nullable: true }) lastError: string | null;
  @Column({ name: 'uptime_24h', type: 'double precision', nullable: true }) uptime24h: number | null;
  @Column({ name: 'uptime_7d', type: 'double precision', nullable: true }) uptime7d: number | null;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id', foreignKeyConstraintName: 'fk_agent_health_agent' })
  agent: Relation<AgentEntity>;
}

/**
 * Probes per agent and hour: how many, how many answered (ups), the latency of those with one. The
 * uptimes over 24 h and 7 d sum at most 168 of them; the history route shows them; pruned after 7 days.
 */
@Entity('agent_health_hourly')
@Index('ix_agent_health_hourly_hour', ['hour'])
export class AgentHealthHourlyEntity {
  @PrimaryColumn({ name: 'agent_id', type: 'uuid', primaryKeyConstraintName: 'pk_agent_health_hourly' })
  agentId: string;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'pk_agent_health_hourly' }) hour: Date;
  @Column({ type: 'integer' }) probes: number;
  @Column({ type: 'integer' }) ups: number;
  @Column({ name: 'latency_ms_sum', type: 'bigint' }) latencyMsSum: string;
  @Column({ name: 'latency_count', type: 'integer' }) latencyCount: number;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id', foreignKeyConstraintName: 'fk_agent_health_hourly_agent' })
  agent: Relation<AgentEntity>;
}
