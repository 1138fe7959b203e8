import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { DiscoverAgents, RecommendAgents } from '@app/agents';
import { Usdc } from '@app/common';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import {
  DiscoverQueryDto,
  DiscoverResponse,
  RecommendQueryDto,
  RecommendResponse,
  toDiscoveredAgentResponse,
  toRecommendationResponse,
} from './dto/discovery.dto';

@ApiTags('discovery')
@Controller('discover')
export class DiscoveryController {
  constructor(
    private readonly discoverAgents: DiscoverAgents,
    private readonly recommendAgents: RecommendAgents,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Find active agents by capability name, price and reputation' })
  @ApiEnvelope(DiscoverResponse)
  @ApiErrors(400)
  async discover(@Query() q: DiscoverQueryDto): Promise<DiscoverResponse> {
    const { agents, total, totalExact } = await this.discoverAgents.execute({
      capability: q.capability,
      maxPrice: q.maxPrice === undefined ? undefined : Usdc.parse(q.maxPrice, 'maxPrice').micros,
      minReputation: q.minReputation,
      minUptime: q.minUptime,
      limit: q.limit,
      offset: q.offset,
    });
    return { agents: agents.map(toDiscoveredAgentResponse), total, totalExact, limit: q.limit, offset: q.offset };
  }

  @Get('recommend')
  @ApiOperation({ summary: 'Recommend agents for a natural-language request' })
  @ApiEnvelope(RecommendResponse)
  @ApiErrors(400)
  async recommend(@Query() q: RecommendQueryDto): Promise<RecommendResponse> {
    const recommendations = await this.recommendAgents.execute(q.query, q.limit);
    return { recommendations: recommendations.map(toRecommendationResponse), query: q.query };
  }
}
