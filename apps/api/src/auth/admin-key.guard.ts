import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ApiAdminKey } from '../http/security';
import type { Request } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppException } from '@app/common';
import { AppConfig } from '@app/config';

export const ADMIN_KEY_HEADER = 'X-Admin-Key';

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Platform actions. With no ADMIN_API_KEY configured the admin routes do not exist. */
@Injectable()
export class AdminKeyGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(config: AppConfig) {
    this.expected = config.adminApiKey ? digest(config.adminApiKey) : null;
  }

  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<Request>();
    if (this.expected === null) throw new AppException('NOT_FOUND', `Route ${req.method} ${req.path} not found`);
    const given = req.header(ADMIN_KEY_HEADER);
    if (!given) throw new AppException('UNAUTHORIZED', `${ADMIN_KEY_HEADER} header is required`);
    // Compare fixed-length digests so neither content nor length leaks through timing.
    if (!timingSafeEqual(digest(given), this.expected))
      throw new AppException('FORBIDDEN', `${ADMIN_KEY_HEADER} is not valid`);
    return true;
  }
}

export function AdminOnly(): MethodDecorator & ClassDecorator {
  return applyDecorators(UseGuards(AdminKeyGuard), ApiAdminKey());
}
