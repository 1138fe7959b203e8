import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { DISCOVERY_MANIFEST_MAX_ITEMS } from '@app/catalog';
import { X402OffsetPagination } from './x402-discovery.dto';

export class ManifestPageQueryDto {
  @ApiPropertyOptional({ default: 0, minimum: 0, maximum: 1_000_000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  offset: number = 0;

  @ApiPropertyOptional({ default: DISCOVERY_MANIFEST_MAX_ITEMS, minimum: 1, maximum: DISCOVERY_MANIFEST_MAX_ITEMS })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(DISCOVERY_MANIFEST_MAX_ITEMS)
  limit: number = DISCOVERY_MANIFEST_MAX_ITEMS;
}

export class X402ManifestResourceDto {
  @ApiProperty({ example: 'https://agora.example/api/v1/agents/{agentId}/capabilities/translate/execute' })
  url: string;
  @ApiProperty({ example: 'POST' }) method: string;
  @ApiProperty({ example: 'Polyglot: Translate text', description: "The description of the resource's 402" })
  description: string;
}

class X402ManifestLinks {
  @ApiProperty({ description: 'The discovery API list (every capability, offset paging)' }) resources: string;
  @ApiProperty({ description: 'The discovery API search' }) search: string;
  @ApiProperty({ description: '`/.well-known/x402.json`: the payment terms, input and output of each' })
  manifest: string;
}

class NoAttestation {
  @ApiProperty({ example: 'none' }) type: string;
}

/** `/.well-known/x402`: the x402 discovery extension draft's manifest of a resource server. */
export class X402ManifestResponse {
  @ApiProperty({ example: 2, description: 'An integer' }) x402Version: number;
  @ApiProperty({ example: 'resource-server' }) kind: string;
  @ApiProperty({ example: 'agora' }) name: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: [X402ManifestResourceDto], description: 'Bare pointers, best-ranked first (at most 100)' })
  resources: X402ManifestResourceDto[];
  @ApiProperty({ type: NoAttestation }) attestation: NoAttestation;
  @ApiProperty({ description: 'The API reference' }) docs: string;
  @ApiProperty({ format: 'date-time', description: 'The latest change of a listed agent' }) updated: string;
  @ApiProperty({ type: X402ManifestLinks }) discovery: X402ManifestLinks;
  @ApiProperty({ description: 'Capabilities listed in all' }) total: number;
  @ApiProperty({ description: '`resources` holds only the first of them (the rest: `discovery`)' })
  truncated: boolean;
}

const OBJECT = { type: 'object', additionalProperties: true } as const;

class DiscoveryManifestResourceInfo {
  @ApiProperty() url: string;
  @ApiPropertyOptional() description?: string;
  @ApiPropertyOptional() mimeType?: string;
  @ApiPropertyOptional() serviceName?: string;
  @ApiPropertyOptional({ type: [String] }) tags?: string[];
}

class DiscoveryInputDto {
  @ApiProperty({ example: 'POST' }) method: string;
  @ApiPropertyOptional({
    description:
      "The route template of the resource's Bazaar extension; agora's carry none (each capability is its own URL)",
  })
  routeTemplate?: string;
  @ApiPropertyOptional({ ...OBJECT, description: 'JSON Schema of the path parameters' })
  pathParams?: Record<string, unknown>;
  @ApiPropertyOptional({ example: 'json' }) bodyType?: string;
  @ApiPropertyOptional({ ...OBJECT, description: 'JSON Schema of the body (its example when none was declared)' })
  body?: Record<string, unknown>;
}

class DiscoveryOutputDto {
  @ApiPropertyOptional({ example: 'application/json' }) mimeType?: string;
  @ApiPropertyOptional({ description: 'An example output' }) example?: unknown;
  @ApiPropertyOptional({ ...OBJECT, description: 'JSON Schema of the output' }) schema?: Record<string, unknown>;
}

class DiscoveryManifestItem {
  @ApiProperty({ type: DiscoveryManifestResourceInfo }) resource: DiscoveryManifestResourceInfo;
  @ApiProperty({ example: 'http' }) type: string;
  @ApiProperty({ type: 'array', items: OBJECT, description: 'The v2 PaymentRequirements of its 402' })
  accepts: Record<string, unknown>[];
  @ApiProperty({ type: DiscoveryInputDto }) input: DiscoveryInputDto;
  @ApiPropertyOptional({ type: DiscoveryOutputDto }) output?: DiscoveryOutputDto;
  @ApiPropertyOptional({ type: [String] }) requires?: string[];
}

class DiscoveryManifestLinks {
  @ApiProperty() resources: string;
  @ApiProperty() search: string;
}

/** `/.well-known/x402.json`: the x402 well-known discovery draft's manifest, one page of it. */
export class X402DiscoveryManifestResponse {
  @ApiProperty({ example: 2 }) x402Version: number;
  @ApiProperty({ description: 'Unix seconds: when this page was built' }) lastUpdated: number;
  @ApiProperty({ type: [DiscoveryManifestItem] }) items: DiscoveryManifestItem[];
  @ApiProperty({ type: X402OffsetPagination }) pagination: X402OffsetPagination;
  @ApiProperty({ nullable: true, type: String, description: 'The next page (null: none)' }) next: string | null;
  @ApiProperty({ type: DiscoveryManifestLinks }) discovery: DiscoveryManifestLinks;
}

class AgentSkillDto {
  @ApiProperty({ example: '{agentId}/translate' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'What it does, its price and its resource URL' }) description: string;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ type: [String] }) examples: string[];
  @ApiProperty({ type: [String] }) inputModes: string[];
  @ApiProperty({ type: [String] }) outputModes: string[];
  @ApiProperty({ type: 'array', items: OBJECT }) securityRequirements: Record<string, unknown>[];
}

/** `/.well-known/agent-card.json`: an A2A (1.0) agent card; its one interface is x402 over HTTP. */
export class AgentCardResponse {
  @ApiProperty({ example: 'agora' }) name: string;
  @ApiProperty() description: string;
  @ApiProperty({
    type: 'array',
    items: OBJECT,
    description:
      'The interface agora serves: {url: <base>/api/v1/execute, protocolBinding: the x402 v2 HTTP transport spec URI, protocolVersion: "1.0"}; no A2A message binding',
  })
  supportedInterfaces: Record<string, unknown>[];
  @ApiProperty(OBJECT) provider: Record<string, unknown>;
  @ApiProperty({ example: '1' }) version: string;
  @ApiProperty() documentationUrl: string;
  @ApiProperty(OBJECT) capabilities: Record<string, unknown>;
  @ApiProperty(OBJECT) securitySchemes: Record<string, unknown>;
  @ApiProperty({ type: 'array', items: OBJECT }) securityRequirements: Record<string, unknown>[];
  @ApiProperty({ type: [String] }) defaultInputModes: string[];
  @ApiProperty({ type: [String] }) defaultOutputModes: string[];
  @ApiProperty({ type: [AgentSkillDto], description: 'The best-ranked capabilities (at most 50)' })
  skills: AgentSkillDto[];
  @ApiProperty({ type: 'array', items: OBJECT }) signatures: Record<string, unknown>[];
}
