import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { formatMicros, MAX_PAGE_LIMIT } from '@app/common';
import { PENDING_KINDS, PendingKind, PendingMoneyList } from '@app/payments';

export class PendingQueryDto {
  @ApiPropertyOptional({ enum: PENDING_KINDS, description: 'One kind only (default: every kind)' })
  @IsOptional()
  @IsIn(PENDING_KINDS)
  kind?: PendingKind;

  @ApiPropertyOptional({ default: MAX_PAGE_LIMIT, minimum: 1, maximum: MAX_PAGE_LIMIT, description: 'Per kind' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit: number = MAX_PAGE_LIMIT;
}

export class PendingItemResponse {
  @ApiProperty({
    enum: PENDING_KINDS,
    description:
      'withdrawal (not sent: pending, processing), refund (due and not sent: pending, processing, failed; a held dust refund is not listed), ' +
      'settlement (a payment whose settlement is not final: settling, settlement_failed), ' +
      'chain_tx (a transaction the platform signed that the chain has not decided: signed)',
  })
  kind: string;
  @ApiProperty({ example: 'wd_3mZ0v1Xq9c2bWk4r' }) id: string;
  @ApiProperty({
    example: '2.500000',
    nullable: true,
    type: String,
    description: 'USDC (null for a chain_tx: its payouts carry the amounts)',
  })
  amount: string | null;
  @ApiProperty() status: string;
  @ApiProperty() createdAt: string;
  @ApiProperty({ description: 'Milliseconds since it was created' }) ageMs: number;
  @ApiProperty({ nullable: true, type: String, description: 'The last error recorded on it' }) error: string | null;
}

export class PendingTotalsResponse {
  @ApiPropertyOptional() withdrawal?: number;
  @ApiPropertyOptional() refund?: number;
  @ApiPropertyOptional() settlement?: number;
  @ApiPropertyOptional() chain_tx?: number;
}

export class PendingListResponse {
  @ApiProperty({ type: [PendingItemResponse], description: 'Oldest first: at most `limit` of each kind' })
  items: PendingItemResponse[];
  @ApiProperty({
    type: PendingTotalsResponse,
    description: 'How many of each kind asked are not final, listed or not',
  })
  totals: PendingTotalsResponse;
}

export function toPendingListResponse(r: PendingMoneyList): PendingListResponse {
  return {
    items: r.items.map((i) => ({
      kind: i.kind,
      id: i.id,
      amount: i.amount === null ? null : formatMicros(i.amount),
      status: i.status,
      createdAt: new Date(i.createdAt).toISOString(),
      ageMs: i.ageMs,
      error: i.error,
    })),
    totals: r.totals,
  };
}
