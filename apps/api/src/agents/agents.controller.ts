import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { DeactivateAgent, GetAgent, GetAgentHealth, RegisterAgent, UpdateAgent } from '@app/agents';
import { WalletAuthContext } from '@app/auth';
import { AppConfig } from '@app/config';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { requireSomeField, UuidParamPipe } from '../http/validation';
import { WalletAuth, WalletSigned } from '../auth/wallet-auth.guard';
import { RegisterAgentDto, UpdateAgentDto } from './dto/agent-request.dto';
import {
  AgentHealthHistoryResponse,
  AgentResponse,
  DeleteAgentResponse,
  toAgentResponse,
} from './dto/agent-response.dto';
import { toRegisterInput, toUpdateInput } from './dto/agent-input.mapper';
import { presentedPayment, receiptHeaders } from '../http/x402-http';
import { ApiPaid } from '../http/security';
import { RegistrationAcceptedResponse, toRegistrationAccepted } from './dto/registration-accepted.dto';
import { isLivemode } from '@app/x402';

@ApiTags('agents')
@Controller('agents')
export class AgentsController {
  private readonly livemode: boolean;

  constructor(
    private readonly registerAgent: RegisterAgent,
    private readonly getAgent: GetAgent,
    private readonly getAgentHealth: GetAgentHealth,
    private readonly updateAgent: UpdateAgent,
    private readonly deactivateAgent: DeactivateAgent,
    private readonly config: AppConfig,
  ) {
    this.livemode = isLivemode(config);
  }

  @Post()
  @ApiOperation({ summary: 'Register an agent (registration fee 0.10 USDC)' })
  @ApiPaid()
  @ApiEnvelope(AgentResponse, 201)
  @ApiEnvelope(RegistrationAcceptedResponse, 202)
  @ApiErrors(400, 402, 403, 409, 413)
  async register(
    @Body() dto: RegisterAgentDto,
    @Headers() headers: Record<string, string | undefined>,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AgentResponse | RegistrationAcceptedResponse> {
    const registered = await this.registerAgent.execute(toRegisterInput(dto), {
      payment: presentedPayment(headers),
      resource: `${this.config.publicBaseUrl}/api/v1/agents`,
    });
    res.set(receiptHeaders(registered.receipt));
    if (registered.agent) return toAgentResponse(registered.agent);
    // The fee's payment was written and what became of it is not known here: where to read it, never "pay again".
    const { agentId, fee } = registered.unconfirmed;
    const accepted = toRegistrationAccepted(
      agentId,
      fee ? { settled: false, ...fee } : { settled: true, txHash: registered.receipt?.transaction ?? '' },
      this.config.publicBaseUrl,
      this.livemode,
    );
    res.status(202).setHeader('Location', accepted.statusUrl);
    return accepted;
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get an agent' })
  @ApiEnvelope(AgentResponse)
  @ApiErrors(400, 404)
  async get(@Param('id', UuidParamPipe) id: string): Promise<AgentResponse> {
    return toAgentResponse(await this.getAgent.execute(id));
  }

  @Get(':id/health')
  @ApiOperation({ summary: "An agent's health and its probe history by the hour (last 7 days)" })
  @ApiEnvelope(AgentHealthHistoryResponse)
  @ApiErrors(400, 404)
  async health(@Param('id', UuidParamPipe) id: string): Promise<AgentHealthHistoryResponse> {
    return this.getAgentHealth.execute(id);
  }

  @Patch(':id')
  @WalletSigned({ param: 'id' })
  @ApiOperation({ summary: 'Update an agent (wallet-signed)' })
  @ApiEnvelope(AgentResponse)
  @ApiErrors(400, 401, 403, 404, 409)
  async update(
    @Param('id', UuidParamPipe) id: string,
    @Body() dto: UpdateAgentDto,
    @WalletAuth() auth: WalletAuthContext,
  ): Promise<AgentResponse> {
    requireSomeField(dto, 'PATCH');
    return toAgentResponse(await this.updateAgent.execute(id, auth, toUpdateInput(dto)));
  }

  @Delete(':id')
  @HttpCode(200)
  @WalletSigned({ param: 'id' })
  @ApiOperation({ summary: 'Deactivate an agent (wallet-signed); it is kept, with status inactive' })
  @ApiEnvelope(DeleteAgentResponse)
  @ApiErrors(400, 401, 403, 404, 409)
  async deactivate(
    @Param('id', UuidParamPipe) id: string,
    @WalletAuth() auth: WalletAuthContext,
  ): Promise<DeleteAgentResponse> {
    await this.deactivateAgent.execute(id, auth);
    return { message: 'Agent deactivated', id };
  }
}
