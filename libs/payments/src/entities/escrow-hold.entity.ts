import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';

export type EscrowStatus = 'held' | 'released' | 'frozen' | 'refunded' | 'split';

/** An agent's earnings of one transaction, held until release_at (the agent's tier decides). */
@Entity('escrow_holds')
@Check('ck_escrow_holds_status', `"status" IN ('held', 'released', 'frozen', 'refunded', 'split')`)
@Check('ck_escrow_holds_amount', `"amount" >= 0`)
@Index('ux_escrow_holds_transaction', ['transactionId'], { unique: true })
@Index('ix_escrow_holds_status_release', ['status', 'releaseAt'])
@Index('ix_escrow_holds_agent', ['agentId'])
export class EscrowHoldEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'pk_escrow_holds' })
  id: string;

  @Column({ name: 'transaction_id', type: 'varchar', length: 40 })
  transactionId: string;

  @Column({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @Column({ type: 'bigint', transformer: bigintTransformer })
  amount: bigint;

  @Column({ type: 'varchar', length: 16, default: 'held' })
  status: EscrowStatus;

  @Column({ name: 'release_at', type: 'timestamptz' })
  releaseAt: Date;

  @Column({ name: 'released_at', type: 'timestamptz', nullable: true })
  releasedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
