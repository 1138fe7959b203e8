import { Body, Controller, Get, Headers, HttpCode, Ip, Param, ParseBoolPipe, Post, Query, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AppException, ValidationException } from '@app/common';
import { ExecutionOutcome, ExecutionService } from '@app/execution';
import { PlatformSigner } from '@app/outbound';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { ExecuteRejectionsFilter } from './execute-rejections.filter';
import { AsyncAcceptedResponse, ExecuteDto, ExecutionResponse, toExecutionResponse } from './dto/execute.dto';

const REQUEST_ID = /^req_[A-Za-z0-9_-]{8,40}$/;

function requestId(id: string): string {
  if (!REQUEST_ID.test(id)) throw new ValidationException([{ field: 'requestId', messages: ['requestId must be a req_ identifier'] }]);
  return id;
}

@ApiTags('execution')
@Controller()
export class ExecutionController {
  constructor(
    private readonly executions: ExecutionService,
    private readonly signer: PlatformSigner,
  ) {}

  @Post('execute')
  @HttpCode(200)
  @ApiOperation({ summary: 'Execute a capability, paid with x402 (X-PAYMENT or PAYMENT-SIGNATURE)' })
  @ApiQuery({ name: 'async', required: false, type: Boolean })
  @ApiEnvelope(ExecutionResponse)
  @ApiEnvelope(AsyncAcceptedResponse, 202)
  @ApiErrors(400, 402, 404, 409, 422, 429, 502, 504)
  @UseFilters(ExecuteRejectionsFilter)
  async execute(
    @Body() dto: ExecuteDto,
    @Query('async', new ParseBoolPipe({ optional: true })) isAsync: boolean | undefined,
    @Headers() headers: Record<string, string | undefined>,
    @Ip() ip: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ExecutionResponse | AsyncAcceptedResponse> {
    const result = await this.executions.execute({
      agentId: dto.targetAgentId.toLowerCase(),
      capabilityId: dto.capabilityId,
      input: dto.input,
      callbackUrl: dto.callbackUrl ?? dto.webhookUrl,
      idempotencyKey: dto.idempotencyKey,
      async: isAsync === true,
      headers,
      clientIp: ip,
    });
    res.set(result.headers);
    return this.present(result, result.headers, res, result.replayed || !result.execution.isAsync);
  }

  @Get('execute/:requestId')
  @ApiOperation({ summary: 'Execution status; output only with the original payment header' })
  @ApiEnvelope(ExecutionResponse)
  @ApiErrors(400, 404)
  async status(@Param('requestId') id: string, @Headers() headers: Record<string, string | undefined>): Promise<ExecutionResponse> {
    const execution = await this.executions.get(requestId(id));
    const { txHash, refund } = await this.executions.settlement(execution);
    return toExecutionResponse(execution, { txHash, refund }, this.executions.isPayer(execution, headers));
  }

  @Post('execute/:requestId/retry')
  @HttpCode(200)
  @ApiOperation({ summary: 'Retry a failed or timed-out execution with its stored authorization (no new charge)' })
  @ApiEnvelope(ExecutionResponse)
  @ApiErrors(400, 404, 409, 502, 504)
  async retry(@Param('requestId') id: string, @Res({ passthrough: true }) res: Response): Promise<ExecutionResponse | AsyncAcceptedResponse> {
    const outcome = await this.executions.retry(requestId(id));
    return this.present(outcome, {}, res, !outcome.execution.isAsync);
  }

  @Get('platform/keys')
  @ApiOperation({ summary: 'Public keys agents use to verify X-Agora-Signature on calls from the platform' })
  keys(): { keys: { kid: string; alg: string; publicKey: string }[] } {
    return { keys: [{ kid: this.signer.keyId, alg: 'Ed25519', publicKey: this.signer.publicKey }] };
  }

  /** Maps an execution to the HTTP answer: 202 while pending, 502/504 for failures, output once settled. */
  private async present(outcome: ExecutionOutcome, headers: Record<string, string>, res: Response, sync: boolean): Promise<ExecutionResponse | AsyncAcceptedResponse> {
    const e = outcome.execution;
    if (e.status === 'pending') {
      res.status(202);
      return sync ? toExecutionResponse(e, { txHash: null, refund: null }, false) : { jobId: e.id, status: 'pending', statusUrl: `/api/v1/execute/${e.id}` };
    }
    if (e.status === 'failed') {
      throw new AppException('EXECUTION_FAILED', 'The agent failed; nothing was charged', { requestId: e.id, agentError: e.agentError ?? 'unknown' }, { headers });
    }
    if (e.status === 'timeout') {
      throw new AppException('EXECUTION_TIMEOUT', 'The agent did not answer in time; nothing was charged', { requestId: e.id, agentError: e.agentError ?? 'timeout' }, { headers });
    }
    const settlement = outcome.settlement ?? (await this.executions.settlement(e));
    res.set(settlement.headers);
    return toExecutionResponse(e, settlement, true);
  }
}
