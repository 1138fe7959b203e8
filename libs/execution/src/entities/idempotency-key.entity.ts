import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An execute idempotency key, scoped to the payer wallet and bound to (agent, capability,
 * canonical input). Kept 24 h. Looked up before a new payment is reserved.
 */
@Entity('idempotency_keys')
@Index('ix_idempotency_keys_expires', ['expiresAt'])
@Index('ix_idempotency_keys_execution', ['executionId'])
export class IdempotencyKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 42, primaryKeyConstraintName: 'pk_idempotency_keys' })
  payer: string;

  @PrimaryColumn({ name: 'key', type: 'varchar', length: 255, primaryKeyConstraintName: 'pk_idempotency_keys' })
  key: string;

  /** SHA-256 of agent id, capability id and the canonical JSON input. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  @Column({ name: 'execution_id', type: 'varchar', length: 40 })
  executionId: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
