import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsedAuthMessageEntity } from './used-auth-message.entity';
import { UsedAuthMessagesRepository } from './used-auth-messages.repository';
import { PruneUsedAuthMessages } from './usecases/prune-used-auth-messages/prune-used-auth-messages.usecase';
import { WalletAuthService } from './wallet-auth.service';

@Module({
  imports: [TypeOrmModule.forFeature([UsedAuthMessageEntity])],
  providers: [UsedAuthMessagesRepository, WalletAuthService, PruneUsedAuthMessages],
  exports: [WalletAuthService, PruneUsedAuthMessages],
})
export class AuthModule {}
