import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { CURRENCIES, Currency, MAX_CAPABILITIES, PRICING_MODELS, PricingModel } from '@app/agents';
import { IsOptionalNotNull } from '../../http/optional';
import { NestedDto } from '../../http/opaque-json';
import { IsPlainObject, IsUsdcAmount, IsWallet } from '../../http/validators';

export class PricingDto {
  @ApiProperty({ enum: PRICING_MODELS })
  @IsIn(PRICING_MODELS)
  model: PricingModel;

  @ApiProperty({ example: '0.010000', description: 'Decimal string, at most 6 decimals' })
  @IsUsdcAmount()
  basePrice: string;

  @ApiProperty({ enum: CURRENCIES })
  @IsIn(CURRENCIES)
  currency: Currency;

  @ApiPropertyOptional({
    example: '0.500000',
    description: 'Required for per-token, per-minute and dynamic pricing: the most one execution can cost',
  })
  @IsOptionalNotNull()
  @IsUsdcAmount()
  maxPrice?: string;
}

export class CapabilityDto {
  @ApiProperty({ example: 'translate', description: 'Unique within the agent; letters, digits, . _ : -' })
  @IsString()
  @Length(1, 100)
  @Matches(/^[A-Za-z0-9._:-]+$/, { message: 'id may contain only letters, digits, ".", "_", ":" and "-"' })
  id: string;

  @ApiProperty({ example: 'Translate text' })
  @IsString()
  @Length(1, 100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name: string;

  @ApiProperty({ example: 'Translates text between English, French and Spanish' })
  @IsString()
  @Length(1, 1000)
  @Matches(/\S/, { message: 'description must not be blank' })
  description: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'JSON Schema for input' })
  @IsOptionalNotNull()
  @IsPlainObject()
  inputSchema?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'JSON Schema for output' })
  @IsOptionalNotNull()
  @IsPlainObject()
  outputSchema?: Record<string, unknown>;

  @ApiProperty({ type: PricingDto })
  @IsDefined()
  @NestedDto(() => PricingDto)
  pricing: PricingDto;
}

export class EndpointsDto {
  @ApiProperty({ example: 'https://agent.example.com/execute', description: 'HTTPS URL that receives POST requests' })
  @IsString()
  @Length(1, 2048)
  execution: string;

  @ApiPropertyOptional({ example: 'https://agent.example.com/health' })
  @IsOptionalNotNull()
  @IsString()
  @Length(1, 2048)
  health?: string;
}

export class ChainSettingsDto {
  @ApiPropertyOptional({ description: 'Allow being called in chains' })
  @IsOptionalNotNull()
  @IsBoolean()
  chain_enabled?: boolean;

  @ApiPropertyOptional({ minimum: 1, maximum: 5, description: 'Max depth when this agent is root' })
  @IsOptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(5)
  chain_max_depth?: number;

  @ApiPropertyOptional({ type: [String], description: 'Agent IDs allowed to call this agent in chains (empty: all)' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  chain_allowed_callers?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Agent IDs never allowed to call this agent in chains' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  chain_blocked_callers?: string[];
}

export class RegisterAgentDto {
  @ApiProperty({ example: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C' })
  @IsWallet()
  wallet: string;

  @ApiProperty({ minLength: 3, maxLength: 100 })
  @IsString()
  @Length(3, 100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiProperty({ type: [CapabilityDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CAPABILITIES)
  @NestedDto(() => CapabilityDto, { each: true })
  capabilities: CapabilityDto[];

  @ApiProperty({ type: EndpointsDto })
  @IsDefined()
  @NestedDto(() => EndpointsDto)
  endpoints: EndpointsDto;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsPlainObject()
  metadata?: Record<string, unknown>;
}

/** PATCH body: every field optional; id, wallet, reputation_score and suspension are not assignable. */
export class UpdateAgentDto {
  @ApiPropertyOptional({ minLength: 3, maxLength: 100 })
  @IsOptionalNotNull()
  @IsString()
  @Length(3, 100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name?: string;

  @ApiPropertyOptional({ maxLength: 1000, nullable: true, description: 'null clears it' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string | null;

  @ApiPropertyOptional({ type: [CapabilityDto], description: 'Replaces the whole list' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CAPABILITIES)
  @NestedDto(() => CapabilityDto, { each: true })
  capabilities?: CapabilityDto[];

  @ApiPropertyOptional({ type: EndpointsDto })
  @IsOptionalNotNull()
  @NestedDto(() => EndpointsDto)
  endpoints?: EndpointsDto;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Replaces the metadata object' })
  @IsOptionalNotNull()
  @IsPlainObject()
  metadata?: Record<string, unknown>;

  @ApiPropertyOptional({ enum: ['active', 'inactive'] })
  @IsOptionalNotNull()
  @IsIn(['active', 'inactive'], { message: 'status must be active or inactive' })
  status?: 'active' | 'inactive';

  @ApiPropertyOptional({ type: ChainSettingsDto, description: 'Merged into the current settings' })
  @IsOptionalNotNull()
  @NestedDto(() => ChainSettingsDto)
  chainSettings?: ChainSettingsDto;
}

export class SuspendAgentDto {
  @ApiPropertyOptional({ maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
