import { registerDecorator, ValidationOptions } from 'class-validator';
import { isWallet, Usdc } from '@app/common';
import { whsecProblem } from '@app/webhooks';
import { markOpaque } from './opaque-json';

/** A property decorator from a predicate and its default message. */
function predicate(name: string, message: string, test: (value: unknown) => boolean) {
  return (options?: ValidationOptions): PropertyDecorator =>
    (target, propertyName) =>
      registerDecorator({
        name,
        target: target.constructor,
        propertyName: propertyName as string,
        options: { message, ...options },
        validator: { validate: test },
      });
}

/** A USDC decimal string: digits, optional dot, at most six decimals. */
export const IsUsdcAmount = predicate(
  'isUsdcAmount',
  '$property must be a decimal string with at most 6 decimals (e.g. "0.010000")',
  (v) => Usdc.isValid(v),
);

/** 0x followed by 40 hex characters (a mixed-case address must carry a valid checksum). */
export const IsWallet = predicate(
  'isWallet',
  '$property must be an Ethereum address: 0x followed by 40 hex characters',
  (v) => isWallet(v),
);

/** A webhook secret that can sign: a `whsec_` one must be canonical base64 of a Standard Webhooks key size. */
export const IsUsableWebhookSecret = predicate(
  'isUsableWebhookSecret',
  '$property: a whsec_ secret must be whsec_ followed by canonical base64 of 24-64 bytes',
  (v) => typeof v === 'string' && whsecProblem(v) === null,
);

const isPlainObject = predicate(
  'isPlainObject',
  '$property must be a JSON object',
  (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
);

/** A plain JSON object (not an array, not null), taken as free-form JSON: never deep-copied or walked by the pipe. */
export const IsPlainObject =
  (options?: ValidationOptions): PropertyDecorator =>
  (target, propertyName) => {
    isPlainObject(options)(target, propertyName);
    markOpaque(target, propertyName as string);
  };
