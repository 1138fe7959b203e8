import { registerDecorator, ValidationOptions } from 'class-validator';
import { isWallet, Usdc } from '@app/common';

/** A USDC decimal string: digits, optional dot, at most six decimals. */
export function IsUsdcAmount(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isUsdcAmount',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `$property must be a decimal string with at most 6 decimals (e.g. "0.010000")`, ...options },
      validator: { validate: (v: unknown) => Usdc.isValid(v) },
    });
}

/** 0x followed by 40 hex characters (any case; a mixed-case address must carry a valid checksum). */
export function IsWallet(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isWallet',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must be an Ethereum address: 0x followed by 40 hex characters', ...options },
      validator: { validate: (v: unknown) => isWallet(v) },
    });
}

/** A plain JSON object (not an array, not null). */
export function IsPlainObject(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isPlainObject',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: '$property must be a JSON object', ...options },
      validator: { validate: (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v) },
    });
}
