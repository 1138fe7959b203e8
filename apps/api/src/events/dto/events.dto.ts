import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { AgentEvent, AgentEventsPage, EVENT_CURSOR_PATTERN, EVENT_TYPES, MAX_EVENTS_PAGE } from '@app/outbox';

/** `after` (a cursor from a previous page; none: from the first event) and `limit` (default 50, at most 100). */
export class EventsQueryDto {
  @ApiPropertyOptional({
    example: '1764200000000000.evt_3q2-Yb1xR0aPcZ7d',
    description: 'The cursor of the last event seen (an event or nextCursor): the page starts after it',
  })
  @IsOptional()
  @IsString()
  @Matches(EVENT_CURSOR_PATTERN, { message: 'after must be a cursor from this list (<microseconds>.<event id>)' })
  after?: string;

  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: MAX_EVENTS_PAGE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_EVENTS_PAGE)
  limit: number = 50;
}

export class AgentEventResponse {
  @ApiProperty({ example: 'evt_...' }) id: string;
  @ApiProperty({ enum: EVENT_TYPES }) type: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The payload its webhooks are sent' })
  data: Record<string, unknown>;
  @ApiProperty() createdAt: string;
  @ApiProperty({ description: "This event's place in the list: pass it as `after` to read what follows" })
  cursor: string;
}

export class AgentEventsResponse {
  @ApiProperty({ type: [AgentEventResponse] }) events: AgentEventResponse[];
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'The cursor to poll with next (the last event, or `after` again when the page is empty)',
  })
  nextCursor: string | null;
}

const toEvent = (e: AgentEvent): AgentEventResponse => ({
  id: e.id,
  type: e.type,
  data: e.data,
  createdAt: e.createdAt.toISOString(),
  cursor: e.cursor,
});

export function toAgentEventsResponse(page: AgentEventsPage): AgentEventsResponse {
  return { events: page.events.map(toEvent), nextCursor: page.nextCursor };
}
