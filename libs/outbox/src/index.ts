export { EVENT_TYPES, OUTBOX_CHANNEL, OutboxService } from './outbox.service';
export type { EventType } from './outbox.service';
export { OutboxModule } from './outbox.module';
export { EVENT_CURSOR_PATTERN, ListAgentEvents, MAX_EVENTS_PAGE } from './usecases/list-agent-events.usecase';
export type { AgentEvent, AgentEventsPage } from './usecases/list-agent-events.usecase';
