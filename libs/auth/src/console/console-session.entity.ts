import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A console session (migration ConsoleSessions): reads only; its cookie's token kept as a SHA-256. */
@Entity('console_sessions')
@Index('ux_console_sessions_token', ['tokenHash'], { unique: true })
@Index('ix_console_sessions_wallet', ['wallet', 'createdAt'])
export class ConsoleSessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'pk_console_sessions' }) id: string;
  @Column({ name: 'token_hash', type: 'char', length: 64 }) tokenHash: string;
  @Column({ type: 'varchar', length: 42 }) wallet: string;
  @Column({ name: 'agent_id', type: 'uuid', nullable: true }) agentId: string | null;
  @Column({ type: 'varchar', length: 200 }) origin: string;
  @Column({ name: 'user_agent', type: 'varchar', length: 200, nullable: true }) userAgent: string | null;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
}

/** A sign-in message's nonce, used once. */
@Entity('console_used_nonces')
export class ConsoleUsedNonceEntity {
  @PrimaryColumn({ type: 'varchar', length: 96, primaryKeyConstraintName: 'pk_console_used_nonces' }) nonce: string;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
}
