import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsInt, IsObject, IsOptional, IsString, IsUUID, Length, Max, Min } from 'class-validator';
import { ExecutionEntity } from '@app/execution';
import type { RefundEntity } from '@app/payments';
import { formatMicros } from '@app/common';
import { NestedDto } from '../../http/opaque-json';
import { LIVEMODE } from '../../payments/dto/payments.dto';
import { IsPlainObject, IsUsdcAmount } from '../../http/validators';
import type { SignedReceipt } from '@x402/extensions/offer-receipt';
import { SignedReceiptResponse } from './receipts.dto';

/** Opening a chain at this execute (resolutions §5). */
export class ChainParamsDto {
  @ApiPropertyOptional({
    example: '10.00',
    description:
      'USDC the root agent may spend on sub-calls: 0.01-1000.00, default 10.00; paid with the root cost in one payment, the unspent part refunded',
  })
  @IsOptional()
  @IsString()
  @IsUsdcAmount()
  budget?: string;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 5,
    description: "At most 5 and at most the root agent's chain_max_depth (its value by default)",
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(5)
  maxDepth?: number;
}

export class ExecuteDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  targetAgentId: string;

  @ApiProperty({ example: 'translate' })
  @IsString()
  @Length(1, 100)
  capabilityId: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "Validated against the capability's inputSchema",
  })
  @IsDefined()
  @IsPlainObject()
  input: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'Where the result is posted when complete (HTTPS)' })
  @IsOptional()
  @IsString()
  @Length(1, 2048)
  callbackUrl?: string;

  @ApiPropertyOptional({ description: 'Alternative name for callbackUrl' })
  @IsOptional()
  @IsString()
  @Length(1, 2048)
  webhookUrl?: string;

  @ApiPropertyOptional({ description: 'Scoped to the payer wallet; bound to agent, capability and input; kept 24 h' })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  idempotencyKey?: string;

  @ApiPropertyOptional({
    type: ChainParamsDto,
    description: 'Open an execution chain: the payment covers the root cost plus the budget',
  })
  @IsOptional()
  @IsObject()
  @NestedDto(() => ChainParamsDto)
  chain?: ChainParamsDto;
}

/** The options of POST /agents/{agentId}/capabilities/{capabilityId}/execute (also accepted as headers). */
export class CapabilityExecuteQuery {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'Run in the background: 202 with a status URL' })
  @IsOptional()
  @IsIn(['true', 'false'])
  async?: string;

  @ApiPropertyOptional({
    description: 'Where the result is posted when complete (HTTPS); or the X-Callback-Url header',
  })
  @IsOptional()
  @IsString()
  @Length(1, 2048)
  callbackUrl?: string;

  @ApiPropertyOptional({
    description:
      'Scoped to the payer wallet; bound to agent, capability and input; kept 24 h; or the Idempotency-Key header',
  })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  idempotencyKey?: string;
}

export class CostResponse {
  @ApiProperty({ description: 'Agent fee charged (for variable pricing: the cap until the run is metered)' })
  agentFee: string;
  @ApiProperty() platformFee: string;
  @ApiProperty() total: string;
  @ApiProperty({ enum: ['per-request', 'per-token', 'per-minute', 'dynamic'] }) pricingModel: string;
  @ApiPropertyOptional({ description: 'Variable pricing: the cap on the agent fee (capability maxPrice)' })
  maxPrice?: string;
  @ApiPropertyOptional({ description: 'Variable pricing: what the payment authorized (platform fee + maxPrice)' })
  authorized?: string;
  @ApiPropertyOptional({ description: 'Variable pricing, once charged: authorized - total, sent back to the payer' })
  refunded?: string;
}

export class RefundResponse {
  @ApiProperty({ example: 'rfd_...' }) refundId: string;
  @ApiProperty() amount: string;
  @ApiProperty({
    enum: ['held', 'pending', 'processing', 'completed', 'failed'],
    description: "held: below the dust floor, paid with the payer's next refund",
  })
  status: string;
  @ApiProperty({ nullable: true, type: String }) txHash: string | null;
  @ApiProperty({ description: LIVEMODE }) livemode: boolean;
}

export class UsageResponse {
  @ApiProperty({ nullable: true, type: Number, description: 'Tokens the agent reported' }) tokens: number | null;
}

export class SettlementResponse {
  @ApiProperty({
    nullable: true,
    enum: ['settlement_pending', 'settled', 'settlement_failed', 'settlement_expired'],
    description:
      'settlement_pending: the outcome is not known yet (never a 402: the output stays withheld until it settles; GET /api/v1/payments/status/{txHash} follows it); settlement_expired: the authorization passed its validBefore unused; nothing was charged and the output stays withheld',
  })
  status: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'The settlement transaction: once settled, and while pending once one was sent',
  })
  txHash: string | null;
  @ApiProperty({ description: LIVEMODE }) livemode: boolean;
}

export class ChainResponse {
  @ApiProperty({ format: 'uuid' }) chainId: string;
  @ApiProperty({ description: 'Depth of this execution (0 = the root)' }) depth: number;
  @ApiProperty({ description: 'What the chain budget has left after this call' }) remainingBudget: string;
  @ApiPropertyOptional({
    description:
      "On success, a fresh token (CHAIN_TOKEN_TTL_S, 30 s by default) for the caller's next calls in the chain with X-Chain-Token: an agent's own calls, or, in the chain root's answer and the answers to its calls, the root's caller's (calls at depth 1; the chain stays open while such a token is valid)",
  })
  childToken?: string;
}

export class ExecutionResponse {
  @ApiProperty() requestId: string;
  @ApiProperty({ enum: ['pending', 'completed', 'failed', 'timeout', 'refunded'] }) status: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) output?: Record<string, unknown>;
  @ApiPropertyOptional() message?: string;
  @ApiPropertyOptional({
    type: Boolean,
    description:
      'True (else absent) once the input and output were deleted after the retention period (EXECUTION_PAYLOAD_RETENTION_DAYS): no output is answered; the row, its money and the hashes in dispute evidence stay',
  })
  outputPruned?: boolean;
  @ApiProperty({ nullable: true, type: Number, description: 'ms' }) executionTime: number | null;
  @ApiProperty({ type: CostResponse }) cost: CostResponse;
  @ApiProperty({ type: SettlementResponse }) settlement: SettlementResponse;
  @ApiProperty({ nullable: true, type: String }) transactionId: string | null;
  @ApiPropertyOptional({ type: UsageResponse }) usage?: UsageResponse;
  @ApiPropertyOptional({
    type: RefundResponse,
    description: 'Variable pricing: the refund of the unused part of the payment',
  })
  refund?: RefundResponse;
  @ApiPropertyOptional({ type: ChainResponse, description: 'A chain root or a chained call' }) chain?: ChainResponse;
  @ApiPropertyOptional({
    type: SignedReceiptResponse,
    description:
      'The signed receipt (x402 offer-receipt) of a settled x402 payment, shown with the output: the payment, the fee split and the hashes of the input and output (docs/receipts.md)',
  })
  receipt?: SignedReceiptResponse;
  @ApiPropertyOptional({
    pattern: '^[0-9a-f]{64}$',
    description:
      "The receipt's salt, beside it and to its payer only: a version 3 or 4 receipt's inputHash and contentHash (and version 4's requestCommitment, standing for the request id) are HMAC-SHA256 keyed with it (docs/receipts.md); keep it to check them, or to let someone else check them",
  })
  receiptSalt?: string;
  @ApiProperty({ description: LIVEMODE }) livemode: boolean;
}

export class AsyncAcceptedResponse {
  @ApiProperty({ description: 'The execution id (same as requestId)' }) jobId: string;
  @ApiProperty({ description: 'The execution id: GET /api/v1/execute/{requestId} reads it' }) requestId: string;
  @ApiProperty({ example: 'pending' }) status: string;
  @ApiProperty({
    description: 'Absolute URL of the status (also in the Location header)',
    example: 'https://agora.example.com/api/v1/execute/req_...',
  })
  statusUrl: string;
  @ApiProperty({ description: LIVEMODE }) livemode: boolean;
  @ApiPropertyOptional({
    type: SettlementResponse,
    description:
      'A paid run whose payment was written but whose end could not be recorded or read back (the database failed): what is known of the payment (settlement_pending, or the outcome once known); the statusUrl, read as the payer, follows it. Never a reason to pay again',
  })
  settlement?: SettlementResponse;
  @ApiPropertyOptional({ description: "A chain root's: its chain (GET /api/v1/chains/{chainId}; the requestId too)" })
  chainId?: string;
}

export function toExecutionResponse(
  e: ExecutionEntity,
  paid: {
    txHash: string | null;
    refund: RefundEntity | null;
    signed?: SignedReceipt | null;
    receiptSalt?: string | null;
  },
  withOutput: boolean,
  livemode: boolean,
): ExecutionResponse {
  const released = withOutput && e.status === 'completed' && e.settlementStatus === 'settled' && e.output !== null;
  const variable = e.pricingModel !== 'per-request';
  const total = e.agentFee + e.platformFee;
  const authorized = e.authorizedAgentFee + e.platformFee;
  return {
    requestId: e.id,
    status: e.status,
    ...(e.payloadPrunedAt
      ? {
          outputPruned: true,
          message: 'The input and output of this execution were deleted after the retention period',
        }
      : released
        ? { output: e.output! }
        : e.status === 'completed'
          ? {
              message:
                e.settlementStatus === 'settled'
                  ? "Send the original payment header, or the payer's signature (X-Client-Wallet and X-Client-Signature), to read the output"
                  : e.settlementStatus === 'settlement_expired'
                    ? 'The payment authorization expired before it could be settled: nothing was charged and the output is withheld'
                    : 'Output is withheld until the payment settles',
            }
          : {}),
    executionTime: e.executionTimeMs,
    cost: {
      agentFee: formatMicros(e.agentFee),
      platformFee: formatMicros(e.platformFee),
      total: formatMicros(total),
      pricingModel: e.pricingModel,
      ...(variable
        ? {
            maxPrice: formatMicros(e.authorizedAgentFee),
            authorized: formatMicros(authorized),
            ...(e.transactionId ? { refunded: formatMicros(authorized - total) } : {}),
          }
        : {}),
    },
    settlement: {
      status: e.settlementStatus,
      txHash: e.settlementStatus === 'settled' || e.settlementStatus === 'settlement_pending' ? paid.txHash : null,
      livemode,
    },
    transactionId: e.transactionId,
    ...(e.usageTokens !== null ? { usage: { tokens: e.usageTokens } } : {}),
    ...(paid.refund
      ? {
          refund: {
            refundId: paid.refund.id,
            amount: formatMicros(paid.refund.amount),
            status: paid.refund.status,
            txHash: paid.refund.txHash,
            livemode,
          },
        }
      : {}),
    // Shown with the output, or (settlementPending) with an answer whose settlement is not decided yet.
    ...(paid.signed && (released || e.settlementStatus === 'settlement_pending')
      ? {
          receipt: paid.signed as SignedReceiptResponse,
          ...(withOutput && paid.receiptSalt ? { receiptSalt: paid.receiptSalt } : {}),
        }
      : {}),
    livemode,
  };
}
