export { assertFresh, parseAuthHeader, recoverSigner } from './wallet-signature';
export type { ParsedAuthHeader } from './wallet-signature';
export { SIGNATURE_HEADER, WALLET_HEADER, WalletAuthService } from './wallet-auth.service';
export type { SignedRequest, WalletAuthContext, WalletAuthHeaders } from './wallet-auth.service';
export { AuthModule } from './auth.module';
