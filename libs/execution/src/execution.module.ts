import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentCapabilityEntity, AgentEntity } from '@app/agents';
import { PaymentsModule } from '@app/payments';
import { AgentCaller } from './agent-caller';
import { CallbackService } from './callback.service';
import { ExecutionEntity } from './entities/execution.entity';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity';
import { ExecutionService } from './execution.service';
import { PlatformSigner } from './platform-signer';
import { RateLimiter } from './rate-limiter';

@Module({
  imports: [TypeOrmModule.forFeature([ExecutionEntity, IdempotencyKeyEntity, AgentEntity, AgentCapabilityEntity]), PaymentsModule],
  providers: [ExecutionService, AgentCaller, CallbackService, PlatformSigner, RateLimiter],
  exports: [ExecutionService, CallbackService, PlatformSigner],
})
export class ExecutionModule {}
