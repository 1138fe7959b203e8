import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { catchError, from, Observable, switchMap, throwError } from 'rxjs';
import { ExecutionService } from '@app/execution';

/**
 * Every execute answer carries the rate-limit headers (resolutions §4). Errors raised before
 * the service runs (body and query validation in pipes) have none yet: count the request
 * against the caller's IP and add them.
 */
@Injectable()
export class ExecuteLimitHeadersInterceptor implements NestInterceptor {
  constructor(private readonly executions: ExecutionService) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = ctx.switchToHttp().getRequest<Request>();
    return next.handle().pipe(
      catchError((err: unknown) =>
        from(this.executions.countRejected(err, req.ip ?? 'unknown', (req.body as { targetAgentId?: unknown } | undefined)?.targetAgentId)).pipe(
          switchMap((withHeaders) => throwError(() => withHeaders)),
        ),
      ),
    );
  }
}
