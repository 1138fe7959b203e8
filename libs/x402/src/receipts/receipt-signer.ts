import { Injectable, OnModuleInit } from '@nestjs/common';
import { sign } from 'node:crypto';
import { TypedDataEncoder } from 'ethers';
import {
  canonicalize,
  convertNetworkStringToCAIP2,
  createReceiptDomain,
  hashOfferTypedData,
  signReceiptEIP712,
  type OfferPayload,
  type SignedOffer,
} from '@x402/extensions/offer-receipt';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import type { PaymentRequiredV2 } from '../x402.types';
import {
  AGORA_RECEIPT_VERSION,
  AgoraReceiptPayload,
  AgoraSignedReceipt,
  DELIVERY_DOMAIN,
  DELIVERY_TYPES,
  ReceiptFacts,
  receiptMessage,
  specReceiptOf,
} from './receipt-payload';
import { defaultReceiptSeed, didWebOf, ReceiptKey, receiptKeysOf } from './receipt-keys';
import { offerReceiptSchemasReady, offersExtension } from './offer-receipt-extension';

/** Signed offers kept, the least recently used dropped first (each reused while more than half its validity is left). */
const OFFER_CACHE_MAX = 10_000;
/** JWS `typ` of each statement: an offer is never taken for a receipt, nor the reverse. */
export const JWS_TYP = { offer: 'x402-offer+jws', receipt: 'x402-receipt+jws' } as const;

type TypedDataParams = { domain: unknown; types: unknown; primaryType: string; message: Record<string, unknown> };

/**
 * Signs what a payer can check without agora (the `offer-receipt` extension): an offer per
 * accepted payment option in each 402, and a receipt per paid execution. One format per
 * deployment (RECEIPT_FORMAT): `jws` (EdDSA, `kid` resolved through `/.well-known/did.json`) or
 * `eip712` (secp256k1; the signer's address is published beside the JWS keys); `none` signs nothing.
 */
@Injectable()
export class ReceiptSigner implements OnModuleInit {
  readonly format: 'jws' | 'eip712' | 'none';
  readonly did: string;
  readonly keys: ReceiptKey[];
  private readonly offerCache = new Map<string, { offer: SignedOffer; validUntil: number }>();

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.format = config.receiptFormat;
    this.did = didWebOf(config.publicBaseUrl);
    const seeds = config.receiptSigningSeeds.length
      ? config.receiptSigningSeeds
      : [defaultReceiptSeed(config.platformSigningSeed)];
    this.keys = receiptKeysOf(seeds, this.did);
  }

  /** The extension's schemas are read from the reference library at start, before any 402 is built. */
  async onModuleInit(): Promise<void> {
    await offerReceiptSchemasReady;
  }

  private get current(): ReceiptKey {
    return this.keys[0];
  }

  /** The 402's `extensions["offer-receipt"]`: one signed offer per accepted option (reused while fresh), and its schema. */
  offerExtension(v2: PaymentRequiredV2): Record<string, unknown> {
    if (this.format === 'none') return {};
    return offersExtension(v2.accepts.map((a, i) => this.offer(v2.resource.url, i, a)));
  }

  /** The did:web document: each key's JWS verification method and its EIP-712 signer, the current key first. */
  didDocument(): Record<string, unknown> {
    const methods = this.keys.flatMap((k) => [
      { id: k.kid, type: 'JsonWebKey2020', controller: this.did, publicKeyJwk: k.publicJwk },
      {
        id: `${this.did}#receipts-eip712-${k.id}`,
        type: 'EcdsaSecp256k1RecoveryMethod2020',
        controller: this.did,
        blockchainAccountId: `eip155:${createReceiptDomain().chainId}:${k.address}`,
      },
    ]);
    return {
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
      id: this.did,
      verificationMethod: methods,
      assertionMethod: methods.map((m) => m.id),
    };
  }

  /**
   * A signed receipt of one paid execution, its network in CAIP-2 (a v1 payment's name converted, as
   * offer-receipt §5.2 requires). JWS: agora's payload. EIP-712: the extension's receipt, signed with
   * its exact types and domain by the reference's own `signReceiptEIP712`, and agora's payload in
   * `delivery`, signed under agora's own domain.
   */
  async receipt(facts: ReceiptFacts): Promise<AgoraSignedReceipt | null> {
    if (this.format === 'none') return null;
    // Keys in the order Postgres keeps them (jsonb: shorter first), so a stored receipt renders as it was first sent.
    const payload: AgoraReceiptPayload = jsonbOrdered({
      version: AGORA_RECEIPT_VERSION,
      issuedAt: Math.floor(this.clock.nowMs() / 1000),
      ...facts,
      network: convertNetworkStringToCAIP2(facts.network),
    } satisfies AgoraReceiptPayload);
    if (this.format === 'jws') return { format: 'jws', signature: this.jwsSync(payload, JWS_TYP.receipt) };
    const spec = jsonbOrdered(specReceiptOf(payload));
    const signature = await signReceiptEIP712(spec, (p) => Promise.resolve(this.signTyped(p) as `0x${string}`));
    const delivery = this.signTyped({
      domain: DELIVERY_DOMAIN,
      types: DELIVERY_TYPES,
      primaryType: 'AgoraReceipt',
      message: receiptMessage(payload),
    });
    return { format: 'eip712', payload: spec, delivery: { payload, signature: delivery }, signature };
  }

  /**
   * Signed synchronously (a 402 is thrown where it is found): the extension's payload and hashing,
   * the JWS compact form as its `createJWS` writes it, with a `typ`.
   */
  private offer(url: string, acceptIndex: number, a: PaymentRequiredV2['accepts'][number]): SignedOffer {
    const key = [url, acceptIndex, a.scheme, a.network, a.asset, a.payTo, a.amount, a.maxTimeoutSeconds].join('|');
    const cached = this.offerCache.get(key);
    const now = Math.floor(this.clock.nowMs() / 1000);
    if (cached && cached.validUntil - now > a.maxTimeoutSeconds / 2) {
      this.offerCache.delete(key);
      this.offerCache.set(key, cached);
      return cached.offer;
    }
    const payload: OfferPayload = {
      version: 1,
      resourceUrl: url,
      scheme: a.scheme,
      network: a.network,
      asset: a.asset,
      payTo: a.payTo,
      amount: a.amount,
      validUntil: now + a.maxTimeoutSeconds,
    };
    const offer: SignedOffer =
      this.format === 'jws'
        ? { format: 'jws', acceptIndex, signature: this.jwsSync(payload, JWS_TYP.offer) }
        : {
            format: 'eip712',
            acceptIndex,
            payload,
            signature: this.current.secp256k1.sign(hashOfferTypedData(payload)).serialized,
          };
    this.offerCache.delete(key);
    if (this.offerCache.size >= OFFER_CACHE_MAX) this.offerCache.delete(this.offerCache.keys().next().value!);
    this.offerCache.set(key, { offer, validUntil: payload.validUntil });
    return offer;
  }

  private jwsSync(payload: object, typ: string): string {
    const key = this.current;
    const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: key.kid, typ })).toString('base64url');
    const body = Buffer.from(canonicalize(payload)).toString('base64url');
    return `${header}.${body}.${sign(null, Buffer.from(`${header}.${body}`), key.ed25519).toString('base64url')}`;
  }

  private signTyped(p: TypedDataParams): string {
    const digest = TypedDataEncoder.hash(
      p.domain as Record<string, unknown>,
      p.types as Record<string, { name: string; type: string }[]>,
      p.message,
    );
    return this.current.secp256k1.sign(digest).serialized;
  }
}

function jsonbOrdered<T extends object>(o: T): T {
  const keys = (Object.keys(o) as (keyof T & string)[]).sort(
    (a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0),
  );
  return Object.fromEntries(keys.map((k) => [k, o[k]])) as T;
}
