import { Body, Controller, Get, Headers, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { BudgetCheck, ChainCost, ChainTokens, CloseChain, GetChain } from '@app/chains';
import { ValidationException } from '@app/common';
import { AppConfig } from '@app/config';
import { isLivemode } from '@app/x402';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { ApiPayerRead } from '../http/security';
import { payerProof } from '../console/session-cookie';
import { ChainKeysResponse } from './dto/chain-keys.dto';
import {
  BudgetCheckDto,
  BudgetCheckResponse,
  ChainCostResponse,
  ChainStatusResponse,
  toBudgetCheckResponse,
  toChainCostResponse,
  toChainStatusResponse,
} from './dto/chains.dto';

const CHAIN_REF =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|(req|tx)_[A-Za-z0-9_-]{8,40})$/;

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A chain is named by its id, its root execution's id (req_) or its root transaction's id (tx_). */
function chainRef(ref: string): string {
  if (!CHAIN_REF.test(ref))
    throw new ValidationException([
      {
        field: 'id',
        messages: ['id must be a chain id (UUID), a root requestId (req_...) or a root transactionId (tx_...)'],
      },
    ]);
  return ref;
}

@ApiTags('chains')
@Controller('chains')
export class ChainsController {
  private readonly livemode: boolean;

  constructor(
    private readonly tokens: ChainTokens,
    private readonly getChain: GetChain,
    private readonly chainCost: ChainCost,
    private readonly budgetCheck: BudgetCheck,
    private readonly closeChain: CloseChain,
    config: AppConfig,
  ) {
    this.livemode = isLivemode(config);
  }

  @Get('keys')
  @ApiOperation({ summary: 'Public keys that verify chain tokens (the current key, and previous ones still valid)' })
  @ApiEnvelope(ChainKeysResponse)
  keys(): ChainKeysResponse {
    return { keys: this.tokens.publicKeys() };
  }

  @Post('budget-check')
  @HttpCode(200)
  @ApiOperation({ summary: 'Estimate what a chain at this agent may cost, and a budget for it (free)' })
  @ApiEnvelope(BudgetCheckResponse)
  @ApiErrors(400, 404, 422)
  async budget(@Body() dto: BudgetCheckDto): Promise<BudgetCheckResponse> {
    return toBudgetCheckResponse(
      await this.budgetCheck.execute({
        agentId: dto.targetAgentId.toLowerCase(),
        capabilityId: dto.capabilityId,
        input: dto.input,
        estimatedDepth: dto.estimatedDepth ?? 1,
        includeSubAgentCosts: dto.includeSubAgentCosts ?? true,
      }),
    );
  }

  @Get(':id')
  @ApiOperation({
    summary: 'A chain: status, totals and its trace tree (by chain id, root requestId or root transactionId)',
    description:
      "Free. The same chain whichever id names it. Every node is listed with its transactionId (and the root's as rootTransactionId), for any reader; its requestId (and rootRequestId) only to a reader who may read its execution: the paying wallet (X-Client-Wallet and X-Client-Signature = agora-auth:<wallet>:<unix_ms>:sig:<EIP-191 signature>, or its console session), all of them; an X-Chain-Token whose execution still runs, its own and those below it (a token handed to the root's caller, all of them); otherwise none. A payment header shows none: the one that paid for the chain is settled on chain, and a standard client's header is rebuilt from that public calldata.",
  })
  @ApiHeader({
    name: 'X-Chain-Token',
    required: false,
    description:
      "A token of this chain: shows the request ids of its holder's subtree (403 once its execution has ended)",
  })
  @ApiPayerRead()
  @ApiEnvelope(ChainStatusResponse)
  @ApiErrors(400, 401, 403, 404)
  async status(
    @Param('id') id: string,
    @Headers() headers: Record<string, string | undefined>,
    @Req() req: Request,
  ): Promise<ChainStatusResponse> {
    return toChainStatusResponse(
      await this.getChain.execute(chainRef(id), {
        chainToken: headers['x-chain-token'],
        payer: payerProof(req),
      }),
      this.livemode,
    );
  }

  @Post(':id/close')
  @HttpCode(200)
  @ApiOperation({
    summary: "Close a chain now: the root's caller is done with its tokens",
    description:
      "With a token handed to the root's caller (the chain root's answer, or an answer to one of its calls): every such token is refused from now on, and the chain closes at once when nothing runs (its unspent budget refunded before the answer), else when the last running call ends. Answers the chain as GET /chains/{id} shows it to its payer. Closing a closed chain changes nothing.",
  })
  @ApiHeader({
    name: 'X-Chain-Token',
    required: true,
    description: "A token of this chain handed to the root's caller",
  })
  @ApiEnvelope(ChainStatusResponse)
  @ApiErrors(400, 401, 403, 404)
  async close(
    @Param('id') id: string,
    @Headers('x-chain-token') chainToken: string | undefined,
  ): Promise<ChainStatusResponse> {
    if (!UUID.test(id)) throw new ValidationException([{ field: 'id', messages: ['id must be a chain id (UUID)'] }]);
    return toChainStatusResponse(await this.closeChain.execute(id, chainToken), this.livemode);
  }

  @Get(':id/cost')
  @ApiOperation({ summary: "A chain's cost: platform fees, agent fees and cuts, by agent and by depth" })
  @ApiEnvelope(ChainCostResponse)
  @ApiErrors(400, 404)
  async cost(@Param('id') id: string): Promise<ChainCostResponse> {
    return toChainCostResponse(await this.chainCost.execute(chainRef(id)));
  }
}
