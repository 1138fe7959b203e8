import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';

export type PaymentStatus = 'reserved' | 'settling' | 'settled' | 'settlement_failed' | 'released';
export type PaymentPurpose = 'registration' | 'execution';

/**
 * An x402 authorization we accepted. Inserted (status `reserved`) before any paid work, under
 * UNIQUE (chain_id, asset, payer, nonce): a second use of the same authorization cannot insert.
 * The header itself is never stored; its SHA-256 proves "same header" for output reads.
 */
@Entity('payments')
@Check('ck_payments_status', `"status" IN ('reserved', 'settling', 'settled', 'settlement_failed', 'released')`)
@Check('ck_payments_purpose', `"purpose" IN ('registration', 'execution')`)
@Check('ck_payments_value', `"value" > 0`)
@Index('ux_payments_authorization', ['chainId', 'asset', 'payer', 'nonce'], { unique: true })
@Index('ix_payments_status_next', ['status', 'nextAttemptAt'])
@Index('ix_payments_settled_unbound', ['settledAt'], { where: `"status" = 'settled' AND "ref_id" IS NULL` })
@Index('ix_payments_tx_hash', ['txHash'], { where: `"tx_hash" IS NOT NULL` })
@Index('ix_payments_nonce', ['nonce'])
@Index('ix_payments_registration_reserved', ['createdAt'], {
  where: `"status" = 'reserved' AND "purpose" = 'registration'`,
})
export class PaymentEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'pk_payments' })
  id: string;

  @Column({ name: 'x402_version', type: 'integer' })
  x402Version: number;

  @Column({ type: 'varchar', length: 32 })
  network: string;

  @Column({ name: 'chain_id', type: 'integer' })
  chainId: number;

  /** Lower-case token contract address. */
  @Column({ type: 'varchar', length: 42 })
  asset: string;

  /** Lower-case payer address (authorization.from). */
  @Column({ type: 'varchar', length: 42 })
  payer: string;

  @Column({ name: 'pay_to', type: 'varchar', length: 42 })
  payTo: string;

  /** Lower-case 0x 32-byte nonce. */
  @Column({ type: 'varchar', length: 66 })
  nonce: string;

  @Column({ type: 'bigint', transformer: bigintTransformer })
  value: bigint;

  @Column({ name: 'valid_after', type: 'bigint', transformer: bigintTransformer })
  validAfter: bigint;

  @Column({ name: 'valid_before', type: 'bigint', transformer: bigintTransformer })
  validBefore: bigint;

  @Column({ type: 'text' })
  signature: string;

  @Column({ name: 'header_hash', type: 'varchar', length: 64 })
  headerHash: string;

  @Column({ type: 'varchar', length: 16 })
  purpose: PaymentPurpose;

  /** What it paid for: the agent id (registration) or the execution id. */
  @Column({ name: 'ref_id', type: 'varchar', length: 100, nullable: true })
  refId: string | null;

  @Column({ type: 'varchar', length: 20, default: 'reserved' })
  status: PaymentStatus;

  @Column({ name: 'tx_hash', type: 'varchar', length: 66, nullable: true })
  txHash: string | null;

  @Column({ name: 'settle_attempts', type: 'integer', default: 0 })
  settleAttempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true })
  settledAt: Date | null;
}
