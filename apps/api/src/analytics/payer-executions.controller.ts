import { Controller, Get, Headers, Param, Query, Req } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { Request } from 'express';
import { ListPayerExecutions } from '@app/analytics';
import { isWallet, ValidationException } from '@app/common';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { sessionToken } from '../console/session-cookie';

export class PayerExecutionsQueryDto {
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
}

class PayerExecutionDto {
  @ApiProperty() requestId: string;
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty({ nullable: true, type: String }) agentName: string | null;
  @ApiProperty() capabilityId: string;
  @ApiProperty({ enum: ['pending', 'completed', 'failed', 'timeout', 'refunded'] }) status: string;
  @ApiProperty({ nullable: true, type: String }) settlementStatus: string | null;
  @ApiProperty({ example: '0.011000', description: 'USDC: platform fee + agent fee' }) total: string;
  @ApiProperty({ nullable: true, type: String }) transactionId: string | null;
  @ApiProperty({ description: 'A signed receipt is kept (shown with the output to its payer)' }) hasReceipt: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) completedAt: string | null;
}

export class PayerExecutionsResponse {
  @ApiProperty() wallet: string;
  @ApiProperty({ type: [PayerExecutionDto], description: 'Newest first' }) executions: PayerExecutionDto[];
  @ApiProperty({ nullable: true, type: String, description: 'The cursor of the next page; null on the last' })
  next: string | null;
}

@ApiTags('payments')
@Controller('payers')
export class PayerExecutionsController {
  constructor(private readonly list: ListPayerExecutions) {}

  @Get(':wallet/executions')
  @ApiOperation({
    summary: "A paying wallet's own executions, newest first, paged",
    description:
      'For that wallet only: with its console session (cookie agora_session), or X-Client-Wallet and X-Client-Signature = agora-auth:<wallet>:<unix_ms>:sig:<signature> (EIP-191, within the auth window).',
  })
  @ApiHeader({ name: 'X-Client-Wallet', required: false })
  @ApiHeader({ name: 'X-Client-Signature', required: false })
  @ApiEnvelope(PayerExecutionsResponse)
  @ApiErrors(400, 401, 403)
  executions(
    @Param('wallet') wallet: string,
    @Query() q: PayerExecutionsQueryDto,
    @Headers() headers: Record<string, string | undefined>,
    @Req() req: Request,
  ): Promise<PayerExecutionsResponse> {
    if (!isWallet(wallet))
      throw new ValidationException([{ field: 'wallet', messages: ['wallet must be a 0x address'] }]);
    return this.list.execute(wallet, q, {
      sessionToken: sessionToken(req),
      wallet: headers['x-client-wallet'],
      signature: headers['x-client-signature'],
    });
  }
}
