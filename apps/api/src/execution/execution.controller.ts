import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Ip,
  Param,
  ParseBoolPipe,
  Post,
  Query,
  Req,
  Res,
  UseFilters,
} from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ValidationException } from '@app/common';
import { ChainView, ExecuteChained, ExecuteChainRoot } from '@app/chains';
import { Execute, ExecuteCommand, ExecutionOutcome, GetExecution, RetryExecution } from '@app/execution';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { presentedPayment } from '../http/x402-http';
import { ApiPaid, ApiPayerRead } from '../http/security';
import { payerProof } from '../console/session-cookie';
import { ExecuteRejectionsFilter } from './execute-rejections.filter';
import { ExecutionPresenter } from './execution-presenter';
import { rateLimitHeaders } from './rate-limit-headers';
import { AsyncAcceptedResponse, ExecuteDto, ExecutionResponse, toExecutionResponse } from './dto/execute.dto';

const REQUEST_ID = /^req_[A-Za-z0-9_-]{8,40}$/;
/**
 * The idempotency key from the body's `idempotencyKey` or the `Idempotency-Key` header (Stripe's
 * convention, which the SDK and CLI send): either one, or both when they are equal.
 */
function idempotencyKey(dto: ExecuteDto, headers: Record<string, string | undefined>): string | undefined {
  const header = headers['idempotency-key'];
  if (header !== undefined && (header.length < 1 || header.length > 255)) {
    throw new ValidationException([
      { field: 'Idempotency-Key', messages: ['the Idempotency-Key header must be 1-255 characters'] },
    ]);
  }
  if (header !== undefined && dto.idempotencyKey !== undefined && header !== dto.idempotencyKey) {
    throw new ValidationException([
      {
        field: 'idempotencyKey',
        messages: ['the Idempotency-Key header and the body idempotencyKey differ; send one, or both equal'],
      },
    ]);
  }
  return dto.idempotencyKey ?? header;
}

function requestId(id: string): string {
  if (!REQUEST_ID.test(id))
    throw new ValidationException([{ field: 'requestId', messages: ['requestId must be a req_ identifier'] }]);
  return id;
}

@ApiTags('execution')
@Controller()
export class ExecutionController {
  constructor(
    private readonly executeUseCase: Execute,
    private readonly executeChained: ExecuteChained,
    private readonly executeChainRoot: ExecuteChainRoot,
    private readonly retryUseCase: RetryExecution,
    private readonly getUseCase: GetExecution,
    private readonly presenter: ExecutionPresenter,
  ) {}

  @Post('execute')
  @HttpCode(200)
  @ApiOperation({ summary: 'Execute a capability, paid with x402 (X-PAYMENT or PAYMENT-SIGNATURE)' })
  @ApiQuery({ name: 'async', required: false, type: Boolean })
  @ApiPaid(true)
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Same as the body idempotencyKey (1-255 characters); both and different: 400',
  })
  @ApiEnvelope(ExecutionResponse)
  @ApiEnvelope(AsyncAcceptedResponse, 202)
  @ApiErrors(400, 402, 404, 409, 422, 429, 502, 503, 504)
  @UseFilters(ExecuteRejectionsFilter)
  async execute(
    @Body() dto: ExecuteDto,
    @Query('async', new ParseBoolPipe({ optional: true })) isAsync: boolean | undefined,
    @Headers() headers: Record<string, string | undefined>,
    @Ip() ip: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ExecutionResponse | AsyncAcceptedResponse> {
    const cmd: ExecuteCommand = {
      agentId: dto.targetAgentId.toLowerCase(),
      capabilityId: dto.capabilityId,
      input: dto.input,
      callbackUrl: dto.callbackUrl ?? dto.webhookUrl,
      idempotencyKey: idempotencyKey(dto, headers),
      async: isAsync === true,
      payment: presentedPayment(headers),
      clientIp: ip,
    };
    const chainToken = headers['x-chain-token'];
    if (chainToken !== undefined) {
      if (dto.chain)
        throw new ValidationException([
          { field: 'chain', messages: ['a chained call cannot open a chain of its own'] },
        ]);
      const result = await this.executeChained.execute({ ...cmd, chainToken });
      res.set(rateLimitHeaders(result.limits));
      return this.present(result, res, true, result.chain);
    }
    if (dto.chain) {
      const result = await this.executeChainRoot.execute({ ...cmd, chain: dto.chain });
      res.set(rateLimitHeaders(result.limits));
      return this.present(result, res, true, result.chain);
    }
    const result = await this.executeUseCase.execute(cmd);
    res.set(rateLimitHeaders(result.limits));
    return this.present(result, res, !result.execution.isAsync);
  }

  @Get('execute/:requestId')
  @ApiOperation({
    summary:
      "Execution status; output only to its payer: the original payment header (an execution in a chain: the header that paid for the chain, or a token of an execution above it), or the payer's own signature or console session",
    description:
      "A chain token (X-Chain-Token) reads the executions below its holder's (the one it was issued to), never the chain's root, and only while its holder runs: any other is 403 FORBIDDEN (details.reason: holder_ended, root, outside_subtree). The payer may read without its payment header: X-Client-Wallet and X-Client-Signature = agora-auth:<wallet>:<unix_ms>:sig:<EIP-191 signature> by the paying wallet (within the auth window; a malformed or stale one is 401, a forged one 403), or its console session signed in as that paying wallet (another wallet's signature or session reads as a visitor, without the output). An execution in a chain is the root payer's. The request id is told to the payer only (and, in a chain, to the tokens that may read it, and to the agent that ran it).",
  })
  @ApiHeader({
    name: 'X-Chain-Token',
    required: false,
    description: 'A chain token: reads the executions below its holder while the holder runs',
  })
  @ApiPaid(true)
  @ApiPayerRead()
  @ApiEnvelope(ExecutionResponse)
  @ApiErrors(400, 401, 403, 404)
  async status(
    @Param('requestId') id: string,
    @Headers() headers: Record<string, string | undefined>,
    @Req() req: Request,
  ): Promise<ExecutionResponse> {
    const { execution, settlement, isPayer } = await this.getUseCase.execute(
      requestId(id),
      presentedPayment(headers),
      headers['x-chain-token'],
      payerProof(req),
    );
    return toExecutionResponse(
      execution,
      this.presenter.salted(execution, settlement),
      isPayer,
      this.presenter.livemode,
    );
  }

  @Post('execute/:requestId/retry')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Retry a failed or timed-out execution with its stored authorization (no new charge). No request data is needed; the output is in the answer only with the original payment header (another payment header is 403)',
  })
  @ApiPaid(true)
  @ApiEnvelope(ExecutionResponse)
  @ApiErrors(400, 401, 403, 404, 409, 502, 504)
  async retry(
    @Param('requestId') id: string,
    @Headers() headers: Record<string, string | undefined>,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ExecutionResponse | AsyncAcceptedResponse> {
    const payment = presentedPayment(headers);
    const outcome = await this.retryUseCase.execute(requestId(id), payment);
    return this.presenter.present(outcome, res, !outcome.execution.isAsync, undefined, payment !== null);
  }

  private present(
    outcome: ExecutionOutcome,
    res: Response,
    sync: boolean,
    chain?: ChainView,
  ): Promise<ExecutionResponse | AsyncAcceptedResponse> {
    return this.presenter.present(outcome, res, sync, chain);
  }
}
