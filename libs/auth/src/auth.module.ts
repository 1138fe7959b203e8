import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsedAuthMessageEntity } from './used-auth-message.entity';
import { UsedAuthMessagesRepository } from './used-auth-messages.repository';
import { WalletAuthService } from './wallet-auth.service';

@Module({
  imports: [TypeOrmModule.forFeature([UsedAuthMessageEntity])],
  providers: [UsedAuthMessagesRepository, WalletAuthService],
  exports: [WalletAuthService],
})
export class AuthModule {}
