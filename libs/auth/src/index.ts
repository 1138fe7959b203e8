export { assertFresh, parseAuthHeader, recoverSigner } from './wallet-signature';
export { SIGNATURE_HEADER, WALLET_HEADER, WalletAuthService } from './wallet-auth.service';
export type { WalletAuthContext } from './wallet-auth.service';
export { RecordUnboundSignature } from './usecases/record-unbound-signature/record-unbound-signature.usecase';
export { PruneUsedAuthMessages } from './usecases/prune-used-auth-messages/prune-used-auth-messages.usecase';
export { AuthModule } from './auth.module';
export { ConsoleSessions, SESSION_COOKIE } from './console/console-sessions.service';
export type { ConsoleSessionRow } from './console/console-sessions.repository';
export { PayerRead } from './console/payer-read';
export { PlatformSecrets } from './platform-secrets';
export type { PayerReadProof } from './console/payer-read';
// Tests only: no production code imports these (a test reaches a lib through its barrel).
export { formatSignInMessage } from './console/eip4361';
export type { SignInFields } from './console/eip4361';
