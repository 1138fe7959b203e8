import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** The last scheduled invariant check (one row): whether money invariants hold, and which failed. */
@Entity('invariant_status')
@Check('ck_invariant_status_single', `"id" = 1`)
export class InvariantStatusEntity {
  @PrimaryColumn({ type: 'smallint', default: 1, primaryKeyConstraintName: 'pk_invariant_status' })
  id: number;

  @Column({ type: 'boolean' })
  ok: boolean;

  /** Ids of the invariants violated (I1, I5, I6d, ...). */
  @Column({ type: 'text', array: true, default: '{}' })
  failed: string[];

  /** The first violations of each failed invariant, as the checks describe them. */
  @Column({ type: 'jsonb', default: '[]' })
  violations: { id: string; violations: string[] }[];

  @Column({ name: 'checked_at', type: 'timestamptz' })
  checkedAt: Date;
}
