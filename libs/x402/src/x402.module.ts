import { Module } from '@nestjs/common';
import { NonceGuard } from './nonce-guard';
import { ReceiptSigner } from './receipts/receipt-signer';
import { VerifyReceipt } from './receipts/verify-receipt';
import { ResourceListings } from './resource-listings';
import { X402Service } from './x402.service';

const SERVICES = [NonceGuard, X402Service, ResourceListings, ReceiptSigner, VerifyReceipt];

/**
 * The x402 protocol's services (one instance each per process): the nonce claims (Redis, from the
 * global RedisModule), reading and verifying payments, the resources' listings, and the receipts'
 * signer and check. Imported by what uses them (payments, the catalogue, the api's receipt routes),
 * never reached through PaymentsModule.
 */
@Module({ providers: SERVICES, exports: SERVICES })
export class X402Module {}
