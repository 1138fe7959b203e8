import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, Observable } from 'rxjs';

const UNWRAPPED = 'agora:unwrapped';

/**
 * A route answered as is, without the envelope: a document in a shape others define (the x402
 * discovery API, the well-known manifests, llms.txt), or a stream of events (the live feed). Its errors keep
 * the error envelope.
 */
export const Unwrapped = (): MethodDecorator & ClassDecorator => SetMetadata(UNWRAPPED, true);

/** Wraps every controller result as `{ success: true, data }` (except on `@Unwrapped()` routes). */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (this.reflector.getAllAndOverride<boolean>(UNWRAPPED, [ctx.getHandler(), ctx.getClass()])) return next.handle();
    return next.handle().pipe(map((data: unknown) => ({ success: true, data })));
  }
}
