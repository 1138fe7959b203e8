import { ApiProperty } from '@nestjs/swagger';
import { FailedSubscription } from '@app/webhooks';
import { EVENT_TYPES } from '@app/outbox';

export class FailedWebhookResponse {
  @ApiProperty({ example: 'wh_...' }) id: string;
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty() url: string;
  @ApiProperty({ enum: EVENT_TYPES, isArray: true }) events: string[];
  @ApiProperty({ nullable: true, type: String, description: 'Why it was marked failed' })
  failureReason: string | null;
  @ApiProperty({ description: 'When it was marked failed (its deliveries stopped)' }) disabledAt: string;
  @ApiProperty({ description: 'Its delivery attempts that failed (counted up to 1,000)' }) failedAttempts: number;
  @ApiProperty({ nullable: true, type: String, description: "The last failed attempt's error" })
  lastError: string | null;
  @ApiProperty({ nullable: true, type: Number, description: "The last failed attempt's HTTP status" })
  lastResponseStatus: number | null;
  @ApiProperty({ nullable: true, type: String }) lastAttemptAt: string | null;
  @ApiProperty() createdAt: string;
}

export class FailedWebhookListResponse {
  @ApiProperty({ type: [FailedWebhookResponse] }) webhooks: FailedWebhookResponse[];
  @ApiProperty() total: number;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function toFailedWebhookListResponse(r: {
  webhooks: FailedSubscription[];
  total: number;
}): FailedWebhookListResponse {
  return {
    webhooks: r.webhooks.map((w) => ({
      id: w.id,
      agentId: w.agentId,
      url: w.url,
      events: w.events,
      failureReason: w.failureReason,
      disabledAt: iso(w.failedAt)!,
      failedAttempts: w.failedAttempts,
      lastError: w.lastError,
      lastResponseStatus: w.lastResponseStatus,
      lastAttemptAt: iso(w.lastAttemptAt),
      createdAt: iso(w.createdAt)!,
    })),
    total: r.total,
  };
}
