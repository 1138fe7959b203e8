import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { ExecutionEntity } from '@app/execution';
import type { RefundEntity } from '@app/payments';
import { formatMicros } from '@app/common';
import { IsPlainObject } from '../../http/validators';

export class ExecuteDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  targetAgentId: string;

  @ApiProperty({ example: 'translate' })
  @IsString()
  @Length(1, 100)
  capabilityId: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: "Validated against the capability's inputSchema" })
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
}

export class CostResponse {
  @ApiProperty({ description: 'Agent fee charged (for variable pricing: the cap until the run is metered)' }) agentFee: string;
  @ApiProperty() platformFee: string;
  @ApiProperty() total: string;
  @ApiProperty({ enum: ['per-request', 'per-token', 'per-minute', 'dynamic'] }) pricingModel: string;
  @ApiPropertyOptional({ description: 'Variable pricing: the cap on the agent fee (capability maxPrice)' }) maxPrice?: string;
  @ApiPropertyOptional({ description: 'Variable pricing: what the payment authorized (platform fee + maxPrice)' }) authorized?: string;
  @ApiPropertyOptional({ description: 'Variable pricing, once charged: authorized - total, sent back to the payer' }) refunded?: string;
}

export class RefundResponse {
  @ApiProperty({ example: 'rfd_...' }) refundId: string;
  @ApiProperty() amount: string;
  @ApiProperty({ enum: ['pending', 'processing', 'completed', 'failed'] }) status: string;
  @ApiProperty({ nullable: true, type: String }) txHash: string | null;
}

export class UsageResponse {
  @ApiProperty({ nullable: true, type: Number, description: 'Tokens the agent reported' }) tokens: number | null;
}

export class SettlementResponse {
  @ApiProperty({ nullable: true, enum: ['settlement_pending', 'settled', 'settlement_failed'] }) status: string | null;
  @ApiProperty({ nullable: true, type: String }) txHash: string | null;
}

export class ExecutionResponse {
  @ApiProperty() requestId: string;
  @ApiProperty({ enum: ['pending', 'completed', 'failed', 'timeout', 'refunded'] }) status: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) output?: Record<string, unknown>;
  @ApiPropertyOptional() message?: string;
  @ApiProperty({ nullable: true, type: Number, description: 'ms' }) executionTime: number | null;
  @ApiProperty({ type: CostResponse }) cost: CostResponse;
  @ApiProperty({ type: SettlementResponse }) settlement: SettlementResponse;
  @ApiProperty({ nullable: true, type: String }) transactionId: string | null;
  @ApiPropertyOptional({ type: UsageResponse }) usage?: UsageResponse;
  @ApiPropertyOptional({ type: RefundResponse, description: 'Variable pricing: the refund of the unused part of the payment' }) refund?: RefundResponse;
}

export class AsyncAcceptedResponse {
  @ApiProperty() jobId: string;
  @ApiProperty({ example: 'pending' }) status: string;
  @ApiProperty({ example: '/api/v1/execute/req_...' }) statusUrl: string;
}

export function toExecutionResponse(e: ExecutionEntity, paid: { txHash: string | null; refund: RefundEntity | null }, withOutput: boolean): ExecutionResponse {
  const released = withOutput && e.status === 'completed' && e.settlementStatus === 'settled' && e.output !== null;
  const variable = e.pricingModel !== 'per-request';
  const total = e.agentFee + e.platformFee;
  const authorized = e.authorizedAgentFee + e.platformFee;
  return {
    requestId: e.id,
    status: e.status,
    ...(released
      ? { output: e.output! }
      : e.status === 'completed'
        ? { message: e.settlementStatus === 'settled' ? 'Send the original payment header to read the output' : 'Output is withheld until the payment settles' }
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
    settlement: { status: e.settlementStatus, txHash: e.settlementStatus === 'settled' ? paid.txHash : null },
    transactionId: e.transactionId,
    ...(e.usageTokens !== null ? { usage: { tokens: e.usageTokens } } : {}),
    ...(paid.refund ? { refund: { refundId: paid.refund.id, amount: formatMicros(paid.refund.amount), status: paid.refund.status, txHash: paid.refund.txHash } } : {}),
  };
}
