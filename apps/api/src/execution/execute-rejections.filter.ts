import { ArgumentsHost, Catch, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ExecutionService } from '@app/execution';
import { AllExceptionsFilter } from '../http/all-exceptions.filter';

/**
 * Every execute answer carries the rate-limit headers (resolutions §4). Errors raised before
 * the service runs (body and query validation in pipes) have none yet: count the request
 * against the caller's IP and add them. A filter on the route, so a request that succeeds pays
 * nothing for it; the error then leaves as the global filter writes every error.
 */
@Catch()
@Injectable()
export class ExecuteRejectionsFilter extends AllExceptionsFilter {
  constructor(private readonly executions: ExecutionService) {
    super();
  }

  override async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const req = host.switchToHttp().getRequest<Request>();
    super.catch(await this.executions.countRejected(exception, req.ip ?? 'unknown', (req.body as { targetAgentId?: unknown } | undefined)?.targetAgentId), host);
  }
}
