import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { GetAgentAnalytics, GetAgentSeries, GetPlatformSeries } from '@app/analytics';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { UuidParamPipe } from '../http/validation';
import { AgentAnalyticsResponse, AnalyticsQueryDto, toAgentAnalyticsResponse } from './dto/analytics.dto';
import { AgentSeriesResponse, PlatformSeriesResponse, seriesQuery, SeriesQueryDto } from './dto/series.dto';

@ApiTags('analytics')
@Controller('analytics')
export class AnalyticsController {
  constructor(
    private readonly analytics: GetAgentAnalytics,
    private readonly platformSeries: GetPlatformSeries,
    private readonly agentSeries: GetAgentSeries,
  ) {}

  @Get('agent/:agentId')
  @ApiOperation({
    summary: "An agent's executions, earnings, performance, disputes and reputation over a rolling period",
  })
  @ApiEnvelope(AgentAnalyticsResponse)
  @ApiErrors(400, 404)
  async agent(
    @Param('agentId', UuidParamPipe) agentId: string,
    @Query() q: AnalyticsQueryDto,
  ): Promise<AgentAnalyticsResponse> {
    return toAgentAnalyticsResponse(await this.analytics.execute(agentId, q.period));
  }

  @Get('agent/:agentId/series')
  @ApiOperation({
    summary: "An agent's executions, success rate, latency percentiles, volume and earnings per hour or day",
  })
  @ApiEnvelope(AgentSeriesResponse)
  @ApiErrors(400, 404)
  agentSeriesOf(
    @Param('agentId', UuidParamPipe) agentId: string,
    @Query() q: SeriesQueryDto,
  ): Promise<AgentSeriesResponse> {
    return this.agentSeries.execute(agentId, seriesQuery(q));
  }

  @Get('platform/series')
  @ApiOperation({ summary: "The platform's executions, volume, buyers and sellers per hour or day" })
  @ApiEnvelope(PlatformSeriesResponse)
  @ApiErrors(400)
  platform(@Query() q: SeriesQueryDto): Promise<PlatformSeriesResponse> {
    return this.platformSeries.execute(seriesQuery(q));
  }
}
