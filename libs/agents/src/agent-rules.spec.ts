import { ValidationException } from '@app/common';
import { assertCapabilityRules } from './agent-rules';
import { CapabilityInput } from './agent.types';

const cap = (o: Partial<CapabilityInput> = {}, pricing: Partial<CapabilityInput['pricing']> = {}): CapabilityInput => ({
  id: 'c1',
  name: 'Cap',
  description: 'Does things',
  ...o,
  pricing: { model: 'per-request', basePrice: 10_000n, currency: 'USDC', ...pricing },
});

function fieldsOf(fn: () => void): string[] {
  try {
    fn();
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationException);
    return ((err as ValidationException).details!.errors as { field: string }[]).map((e) => e.field);
  }
}

describe('assertCapabilityRules', () => {
  it('accepts valid capabilities', () => {
    expect(
      fieldsOf(() => assertCapabilityRules([cap(), cap({ id: 'c2' }, { model: 'per-minute', maxPrice: 50_000n })])),
    ).toEqual([]);
  });

  it('lists every broken rule with its path', () => {
    expect(
      fieldsOf(() =>
        assertCapabilityRules([
          cap(),
          cap({ inputSchema: { type: 'bogus' } }),
          cap({ id: 'c3' }, { model: 'dynamic' }),
          cap({ id: 'c4' }, { maxPrice: 1n }),
          cap({ id: 'c5' }, { model: 'per-token', basePrice: 10n, maxPrice: 0n }),
          cap({ id: 'c6' }, { model: 'per-minute', basePrice: 60_000n, maxPrice: 10_000n }),
        ]),
      ),
    ).toEqual([
      'capabilities.1.id',
      'capabilities.1.inputSchema',
      'capabilities.2.pricing.maxPrice',
      'capabilities.3.pricing.maxPrice',
      'capabilities.4.pricing.maxPrice',
    ]);
  });
});
