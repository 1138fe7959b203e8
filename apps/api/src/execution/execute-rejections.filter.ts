import { ArgumentsHost, Catch, Injectable } from '@nestjs/common';
import { UnavailableException } from '@app/common';
import type { Request, Response } from 'express';
import { CountRejectedExecute, ExecuteRejected } from '@app/execution';
import { AllExceptionsFilter } from '../http/all-exceptions.filter';
import { rateLimitHeaders } from './rate-limit-headers';

/**
 * Every execute answer carries the rate-limit headers (resolutions §4). A refusal from the
 * execution domain says which windows it was counted in (ExecuteRejected); an error raised
 * before admission (body and query validation in pipes) is counted against the caller's IP here;
 * one raised after the answer's headers were set (a failed run) already shows them.
 * A filter on the routes, so a request that succeeds pays nothing for it; the error then leaves as
 * the global filter writes every error.
 */
@Catch()
@Injectable()
export class ExecuteRejectionsFilter extends AllExceptionsFilter {
  constructor(private readonly countRejected: CountRejectedExecute) {
    super();
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    // Fire-and-forget on purpose: Nest never awaits a filter's result, and the answer is written once the
    // count is back. It cannot reject: CountRejectedExecute answers null when Redis fails, and the rest is sync.
    void this.answer(exception, host);
  }

  private async answer(exception: unknown, host: ArgumentsHost): Promise<void> {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    let error = exception;
    let limits = null;
    // A refusal because Redis did not answer is not counted: that would wait on Redis a second time.
    if (exception instanceof ExecuteRejected) {
      ({ error, limits } = exception);
    } else if (
      !(exception instanceof UnavailableException) &&
      res.getHeader('X-RateLimit-Client-Remaining') === undefined
    ) {
      limits = await this.countRejected.execute(
        req.ip ?? 'unknown',
        (req.body as { targetAgentId?: unknown } | undefined)?.targetAgentId ?? req.params?.agentId,
      );
    }
    if (limits && !res.headersSent) res.set(rateLimitHeaders(limits));
    super.catch(error, host);
  }
}
