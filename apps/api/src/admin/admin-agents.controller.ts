import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListSuspendedAgents, ReinstateAgent, SuspendAgent } from '@app/agents';
import { AdminOnly } from '../auth/admin-key.guard';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { UuidParamPipe } from '../http/validation';
import { SuspendAgentDto } from '../agents/dto/agent-request.dto';
import { AgentResponse, toAgentResponse } from '../agents/dto/agent-response.dto';
import { PageQueryDto } from '../http/pagination.dto';
import { SuspendedAgentListResponse, toSuspendedAgentListResponse } from './dto/admin-agents.dto';

@ApiTags('admin')
@AdminOnly()
@Controller('admin/agents')
export class AdminAgentsController {
  constructor(
    private readonly suspendAgent: SuspendAgent,
    private readonly reinstateAgent: ReinstateAgent,
    private readonly listSuspended: ListSuspendedAgents,
  ) {}

  @Get('suspended')
  @ApiOperation({
    summary: 'Suspended agents, most recently suspended first, with who suspended them, when and why (platform read)',
  })
  @ApiEnvelope(SuspendedAgentListResponse)
  @ApiErrors(400, 401, 403)
  async suspended(@Query() page: PageQueryDto): Promise<SuspendedAgentListResponse> {
    return toSuspendedAgentListResponse(await this.listSuspended.execute(page));
  }

  @Post(':id/suspend')
  @HttpCode(200)
  @ApiOperation({ summary: 'Suspend an agent (platform action)' })
  @ApiEnvelope(AgentResponse)
  @ApiErrors(400, 401, 403, 404, 409)
  async suspend(@Param('id', UuidParamPipe) id: string, @Body() dto: SuspendAgentDto): Promise<AgentResponse> {
    return toAgentResponse(await this.suspendAgent.execute(id, dto.reason));
  }

  @Post(':id/reinstate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reinstate a suspended agent (platform action)' })
  @ApiEnvelope(AgentResponse)
  @ApiErrors(400, 401, 403, 404, 409)
  async reinstate(@Param('id', UuidParamPipe) id: string): Promise<AgentResponse> {
    return toAgentResponse(await this.reinstateAgent.execute(id));
  }
}
