import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
} from 'class-validator';
import { EVENT_TYPES, EventType } from '@app/outbox';
import { WebhookDeliveryEntity, WebhookSubscriptionEntity } from '@app/webhooks';
import { IsUsableWebhookSecret } from '../../http/validators';

export class CreateWebhookDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  agentId: string;

  @ApiProperty({
    example: 'https://hooks.example.com/agora',
    description: 'HTTPS; checked by the outbound guard now and at every delivery',
  })
  @IsString()
  @Length(1, 2048)
  url: string;

  @ApiProperty({ enum: EVENT_TYPES, isArray: true })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @ArrayMaxSize(EVENT_TYPES.length)
  @IsIn(EVENT_TYPES, { each: true, message: `each value in events must be one of: ${EVENT_TYPES.join(', ')}` })
  events: EventType[];

  @ApiPropertyOptional({
    description:
      'Signs deliveries (X-Signature; webhook-signature). 24-256 printable characters; a Standard Webhooks secret `whsec_<base64>` (canonical base64 of 24-64 bytes, else 400) is used as its decoded bytes. Never returned.',
  })
  @IsOptional()
  @IsString()
  @Length(24, 256)
  @Matches(/^[\x21-\x7e]+$/, { message: 'secret must be printable ASCII without spaces' })
  @IsUsableWebhookSecret()
  secret?: string;
}

export class WebhookResponse {
  @ApiProperty({ example: 'wh_...' }) webhookId: string;
  @ApiProperty({ example: 'wh_...' }) id: string;
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty({
    description:
      "The subscribed URL. In a list read without the agent's signature or session: its origin only, `https://host[:port]/`",
  })
  url: string;
  @ApiProperty({ enum: EVENT_TYPES, isArray: true }) events: string[];
  @ApiProperty({ enum: ['active', 'failed'] }) status: string;
  @ApiProperty() createdAt: string;
}

export class WebhookListResponse {
  @ApiProperty({ type: [WebhookResponse] }) webhooks: WebhookResponse[];
  @ApiProperty() total: number;
}

export class WebhookDeletedResponse {
  @ApiProperty() message: string;
  @ApiProperty() id: string;
}

export class DeliveryResponse {
  @ApiProperty({ example: 'dlv_...' }) deliveryId: string;
  @ApiProperty({ example: 'evt_...' }) eventId: string;
  @ApiProperty() eventType: string;
  @ApiProperty({ description: '1-5 on the retry schedule' }) attempt: number;
  @ApiProperty({ description: 'A manual redelivery (one attempt, outside the schedule)' }) manual: boolean;
  @ApiProperty({ enum: ['pending', 'sending', 'succeeded', 'failed', 'cancelled'] }) status: string;
  @ApiProperty() scheduledAt: string;
  @ApiProperty({ nullable: true, type: String }) attemptedAt: string | null;
  @ApiProperty({ nullable: true, type: Number }) responseStatus: number | null;
  @ApiProperty({ nullable: true, type: Number }) durationMs: number | null;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The JSON body sent (signed as it is)' })
  body: string | null;
  @ApiProperty({ nullable: true, type: String, description: "The receiver's answer, its first 2 KB" })
  responseBody: string | null;
}

export class DeliveryListResponse {
  @ApiProperty({ type: [DeliveryResponse] }) deliveries: DeliveryResponse[];
  @ApiProperty() total: number;
}

export function toWebhookResponse(w: WebhookSubscriptionEntity): WebhookResponse {
  return {
    webhookId: w.id,
    id: w.id,
    agentId: w.agentId,
    url: w.url,
    events: w.events,
    status: w.status,
    createdAt: w.createdAt.toISOString(),
  };
}

export function toDeliveryResponse(d: WebhookDeliveryEntity): DeliveryResponse {
  return {
    deliveryId: d.id,
    eventId: d.eventId!,
    eventType: d.eventType!,
    attempt: d.attempt,
    manual: d.manual,
    status: d.status,
    scheduledAt: d.scheduledAt.toISOString(),
    attemptedAt: d.attemptedAt?.toISOString() ?? null,
    responseStatus: d.responseStatus,
    durationMs: d.durationMs,
    error: d.error,
    body: d.body,
    responseBody: d.responseBody,
  };
}
