import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { getAddress, isHexString } from 'ethers';
import { AppException, checksumAddress, Clock, formatMicros, isHighS, recoverSigner, sameWallet } from '@app/common';
import { PaymentInvalid } from './x402.errors';
import { AppConfig } from '@app/config';
import { isLivemode, NETWORKS, PaymentOption } from './networks';
import { transferAuthorizationDigest } from './eip3009';
import { buildOffer, offeredExtensions, X402Offer } from './x402-offer';
import { paymentIdOf } from './payment-identifier';
import { echoMismatch } from './x402-bazaar';
import { ReceiptSigner } from './receipts/receipt-signer';
import { Authorization, PriceRequest, VerifiedPayment, PresentedPayment, SettlementReceipt } from './x402.types';

/** The reference server's reason for a payment whose extension echo differs from the offer. */
const ECHO_MISMATCH = 'extension_echo_mismatch';

/** Reference facilitators require validBefore >= now + 6 s (three blocks of padding). */
const VALID_BEFORE_PADDING_S = 6n;
/** Authorizations valid for longer than this cannot be stockpiled. */
const MAX_VALIDITY_S = 3_600n;

const UINT = /^\d{1,78}$/;

/** A decoded header before validation: every field is untrusted. */
interface DecodedPayment {
  x402Version?: unknown;
  scheme?: unknown;
  network?: unknown;
  accepted?: { scheme?: unknown; network?: unknown; asset?: unknown; amount?: unknown } | null;
  extensions?: unknown;
  payload?: { signature?: unknown; authorization?: Partial<Record<keyof Authorization, unknown>> | null } | null;
}

function isAuthorization(a: Partial<Record<keyof Authorization, unknown>> | null | undefined): a is Authorization {
  return (
    !!a &&
    [a.from, a.to].every((v) => typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v)) &&
    [a.value, a.validAfter, a.validBefore].every((v) => typeof v === 'string' && UINT.test(v)) &&
    typeof a.nonce === 'string' &&
    /^0x[0-9a-fA-F]{64}$/.test(a.nonce)
  );
}

/** A payment header decoded and its signer recovered: everything that does not depend on the price. */
export interface RecoveredPayment {
  header: string;
  decoded: DecodedPayment;
  option: PaymentOption;
  auth: Authorization;
  signature: string;
  /** authorization.from, checksummed: the signature was made by it. */
  payer: string;
  /** The v2 payload's `payment-identifier` id (null: none, and always for v1). */
  paymentId: string | null;
}

function invalid(reason: string, message: string): PaymentInvalid {
  return new PaymentInvalid(message, { reason });
}

/**
 * x402 `exact` on EVM, versions 1 (`X-PAYMENT`) and 2 (`PAYMENT-SIGNATURE`): the 402 offer and
 * the stateless checks of a payment header (resolutions §2). Reservation of the nonce and
 * settlement are libs/payments' use cases (AuthorizePayment, AdmitPayment, SettlePayment).
 */
@Injectable()
export class X402Service {
  readonly options: PaymentOption[];
  private readonly payTo: string;
  /** Whether payments here move real money; a test deployment's 402 says it is one. */
  readonly livemode: boolean;
  private readonly requiredMessage: string;

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly receipts: ReceiptSigner,
  ) {
    this.payTo = getAddress((config.platformWallet ?? '0x0000000000000000000000000000000000000000').toLowerCase());
    this.livemode = isLivemode(config);
    this.requiredMessage = this.livemode
      ? 'Payment required'
      : config.settlementMode === 'local'
        ? 'Payment required (test mode: local settlement records the payment in Postgres; no USDC moves and its transaction hash is made up)'
        : 'Payment required (test mode: a test network; its USDC has no value)';
    this.options = config.paymentNetworks.map((name) => {
      const network = NETWORKS[name];
      // In evm mode the local chain's own token stands in for USDC on the network with that chain id.
      const local = config.settlementMode === 'evm' && config.usdcAddress && network.chainId === config.evmChainId;
      return {
        network,
        asset: getAddress((local ? config.usdcAddress! : network.usdc).toLowerCase()),
        assetName: network.eip712Name,
      };
    });
  }

  payToAddress(): string {
    return this.payTo;
  }

  /** The v1 entries (v1-safe networks only) and the v2 PaymentRequired object. */
  offer(price: PriceRequest, error?: string): X402Offer {
    return buildOffer(
      {
        options: this.options,
        payTo: this.payTo,
        livemode: this.livemode,
        requiredMessage: this.requiredMessage,
        paymentIdRequired: this.config.paymentIdentifierRequired,
      },
      price,
      error,
    );
  }

  /** PAYMENT_REQUIRED with the offer (the transport renders it: a 402 with the x402 fields). */
  paymentRequired(price: PriceRequest, message = 'Payment required'): AppException {
    return this.withOffer(new AppException('PAYMENT_REQUIRED', message), price);
  }

  /** A 402 error (PAYMENT_REQUIRED or PAYMENT_INVALID) carrying the offer, so the client can pay again. */
  withOffer(err: AppException, price: PriceRequest): AppException {
    const details = {
      ...(err.details ?? {}),
      amount: formatMicros(price.amount),
      currency: 'USDC',
      resource: price.resource,
    };
    if (err instanceof PaymentInvalid) {
      const echo = err.details?.reason === ECHO_MISMATCH ? ECHO_MISMATCH : undefined;
      return new PaymentInvalid(err.message, details, this.signedOffer(price, echo));
    }
    return new AppException(err.code, err.message, details, this.signedOffer(price));
  }

  /** A 402's offer with its signed offers (`offer-receipt`); listings carry the unsigned one. */
  private signedOffer(price: PriceRequest, error?: string): X402Offer {
    const offer = this.offer(price, error);
    offer.v2.extensions = { ...offer.v2.extensions, ...this.receipts.offerExtension(offer.v2) };
    return offer;
  }

  static hashHeader(value: string): string {
    return createHash('sha256').update(value.trim(), 'utf8').digest('hex');
  }

  /**
   * Decodes a payment header and runs every stateless check against the price. A failure is
   * PAYMENT_INVALID (402) carrying the offer, so the client can sign again at once. `recovered`
   * (from `recover`, e.g. computed while the price was being read) skips decoding again.
   */
  verify(header: PresentedPayment, price: PriceRequest, recovered?: RecoveredPayment): VerifiedPayment {
    try {
      return this.checkTerms(header, recovered ?? this.recover(header), price);
    } catch (err) {
      throw err instanceof PaymentInvalid ? this.withOffer(err, price) : err;
    }
  }

  /**
   * The part of verification that needs no price: decode the header, pick the network, check
   * the payload's shape and recover the signer (the CPU-heavy step). Throws PAYMENT_INVALID
   * without the offer (verify adds it).
   */
  recover(header: PresentedPayment): RecoveredPayment {
    let decoded: DecodedPayment;
    try {
      decoded = JSON.parse(Buffer.from(header.value.trim(), 'base64').toString('utf8')) as DecodedPayment;
    } catch {
      throw invalid('invalid_payload', 'Payment header is not base64-encoded JSON');
    }
    if (decoded === null || typeof decoded !== 'object')
      throw invalid('invalid_payload', 'Payment header is not a JSON object');
    if (decoded.x402Version !== header.version) {
      throw invalid(
        'invalid_x402_version',
        `x402Version ${JSON.stringify(decoded.x402Version)} does not match the header used`,
      );
    }

    let option: PaymentOption | undefined;
    if (header.version === 1) {
      if (decoded.scheme !== 'exact') throw invalid('invalid_scheme', 'Only the exact scheme is accepted');
      option = this.options.find((o) => o.network.name === decoded.network);
    } else {
      const accepted = decoded.accepted;
      if (!accepted || typeof accepted !== 'object')
        throw invalid('invalid_payload', 'accepted requirements are missing');
      if (accepted.scheme !== 'exact') throw invalid('invalid_scheme', 'Only the exact scheme is accepted');
      option = this.options.find((o) => o.network.caip2 === accepted.network);
      if (option && (typeof accepted.asset !== 'string' || !sameWallet(accepted.asset, option.asset))) {
        throw invalid('invalid_payment_requirements', 'accepted requirements do not match this resource');
      }
    }
    if (!option) throw invalid('invalid_network', 'Payment network is not accepted here');

    const payload = decoded.payload;
    const auth = payload?.authorization;
    if (
      !payload ||
      typeof payload.signature !== 'string' ||
      !isHexString(payload.signature) ||
      !isAuthorization(auth)
    ) {
      throw invalid('invalid_payload', 'Payment payload is malformed');
    }
    const signature = payload.signature;
    if (signature.length !== 132) {
      throw invalid('invalid_exact_evm_payload_undeployed_smart_wallet', 'Only 65-byte EOA signatures are accepted');
    }
    if (isHighS(signature)) {
      // USDC refuses a high-s signature on chain: accepted here, the agent would work unpaid.
      throw invalid('invalid_exact_evm_payload_signature', 'Payment signature is not canonical (high s); sign again');
    }

    let signer: string;
    try {
      signer = recoverSigner(
        transferAuthorizationDigest(
          { name: option.assetName, version: '2', chainId: option.network.chainId, verifyingContract: option.asset },
          auth,
        ),
        signature,
      );
    } catch {
      throw invalid('invalid_exact_evm_payload_signature', 'Payment signature is invalid');
    }
    if (!sameWallet(signer, auth.from))
      throw invalid('invalid_exact_evm_payload_signature', 'Payment signature was not made by authorization.from');
    const paymentId = header.version === 2 ? paymentIdOf(decoded.extensions) : null;
    const payer = checksumAddress(auth.from.toLowerCase());
    return { header: header.value, decoded, option, auth, signature, payer, paymentId };
  }

  private checkTerms(header: PresentedPayment, r: RecoveredPayment, price: PriceRequest): VerifiedPayment {
    if (r.header !== header.value) throw new Error('recovered payment belongs to another header');
    const { auth, option } = r;
    const echoed = header.version === 2 ? r.decoded.extensions : undefined;
    const mismatch = echoed
      ? echoMismatch(offeredExtensions(price, this.config.paymentIdentifierRequired), echoed)
      : null;
    if (mismatch) throw invalid(ECHO_MISMATCH, `The payment echoes extensions.${mismatch} unlike the offer`);
    if (header.version === 2 && r.decoded.accepted?.amount !== price.amount.toString()) {
      throw invalid('invalid_payment_requirements', 'accepted requirements do not match this resource');
    }
    if (!sameWallet(auth.to, this.payTo))
      throw invalid('invalid_exact_evm_payload_recipient_mismatch', 'Payment is not made out to the platform');
    const value = BigInt(auth.value);
    if (value !== price.amount) {
      throw invalid(
        'invalid_exact_evm_payload_authorization_value',
        `Payment value ${value} does not equal the amount due ${price.amount}`,
      );
    }
    const now = BigInt(Math.floor(this.clock.nowMs() / 1000));
    const validAfter = BigInt(auth.validAfter);
    const validBefore = BigInt(auth.validBefore);
    if (validAfter > now)
      throw invalid('invalid_exact_evm_payload_authorization_valid_after', 'Payment authorization is not valid yet');
    if (validBefore < now + VALID_BEFORE_PADDING_S) {
      throw invalid(
        'invalid_exact_evm_payload_authorization_valid_before',
        'Payment authorization has expired or expires too soon',
      );
    }
    if (validBefore > now + MAX_VALIDITY_S) {
      throw invalid(
        'invalid_exact_evm_payload_authorization_valid_before',
        'Payment authorization is valid for too long',
      );
    }
    return {
      x402Version: header.version,
      network: option.network.name,
      chainId: option.network.chainId,
      asset: option.asset,
      assetName: option.assetName,
      payer: r.payer,
      payTo: this.payTo,
      nonce: auth.nonce.toLowerCase(),
      value,
      validAfter,
      validBefore,
      signature: r.signature,
      headerHash: X402Service.hashHeader(header.value),
    };
  }

  /** The settlement response of a paid call, as data (the transport renders it). */
  static receipt(payment: { x402Version: number; network: string; payer: string }, txHash: string): SettlementReceipt {
    const network =
      payment.x402Version === 2 ? NETWORKS[payment.network as keyof typeof NETWORKS].caip2 : payment.network;
    return { x402Version: payment.x402Version, network, payer: payment.payer, transaction: txHash };
  }
}
