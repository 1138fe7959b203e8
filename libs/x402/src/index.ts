/** The x402 protocol with no rows: offers, verification of a payment header, EIP-3009, networks, nonce claims. */
export { isLivemode, NETWORKS, settlementSummary } from './networks';
export { NonceClaim, NonceGuard, paymentReplayed } from './nonce-guard';
export { PaymentInvalid, PaymentReplayed } from './x402.errors';
export { MAX_TIMEOUT_SECONDS } from './x402-offer';
export { RecoveredPayment, X402Service } from './x402.service';
export { ResourceListings } from './resource-listings';
export { PresentedPayment, PriceRequest, SettlementReceipt, VerifiedPayment } from './x402.types';
export { ReceiptSigner } from './receipts/receipt-signer';
export { X402Module } from './x402.module';
export { receiptExtension } from './receipts/offer-receipt-extension';
export { VerifyReceipt } from './receipts/verify-receipt';
export type { ReceiptVerdict } from './receipts/verify-receipt';
export { hasSaltedHashes, NOTHING_DELIVERED, requestCommitment, saltedReceiptHash } from './receipts/receipt-payload';
// Tests only: no production code imports these (a test reaches a lib through its barrel).
export { TRANSFER_WITH_AUTHORIZATION_TYPES, transferAuthorizationDigest } from './eip3009';
