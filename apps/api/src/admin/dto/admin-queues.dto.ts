import { ApiProperty } from '@nestjs/swagger';
import { QUEUES, QueueStats } from '@app/queues';

/** The route takes no query: any parameter is refused (400). */
export class NoQueryDto {}

export class QueueStatsResponse {
  @ApiProperty({ enum: Object.values(QUEUES) }) name: string;
  @ApiProperty({ description: 'Waiting for a worker (prioritized ones included)' }) waiting: number;
  @ApiProperty() active: number;
  @ApiProperty({ description: 'Scheduled for later (retries, due times)' }) delayed: number;
  @ApiProperty({ description: 'Failed for good and kept (7 days)' }) failed: number;
  @ApiProperty({ description: 'Completed and still kept (an hour, at most 1,000)' }) completed: number;
  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      'Milliseconds the oldest waiting job has waited since it became due: enqueued, its delay over, or its last attempt (null: none waits)',
  })
  oldestWaitingAgeMs: number | null;
}

export class QueueStatsListResponse {
  @ApiProperty({ type: [QueueStatsResponse] }) queues: QueueStatsResponse[];
}

export function toQueueStatsListResponse(queues: QueueStats[]): QueueStatsListResponse {
  return { queues: queues.map((q) => ({ ...q })) };
}
