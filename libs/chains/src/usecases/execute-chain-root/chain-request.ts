import { Usdc, ValidationException } from '@app/common';

/** A chain root's parameters as a client asks for them: the budget in USDC (a string), the depth. */
export interface ChainRequest {
  budget?: string;
  maxDepth?: number;
}

const [MIN_BUDGET, MAX_BUDGET, DEFAULT_BUDGET] = [10_000n, 1_000_000_000n, 10_000_000n];

/** A chain root's parameters (resolutions §5): the budget within 0.01-1000.00 (default 10.00), in micro-USDC. */
export function chainParams(req: ChainRequest): { budget: bigint; maxDepth: number | null } {
  const budget = req.budget === undefined ? DEFAULT_BUDGET : Usdc.parse(req.budget, 'chain.budget').micros;
  if (budget < MIN_BUDGET || budget > MAX_BUDGET)
    throw new ValidationException([
      { field: 'chain.budget', messages: ['chain.budget must be between 0.01 and 1000.00'] },
    ]);
  return { budget, maxDepth: req.maxDepth ?? null };
}
