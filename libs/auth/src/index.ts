export { assertFresh, parseAuthHeader, recoverSigner } from './wallet-signature';
export type { ParsedAuthHeader } from './wallet-signature';
export { SIGNATURE_HEADER, WALLET_HEADER, WalletAuthService } from './wallet-auth.service';
export type { SignedRequest, WalletAuthContext, WalletAuthHeaders } from './wallet-auth.service';
export { PruneUsedAuthMessages } from './usecases/prune-used-auth-messages/prune-used-auth-messages.usecase';
export { AuthModule } from './auth.module';
