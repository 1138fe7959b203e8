export * from './outbox-event.entity';
export * from './outbox.service';
export * from './outbox.module';
export * from './usecases/list-agent-events.usecase';
