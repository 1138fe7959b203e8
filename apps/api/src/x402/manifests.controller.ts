import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import {
  BuildAgentCard,
  BuildLlmsTxt,
  BuildX402DiscoveryManifest,
  BuildX402Manifest,
  MarketplaceAgentCard,
  PagedDiscoveryManifest,
  X402Manifest,
} from '@app/catalog';
import { ApiErrors } from '../http/api-envelope.decorator';
import { Unwrapped } from '../http/envelope.interceptor';
import {
  AgentCardResponse,
  ManifestPageQueryDto,
  X402DiscoveryManifestResponse,
  X402ManifestResponse,
} from './dto/manifests.dto';

/** Manifests are rebuilt every 30 s per process; a cache may keep one a minute. */
const CACHE_CONTROL = 'public, max-age=60';

/**
 * The manifests at the paths others define (outside `/api/v1`, without agora's envelope; errors
 * keep it): the x402 discovery drafts' `/.well-known/x402` and `/.well-known/x402.json`, the A2A
 * agent card and `/llms.txt`, each built from the discovery API's listing (the 402s' offers).
 */
@ApiTags('x402')
@Unwrapped()
@Controller()
export class ManifestsController {
  constructor(
    private readonly x402Manifest: BuildX402Manifest,
    private readonly discoveryManifest: BuildX402DiscoveryManifest,
    private readonly agentCard: BuildAgentCard,
    private readonly llmsTxt: BuildLlmsTxt,
  ) {}

  @Get('.well-known/x402')
  @Header('Cache-Control', CACHE_CONTROL)
  @ApiOperation({ summary: 'x402 discovery manifest: the best-ranked capabilities as resource pointers' })
  @ApiOkResponse({ type: X402ManifestResponse })
  @ApiErrors(429)
  x402(): Promise<X402Manifest> {
    return this.x402Manifest.execute();
  }

  @Get('.well-known/x402.json')
  @Header('Cache-Control', CACHE_CONTROL)
  @ApiOperation({ summary: 'x402 well-known discovery manifest: payment terms, input and output (paged)' })
  @ApiOkResponse({ type: X402DiscoveryManifestResponse })
  @ApiErrors(400, 429)
  x402Json(@Query() q: ManifestPageQueryDto): Promise<PagedDiscoveryManifest> {
    return this.discoveryManifest.execute({ offset: q.offset, limit: q.limit });
  }

  @Get('.well-known/agent-card.json')
  @Header('Cache-Control', CACHE_CONTROL)
  @ApiOperation({ summary: 'A2A agent card of the marketplace: the best-ranked capabilities as skills' })
  @ApiOkResponse({ type: AgentCardResponse })
  @ApiErrors(429)
  card(): Promise<MarketplaceAgentCard> {
    return this.agentCard.execute();
  }

  @Get('llms.txt')
  @Header('Cache-Control', CACHE_CONTROL)
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @ApiOperation({ summary: 'llms.txt: the API and the best-ranked capabilities, for language models' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'llmstxt.org Markdown', schema: { type: 'string' } })
  @ApiErrors(429)
  llms(): Promise<string> {
    return this.llmsTxt.execute();
  }
}
