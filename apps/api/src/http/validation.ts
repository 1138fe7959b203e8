import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppException, FieldError, isUuid, ValidationException } from '@app/common';
import { liftOpaque } from './opaque-json';

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    const field = parent ? `${parent}.${e.property}` : e.property;
    if (e.constraints) out.push({ field, messages: Object.values(e.constraints) });
    if (e.children?.length) out.push(...flatten(e.children, field));
  }
  return out;
}

/** The global pipe, with free-form JSON fields kept out of class-transformer and the walk (opaque-json.ts). */
class JsonAwareValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const lifted = liftOpaque(value, metadata.metatype as never);
    try {
      const dto: unknown = await super.transform(value, metadata);
      lifted.restore(dto);
      return dto;
    } catch (err) {
      lifted.restore(value);
      throw err;
    }
  }
}

/** Global validation: unknown properties are errors (no mass assignment), each field listed. */
export function createValidationPipe(): ValidationPipe {
  return new JsonAwareValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ValidationException(flatten(errors)),
  });
}

/** Bodies must be JSON objects; a top-level array or scalar is rejected before validation. */
@Injectable()
export class ObjectBodyPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'body' && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      throw new ValidationException([{ field: 'body', messages: ['body must be a JSON object'] }]);
    }
    return value;
  }
}

/** Path parameter that must be a UUID. */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (!isUuid(value)) {
      throw new ValidationException([
        { field: metadata.data ?? 'id', messages: [`${metadata.data ?? 'id'} must be a UUID`] },
      ]);
    }
    return value.toLowerCase();
  }
}

export function requireSomeField(body: object, what: string): void {
  if (Object.values(body).every((v) => v === undefined)) {
    throw new AppException('VALIDATION_ERROR', `${what} must change at least one field`, {
      errors: [{ field: 'body', messages: ['no fields given'] }],
    });
  }
}

const PREFIXED_ID = /^[a-z]{2,4}_[A-Za-z0-9_-]{8,40}$/;

/** A path id of the form `<prefix>_...` (e.g. `wd_`, `tx_`, `wh_`), or VALIDATION_ERROR on `field`. */
export function prefixedId(value: string, prefix: string, field: string): string {
  if (!PREFIXED_ID.test(value) || !value.startsWith(`${prefix}_`)) {
    throw new ValidationException([{ field, messages: [`${field} must be a ${prefix}_ identifier`] }]);
  }
  return value;
}
