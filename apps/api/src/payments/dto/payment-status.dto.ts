import { ApiProperty } from '@nestjs/swagger';
import { formatMicros } from '@app/common';
import { PAYMENT_STATUS_LIMIT, PAYMENT_STATUSES, PaymentStatusView } from '@app/execution';
import { LIVEMODE } from './payments.dto';

export class PaymentStatusItem {
  @ApiProperty({
    enum: PAYMENT_STATUSES,
    description:
      'settled: the money moved and what it paid for is recorded. settlement_pending: the outcome is not known yet (sent and not confirmed, queued or running, or its charge not yet recorded); never answered with a 402. failed: the last settlement attempt moved nothing; it is retried. released: it moved nothing and the platform will not move it (expired unused, or kept by a failed run for its retry only). refunded: settled, then owed back whole (a dispute the client won, a registration that created no agent). A partial refund leaves it settled.',
  })
  status: string;
  @ApiProperty({ enum: ['execution', 'registration'] }) purpose: string;
  @ApiProperty({ example: 'base-sepolia' }) network: string;
  @ApiProperty({ example: 84532 }) chainId: number;
  @ApiProperty({ description: 'The token contract (lower case)' }) asset: string;
  @ApiProperty({ description: 'The payer (authorization.from, lower case)' }) payer: string;
  @ApiProperty({ example: '0.011000', description: 'USDC, six decimals: the authorization value' }) amount: string;
  @ApiProperty({ description: 'The EIP-3009 authorization nonce' }) nonce: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'The settlement transaction: once settled or refunded, and while pending once one was sent',
  })
  txHash: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      "The execution it paid for (GET /api/v1/execute/{requestId}): only to its payer, proven (with payer, X-Client-Wallet and X-Client-Signature or the payer's console session); null for anyone else and for an execution in a chain",
  })
  requestId: string | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When settled (settled, refunded)' })
  settledAt: string | null;
  @ApiProperty({ description: LIVEMODE }) livemode: boolean;
}

export class PaymentStatusResponse {
  @ApiProperty({
    type: [PaymentStatusItem],
    description: `The payments the reference names, newest first, at most ${PAYMENT_STATUS_LIMIT} (several payers may share a nonce or an identifier)`,
  })
  payments: PaymentStatusItem[];
}

export function toPaymentStatusResponse(views: PaymentStatusView[], livemode: boolean): PaymentStatusResponse {
  return {
    payments: views.map((v) => ({
      status: v.status,
      purpose: v.purpose,
      network: v.network,
      chainId: v.chainId,
      asset: v.asset,
      payer: v.payer,
      amount: formatMicros(v.amount),
      nonce: v.nonce,
      txHash: v.txHash,
      requestId: v.requestId,
      createdAt: v.createdAt.toISOString(),
      settledAt: v.settledAt?.toISOString() ?? null,
      livemode,
    })),
  };
}
