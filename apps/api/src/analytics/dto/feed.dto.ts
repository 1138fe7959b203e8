import { ApiProperty } from '@nestjs/swagger';
import { FeedExecution } from '@app/analytics';
import { formatMicros } from '@app/common';

class FeedSettlement {
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'settlement_pending, settled, settlement_failed, settlement_expired; null when not charged',
  })
  status: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The on-chain transaction that moved the payment' })
  txHash: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'base-sepolia' }) network: string | null;
}

/**
 * One `execution` event of the live feed: public fields only (no input, output, payer, payment header or
 * request id: a request id is given to the payer only, since it names the run to read or retry).
 */
export class FeedExecutionEvent {
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'tx_2b8f0c6d9a4e1f3a5b7c',
    description: 'The transaction of a completed run (its page is /executions/{transactionId}); null for a failed run',
  })
  transactionId: string | null;
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty() agentName: string;
  @ApiProperty() capabilityId: string;
  @ApiProperty({ enum: ['completed', 'failed'] }) status: 'completed' | 'failed';
  @ApiProperty({
    nullable: true,
    type: String,
    example: '0.011000',
    description: 'USDC charged (platform fee + agent fee); null for a failed run, which is not charged',
  })
  amount: string | null;
  @ApiProperty({ type: FeedSettlement }) settlement: FeedSettlement;
  @ApiProperty({ format: 'date-time', description: 'When it ended' }) at: string;
}

export function toFeedExecutionEvent(e: FeedExecution): FeedExecutionEvent {
  return {
    transactionId: e.transactionId,
    agentId: e.agentId,
    agentName: e.agentName,
    capabilityId: e.capabilityId,
    status: e.status,
    amount: e.amount === null ? null : formatMicros(BigInt(e.amount)),
    settlement: { status: e.settlementStatus, txHash: e.txHash, network: e.network },
    at: new Date(e.at).toISOString(),
  };
}
