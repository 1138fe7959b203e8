import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

export const EXECUTION_STATUSES = ['pending', 'completed', 'failed', 'timeout', 'refunded'] as const;

/** A page of executions (keyset), optionally one status or one capability. */
export class ExecutionListQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit = 20;

  @ApiPropertyOptional({ description: 'The `next` of the page before' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;

  @ApiPropertyOptional({ enum: EXECUTION_STATUSES })
  @IsOptional()
  @IsIn(EXECUTION_STATUSES)
  status?: string;

  @ApiPropertyOptional({ maxLength: 100, description: 'Only this capability' })
  @IsOptional()
  @MaxLength(100)
  @Matches(/^[A-Za-z0-9._:-]+$/, { message: 'capabilityId may contain only letters, digits, ".", "_", ":" and "-"' })
  capabilityId?: string;
}

export class ExecutionListItemDto {
  @ApiProperty() requestId: string;
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty({ nullable: true, type: String }) agentName: string | null;
  @ApiProperty() capabilityId: string;
  @ApiProperty({ nullable: true, type: String, description: 'The paying wallet (or calling agent), lower-case' })
  payer: string | null;
  @ApiProperty({ enum: EXECUTION_STATUSES }) status: string;
  @ApiProperty({ nullable: true, type: String }) settlementStatus: string | null;
  @ApiProperty({ example: '0.011000', description: 'USDC: platform fee + agent fee' }) total: string;
  @ApiProperty({ example: '0.010000', description: "USDC: the agent's fee" }) agentFee: string;
  @ApiProperty({ nullable: true, type: Number, description: 'ms' }) latencyMs: number | null;
  @ApiProperty({ nullable: true, type: String }) transactionId: string | null;
  @ApiProperty({ description: 'A signed receipt is kept (shown with the output to its payer)' }) hasReceipt: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) completedAt: string | null;
}

export class AgentExecutionsResponse {
  @ApiProperty({ type: [ExecutionListItemDto], description: 'Newest first' }) executions: ExecutionListItemDto[];
  @ApiProperty({ nullable: true, type: String, description: 'The cursor of the next page; null on the last' })
  next: string | null;
}

export class PayerExecutionsResponse extends AgentExecutionsResponse {
  @ApiProperty() wallet: string;
}
