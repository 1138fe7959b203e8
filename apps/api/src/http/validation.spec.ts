import 'reflect-metadata';
import { ArgumentMetadata } from '@nestjs/common';
import { IsString } from 'class-validator';
import { ValidationException } from '@app/common';
import { NestedDto } from './opaque-json';
import { createValidationPipe } from './validation';
import { IsPlainObject } from './validators';

class InnerDto {
  @IsString() name: string;
  @IsPlainObject() schema: Record<string, unknown>;
}

class OuterDto {
  @IsString() id: string;
  @IsPlainObject() input: Record<string, unknown>;
  @NestedDto(() => InnerDto, { each: true }) items: InnerDto[];
}

const meta: ArgumentMetadata = { type: 'body', metatype: OuterDto, data: '' };
const pipe = createValidationPipe();
const errorsOf = async (body: unknown) =>
  ((await pipe.transform(body, meta).catch((e: unknown) => e)) as ValidationException).details?.errors;

describe('the global validation pipe and free-form JSON fields', () => {
  it('hands free-form JSON through as the very objects received (no deep copy, no walk), at any depth', async () => {
    const input = { deep: [{ a: 1 }, { b: { c: 'x' } }], __proto__x: 1 };
    const schema = { type: 'object', properties: { q: { type: 'string' } } };
    const body = { id: 'r1', input, items: [{ name: 'n', schema }] };
    const dto = (await pipe.transform(body, meta)) as OuterDto;
    expect(dto).toBeInstanceOf(OuterDto);
    expect(dto.items[0]).toBeInstanceOf(InnerDto);
    expect(dto.input).toBe(input);
    expect(dto.items[0].schema).toBe(schema);
    expect(body.input).toBe(input); // the request body is left as it came
  });

  it('still refuses what is not a JSON object there, and unknown DTO fields at any depth', async () => {
    expect(await errorsOf({ id: 'r1', input: [1, 2], items: [] })).toEqual([
      { field: 'input', messages: ['input must be a JSON object'] },
    ]);
    expect(await errorsOf({ id: 'r1', input: {}, items: [{ name: 'n', schema: 'no', extra: 1 }] })).toEqual(
      expect.arrayContaining([
        { field: 'items.0.schema', messages: ['schema must be a JSON object'] },
        { field: 'items.0.extra', messages: ['property extra should not exist'] },
      ]),
    );
  });

  it('takes a 1 MiB body of small objects without copying it (the cost does not grow with the JSON fields)', async () => {
    const big = { rows: Array.from({ length: 60_000 }, (_, i) => ({ i, s: 'xxxxxxxx' })) };
    const dto = (await pipe.transform({ id: 'r1', input: big, items: [] }, meta)) as OuterDto;
    expect(dto.input).toBe(big);
  });
});
