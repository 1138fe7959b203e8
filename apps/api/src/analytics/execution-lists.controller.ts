import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ListAgentExecutions, ListPayerExecutions } from '@app/analytics';
import { isWallet, ValidationException } from '@app/common';
import { WalletSigned } from '../auth/wallet-auth.guard';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { ApiConsoleSession } from '../http/security';
import { UuidParamPipe } from '../http/validation';
import { payerProof } from '../console/session-cookie';
import { AgentExecutionsResponse, ExecutionListQueryDto, PayerExecutionsResponse } from './dto/execution-lists.dto';

/** Lists of executions for the one who may read them: a paying wallet's own, an agent's own. */
@ApiTags('payments')
@Controller()
export class ExecutionListsController {
  constructor(
    private readonly payerList: ListPayerExecutions,
    private readonly agentList: ListAgentExecutions,
  ) {}

  @Get('payers/:wallet/executions')
  @ApiOperation({
    summary: "A paying wallet's own executions, newest first, paged, optionally one status or capability",
    description:
      'For that wallet only: with its console session (cookie agora_session), or X-Client-Wallet and X-Client-Signature = agora-auth:<wallet>:<unix_ms>:sig:<signature> (EIP-191, within the auth window).',
  })
  @ApiConsoleSession()
  @ApiHeader({ name: 'X-Client-Wallet', required: false })
  @ApiHeader({ name: 'X-Client-Signature', required: false })
  @ApiEnvelope(PayerExecutionsResponse)
  @ApiErrors(400, 401, 403)
  payer(
    @Param('wallet') wallet: string,
    @Query() q: ExecutionListQueryDto,
    @Req() req: Request,
  ): Promise<PayerExecutionsResponse> {
    if (!isWallet(wallet))
      throw new ValidationException([{ field: 'wallet', messages: ['wallet must be a 0x address'] }]);
    return this.payerList.execute(wallet, q, payerProof(req));
  }

  @Get('agents/:id/executions')
  @WalletSigned({ param: 'id' })
  @ApiConsoleSession()
  @ApiOperation({
    summary: "An agent's executions (failed ones too), newest first, paged, optionally one status or capability",
    description:
      "For the agent's wallet only: its signature (the unbound read message is enough) or its console session signed in as the agent.",
  })
  @ApiEnvelope(AgentExecutionsResponse)
  @ApiErrors(400, 401, 403, 404)
  agent(@Param('id', UuidParamPipe) id: string, @Query() q: ExecutionListQueryDto): Promise<AgentExecutionsResponse> {
    return this.agentList.execute(id, q);
  }
}
