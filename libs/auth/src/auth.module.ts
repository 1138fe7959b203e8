import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsedAuthMessageEntity } from './used-auth-message.entity';
import { WalletAuthService } from './wallet-auth.service';

@Module({
  imports: [TypeOrmModule.forFeature([UsedAuthMessageEntity])],
  providers: [WalletAuthService],
  exports: [WalletAuthService],
})
export class AuthModule {}
