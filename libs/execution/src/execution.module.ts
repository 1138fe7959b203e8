import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaymentsModule } from '@app/payments';
import { AgentCaller } from './agent-caller';
import { ExecutionEntity } from './entities/execution.entity';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity';
import { ExecutionService } from './execution.service';
import { PlatformSigner } from './platform-signer';
import { RateLimiter } from './rate-limiter';

@Module({
  imports: [TypeOrmModule.forFeature([ExecutionEntity, IdempotencyKeyEntity]), PaymentsModule],
  providers: [ExecutionService, AgentCaller, PlatformSigner, RateLimiter],
  exports: [ExecutionService, PlatformSigner],
})
export class ExecutionModule {}
