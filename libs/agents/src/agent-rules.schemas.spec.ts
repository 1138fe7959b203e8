import { ValidationException } from '@app/common';
import { assertCapabilityRules } from './agent-rules';
import { CapabilityInput } from './agent.types';

const cap = (id: string, o: Partial<CapabilityInput> = {}): CapabilityInput => ({
  id,
  name: 'Cap',
  description: 'Does things',
  pricing: { model: 'per-request', basePrice: 10_000n, currency: 'USDC' },
  ...o,
});

function errorsOf(fn: () => void): { field: string; messages: string[] }[] {
  try {
    fn();
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationException);
    return (err as ValidationException).details!.errors as { field: string; messages: string[] }[];
  }
}

describe('assertCapabilityRules: agent-supplied JSON Schemas are bounded', () => {
  it('accepts ordinary schemas, and a backtracking-prone pattern (it runs on RE2)', () => {
    const inputSchema = {
      type: 'object',
      properties: { text: { type: 'string', pattern: '^(a+)+$' } },
      required: ['text'],
    };
    expect(
      errorsOf(() => assertCapabilityRules([cap('c1', { inputSchema, outputSchema: { type: 'object' } })])),
    ).toEqual([]);
  });

  it('lets two capabilities (or agents) use the same $id: no shared namespace', () => {
    const a = { $id: 'https://example.com/s.json', definitions: { v: { type: 'string' } }, $ref: '#/definitions/v' };
    const b = { $id: 'https://example.com/s.json', definitions: { v: { type: 'number' } }, $ref: '#/definitions/v' };
    expect(
      errorsOf(() =>
        assertCapabilityRules([cap('c1', { inputSchema: a }), cap('c2', { inputSchema: b, outputSchema: a })]),
      ),
    ).toEqual([]);
  });

  it('refuses hostile schemas with the field and the reason', () => {
    const errors = errorsOf(() =>
      assertCapabilityRules([
        cap('c1', { inputSchema: { type: 'string', pattern: '(a)\\1' } }),
        cap('c2', { outputSchema: { $ref: 'https://evil.example/schema.json' } }),
        cap('c3', { inputSchema: { description: 'x'.repeat(40_000) } }),
        cap('c4', { inputSchema: { type: 'bogus' } }),
      ]),
    );
    expect(errors.map((e) => e.field)).toEqual([
      'capabilities.0.inputSchema',
      'capabilities.1.outputSchema',
      'capabilities.2.inputSchema',
      'capabilities.3.inputSchema',
    ]);
    expect(errors[0].messages[0]).toMatch(/^inputSchema has a pattern "\(a\)\\1" at \/ that cannot run in linear time/);
    expect(errors[1].messages[0]).toMatch(/^outputSchema has a remote \$ref "https:\/\/evil.example\/schema.json"/);
    expect(errors[2].messages[0]).toMatch(/^inputSchema is larger than 32768 bytes serialized/);
    expect(errors[3].messages[0]).toMatch(/^inputSchema is not a valid JSON Schema: /);
  });

  it('bounds what the schemas of one registration compile together', () => {
    const wide = (n: number) => ({ anyOf: Array.from({ length: 120 }, (_, i) => ({ const: n * 1000 + i })) });
    const capabilities = Array.from({ length: 6 }, (_, i) => cap(`c${i}`, { inputSchema: wide(i) }));
    const errors = errorsOf(() => assertCapabilityRules(capabilities));
    expect(errors.map((e) => e.field)).toEqual(['capabilities.4.inputSchema', 'capabilities.5.inputSchema']);
    expect(errors[0].messages[0]).toMatch(/^inputSchema brings the subschemas of this agent's schemas over 512 /);
  });
});
