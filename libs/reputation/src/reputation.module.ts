import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ReputationEventEntity } from './entities/reputation-event.entity';
import { PayerOwnerSpendEntity, PayerSpendEntity } from './entities/payer-spend.entity';
import { ReputationRecorder } from './reputation.recorder';
import { ReputationRepository } from './reputation.repository';
import { PayerStanding } from './payer-standing';
import { PayerSpendRepository } from './payer-spend.repository';
import { CountMaturedSpend } from './usecases/count-matured-spend/count-matured-spend.usecase';
import { GetLeaderboard } from './usecases/get-leaderboard/get-leaderboard.usecase';
import { GetReputation } from './usecases/get-reputation/get-reputation.usecase';

@Module({
  imports: [TypeOrmModule.forFeature([ReputationEventEntity, PayerSpendEntity, PayerOwnerSpendEntity])],
  providers: [
    ReputationRecorder,
    ReputationRepository,
    PayerStanding,
    PayerSpendRepository,
    CountMaturedSpend,
    GetReputation,
    GetLeaderboard,
  ],
  exports: [ReputationRecorder, PayerStanding, CountMaturedSpend, GetReputation, GetLeaderboard],
})
export class ReputationModule {}
