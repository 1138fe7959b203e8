import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { PageQueryDto } from '../../http/pagination.dto';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';

const PRINTABLE = /^[\x20-\x7e]+$/;

/** The filters of the facilitator discovery API: each compared as sent (a resource passes all or none). */
export class X402FiltersDto {
  @ApiPropertyOptional({ example: 'http', description: 'Protocol type: every agora resource is `http`' })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  @Matches(PRINTABLE)
  type?: string;

  @ApiPropertyOptional({ description: 'Payment recipient (the platform wallet)' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  @Matches(PRINTABLE)
  payTo?: string;

  @ApiPropertyOptional({ example: 'exact' })
  @IsOptional()
  @IsString()
  @Length(1, 32)
  @Matches(PRINTABLE)
  scheme?: string;

  @ApiPropertyOptional({ example: 'eip155:84532', description: 'CAIP-2 network (or its x402 v1 name)' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  @Matches(PRINTABLE)
  network?: string;

  @ApiPropertyOptional({ example: 'bazaar', description: 'Extension keys (comma-separated) a resource must carry' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  @Matches(PRINTABLE)
  extensions?: string;
}

/** The filters, `limit` (default 20, at most 100) and `offset` (at most 1,000,000). */
export class X402ResourcesQueryDto extends IntersectionType(X402FiltersDto, PageQueryDto) {}

export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 50;

export class X402SearchQueryDto extends X402FiltersDto {
  @ApiProperty({ example: 'translate text to french', description: 'Natural-language query' })
  @IsString()
  @Length(1, 500)
  query: string;

  @ApiPropertyOptional({ default: DEFAULT_SEARCH_LIMIT, minimum: 1, maximum: MAX_SEARCH_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_SEARCH_LIMIT)
  limit: number = DEFAULT_SEARCH_LIMIT;

  @ApiPropertyOptional({ description: 'The `pagination.cursor` of the previous page' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  @Matches(/^[A-Za-z0-9_-]+$/)
  cursor?: string;
}

/** One capability as an x402 resource (the facilitator discovery API's `DiscoveryResource`). */
export class X402DiscoveryResource {
  @ApiProperty({ example: 'https://agora.example/api/v1/agents/{agentId}/capabilities/translate/execute' })
  resource: string;
  @ApiProperty({ example: 'http' }) type: string;
  @ApiProperty({ example: 2 }) x402Version: number;
  @ApiProperty({
    description: 'What the resource accepts: the v2 PaymentRequirements of its 402',
    type: 'array',
    items: { type: 'object', additionalProperties: true },
  })
  accepts: Record<string, unknown>[];
  @ApiProperty({ format: 'date-time', description: "When the agent's listing last changed" }) lastUpdated: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional({ example: 'application/json' }) mimeType?: string;
  @ApiPropertyOptional({ description: "The agent's name (1-32 printable characters)" }) serviceName?: string;
  @ApiPropertyOptional({ type: [String], description: 'The capability id, then the agent tags (at most 5)' })
  tags?: string[];
  @ApiPropertyOptional({
    description: 'Discovery extensions: `bazaar` (input example and schema, output, route template)',
    type: 'object',
    additionalProperties: true,
  })
  extensions?: Record<string, unknown>;
}

export class X402OffsetPagination {
  @ApiProperty() limit: number;
  @ApiProperty() offset: number;
  @ApiProperty({ description: 'Every listed resource that passes the filters' }) total: number;
}

export class X402ResourcesResponse {
  @ApiProperty({ example: 2 }) x402Version: number;
  @ApiProperty({ type: [X402DiscoveryResource] }) items: X402DiscoveryResource[];
  @ApiProperty({ type: X402OffsetPagination }) pagination: X402OffsetPagination;
}

export class X402CursorPagination {
  @ApiProperty({ description: 'Resources in this page' }) limit: number;
  @ApiProperty({ nullable: true, type: String, description: 'The next page (null: none)' }) cursor: string | null;
}

export class X402SearchResponse {
  @ApiProperty({ example: 2 }) x402Version: number;
  @ApiProperty({ type: [X402DiscoveryResource] }) resources: X402DiscoveryResource[];
  @ApiProperty({ description: 'true when more agents may match than the 50 ranked' }) partialResults: boolean;
  @ApiProperty({ type: X402CursorPagination }) pagination: X402CursorPagination;
}
