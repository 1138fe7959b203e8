import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';

/**
 * What a payer has paid agora in settled agent fees, to agents other than its own (migration
 * ReputationWeight): kept by `reputation_apply` in the transaction of each charge and dispute.
 */
@Entity('payer_spend')
export class PayerSpendEntity {
  /** Lower case. */
  @PrimaryColumn({ type: 'varchar', length: 42, primaryKeyConstraintName: 'pk_payer_spend' })
  payer: string;

  /** micro-USDC. */
  @Column({ type: 'bigint', default: '0', transformer: bigintTransformer })
  amount: bigint;
}

/** The same, per owner (the wallet that registered the agents paid): what is paid "elsewhere" leaves out one owner. */
@Entity('payer_owner_spend')
export class PayerOwnerSpendEntity {
  @PrimaryColumn({ type: 'varchar', length: 42, primaryKeyConstraintName: 'pk_payer_owner_spend' })
  payer: string;

  @PrimaryColumn({ type: 'varchar', length: 42, primaryKeyConstraintName: 'pk_payer_owner_spend' })
  owner: string;

  @Column({ type: 'bigint', default: '0', transformer: bigintTransformer })
  amount: bigint;
}
