import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentCapabilityEntity, AgentEntity } from '@app/agents';
import { PaymentsModule } from '@app/payments';
import { WebhooksModule } from '@app/webhooks';
import { AgentCaller } from './agent-caller';
import { ExecutionEntity } from './entities/execution.entity';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity';
import { ExecutionService } from './execution.service';
import { ExecuteTargets } from './execute-targets';
import { RateLimiter } from './rate-limiter';

@Module({
  imports: [TypeOrmModule.forFeature([ExecutionEntity, IdempotencyKeyEntity, AgentEntity, AgentCapabilityEntity]), PaymentsModule, WebhooksModule],
  providers: [ExecutionService, AgentCaller, RateLimiter, ExecuteTargets],
  exports: [ExecutionService],
})
export class ExecutionModule {}
