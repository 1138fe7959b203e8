import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UsedAuthMessageEntity } from './used-auth-message.entity';
import { UsedAuthMessagesRepository } from './used-auth-messages.repository';
import { PruneUsedAuthMessages } from './usecases/prune-used-auth-messages/prune-used-auth-messages.usecase';
import { RecordUnboundSignature } from './usecases/record-unbound-signature/record-unbound-signature.usecase';
import { WalletAuthService } from './wallet-auth.service';
import { ConsoleSessionEntity, ConsoleUsedNonceEntity } from './console/console-session.entity';
import { ConsoleSessionsRepository } from './console/console-sessions.repository';
import { ConsoleSessions } from './console/console-sessions.service';
import { PayerRead } from './console/payer-read';
import { PlatformSecretEntity, PlatformSecrets } from './platform-secrets';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      UsedAuthMessageEntity,
      ConsoleSessionEntity,
      ConsoleUsedNonceEntity,
      PlatformSecretEntity,
    ]),
  ],
  providers: [
    UsedAuthMessagesRepository,
    WalletAuthService,
    PruneUsedAuthMessages,
    RecordUnboundSignature,
    ConsoleSessionsRepository,
    ConsoleSessions,
    PayerRead,
    PlatformSecrets,
  ],
  exports: [
    WalletAuthService,
    PruneUsedAuthMessages,
    RecordUnboundSignature,
    ConsoleSessions,
    PayerRead,
    PlatformSecrets,
  ],
})
export class AuthModule {}
