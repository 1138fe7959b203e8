import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One kept result of the scheduled invariant check (its history): kept when it differs from the
 * previous one kept, or at least hourly; pruned after 7 days. Written with `invariant_status`.
 */
@Entity('invariant_checks')
@Index('ix_invariant_checks_checked_at', ['checkedAt', 'id'])
export class InvariantCheckEntity {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_invariant_checks' })
  id: string;

  @Column({ type: 'boolean' })
  ok: boolean;

  /** Ids of the invariants violated. */
  @Column({ type: 'text', array: true, default: '{}' })
  failed: string[];

  /** The first violations of each failed invariant. */
  @Column({ type: 'jsonb', default: '[]' })
  violations: { id: string; violations: string[] }[];

  @Column({ name: 'checked_at', type: 'timestamptz' })
  checkedAt: Date;
}
