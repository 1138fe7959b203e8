import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, MaxLength, Min } from 'class-validator';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '@app/common';

/** `limit` (default 20, at most 100) and `offset`. */
export class PageQueryDto {
  @ApiPropertyOptional({ default: DEFAULT_PAGE_LIMIT, minimum: 1, maximum: MAX_PAGE_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  limit: number = DEFAULT_PAGE_LIMIT;

  @ApiPropertyOptional({ default: 0, minimum: 0, maximum: 1_000_000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  offset: number = 0;
}

/** A page of an agent's transactions, optionally only one status or one capability. */
export class HistoryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['completed', 'disputed', 'refunded'] })
  @IsOptional()
  @IsIn(['completed', 'disputed', 'refunded'])
  status?: 'completed' | 'disputed' | 'refunded';

  @ApiPropertyOptional({ maxLength: 100, description: 'Only this capability' })
  @IsOptional()
  @MaxLength(100)
  @Matches(/^[A-Za-z0-9._:-]+$/, { message: 'capabilityId may contain only letters, digits, ".", "_", ":" and "-"' })
  capabilityId?: string;
}
