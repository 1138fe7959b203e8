import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintTransformer } from '@app/common';

/** Where `series_ingest` stands in a source table (migration Series): the last row added, and the time before which all are in. */
@Entity('series_cursor')
export class SeriesCursorEntity {
  @PrimaryColumn({ type: 'varchar', length: 16, primaryKeyConstraintName: 'pk_series_cursor' })
  source: string;

  @Column({ name: 'upto_at', type: 'timestamptz', default: () => `'-infinity'` }) uptoAt: Date;
  /** executions: the row's completed_at, the second key (the rows from before migration Series share an ended_at). */
  @Column({ name: 'upto_sub', type: 'timestamptz', default: () => `'-infinity'` }) uptoSub: Date;
  @Column({ name: 'upto_id', type: 'varchar', length: 40, default: '' }) uptoId: string;
  @Column({ name: 'complete_to', type: 'timestamptz', default: () => `'-infinity'` }) completeTo: Date;
}

/** An agent's hour: executions that ended in it, how many succeeded, their latency histogram; charges made in it. */
@Entity('series_agent_hourly')
export class SeriesAgentHourlyEntity {
  @PrimaryColumn({ name: 'agent_id', type: 'uuid', primaryKeyConstraintName: 'pk_series_agent_hourly' })
  agentId: string;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'pk_series_agent_hourly' })
  hour: Date;

  @Column({ type: 'integer', default: 0 }) executions: number;
  @Column({ type: 'integer', default: 0 }) succeeded: number;
  @Column({ type: 'integer', array: true, default: () => 'array_fill(0, ARRAY[37])' }) latency: number[];
  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer }) volume: bigint;
  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer }) earnings: bigint;
}

/** The platform's hour or day (UTC): executions, successes, volume, distinct buyers and sellers. */
@Entity('series_platform')
@Check('ck_series_platform_bucket', `"bucket" IN ('hour', 'day')`)
export class SeriesPlatformEntity {
  @PrimaryColumn({ type: 'varchar', length: 4, primaryKeyConstraintName: 'pk_series_platform' })
  bucket: string;

  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'pk_series_platform' })
  at: Date;

  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer }) executions: bigint;
  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer }) succeeded: bigint;
  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer }) volume: bigint;
  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer }) buyers: bigint;
  @Column({ type: 'bigint', default: 0, transformer: bigintTransformer }) sellers: bigint;
}

/** Who an open bucket has seen (b: a payer's wallet, s: an agent's id), so each counts once in it. */
@Entity('series_seen')
export class SeriesSeenEntity {
  @PrimaryColumn({ type: 'varchar', length: 4, primaryKeyConstraintName: 'pk_series_seen' }) bucket: string;
  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'pk_series_seen' }) at: Date;
  @PrimaryColumn({ type: 'char', length: 1, primaryKeyConstraintName: 'pk_series_seen' }) kind: string;
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_series_seen' }) who: string;
}
