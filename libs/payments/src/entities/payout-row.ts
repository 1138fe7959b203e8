import { Column, CreateDateColumn } from 'typeorm';

export type PayoutStatus = 'held' | 'pending' | 'processing' | 'completed' | 'failed';

/**
 * The columns every payout row shares (withdrawals, refunds): what PayoutSender claims, signs,
 * persists and completes. Not an entity itself; each payout table extends it.
 */
export abstract class PayoutRow {
  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: PayoutStatus;

  @Column({ name: 'tx_hash', type: 'varchar', length: 66, nullable: true })
  txHash: string | null;

  /** The signed transfer, persisted before broadcast so a crash re-sends the same one. */
  @Column({ name: 'signed_tx', type: 'text', nullable: true })
  signedTx: string | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /** The claim of the worker sending it: checked when the signed transfer is persisted and when the payout completes. */
  @Column({ name: 'claim_token', type: 'varchar', length: 36, nullable: true })
  claimToken: string | null;

  /** The chain transaction (chain_txs) that pays it, once one is signed. */
  @Column({ name: 'chain_tx_id', type: 'varchar', length: 40, nullable: true })
  chainTxId: string | null;

  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt: Date | null;
}
