import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';

export type ChainTxStatus = 'signed' | 'mined' | 'reverted' | 'dropped';
export type ChainTxKind = 'settlement' | 'transfer';

/**
 * A transaction the platform signed (`ctx_`), written with its nonce before it is broadcast:
 * `signed` until the chain decides, then `mined`, `reverted`, or `dropped` (its nonce was
 * consumed by another transaction, so it can never land). A `signed` row past `resend_at` is
 * broadcast again by the sweeper, so a nonce persisted and never sent cannot stall the wallet.
 */
@Entity('chain_txs')
@Check('ck_chain_txs_kind', `"kind" IN ('settlement', 'transfer')`)
@Check('ck_chain_txs_status', `"status" IN ('signed', 'mined', 'reverted', 'dropped')`)
@Index('ux_chain_txs_hash', ['txHash'], { unique: true })
@Index('ix_chain_txs_wallet_nonce', ['wallet', 'nonce'])
@Index('ix_chain_txs_open', ['resendAt'], { where: `"status" = 'signed'` })
export class ChainTxEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'pk_chain_txs' })
  id: string;

  @Column({ type: 'varchar', length: 42 })
  wallet: string;

  @Column({ type: 'bigint', transformer: bigintTransformer })
  nonce: bigint;

  @Column({ type: 'varchar', length: 16 })
  kind: ChainTxKind;

  /** Settlements carried (a batch), or 1. */
  @Column({ type: 'integer', default: 1 })
  items: number;

  @Column({ name: 'tx_hash', type: 'varchar', length: 66 })
  txHash: string;

  @Column({ name: 'signed_tx', type: 'text' })
  signedTx: string;

  @Column({ type: 'varchar', length: 16, default: 'signed' })
  status: ChainTxStatus;

  @Column({ name: 'block_number', type: 'bigint', nullable: true, transformer: bigintTransformer })
  blockNumber: bigint | null;

  @Column({ name: 'gas_used', type: 'bigint', nullable: true, transformer: bigintTransformer })
  gasUsed: bigint | null;

  @Column({ name: 'resend_at', type: 'timestamptz' })
  resendAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}

/** The next nonce of a hot wallet: taken (and advanced) in the transaction that persists a signed transaction. */
@Entity('chain_nonces')
@Check('ck_chain_nonces_next', `"next_nonce" >= 0`)
export class ChainNonceEntity {
  @PrimaryColumn({ type: 'varchar', length: 42, primaryKeyConstraintName: 'pk_chain_nonces' })
  wallet: string;

  @Column({ name: 'next_nonce', type: 'bigint', transformer: bigintTransformer })
  nextNonce: bigint;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
