export * from './used-auth-message.entity';
export * from './wallet-signature';
export * from './wallet-auth.service';
export * from './auth.module';
