import fc from 'fast-check';
import { meterAgentFee, PricedRun } from './pricing';

const perToken: PricedRun = { pricingModel: 'per-token', unitPrice: 2_000n, authorizedAgentFee: 500_000n }; // 0.002 / 1k tokens, cap 0.50
const perMinute: PricedRun = { pricingModel: 'per-minute', unitPrice: 60_000n, authorizedAgentFee: 300_000n }; // 0.06 / min, cap 0.30
const dynamic: PricedRun = { pricingModel: 'dynamic', unitPrice: 10_000n, authorizedAgentFee: 250_000n };

describe('meterAgentFee', () => {
  it('per-request charges basePrice whatever the usage', () => {
    expect(
      meterAgentFee(
        { pricingModel: 'per-request', unitPrice: 50_000n, authorizedAgentFee: 50_000n },
        { tokens: 99_999, timeMs: 90_000 },
      ),
    ).toEqual({
      ok: true,
      agentFee: 50_000n,
      tokens: 99_999,
    });
  });

  it('per-token charges basePrice per 1,000 tokens, half-up, capped', () => {
    expect(meterAgentFee(perToken, { tokens: 1_500, timeMs: 5 })).toEqual({
      ok: true,
      agentFee: 3_000n,
      tokens: 1_500,
    });
    expect(meterAgentFee(perToken, { tokens: 1, timeMs: 5 })).toEqual({ ok: true, agentFee: 2n, tokens: 1 });
    const cheap: PricedRun = { pricingModel: 'per-token', unitPrice: 3n, authorizedAgentFee: 100n };
    expect(meterAgentFee(cheap, { tokens: 500, timeMs: 5 })).toMatchObject({ agentFee: 2n }); // 1.5 micro -> 2
    expect(meterAgentFee(cheap, { tokens: 499, timeMs: 5 })).toMatchObject({ agentFee: 1n }); // 1.497 -> 1
    expect(meterAgentFee(cheap, { tokens: 166, timeMs: 5 })).toMatchObject({ agentFee: 0n }); // 0.498 -> 0
    expect(meterAgentFee(perToken, { tokens: 10_000_000, timeMs: 5 })).toEqual({
      ok: true,
      agentFee: 500_000n,
      tokens: 10_000_000,
    });
  });

  it('per-token without usage.tokens is a failed run', () => {
    for (const tokens of [undefined, -1, 1.5, '100', null])
      expect(meterAgentFee(perToken, { tokens, timeMs: 5 }).ok).toBe(false);
  });

  it('per-minute bills every started second', () => {
    expect(meterAgentFee(perMinute, { timeMs: 15 })).toMatchObject({ agentFee: 1_000n }); // 1 s
    expect(meterAgentFee(perMinute, { timeMs: 1_001 })).toMatchObject({ agentFee: 2_000n }); // 2 s
    expect(meterAgentFee(perMinute, { timeMs: 60_000 })).toMatchObject({ agentFee: 60_000n });
    expect(meterAgentFee(perMinute, { timeMs: 3_600_000 })).toMatchObject({ agentFee: 300_000n }); // capped
  });

  it('dynamic charges the cost the agent returns, capped; anything but a decimal string fails', () => {
    expect(meterAgentFee(dynamic, { cost: '0.1234', timeMs: 1 })).toMatchObject({ agentFee: 123_400n });
    expect(meterAgentFee(dynamic, { cost: '0', timeMs: 1 })).toMatchObject({ agentFee: 0n });
    expect(meterAgentFee(dynamic, { cost: '7.5', timeMs: 1 })).toMatchObject({ agentFee: 250_000n });
    for (const cost of [undefined, 0.1, '-1', '1e-3', '0.1234567'])
      expect(meterAgentFee(dynamic, { cost, timeMs: 1 }).ok).toBe(false);
  });

  it('never charges more than the cap nor less than zero (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('per-token' as const, 'per-minute' as const, 'dynamic' as const),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.nat(),
        fc.nat({ max: 3_600_000 }),
        fc.bigInt({ min: 0n, max: 10n ** 13n }),
        (model, unitPrice, extra, tokens, timeMs, cost) => {
          const run: PricedRun = { pricingModel: model, unitPrice, authorizedAgentFee: unitPrice + extra };
          const micros = cost.toString().padStart(7, '0');
          const r = meterAgentFee(run, { tokens, timeMs, cost: `${micros.slice(0, -6)}.${micros.slice(-6)}` });
          return r.ok && r.agentFee >= 0n && r.agentFee <= run.authorizedAgentFee;
        },
      ),
      propertyParams(2_000),
    );
  });
});
