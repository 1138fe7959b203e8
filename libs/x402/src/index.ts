/** The x402 protocol with no rows: offers, verification of a payment header, EIP-3009, networks, nonce claims. */
export { TokenDomain, TRANSFER_WITH_AUTHORIZATION_TYPES, transferAuthorizationDigest } from './eip3009';
export { isLivemode, NETWORKS, NetworkInfo, PaymentOption, settlementSummary } from './networks';
export { NonceClaim, NonceGuard, NonceRef, paymentReplayed } from './nonce-guard';
export { PaymentInvalid, PaymentReplayed } from './x402.errors';
export { MAX_TIMEOUT_SECONDS } from './x402-offer';
export { PAYMENT_IDENTIFIER, paymentIdOf } from './payment-identifier';
export type { X402Offer } from './x402-offer';
export { bazaarExtensions, BazaarRoute, DiscoveryOffer, echoMismatch, serviceNameOf, tagsOf } from './x402-bazaar';
export { exampleFromSchema, exampleObject } from './schema-example';
export { RecoveredPayment, X402Service } from './x402.service';
export { ResourceListings } from './resource-listings';
export type { ListingFilters, ResourceListing } from './resource-listings';
export {
  Authorization,
  ExactEvmPayload,
  PaymentRequiredV2,
  PaymentRequirementsV1,
  PaymentRequirementsV2,
  PresentedPayment,
  PriceRequest,
  SettlementReceipt,
  VerifiedPayment,
} from './x402.types';
export { ReceiptSigner } from './receipts/receipt-signer';
export { X402Module } from './x402.module';
export { receiptExtension } from './receipts/offer-receipt-extension';
export { VerifyReceipt } from './receipts/verify-receipt';
export type { ReceiptCheck, ReceiptRejection, ReceiptVerdict } from './receipts/verify-receipt';
export {
  hasSaltedHashes,
  NOTHING_DELIVERED,
  receiptHash,
  requestCommitment,
  saltedReceiptHash,
} from './receipts/receipt-payload';
export type { AgoraReceiptPayload, AnyAgoraReceiptPayload, ReceiptFacts } from './receipts/receipt-payload';
export type { ReceiptKey } from './receipts/receipt-keys';
