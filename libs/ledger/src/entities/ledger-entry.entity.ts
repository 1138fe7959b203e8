import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Relation } from 'typeorm';
import { bigintTransformer } from '@app/common';
import { LedgerAccountEntity } from './ledger-account.entity';
import { LedgerTransactionEntity } from './ledger-transaction.entity';

/** One leg of a transaction. Append-only: triggers refuse UPDATE and DELETE. */
@Entity('ledger_entries')
@Check('ck_ledger_entries_nonzero', `"amount" <> 0`)
@Index('ux_ledger_entries_account_version', ['accountId', 'accountVersion'], { unique: true })
@Index('ix_ledger_entries_transaction', ['transactionId'])
export class LedgerEntryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_ledger_entries' })
  id: string;

  @Column({ name: 'transaction_id', type: 'uuid' })
  transactionId: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'bigint', transformer: bigintTransformer })
  amount: bigint;

  @Column({ name: 'balance_after', type: 'bigint', transformer: bigintTransformer })
  balanceAfter: bigint;

  @Column({ name: 'account_version', type: 'bigint', transformer: bigintTransformer })
  accountVersion: bigint;

  @ManyToOne(() => LedgerTransactionEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'transaction_id', foreignKeyConstraintName: 'fk_ledger_entries_transaction' })
  transaction: Relation<LedgerTransactionEntity>;

  @ManyToOne(() => LedgerAccountEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'account_id', foreignKeyConstraintName: 'fk_ledger_entries_account' })
  account: Relation<LedgerAccountEntity>;
}
