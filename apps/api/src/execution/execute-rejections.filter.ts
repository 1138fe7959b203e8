import { ArgumentsHost, Catch, ExceptionFilter, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ExecutionService } from '@app/execution';
import { writeError } from '../http/error-response';

/**
 * Every execute answer carries the rate-limit headers (resolutions §4). Errors raised before
 * the service runs (body and query validation in pipes) have none yet: count the request
 * against the caller's IP and add them. A filter on the route, so a request that succeeds pays
 * nothing for it; errors leave in the envelope as the global filter writes them.
 */
@Catch()
@Injectable()
export class ExecuteRejectionsFilter implements ExceptionFilter {
  constructor(private readonly executions: ExecutionService) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const withHeaders = await this.executions.countRejected(exception, req.ip ?? 'unknown', (req.body as { targetAgentId?: unknown } | undefined)?.targetAgentId);
    if (res.headersSent) return;
    writeError(res, withHeaders);
  }
}
