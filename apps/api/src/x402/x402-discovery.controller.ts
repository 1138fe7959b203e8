import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListX402Resources, SearchX402Resources, X402ResourceFilters } from '@app/catalog';
import { ApiErrors } from '../http/api-envelope.decorator';
import { Unwrapped } from '../http/envelope.interceptor';
import {
  X402FiltersDto,
  X402ResourcesQueryDto,
  X402ResourcesResponse,
  X402SearchQueryDto,
  X402SearchResponse,
} from './dto/x402-discovery.dto';

const filtersOf = (q: X402FiltersDto): X402ResourceFilters => ({
  type: q.type,
  payTo: q.payTo,
  scheme: q.scheme,
  network: q.network,
  extensions: q.extensions,
});

/**
 * The x402 facilitator discovery API, served at `/x402` (outside `/api/v1`): a Bazaar client
 * (`withBazaar` of `@x402/extensions`) pointed at `<base>/x402` lists and searches every capability.
 * Answers are the API's own shapes, without agora's envelope; errors keep the error envelope.
 */
@ApiTags('x402')
@Unwrapped()
@Controller('x402/discovery')
export class X402DiscoveryController {
  constructor(
    private readonly listResources: ListX402Resources,
    private readonly searchResources: SearchX402Resources,
  ) {}

  @Get('resources')
  @ApiOperation({ summary: 'Every capability as an x402 resource, best-ranked agents first (offset paging)' })
  @ApiOkResponse({ type: X402ResourcesResponse })
  @ApiErrors(400, 429)
  async resources(@Query() q: X402ResourcesQueryDto): Promise<X402ResourcesResponse> {
    const page = await this.listResources.execute({ filters: filtersOf(q), limit: q.limit, offset: q.offset });
    return { x402Version: 2, items: page.items, pagination: { limit: q.limit, offset: q.offset, total: page.total } };
  }

  @Get('search')
  @ApiOperation({ summary: 'x402 resources for a natural-language query, ranked by the recommend engine' })
  @ApiOkResponse({ type: X402SearchResponse })
  @ApiErrors(400, 429)
  async search(@Query() q: X402SearchQueryDto): Promise<X402SearchResponse> {
    const found = await this.searchResources.execute({
      query: q.query,
      filters: filtersOf(q),
      limit: q.limit,
      cursor: q.cursor,
    });
    return {
      x402Version: 2,
      resources: found.resources,
      partialResults: found.partialResults,
      pagination: { limit: found.resources.length, cursor: found.cursor },
    };
  }
}
