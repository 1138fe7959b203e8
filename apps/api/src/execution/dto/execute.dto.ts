import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, IsUUID, Length } from 'class-validator';
import { ExecutionEntity } from '@app/execution';
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
  @ApiProperty() agentFee: string;
  @ApiProperty() platformFee: string;
  @ApiProperty() total: string;
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
}

export class AsyncAcceptedResponse {
  @ApiProperty() jobId: string;
  @ApiProperty({ example: 'pending' }) status: string;
  @ApiProperty({ example: '/api/v1/execute/req_...' }) statusUrl: string;
}

export function toExecutionResponse(e: ExecutionEntity, txHash: string | null, withOutput: boolean): ExecutionResponse {
  const released = withOutput && e.status === 'completed' && e.settlementStatus === 'settled' && e.output !== null;
  return {
    requestId: e.id,
    status: e.status,
    ...(released
      ? { output: e.output! }
      : e.status === 'completed'
        ? { message: e.settlementStatus === 'settled' ? 'Send the original payment header to read the output' : 'Output is withheld until the payment settles' }
        : {}),
    executionTime: e.executionTimeMs,
    cost: { agentFee: formatMicros(e.agentFee), platformFee: formatMicros(e.platformFee), total: formatMicros(e.agentFee + e.platformFee) },
    settlement: { status: e.settlementStatus, txHash: e.settlementStatus === 'settled' ? txHash : null },
    transactionId: e.transactionId,
  };
}
