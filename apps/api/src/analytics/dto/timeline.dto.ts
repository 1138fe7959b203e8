import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TIMELINE_EVENTS } from '@app/analytics';

class TimelineEventDto {
  @ApiProperty({ enum: TIMELINE_EVENTS }) type: string;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ description: 'ms since the execution was received' }) offsetMs: number;
  @ApiPropertyOptional({ example: '0.011000', description: 'USDC: paid, held, released or refunded' }) amount?: string;
  @ApiPropertyOptional({ description: 'The on-chain transaction (settled, refund_sent)' }) txHash?: string;
  @ApiPropertyOptional({
    description:
      "refund_issued: its reason; dispute_resolved: the outcome; disputed: the dispute's status; escrow_held: until when",
  })
  detail?: string;
}

export class ExecutionTimelineResponse {
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'req_2b8f0c6d9a',
    description:
      "null for an execution in a chain asked for by its transaction id: a chain's request ids are read only by its read scope (GET /chains/{id})",
  })
  requestId: string | null;
  @ApiProperty({ nullable: true, type: String, example: 'tx_8c1f0e2a7b' }) transactionId: string | null;
  @ApiProperty({ description: "The execution's status" }) status: string;
  @ApiProperty({ type: [TimelineEventDto], description: 'Oldest first' }) events: TimelineEventDto[];
}
