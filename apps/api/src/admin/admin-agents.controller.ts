import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReinstateAgent, SuspendAgent } from '@app/agents';
import { AdminOnly } from '../auth/admin-key.guard';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { UuidParamPipe } from '../http/validation';
import { SuspendAgentDto } from '../agents/dto/agent-request.dto';
import { AgentResponse, toAgentResponse } from '../agents/dto/agent-response.dto';

@ApiTags('admin')
@AdminOnly()
@Controller('admin/agents')
export class AdminAgentsController {
  constructor(
    private readonly suspendAgent: SuspendAgent,
    private readonly reinstateAgent: ReinstateAgent,
  ) {}

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
