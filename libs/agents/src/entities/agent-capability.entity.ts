import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Relation } from 'typeorm';
import { bigintTransformer } from '@app/common';
import { AgentEntity } from './agent.entity';

export type PricingModel = 'per-request' | 'per-token' | 'per-minute' | 'dynamic';
export const PRICING_MODELS: readonly PricingModel[] = ['per-request', 'per-token', 'per-minute', 'dynamic'];
export const VARIABLE_PRICING_MODELS: readonly PricingModel[] = ['per-token', 'per-minute', 'dynamic'];
export type Currency = 'USDC' | 'USDT' | 'DAI';
export const CURRENCIES: readonly Currency[] = ['USDC', 'USDT', 'DAI'];

@Entity('agent_capabilities')
@Check(
  'ck_agent_capabilities_pricing_model',
  `"pricing_model" IN ('per-request', 'per-token', 'per-minute', 'dynamic')`,
)
@Check('ck_agent_capabilities_currency', `"currency" IN ('USDC', 'USDT', 'DAI')`)
@Check('ck_agent_capabilities_base_price', `"base_price" >= 0`)
@Check('ck_agent_capabilities_max_price', `"max_price" IS NULL OR "max_price" > 0`)
@Index('ix_agent_capabilities_base_price', ['basePrice'])
@Index('ix_agent_capabilities_name_trgm', { synchronize: false })
export class AgentCapabilityEntity {
  @PrimaryColumn({ name: 'agent_id', type: 'uuid', primaryKeyConstraintName: 'pk_agent_capabilities' })
  agentId: string;

  @PrimaryColumn({
    name: 'capability_id',
    type: 'varchar',
    length: 100,
    primaryKeyConstraintName: 'pk_agent_capabilities',
  })
  capabilityId: string;

  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 1000 })
  description: string;

  @Column({ name: 'input_schema', type: 'jsonb', nullable: true })
  inputSchema: Record<string, unknown> | null;

  @Column({ name: 'output_schema', type: 'jsonb', nullable: true })
  outputSchema: Record<string, unknown> | null;

  @Column({ name: 'pricing_model', type: 'varchar', length: 16 })
  pricingModel: PricingModel;

  /** micro-USDC */
  @Column({ name: 'base_price', type: 'bigint', transformer: bigintTransformer })
  basePrice: bigint;

  /** micro-USDC; the cap a variable-priced capability charges at most. */
  @Column({ name: 'max_price', type: 'bigint', nullable: true, transformer: bigintTransformer })
  maxPrice: bigint | null;

  @Column({ type: 'varchar', length: 8 })
  currency: Currency;

  @ManyToOne(() => AgentEntity, (a) => a.capabilities, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id', foreignKeyConstraintName: 'fk_agent_capabilities_agent' })
  agent: Relation<AgentEntity>;
}
