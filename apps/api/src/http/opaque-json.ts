import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';

/**
 * Free-form JSON fields of request DTOs (an execute `input`, a capability's schemas, metadata)
 * are values, not DTOs: class-transformer would deep-copy them and the validation pipe walk them
 * (about 0.4-1 s of event loop for a 1 MiB body of small objects, on requests nobody paid for).
 * The global pipe lifts them out before validating the DTO (leaving `{}` so the object checks
 * still run) and puts the originals back afterwards. `markOpaque` is applied by IsPlainObject;
 * NestedDto records where nested DTOs are, so lifting reaches their fields too.
 */
const OPAQUE = Symbol('agora:opaque-json');
const NESTED = Symbol('agora:nested-dto');

type Ctor = abstract new (...args: never[]) => unknown;

function add<T>(key: symbol, target: object, value: T): void {
  const list = (Reflect.getOwnMetadata(key, target) as T[] | undefined) ?? [
    ...((Reflect.getMetadata(key, target) as T[] | undefined) ?? []),
  ];
  Reflect.defineMetadata(key, [...list, value], target);
}

export function markOpaque(target: object, propertyName: string): void {
  add(OPAQUE, target.constructor, propertyName);
}

/** A nested DTO (or an array of them, `each`): validated and transformed as a DTO. */
export function NestedDto(type: () => Ctor, opts: { each?: boolean } = {}): PropertyDecorator {
  const validate = ValidateNested({ each: opts.each });
  const transform = Type(() => type() as unknown as new () => unknown);
  return (target, propertyName) => {
    validate(target, propertyName);
    transform(target, propertyName);
    add(NESTED, target.constructor, { key: propertyName as string, type });
  };
}

function isJsonObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

type Lifted = { path: (string | number)[]; value: Record<string, unknown> };

function collect(value: unknown, metatype: Ctor | undefined, path: (string | number)[], out: Lifted[]): void {
  if (!metatype || !isJsonObject(value)) return;
  for (const key of (Reflect.getMetadata(OPAQUE, metatype) as string[] | undefined) ?? []) {
    const v = value[key];
    if (isJsonObject(v)) {
      out.push({ path: [...path, key], value: v });
      value[key] = {};
    }
  }
  for (const { key, type } of (Reflect.getMetadata(NESTED, metatype) as
    { key: string; type: () => Ctor }[] | undefined) ?? []) {
    const v = value[key];
    if (Array.isArray(v)) v.forEach((item, i) => collect(item, type(), [...path, key, i], out));
    else collect(v, type(), [...path, key], out);
  }
}

function put(root: unknown, path: (string | number)[], value: unknown): void {
  let at = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) {
    at = at?.[step] as Record<string | number, unknown>;
    if (at === null || typeof at !== 'object') return;
  }
  at[path[path.length - 1]] = value;
}

/**
 * Takes the free-form JSON fields out of `body` (in place, `{}` left behind); `restore` puts the
 * originals back into the body and into the validated DTO.
 */
export function liftOpaque(body: unknown, metatype: Ctor | undefined): { restore: (dto: unknown) => void } {
  const lifted: Lifted[] = [];
  collect(body, metatype, [], lifted);
  return {
    restore: (dto) => {
      for (const { path, value } of lifted) {
        put(body, path, value);
        if (dto !== body) put(dto, path, value);
      }
    },
  };
}
