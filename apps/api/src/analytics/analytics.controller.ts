import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { GetAgentAnalytics } from '@app/analytics';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { UuidParamPipe } from '../http/validation';
import { AgentAnalyticsResponse, AnalyticsQueryDto, toAgentAnalyticsResponse } from './dto/analytics.dto';

@ApiTags('analytics')
@Controller('analytics')
export class AnalyticsController {
  constructor(private readonly analytics: GetAgentAnalytics) {}

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
}
