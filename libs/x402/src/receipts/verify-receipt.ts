import { Injectable } from '@nestjs/common';
import { TypedDataEncoder, recoverAddress } from 'ethers';
import {
  extractJWSHeader,
  verifyReceiptSignatureEIP712,
  verifyReceiptSignatureJWS,
} from '@x402/extensions/offer-receipt';
import { sameWallet, ValidationException } from '@app/common';
import { AnyAgoraReceiptPayload, DELIVERY_DOMAIN, deliveryTypesOf, isAgoraReceiptPayload } from './receipt-payload';
import { isSpecReceiptOf, receiptHashFor, receiptMessage, statesRequestId } from './receipt-payload';
import type { ReceiptKey } from './receipt-keys';
import { JWS_TYP, ReceiptSigner } from './receipt-signer';

/** The most JSON of an output or input the public verifier hashes (an unpaid request: its work is bounded). */
export const MAX_CHECKED_BYTES = 65_536;

/** Why a receipt does not verify. */
export type ReceiptRejection =
  | 'malformed'
  | 'not_a_receipt'
  | 'unknown_key'
  | 'bad_signature'
  | 'content_mismatch'
  | 'input_mismatch'
  | 'request_mismatch';

export interface ReceiptVerdict {
  valid: boolean;
  reason: ReceiptRejection | null;
  format: 'jws' | 'eip712' | null;
  /** The key that signed it (current, or retired and still published). */
  key: { kid: string; address: string; current: boolean } | null;
  payload: AnyAgoraReceiptPayload | null;
}

/** A receipt as the client holds it, and optionally what it was delivered, to compare with the hashes. */
export interface ReceiptCheck {
  receipt: { format: string; signature: string; payload?: unknown; delivery?: unknown };
  output?: unknown;
  input?: unknown;
  /** The request id the payer holds: checked against the receipt's (version 4: its commitment, with the salt). */
  requestId?: string;
  /** The receipt's salt (64 hex, given to the payer beside it): a version 3 or 4 receipt's hashes are keyed with it. */
  salt?: string;
}

/**
 * Checks a receipt agora issued, as anyone could with a library: the signature (JWS: EdDSA under
 * the `kid`'s published key; EIP-712: the extension's receipt and agora's `delivery` both signed by
 * one published address, stating the same payment), the payload's shape, and, when given, the output
 * and input against `contentHash` and `inputHash` (version 3 on: keyed with the salt, which is then needed;
 * version 2: bare SHA-256), and a request id against the one stated (version 4: its salted commitment).
 * The payload answered is agora's.
 */
@Injectable()
export class VerifyReceipt {
  constructor(private readonly signer: ReceiptSigner) {}

  async execute(check: ReceiptCheck): Promise<ReceiptVerdict> {
    const { receipt } = check;
    for (const field of ['output', 'input'] as const) {
      const value = check[field];
      if (value !== undefined && Buffer.byteLength(JSON.stringify(value), 'utf8') > MAX_CHECKED_BYTES)
        throw new ValidationException([
          {
            field,
            messages: [`${field} must be at most ${MAX_CHECKED_BYTES} bytes of JSON: hash it yourself above that`],
          },
        ]);
    }
    const format: ReceiptVerdict['format'] =
      receipt.format === 'jws' || receipt.format === 'eip712' ? receipt.format : null;
    const verdict = (
      reason: ReceiptRejection | null,
      key: ReceiptKey | null = null,
      payload: unknown = null,
    ): ReceiptVerdict => ({
      valid: reason === null,
      reason,
      format,
      key: key ? { kid: key.kid, address: key.address, current: key.current } : null,
      payload: isAgoraReceiptPayload(payload) ? payload : null,
    });
    if (!format) return verdict('malformed');
    const signed = format === 'jws' ? await this.jws(receipt.signature) : await this.eip712(receipt);
    if (signed.reason) return verdict(signed.reason, signed.key, signed.payload);
    const p = signed.payload as AnyAgoraReceiptPayload;
    const needSalt = (field: string) =>
      new ValidationException([
        { field: 'salt', messages: [`salt is required to check a version ${p.version} receipt's ${field}`] },
      ]);
    const hash = (value: unknown, field: 'output' | 'input'): string => {
      const h = receiptHashFor(p.version, value, check.salt);
      if (h === null) throw needSalt(field);
      return h;
    };
    if (check.requestId !== undefined) {
      const stated = statesRequestId(p, check.requestId, check.salt);
      if (stated === null) throw needSalt('requestId');
      if (!stated) return verdict('request_mismatch', signed.key, p);
    }
    if (check.output !== undefined && hash(check.output, 'output') !== p.contentHash)
      return verdict('content_mismatch', signed.key, p);
    if (check.input !== undefined && hash(check.input, 'input') !== p.inputHash)
      return verdict('input_mismatch', signed.key, p);
    return verdict(null, signed.key, p);
  }

  private async jws(
    signature: string,
  ): Promise<{ reason: ReceiptRejection | null; key: ReceiptKey | null; payload: unknown }> {
    let kid: unknown;
    let alg: unknown;
    let typ: unknown;
    try {
      ({ kid, alg, typ } = extractJWSHeader(signature) as { kid?: unknown; alg?: unknown; typ?: unknown });
    } catch {
      return { reason: 'malformed', key: null, payload: null };
    }
    if (typ !== JWS_TYP.receipt) return { reason: 'not_a_receipt', key: null, payload: null };
    const key = this.signer.keys.find((k) => k.kid === kid) ?? null;
    if (!key || alg !== 'EdDSA') return { reason: 'unknown_key', key: null, payload: null };
    try {
      const payload = await verifyReceiptSignatureJWS({ format: 'jws', signature }, key.publicJwk);
      return { reason: isAgoraReceiptPayload(payload) ? null : 'not_a_receipt', key, payload };
    } catch {
      return { reason: 'bad_signature', key, payload: null };
    }
  }

  private async eip712(receipt: ReceiptCheck['receipt']): Promise<{
    reason: ReceiptRejection | null;
    key: ReceiptKey | null;
    payload: unknown;
  }> {
    const delivery = receipt.delivery as { payload?: unknown; signature?: unknown } | undefined;
    const payload = delivery?.payload;
    if (!isAgoraReceiptPayload(payload) || !isSpecReceiptOf(receipt.payload, payload))
      return { reason: 'not_a_receipt', key: null, payload: null };
    let signers: string[];
    try {
      // The extension's receipt as any verifier checks it (the reference's own function), then agora's statement.
      const spec = await verifyReceiptSignatureEIP712({ ...receipt, format: 'eip712', payload: receipt.payload });
      const types = deliveryTypesOf(payload.version);
      const digest = TypedDataEncoder.hash(DELIVERY_DOMAIN, types, receiptMessage(payload));
      signers = [spec.signer, recoverAddress(digest, delivery!.signature as string)];
    } catch {
      return { reason: 'bad_signature', key: null, payload };
    }
    const key = this.signer.keys.find((k) => signers.every((s) => sameWallet(k.address, s))) ?? null;
    return { reason: key ? null : 'bad_signature', key, payload };
  }
}
