import { ValidateIf } from 'class-validator';

/** Optional, but when present must not be null (for columns that cannot be cleared). */
export function IsOptionalNotNull(): PropertyDecorator {
  return ValidateIf((_obj: object, value: unknown) => value !== undefined);
}
