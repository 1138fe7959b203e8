import {
  Controller,
  createParamDecorator,
  ExecutionContext,
  Headers,
  HttpCode,
  Ip,
  Param,
  Post,
  Query,
  Res,
  UseFilters,
} from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ValidationException } from '@app/common';
import { ExecuteChained } from '@app/chains';
import { Execute, ExecuteCommand } from '@app/execution';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { presentedPayment } from '../http/x402-http';
import { ApiPaid } from '../http/security';
import { UuidParamPipe } from '../http/validation';
import { ExecuteRejectionsFilter } from './execute-rejections.filter';
import { ExecutionPresenter } from './execution-presenter';
import { rateLimitHeaders } from './rate-limit-headers';
import { AsyncAcceptedResponse, CapabilityExecuteQuery, ExecutionResponse } from './dto/execute.dto';

/** A capability id as registration accepts it (agent-request.dto.ts): 1-100 letters, digits, '.', '_', ':' and '-'. */
const CAPABILITY_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * The capability's input: the JSON object sent, or `{}` when nothing was sent (a crawler's bare
 * POST is answered with the 402 like any unpaid request); anything else is refused at the edge.
 */
const CapabilityInput = createParamDecorator((_: unknown, ctx: ExecutionContext): Record<string, unknown> => {
  const req = ctx.switchToHttp().getRequest<Request>();
  const body: unknown = req.body;
  // Nothing parsed from a body that was sent (not JSON: text/plain, a form) is not an empty input.
  const sent = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (body === undefined && sent)
    throw new ValidationException([
      { field: 'body', messages: ['body must be JSON (Content-Type: application/json)'] },
    ]);
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new ValidationException([{ field: 'body', messages: ['body must be a JSON object'] }]);
  return body as Record<string, unknown>;
});

/** An option given as a header or as a query parameter: either one, or both when they are equal. */
function option(
  field: string,
  header: { name: string; value: string | undefined; max: number },
  query: string | undefined,
): string | undefined {
  if (header.value !== undefined && (header.value.length < 1 || header.value.length > header.max)) {
    throw new ValidationException([
      { field: header.name, messages: [`the ${header.name} header must be 1-${header.max} characters`] },
    ]);
  }
  if (header.value !== undefined && query !== undefined && header.value !== query) {
    throw new ValidationException([
      {
        field,
        messages: [`the ${header.name} header and the ${field} query parameter differ; send one, or both equal`],
      },
    ]);
  }
  return query ?? header.value;
}

/**
 * Every capability as an x402 resource of its own (issue 32): the body is the capability's input
 * itself; the rest of POST /execute's request (callback URL, idempotency key) comes as headers or
 * query parameters. The same command and use cases as POST /execute (a chained call with
 * X-Chain-Token too), so the same admission, payment, charge, idempotency, async runs and errors;
 * only the 402's resource differs.
 */
@ApiTags('execution')
@Controller()
export class CapabilityExecuteController {
  constructor(
    private readonly executeUseCase: Execute,
    private readonly executeChained: ExecuteChained,
    private readonly presenter: ExecutionPresenter,
  ) {}

  @Post('agents/:agentId/capabilities/:capabilityId/execute')
  @HttpCode(200)
  @ApiOperation({
    summary: "Execute one capability, paid with x402; the body is the capability's input",
    description:
      "The capability's own x402 resource: the same admission, payment, charge, idempotency and errors as POST /execute, and its 402 names this URL (with a Bazaar discovery extension).",
  })
  @ApiParam({ name: 'agentId', format: 'uuid' })
  @ApiParam({ name: 'capabilityId', example: 'translate' })
  @ApiBody({ schema: { type: 'object', additionalProperties: true, description: "The capability's input" } })
  @ApiPaid(true)
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Same as the idempotencyKey query parameter' })
  @ApiHeader({ name: 'X-Callback-Url', required: false, description: 'Same as the callbackUrl query parameter' })
  @ApiHeader({
    name: 'X-Chain-Token',
    required: false,
    description:
      'A chain token: a call inside an execution chain, paid from its budget (no payment), as on POST /execute',
  })
  @ApiEnvelope(ExecutionResponse)
  @ApiEnvelope(AsyncAcceptedResponse, 202)
  @ApiErrors(400, 402, 404, 409, 422, 429, 502, 503, 504)
  @UseFilters(ExecuteRejectionsFilter)
  async execute(
    @Param('agentId', UuidParamPipe) agentId: string,
    @Param('capabilityId') capabilityId: string,
    @CapabilityInput() input: Record<string, unknown>,
    @Query() query: CapabilityExecuteQuery,
    @Headers() headers: Record<string, string | undefined>,
    @Ip() ip: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ExecutionResponse | AsyncAcceptedResponse> {
    if (!CAPABILITY_ID.test(capabilityId))
      throw new ValidationException([
        { field: 'capabilityId', messages: ['capabilityId must be 1-100 letters, digits, ".", "_", ":" or "-"'] },
      ]);
    const cmd: ExecuteCommand = {
      agentId,
      capabilityId,
      input,
      callbackUrl: option(
        'callbackUrl',
        { name: 'X-Callback-Url', value: headers['x-callback-url'], max: 2048 },
        query.callbackUrl,
      ),
      idempotencyKey: option(
        'idempotencyKey',
        { name: 'Idempotency-Key', value: headers['idempotency-key'], max: 255 },
        query.idempotencyKey,
      ),
      async: query.async === 'true',
      payment: presentedPayment(headers),
      clientIp: ip,
      route: 'capability',
    };
    const chainToken = headers['x-chain-token'];
    if (chainToken !== undefined) {
      const result = await this.executeChained.execute({ ...cmd, chainToken });
      res.set(rateLimitHeaders(result.limits));
      return this.presenter.present(result, res, true, result.chain);
    }
    const result = await this.executeUseCase.execute(cmd);
    res.set(rateLimitHeaders(result.limits));
    return this.presenter.present(result, res, !result.execution.isAsync);
  }
}
