import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A signed auth message (agent id + timestamp) already spent on a state change. Written
 * in the same transaction as the change, so a replay is refused even after Redis restarts.
 */
@Entity('used_auth_messages')
@Index('ix_used_auth_messages_expires_at', ['expiresAt'])
export class UsedAuthMessageEntity {
  @PrimaryColumn({
    name: 'message_key',
    type: 'varchar',
    length: 200,
    primaryKeyConstraintName: 'pk_used_auth_messages',
  })
  messageKey: string;

  @Column({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
