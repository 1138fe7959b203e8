import { Injectable } from '@nestjs/common';
import { ReplicaReads, TransactionRunner } from '@app/database';
import { SeriesBucket } from './series-range';

/** An agent's hour as stored: bigint sums as text. */
export interface AgentHourRow {
  at: Date;
  executions: number;
  succeeded: number;
  latency: number[];
  volume: string;
  earnings: string;
}

/** The platform's hour or day as stored: counts and sums as text. */
export interface PlatformBucketRow {
  at: Date;
  executions: string;
  succeeded: string;
  volume: string;
  buyers: string;
  sellers: string;
}

/** What one `series_ingest` added, and the horizon it read up to. */
export interface IngestResult {
  executions: number;
  transactions: number;
  upto: Date;
}

/** Every row before this time is in the series (the later of the two sources' gaps). */
const COMPLETE_TO = `SELECT min(complete_to) AS "completeTo" FROM series_cursor`;

/**
 * The series tables (migration Series): `series_ingest` adds what ended since the cursor, in the
 * worker; the reads take a range of rows and the time the series is complete to, in one round trip.
 */
@Injectable()
export class SeriesRepository {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly replica: ReplicaReads,
  ) {}

  async ingest(lagMs: number, limit: number): Promise<IngestResult> {
    const [row] = await this.tx.query<IngestResult>(`SELECT * FROM series_ingest($1, $2)`, [lagMs, limit]);
    return row;
  }

  /** The agent's hours in [from, to); `exists` false when there is no such agent. */
  async agentHours(
    agentId: string,
    from: Date,
    to: Date,
  ): Promise<{ exists: boolean; rows: AgentHourRow[]; completeTo: Date }> {
    const [agent, rows, cursor] = await this.replica.reads(
      (sql) =>
        [
          sql.query(`SELECT 1 FROM agents WHERE id = $1`, [agentId]) as Promise<unknown[]>,
          sql.query(
            `SELECT hour AS at, executions, succeeded, latency, volume::text AS volume, earnings::text AS earnings
               FROM series_agent_hourly WHERE agent_id = $1 AND hour >= $2 AND hour < $3 ORDER BY hour`,
            [agentId, from, to],
          ) as Promise<AgentHourRow[]>,
          sql.query(COMPLETE_TO) as Promise<{ completeTo: Date }[]>,
        ] as const,
    );
    return { exists: agent.length === 1, rows, completeTo: cursor[0].completeTo };
  }

  /** The platform's buckets in [from, to). */
  async platform(bucket: SeriesBucket, from: Date, to: Date): Promise<{ rows: PlatformBucketRow[]; completeTo: Date }> {
    const [rows, cursor] = await this.replica.reads(
      (sql) =>
        [
          sql.query(
            `SELECT at, executions::text AS executions, succeeded::text AS succeeded, volume::text AS volume,
                    buyers::text AS buyers, sellers::text AS sellers
               FROM series_platform WHERE bucket = $1 AND at >= $2 AND at < $3 ORDER BY at`,
            [bucket, from, to],
          ) as Promise<PlatformBucketRow[]>,
          sql.query(COMPLETE_TO) as Promise<{ completeTo: Date }[]>,
        ] as const,
    );
    return { rows, completeTo: cursor[0].completeTo };
  }
}
