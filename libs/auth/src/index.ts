export * from './used-auth-message.entity';
export * from './wallet-signature';
export * from './wallet-auth.service';
export * from './usecases/prune-used-auth-messages/prune-used-auth-messages.usecase';
export * from './auth.module';
