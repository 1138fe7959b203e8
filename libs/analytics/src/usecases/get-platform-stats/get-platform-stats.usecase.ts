import { Injectable } from '@nestjs/common';
import { AnalyticsRepository } from '../../analytics.repository';

export interface PlatformStats {
  totalAgents: number;
  activeAgents: number;
  totalTransactions: number;
  /** micro-USDC */
  totalVolume: bigint;
  avgTransactionSize: bigint;
}

/** `GET /payments/stats`: the platform's totals from 32 shard rows the database keeps (never a scan of the history). */
@Injectable()
export class GetPlatformStats {
  constructor(private readonly repo: AnalyticsRepository) {}

  async execute(): Promise<PlatformStats> {
    const r = await this.repo.platform();
    const transactions = BigInt(r.transactions);
    const volume = BigInt(r.volume);
    // Integer division on micro-units: the average is floored to the micro-USDC.
    const avg = transactions > 0n ? volume / transactions : 0n;
    return {
      totalAgents: Number(r.agents),
      activeAgents: Number(r.activeAgents),
      totalTransactions: Number(transactions),
      totalVolume: volume,
      avgTransactionSize: avg,
    };
  }
}
