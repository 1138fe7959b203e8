import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A journal transaction: one business event (code + ref_id) posts at most once. */
@Entity('ledger_transactions')
@Index('ux_ledger_transactions_code_ref', ['code', 'refId'], { unique: true })
export class LedgerTransactionEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_ledger_transactions' })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  code: string;

  @Column({ name: 'ref_id', type: 'varchar', length: 200 })
  refId: string;

  @Column({ type: 'jsonb', default: {} })
  metadata: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
