import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxEventEntity } from './outbox-event.entity';
import { OutboxEventsRepository } from './outbox-events.repository';
import { OutboxService } from './outbox.service';
import { ListAgentEvents } from './usecases/list-agent-events.usecase';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OutboxEventEntity])],
  providers: [OutboxService, OutboxEventsRepository, ListAgentEvents],
  exports: [OutboxService, ListAgentEvents],
})
export class OutboxModule {}
