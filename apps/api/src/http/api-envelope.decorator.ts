import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';

/** Documents `{ success: true, data: <model> }` for a route (`data: <model>[]` with `array`). */
export function ApiEnvelope(model: Type<unknown>, status = 200, description?: string, array = false): MethodDecorator {
  const data = array ? { type: 'array', items: { $ref: getSchemaPath(model) } } : { $ref: getSchemaPath(model) };
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      description,
      schema: {
        type: 'object',
        required: ['success', 'data'],
        properties: { success: { type: 'boolean', example: true }, data },
      },
    }),
  );
}

/** `{ success: false, error: {code, message, details} }`. */
export const ERROR_ENVELOPE_SCHEMA = {
  type: 'object' as const,
  properties: {
    success: { type: 'boolean' as const, example: false },
    error: {
      type: 'object' as const,
      properties: {
        code: { type: 'string' as const },
        message: { type: 'string' as const },
        details: { type: 'object' as const },
      },
    },
  },
};

/** Documents the error envelope for the listed statuses. */
export function ApiErrors(...statuses: number[]): MethodDecorator {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: 'Error envelope', schema: ERROR_ENVELOPE_SCHEMA })),
  );
}
