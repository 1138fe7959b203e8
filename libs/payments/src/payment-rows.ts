import { VerifiedPayment } from '@app/x402';
import { PaymentEntity, PaymentPurpose } from './entities/payment.entity';
import { SettleRequest } from '@app/onchain';

/** The row a reservation writes, as an entity (for a flow that writes it later, in its own transaction). */
export function unsavedReservation(v: VerifiedPayment, purpose: PaymentPurpose, id: string): PaymentEntity {
  return Object.assign(new PaymentEntity(), {
    id,
    x402Version: v.x402Version,
    network: v.network,
    chainId: v.chainId,
    asset: v.asset.toLowerCase(),
    payer: v.payer.toLowerCase(),
    payTo: v.payTo.toLowerCase(),
    nonce: v.nonce,
    value: v.value,
    validAfter: v.validAfter,
    validBefore: v.validBefore,
    signature: v.signature,
    headerHash: v.headerHash,
    purpose,
    refId: null,
    status: 'reserved',
    txHash: null,
    settleAttempts: 0,
    nextAttemptAt: null,
    lastError: null,
    settledAt: null,
  });
}

export function toSettleRequest(p: PaymentEntity): SettleRequest {
  return {
    paymentId: p.id,
    x402Version: p.x402Version,
    network: p.network,
    chainId: p.chainId,
    asset: p.asset,
    payer: p.payer,
    payTo: p.payTo,
    value: p.value,
    validAfter: p.validAfter,
    validBefore: p.validBefore,
    nonce: p.nonce,
    signature: p.signature,
    txHash: p.txHash,
  };
}
