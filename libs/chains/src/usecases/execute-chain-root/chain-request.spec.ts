import { ValidationException } from '@app/common';
import { chainParams } from './chain-request';

describe('chainParams (a chain root budget bounds)', () => {
  it('defaults to 10.00 USDC and the agent depth', () => {
    expect(chainParams({})).toEqual({ budget: 10_000_000n, maxDepth: null });
  });

  it('takes 0.01 and 1000.00, and a depth', () => {
    expect(chainParams({ budget: '0.01', maxDepth: 2 })).toEqual({ budget: 10_000n, maxDepth: 2 });
    expect(chainParams({ budget: '1000.00' }).budget).toBe(1_000_000_000n);
  });

  it('refuses a budget outside 0.01-1000.00 as chain.budget', () => {
    for (const budget of ['0.009', '1000.01']) {
      const err = (() => {
        try {
          return chainParams({ budget });
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ValidationException);
      expect(JSON.stringify((err as ValidationException).details)).toContain('chain.budget');
    }
  });
});
