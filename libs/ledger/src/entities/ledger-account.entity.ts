import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';

/**
 * One account of the journal. Sign convention: money flowing in is positive; the sum over all
 * accounts is always zero (the external `world:*` accounts go negative as money arrives).
 * Bounds are CHECK constraints, so an overdraw fails inside the posting transaction.
 */
@Entity('ledger_accounts')
@Check('ck_ledger_accounts_min', `"min_balance" IS NULL OR "balance" >= "min_balance"`)
@Check('ck_ledger_accounts_max', `"max_balance" IS NULL OR "balance" <= "max_balance"`)
@Index('ux_ledger_accounts_code', ['code'], { unique: true })
@Index('ix_ledger_accounts_owner', ['ownerId'])
/** The platform's hot accounts' shards, found by kind (migration LedgerShards). */
@Index('ix_ledger_accounts_shards', ['kind'], { where: `"kind" IN ('world', 'revenue')` })
export class LedgerAccountEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_ledger_accounts' })
  id: string;

  @Column({ type: 'varchar', length: 200 })
  code: string;

  @Column({ type: 'varchar', length: 32 })
  kind: string;

  @Column({ name: 'owner_id', type: 'varchar', length: 100, nullable: true })
  ownerId: string | null;

  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer })
  balance: bigint;

  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer })
  version: bigint;

  @Column({ name: 'min_balance', type: 'bigint', nullable: true, transformer: bigintTransformer })
  minBalance: bigint | null;

  @Column({ name: 'max_balance', type: 'bigint', nullable: true, transformer: bigintTransformer })
  maxBalance: bigint | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
